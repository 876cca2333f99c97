package prompty

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/slab"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// Write writes doc in canonical Prompty form: front matter when doc.Meta or
// doc.Request is not empty (the settings put back where Settings in the
// package documentation says; doc.MetaNode when it still holds the same
// values, so the author's key order and comments stay; else keys sorted), then each
// message as its boundary line (`role:`, or `role[name="…", k=v]:` with the
// name first and the other metadata keys sorted), its text, and a line
// break, with a blank line between messages.
//
// What Prompty cannot express is an error naming each thing, and nothing is
// written: roles other than system, user, assistant, developer and tool;
// disabled messages; media and tool parts; more than one text part; text with
// a carriage return, with a leading or trailing empty line (Prompty trims
// those) or with a line that would read as a boundary; metadata that is not a
// string, bool or number, whose key is not a word, or whose string holds a
// line break; a "name" metadata key (the name attribute is Message.Name);
// and settings the front matter cannot hold (see Settings).
// Write takes none of this package's options.
func Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if _, err := newConfig(opts, "Write"); err != nil {
		return err
	}
	var b strings.Builder
	errs := promptfmt.CommentErrors(doc, format)
	meta, rerrs := putRequest(doc)
	errs = append(errs, rerrs...)
	if len(meta) > 0 {
		if err := writeFrontMatter(&b, meta, doc.MetaNode); err != nil {
			errs = append(errs, err)
		}
		checkMeta(meta, func(key, what string) {
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, Key: key,
				What: what + " (Load and Prepare would refuse the file)"})
		})
	}
	body := b.Len()
	eng, _ := engine(meta)
	lay, _ := doc.Layout.(*layout)
	// A string read from a .prompty file is template source and is
	// written as it is; any other is what the model is to receive, and is
	// escaped for the file's engine.
	var escaped, source bool
	tmplString := func(s string) string {
		switch {
		case !hasSyntax(eng, s):
			return s
		case lay.isSource(s):
			source = true
			return s
		}
		escaped = true
		return escape(eng, s)
	}
	// written is what Parse is to read; want, what the model is to
	// receive, is the same until a string is escaped: it is made then.
	written := make([]promptfmt.Message, 0, len(doc.Messages))
	var want []promptfmt.Message
	parts := slab.New(len(doc.Messages)) // both lists' one-part contents
	b.Grow(slab.Size(doc.Messages, 16))  // "assistant:" and its line breaks
	for i := range doc.Messages {
		m := &doc.Messages[i]
		fail := func(t promptfmt.Thing, what string, args ...any) *promptfmt.UnsupportedError {
			e := &promptfmt.UnsupportedError{Format: format, Index: i, Line: m.Line, What: fmt.Sprintf(what, args...), Thing: t}
			errs = append(errs, e)
			return e
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		text := checkMessage(m, fail)
		attrs := messageAttrs(m, fail)
		written = written[:len(written)+1]
		pm := &written[len(written)-1] // written in place (internal/slab)
		pm.Role, pm.Content = m.Role, parts.Text(tmplString(text))
		var meta map[string]any // the metadata as the model receives it
		for j, a := range attrs {
			if a.key == "name" {
				pm.Name = tmplString(m.Name)
				attrs[j].value = pm.Name
				continue
			}
			if pm.Metadata == nil {
				meta, pm.Metadata = map[string]any{}, map[string]any{}
			}
			meta[a.key], pm.Metadata[a.key] = a.value, a.value
			if s, ok := a.value.(string); ok {
				attrs[j].value = tmplString(s)
				pm.Metadata[a.key] = attrs[j].value
			}
		}
		if escaped && want == nil {
			want = append(make([]promptfmt.Message, 0, len(doc.Messages)), written[:i]...)
		}
		if want != nil {
			want = append(want, promptfmt.Message{Role: m.Role, Name: m.Name, Content: parts.Text(text), Metadata: meta})
		}
		b.WriteString(m.Role)
		writeAttrs(&b, attrs)
		b.WriteString(":\n")
		if v := pm.Content[0].Value; v != "" {
			b.WriteString(v)
			b.WriteByte('\n')
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	out := b.String()
	if err := readsBack(doc, out, written); err != nil {
		return err
	}
	if escaped && !source {
		if err := rendersBack(doc, meta, out, body, want); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, out)
	return err
}

// readsBack checks that Parse reads out as the messages written: a last
// guard that no rule above missed a case.
func readsBack(doc *promptfmt.Document, out string, written []promptfmt.Message) error {
	got, err := Parse([]byte(out))
	if err != nil {
		return &promptfmt.UnsupportedError{Format: format, Index: -1, What: "the written file does not read back: " + err.Error()}
	}
	return sameMessages(doc, got.Messages, written, "read back")
}

// rendersBack checks that the file out, loaded and prepared without
// inputs (a required input given a value, which no escaped text uses),
// gives the messages the document holds.
func rendersBack(doc *promptfmt.Document, meta map[string]any, out string, body int, want []promptfmt.Message) error {
	d := &decoder{}
	a := &Agent{Instructions: strings.TrimRight(out[body:], "\r\n")}
	if err := d.agent(a, meta); err != nil {
		return &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, What: err.Error()}
	}
	inputs := map[string]any{}
	for _, p := range a.Inputs {
		if p.Required && !p.HasDefault && !isRich(p.Kind) {
			inputs[p.Name] = ""
		}
	}
	got, err := prepare(a, inputs, &config{Settings: promptfmt.Settings{Limits: promptfmt.TemplateLimits{MaxSteps: -1, MaxBytes: -1}}})
	if err != nil {
		return &promptfmt.UnsupportedError{Format: format, Index: -1, What: "the written file does not render: " + err.Error()}
	}
	return sameMessages(doc, got, want, "render")
}

// sameMessages names the first message of want that got does not hold
// the same, and its line.
func sameMessages(doc *promptfmt.Document, got, want []promptfmt.Message, how string) error {
	if promptfmt.EqualMessages(got, want) {
		return nil
	}
	for i := range want {
		if i >= len(got) || !promptfmt.EqualMessages(got[i:i+1], want[i:i+1]) {
			e := &promptfmt.UnsupportedError{Format: format, Index: i, Line: doc.Messages[i].Line, Thing: promptfmt.ThingText,
				What: fmt.Sprintf("the message does not %s the same", how)}
			if i < len(got) {
				e.What += fmt.Sprintf(": %q comes back as %q", want[i].Text(), got[i].Text())
				switch {
				case got[i].Name != want[i].Name:
					e.Thing = promptfmt.ThingName
				case got[i].Text() == want[i].Text():
					e.Thing = promptfmt.ThingMetadata
				}
			}
			return e
		}
	}
	return &promptfmt.UnsupportedError{Format: format, Index: -1, What: fmt.Sprintf("the messages do not %s the same (%d, not %d)", how, len(got), len(want))}
}

// checkMessage reports through fail what of m Prompty cannot express, and
// returns its text.
func checkMessage(m *promptfmt.Message, fail func(promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) string {
	if m.Role == "" || roleOf(m.Role) != m.Role {
		fail(promptfmt.ThingRole, "role %q cannot be expressed (Prompty has system, user, assistant, developer and tool)", m.Role)
	}
	if m.Disabled {
		fail(promptfmt.ThingDisabled, "a disabled message cannot be expressed")
	}
	var text string
	texts := 0
	for j, p := range m.Content {
		if p.Kind != promptfmt.KindText {
			fail(promptfmt.ThingPart, "a part of kind %s cannot be expressed (Prompty text holds only text)", p.Kind).Part = j
			continue
		}
		if f := p.StrayField(); f != "" {
			fail(promptfmt.ThingPart, "a text part with a %s cannot be expressed", f).Part = j
		}
		texts++
		text = p.Value
	}
	if texts > 1 {
		fail(promptfmt.ThingText, "%d text parts cannot be expressed (a Prompty message holds one text)", texts)
	}
	switch {
	case strings.Contains(text, "\r"):
		fail(promptfmt.ThingText, "text with a carriage return cannot be expressed (Prompty reads it as a line break)")
	case strings.HasPrefix(text, "\n") || strings.HasSuffix(text, "\n"):
		fail(promptfmt.ThingText, "text that starts or ends with an empty line cannot be expressed (Prompty trims those)")
	}
	n := 0
	for line := range strings.SplitSeq(text, "\n") {
		n++
		if _, ok, _ := parseMarker(line); ok {
			fail(promptfmt.ThingText, "line %d of its text, %q, would be read as a role boundary", n, line).TextLine = n
		}
	}
	return text
}

// messageAttrs returns the boundary attributes of m: name, then the
// metadata in key order.
func messageAttrs(m *promptfmt.Message, fail func(promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) []attr {
	var attrs []attr
	if m.Name != "" {
		if strings.ContainsAny(m.Name, "\r\n") {
			fail(promptfmt.ThingName, "a name with a line break cannot be expressed")
		}
		attrs = append(attrs, attr{key: "name", value: m.Name})
	}
	keys := make([]string, 0, len(m.Metadata))
	for k := range m.Metadata {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		v, err := canonicalValue(k, m.Metadata[k])
		if err != "" {
			fail(promptfmt.ThingMetadata, "metadata %q: %s", k, err).Key = k
			continue
		}
		attrs = append(attrs, attr{key: k, value: v})
	}
	return attrs
}

// canonicalValue checks that an attribute can hold v and returns it as the
// type Parse gives back: string, bool, int64 or float64.
func canonicalValue(key string, v any) (any, string) {
	if key == "name" {
		return nil, "a name key cannot be expressed (the name attribute is the message's Name)"
	}
	if key == "" || strings.IndexFunc(key, func(r rune) bool { return r > 0x7f || !isWord(byte(r)) }) >= 0 {
		return nil, "the key is not an attribute name (letters, digits, _)"
	}
	switch v := v.(type) {
	case string:
		if strings.ContainsAny(v, "\r\n") {
			return nil, "a value with a line break cannot be expressed"
		}
		return v, ""
	case bool, int64:
		return v, ""
	case int:
		return int64(v), ""
	case int32:
		return int64(v), ""
	case float32:
		return canonicalValue(key, float64(v))
	case float64:
		if math.IsInf(v, 0) || math.IsNaN(v) {
			return nil, "an infinite or NaN number cannot be expressed"
		}
		return v, ""
	}
	return nil, fmt.Sprintf("%s cannot be expressed (attributes hold strings, numbers and booleans)", jsonvalue.Describe(v))
}

// writeAttrs writes `[k=v, k2="v 2"]`, or nothing when there are none.
// The values have the types canonicalValue returns.
func writeAttrs(b *strings.Builder, attrs []attr) {
	if len(attrs) == 0 {
		return
	}
	b.WriteByte('[')
	for i, a := range attrs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(a.key)
		b.WriteByte('=')
		switch v := a.value.(type) {
		case string:
			writeString(b, a.key, v)
		case bool:
			b.WriteString(strconv.FormatBool(v))
		case int64:
			b.WriteString(strconv.FormatInt(v, 10))
		case float64:
			b.WriteString(yamlmeta.FloatText(v))
		}
	}
	b.WriteByte(']')
}

// writeString writes v bare when it reads back as the same string, else
// quoted with \" and \\ escaped. A value with a brace is quoted too: in a
// template it may be an expression ({{ customer }}), and bare it would
// render to text read up to the first comma, or coerced to a number.
func writeString(b *strings.Builder, key, v string) {
	bare := v != "" && !isBlank(v[0]) && !isBlank(v[len(v)-1]) && !strings.ContainsAny(v, `,]"{}`)
	if bare && key != "name" && key != "nonce" {
		_, bare = coerce(v).(string)
	}
	if bare {
		b.WriteString(v)
		return
	}
	b.WriteByte('"')
	for i := 0; i < len(v); i++ {
		if v[i] == '"' || v[i] == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(v[i])
	}
	b.WriteByte('"')
}

// writeFrontMatter writes meta, doc.Meta with the Request put back, as
// YAML. It writes the node Meta was
// read from when that still holds the same values, keeping the author's
// order and comments. Otherwise it writes a fresh mapping with sorted keys.
func writeFrontMatter(b *strings.Builder, meta map[string]any, node any) error {
	out, err := yamlmeta.Encode(meta, node)
	if err != nil {
		return &promptfmt.UnsupportedError{Format: format, Index: -1, What: "front matter: " + err.Error(), Thing: promptfmt.ThingMeta}
	}
	b.WriteString("---\n")
	b.WriteString(out)
	b.WriteString("---\n")
	return nil
}
