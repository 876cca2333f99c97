package promptfile

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"go.yaml.in/yaml/v3"
)

// Fix returns src with its mandatory metadata made complete, and a warning
// (positioned in src) for each change. Nothing else changes: the body's
// bytes, the other keys, the comments and the line endings stay as they
// were; a repaired key's line is rewritten in place and a missing key is
// added on a line of its own. Only when the YAML is laid out so that a
// line cannot be replaced alone (a flow mapping, a value over several
// lines) is the front matter re-encoded, with its comments.
//
// What is repaired, and how:
//   - prompt-id missing, not P followed by digits, or not a string: a new
//     ID, drawn as IDFrom says. A well-formed id (the seed's spelling) is renamed to
//     prompt-id.
//   - created-at missing or not a string: CreatedAt's time, or the time
//     now. A time with another offset
//     or a space for the T, or a bare date (midnight), is rewritten in UTC;
//     anything else is replaced as a missing one is.
//   - sha1-hash missing or not a string: the body's hash. A hash cut short
//     (a prefix of the body's hash, at least 7 digits, as in the seed's
//     example) is completed. A mismatch, or a malformed hash that is not a
//     prefix, is an error unless the Rehash option is given.
//
// A file that is already complete comes back unchanged, with no warnings.
// Fix takes IDFrom, CreatedAt and Rehash, and promptfmt.File, which names
// the file in the error and the warnings.
func Fix(src []byte, opts ...promptfmt.Option) ([]byte, []promptfmt.Warning, error) {
	c, err := options("promptfile.Fix", true, opts)
	if err != nil {
		return nil, nil, err
	}
	out, changes, err := fix(src, c)
	if c.File != "" {
		doc, _ := c.Finish(&promptfmt.Document{Warnings: changes}, err)
		changes = doc.Warnings
	}
	return out, changes, err
}

func fix(src []byte, opts *config) ([]byte, []promptfmt.Warning, error) {
	f, err := parse(src)
	if err != nil {
		return nil, nil, err
	}
	var values [3]string // the new value of each key to write; "" keeps it
	var notes [3][]promptfmt.Warning
	id, created, hash := &f.checks[0], &f.checks[1], &f.checks[2]
	changed := func(i int, msg string, args ...any) {
		notes[i] = append(notes[i], diag.Warnf(format, src, f.offset(&f.checks[i]), msg, args...))
	}

	// Refusals first: they must not spend an ID.
	if a := &f.alias; a.state == mismatch || a.state == notString {
		return nil, nil, diag.Errorf(format, src, f.offset(a),
			"id %s and prompt-id %s: which ID the prompt holds is for you to decide; remove the key that is wrong", describeValue(a), describeValue(id))
	}
	sum := Hash(f.text)
	switch {
	case hash.state == missing || hash.state == notString:
		values[2] = sum
		changed(2, "%s set to the body's hash %s", describe(hash), sum)
	case hash.state == malformed && len(hash.text) >= 7 && strings.HasPrefix(sum, strings.ToLower(hash.text)):
		values[2] = sum
		changed(2, "sha1-hash %s, cut short, completed as %s", hash.text, sum)
	case hash.state == malformed || hash.state == mismatch:
		if !opts.rehash {
			return nil, nil, diag.Errorf(format, src, f.offset(hash),
				"sha1-hash %s does not match the body, which hashes to %s: the body was edited or corrupted (if the edit was meant, rehash: promptfmt promptfile fix -rehash)", hash.text, sum)
		}
		values[2] = sum
		changed(2, "sha1-hash %s replaced by the body's hash %s (rehash)", hash.text, sum)
	}

	switch {
	case id.state == fine && id.name == aliasID:
		values[0] = id.text
		changed(0, "id renamed prompt-id")
	case id.state != fine:
		if opts.newID == nil {
			return nil, nil, fmt.Errorf("promptfile: Fix needs the option promptfile.IDFrom to give %s an ID", describe(id))
		}
		if values[0], err = opts.newID(); err != nil {
			return nil, nil, err
		}
		changed(0, "%s set to %s", describe(id), values[0])
	}

	if created.state != fine {
		if t, ok := readTime(created); ok {
			values[1] = t
			changed(1, "created-at %q rewritten in UTC as %s", created.text, t)
		} else {
			now := opts.now
			if now.IsZero() {
				now = time.Now()
			}
			values[1] = Timestamp(now)
			changed(1, "%s set to %s (now)", describe(created), values[1])
		}
	}

	changes := slices.Concat(notes[:]...) // in key order
	if len(changes) == 0 {
		return src, nil, nil
	}
	out, ok := f.editLines(values)
	if !ok {
		if out, err = f.reencode(values); err != nil {
			return nil, nil, err
		}
	}
	return out, changes, nil
}

