package promptfile

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
	"go.yaml.in/yaml/v3"
)

// Write writes doc as a canonical prompt file: "---", the front matter
// (mandatory keys first, in the order prompt-id, created-at, sha1-hash,
// their values double-quoted; then the other keys in the author's order,
// with the author's comments, or sorted when Meta no longer matches what
// was read), "---", a blank line, then the body, with no BOM. The body's
// bytes are never changed, so its hash stays valid. A document the format
// cannot express (not exactly one message, a role other than user, a name,
// metadata, non-text parts, settings (doc.Request: a prompt file records
// provenance, not a request), a body starting with a blank line, which
// reading skips, a body not in canonical form: LF line endings and a final
// LF) is an error naming each thing, and nothing is written. For a body
// not in canonical form the error's Nearest holds that form, which Adapt
// uses. Write has no option of its own.
func Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if _, err := options("promptfile.Write", false, opts); err != nil {
		return err
	}
	errs := promptfmt.CommentErrors(doc, format)
	// The front matter records where a prompt came from (its model
	// included), not a request: no setting has a home here.
	errs = append(errs, homes.Homeless(format, &doc.Request, nil)...)
	fail := func(i, line int, t promptfmt.Thing, msg string, args ...any) *promptfmt.UnsupportedError {
		e := &promptfmt.UnsupportedError{Format: format, Index: i, Line: line, What: fmt.Sprintf(msg, args...), Thing: t}
		errs = append(errs, e)
		return e
	}
	if len(doc.Messages) != 1 {
		fail(-1, 0, promptfmt.ThingMessages, "%d messages (a prompt file holds exactly one, its body)", len(doc.Messages))
	}
	var body string
	for i, m := range doc.Messages {
		if m.Role != "user" {
			fail(i, m.Line, promptfmt.ThingRole, "role %q (a prompt file's body is a user message)", m.Role)
		}
		if m.Name != "" {
			fail(i, m.Line, promptfmt.ThingName, "a message name")
		}
		if len(m.Metadata) > 0 {
			fail(i, m.Line, promptfmt.ThingMetadata, "message metadata (put it in the front matter)")
		}
		if m.Disabled {
			fail(i, m.Line, promptfmt.ThingDisabled, "a disabled message")
		}
		for j, p := range m.Content {
			if p.Kind != promptfmt.KindText || p.StrayField() != "" {
				fail(i, m.Line, promptfmt.ThingPart, "part %d: a part of kind %s (the body is text)", j+1, p.Kind).Part = j
			}
		}
		text := m.Text()
		body = Canonical(text)
		texts := 0
		for _, p := range m.Content {
			if p.Kind == promptfmt.KindText {
				texts++
			}
		}
		blank := body != "" && strings.TrimLeft(body, " \t\r\n\f\v") == ""
		if body != text || texts > 1 || blank {
			// The body is stored as it is hashed, one text; changing it is
			// a change the caller must see (Adapt makes it, and says so).
			var what []string
			if texts > 1 {
				what = append(what, fmt.Sprintf("%d text parts", texts))
			}
			if lines.ToLF(text) != text {
				what = append(what, "CR line breaks")
			}
			if !strings.HasSuffix(lines.ToLF(text), "\n") && !blank {
				what = append(what, "no line break at its end")
			}
			nearest := body
			if blank {
				// Reading skips blank lines before the body: it reads empty.
				what, nearest = append(what, "only white space"), ""
			}
			fail(i, m.Line, promptfmt.ThingText, "text with %s (a prompt file's body is one text with LF line breaks, ending with one, not blank)", strings.Join(what, " and ")).Nearest = &nearest
		}
		if strings.TrimLeft(body, " \t\r\n\f\v") != "" && strings.TrimSpace(lines.First(body)) == "" {
			fail(i, m.Line, promptfmt.ThingText, "a body that starts with a blank line (reading skips blank lines before the body)")
		}
	}
	front, err := frontMatter(doc)
	if err != nil {
		fail(-1, 0, promptfmt.ThingMeta, "front matter: %v", err)
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString(front)
	b.WriteString("---\n\n")
	b.WriteString(body)
	_, err = io.WriteString(w, b.String())
	return err
}

// frontMatter returns the YAML between the delimiters.
func frontMatter(doc *promptfmt.Document) (string, error) {
	if len(doc.Meta) == 0 {
		return "", nil
	}
	for _, k := range []string{KeyID, KeyCreated, KeyHash} {
		switch doc.Meta[k].(type) {
		case bool, int, int64, float64:
			return "", fmt.Errorf("%s is not a string (reading makes it one)", k)
		}
	}
	// The author's YAML, rearranged, unless yaml.v3 would not write that
	// back stably (comments around moved keys can drift); then a fresh one.
	if node, _ := doc.MetaNode.(*yaml.Node); node != nil {
		if out, err := arrange(doc.Meta, node); err == nil {
			var again yaml.Node
			if yaml.Unmarshal([]byte(out), &again) == nil {
				if out2, err := arrange(doc.Meta, &again); err == nil && out2 == out {
					return out, nil
				}
			}
		}
	}
	return arrange(doc.Meta, nil)
}

// arrange encodes meta (from node when that still holds it) with the
// mandatory keys first and their string values double-quoted.
func arrange(meta map[string]any, node *yaml.Node) (string, error) {
	out, err := yamlmeta.Encode(meta, node)
	if err != nil {
		return "", err
	}
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(out), &root); err != nil {
		return "", err
	}
	top := root.Content[0]
	// Mandatory keys first, the others in their order; string values of
	// mandatory keys double-quoted, so they read back as strings.
	rank := func(k string) int {
		if i := slices.Index([]string{KeyID, KeyCreated, KeyHash}, k); i >= 0 {
			return i
		}
		return 3
	}
	type pair struct{ k, v *yaml.Node }
	var pairs []pair
	for i := 0; i+1 < len(top.Content); i += 2 {
		p := pair{top.Content[i], top.Content[i+1]}
		if rank(p.k.Value) < 3 && p.v.Kind == yaml.ScalarNode && p.v.Tag == "!!str" {
			p.v.Style = yaml.DoubleQuotedStyle
		}
		pairs = append(pairs, p)
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return rank(a.k.Value) - rank(b.k.Value) })
	top.Content = top.Content[:0]
	for _, p := range pairs {
		top.Content = append(top.Content, p.k, p.v)
	}
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(&root); err != nil {
		return "", err
	}
	return b.String(), nil
}