// describe names a key that is being set: "missing prompt-id", or the key
// and its old value.
func describe(c *check) string {
	switch c.state {
	case missing: // never the alias: it is only read when present
		return "missing " + c.name
	case notString:
		return c.name + " (not a string)"
	}
	return fmt.Sprintf("%s %q", c.name, c.text)
}

// describeValue is a key's value for a message: quoted, or "(not a
// string)".
func describeValue(c *check) string {
	if c.state == notString {
		return "(not a string)"
	}
	return strconv.Quote(c.text)
}

// timeLayouts are the spellings of a time that Fix rewrites in UTC rather
// than replacing. Each names its offset, except the bare date.
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02 15:04:05.999999999Z07:00", "2006-01-02 15:04:05.999999999 Z07:00", "2006-01-02"}

func readTime(c *check) (string, bool) {
	if c.state != malformed {
		return "", false
	}
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, strings.TrimSpace(c.text)); err == nil {
			return t.UTC().Format(time.RFC3339Nano), true
		}
	}
	return "", false
}

// keyNames are the names Fix writes, in Write's order.
var keyNames = [3]string{KeyID, KeyCreated, KeyHash}

// editLines makes the changes by rewriting the line of each repaired key
// and adding a line for each missing one. It reports false when a key's
// line holds more than that key, or the result does not read back as
// intended; Fix then re-encodes instead.
func (f *file) editLines(values [3]string) ([]byte, bool) {
	eol := lineEnding(f.src[f.start:])
	type edit struct {
		from, to int
		text     string
	}
	var edits []edit
	insertAt := -1 // where a missing key goes: after the previous key's line
	if f.yamlStart >= 0 {
		insertAt = f.yamlStart
	}
	for i, c := range f.checks {
		line := ""
		if values[i] != "" {
			line = keyNames[i] + `: "` + values[i] + `"`
		}
		if c.key == nil {
			if line == "" {
				continue
			}
			if insertAt < 0 { // no front matter: open one, closed below
				if len(edits) == 0 {
					edits = append(edits, edit{f.start, f.start, "---" + eol})
				}
				edits = append(edits, edit{f.start, f.start, line + eol})
				continue
			}
			edits = append(edits, edit{insertAt, insertAt, line + eol})
			continue
		}
		from, to, next, ok := f.ownLine(&c)
		if !ok {
			return nil, false
		}
		if line != "" {
			if c.value.LineComment != "" {
				line += " " + c.value.LineComment
			}
			edits = append(edits, edit{from, to, line})
		}
		insertAt = next
	}
	if insertAt < 0 {
		edits = append(edits, edit{f.start, f.start, "---" + eol + eol})
	}
	// Several edits at the same place stay in key order.
	slices.SortStableFunc(edits, func(a, b edit) int { return a.from - b.from })
	var out bytes.Buffer
	out.Grow(len(f.src) + 128)
	last := 0
	for _, e := range edits {
		out.Write(f.src[last:e.from])
		out.WriteString(e.text)
		last = e.to
	}
	out.Write(f.src[last:])
	return out.Bytes(), f.fixedAs(out.Bytes(), values)
}

// ownLine finds the line holding key c, and reports whether that line holds
// exactly it: its key, a one-line scalar, and perhaps a comment. from and
// to bound the line's text; next starts the following line.
func (f *file) ownLine(c *check) (from, to, next int, ok bool) {
	if c.value.Kind != yaml.ScalarNode || c.value.Line != c.key.Line || c.key.Column != 1 {
		return 0, 0, 0, false
	}
	from = f.offsetOf(c.key)
	sc := lines.NewScanner(f.src[from:f.yamlEnd])
	_, e, n, found := sc.Next()
	if !found {
		return 0, 0, 0, false
	}
	to, next = from+e, from+n
	var alone map[string]any
	if yaml.Unmarshal(f.src[from:to], &alone) != nil || len(alone) != 1 {
		return 0, 0, 0, false
	}
	var node yaml.Node
	if yaml.Unmarshal(f.src[from:to], &node) != nil || node.Content[0].Content[1].Value != c.value.Value {
		return 0, 0, 0, false
	}
	return from, to, next, true
}

func (f *file) offsetOf(n *yaml.Node) int {
	return f.offset(&check{value: n})
}

// lineEnding returns the first line break in src, or LF.
func lineEnding(src []byte) string {
	if i := bytes.IndexAny(src, "\r\n"); i >= 0 {
		if src[i] == '\n' {
			return "\n"
		}
		if i+1 < len(src) && src[i+1] == '\n' {
			return "\r\n"
		}
		return "\r"
	}
	return "\n"
}

// fixedAs reports whether out reads as f with the new values: every
// mandatory key well formed, the same body, and the other keys as they
// were.
func (f *file) fixedAs(out []byte, values [3]string) bool {
	g, err := parse(out)
	if err != nil || len(g.failures) > 0 || g.text != f.text || g.checks[0].name != KeyID {
		return false
	}
	want := f.wantMeta(values)
	return promptfmt.Equal(&promptfmt.Document{Meta: want}, &promptfmt.Document{Meta: g.doc.Meta})
}

// wantMeta is the front matter Fix means to produce.
func (f *file) wantMeta(values [3]string) map[string]any {
	want := map[string]any{}
	for k, v := range f.doc.Meta {
		want[k] = v
	}
	if f.checks[0].name == aliasID {
		delete(want, aliasID)
	}
	for i, v := range values {
		if v != "" {
			want[keyNames[i]] = v
		}
	}
	return want
}

// reencode makes the changes in the YAML node and writes the front matter
// again, comments included, between the file's own delimiter lines.
func (f *file) reencode(values [3]string) ([]byte, error) {
	doc := &promptfmt.Document{Meta: f.wantMeta(values), Messages: f.doc.Messages}
	if f.node != nil {
		top := f.node.Content[0]
		var added []*yaml.Node
		for i, c := range f.checks {
			if values[i] == "" {
				continue
			}
			v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: values[i], Style: yaml.DoubleQuotedStyle}
			if c.key == nil {
				added = append(added, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: keyNames[i]}, v)
				continue
			}
			c.key.Value = keyNames[i]
			v.LineComment, v.HeadComment, v.FootComment = c.value.LineComment, c.value.HeadComment, c.value.FootComment
			*c.value = *v
		}
		top.Content = append(added, top.Content...)
		top.Style = 0 // block style, so each key has a line
		doc.MetaNode = f.node
	}
	front, err := frontMatter(doc)
	if err != nil {
		return nil, err
	}
	eol := lineEnding(f.src[f.start:])
	front = strings.ReplaceAll(front, "\n", eol)
	var out bytes.Buffer
	if f.yamlStart < 0 {
		out.Write(f.src[:f.start])
		out.WriteString("---" + eol + front + "---" + eol + eol)
		out.Write(f.src[f.start:])
	} else {
		out.Write(f.src[:f.yamlStart])
		out.WriteString(front)
		out.Write(f.src[f.yamlEnd:])
	}
	if !f.fixedAs(out.Bytes(), values) {
		return nil, fmt.Errorf("promptfile: fixing the front matter would change more than the mandatory keys; fix it by hand")
	}
	return out.Bytes(), nil
}
