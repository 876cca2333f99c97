package prapti

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
)

var rolePattern = regexp.MustCompile(`^[\p{L}\p{N}_]+$`)

// Write writes doc in the canonical layout, the one upstream uses when it
// appends a reply: the _head message's text first, without a heading; then
// for each message a blank line, the heading "### @role:" or
// "### @role/name:" ("### //@role:" when disabled), a blank line, the text
// with its configuration lines where they stood, and a line feed.
//
// Text lines that would read as a heading or a configuration line (outside
// code and HTML blocks) get a backslash after their indentation, which
// Parse removes. A document Prapti cannot express is an error naming each
// thing, and nothing is written: document metadata, parts other than text,
// message metadata other than configuration lines, a role that is not
// lower case letters, digits and _, text that starts or ends with white
// space (Prapti trims it), or a message that does not read back the same
// (such as text leaving a code fence open, which would swallow the
// messages after it).
func Write(w io.Writer, doc *promptfmt.Document) error {
	out, err := write(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

func write(doc *promptfmt.Document) ([]byte, error) {
	var errs []error
	fail := func(i int, m *promptfmt.Message, msg string, args ...any) {
		line := 0
		if m != nil {
			line = m.Line
		}
		errs = append(errs, &promptfmt.UnsupportedError{Format: format, Message: i, Line: line, What: fmt.Sprintf(msg, args...)})
	}
	if len(doc.Meta) > 0 {
		fail(-1, nil, "document metadata (Prapti has none; configuration lines belong to messages)")
	}
	var b bytes.Buffer
	for i := range doc.Messages {
		m := &doc.Messages[i]
		configs, ok := check(i, m, fail)
		if !ok {
			continue
		}
		body := messageBody(m.Text(), configs)
		if i == 0 && isHead(m) {
			if body != "" {
				b.WriteString(body)
				b.WriteByte('\n')
			}
			continue
		}
		blankLine(&b)
		b.WriteString("### ")
		if m.Disabled {
			b.WriteString("//")
		}
		b.WriteString("@" + m.Role)
		if m.Name != "" {
			b.WriteString("/" + m.Name)
		}
		b.WriteString(":\n\n")
		if body != "" {
			b.WriteString(body)
			b.WriteByte('\n')
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := readsBack(doc, b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func isHead(m *promptfmt.Message) bool {
	return m.Role == HeadRole && m.Name == "" && !m.Disabled
}

// blankLine ends b with a blank line, unless b is empty.
func blankLine(b *bytes.Buffer) {
	if b.Len() == 0 {
		return
	}
	for !bytes.HasSuffix(b.Bytes(), []byte("\n\n")) {
		b.WriteByte('\n')
	}
}

// check reports whether message i can be written, and its configuration
// lines.
func check(i int, m *promptfmt.Message, fail func(int, *promptfmt.Message, string, ...any)) ([]ConfigLine, bool) {
	ok := true
	bad := func(msg string, args ...any) {
		fail(i, m, msg, args...)
		ok = false
	}
	if !rolePattern.MatchString(m.Role) || strings.ToLower(m.Role) != m.Role {
		bad("role %q (Prapti roles are letters, digits and _, read back in lower case)", m.Role)
	}
	if m.Name != "" && !rolePattern.MatchString(m.Name) {
		bad("name %q (Prapti names are letters, digits and _)", m.Name)
	}
	for _, p := range m.Content {
		if p.Kind != promptfmt.KindText || p.StrayField() != "" {
			bad("a part of kind %s (Prapti messages are markdown text)", p.Kind)
		}
	}
	for k := range m.Metadata {
		if k != MetaConfig {
			bad("message metadata %q (only configuration lines, under %q)", k, MetaConfig)
		}
	}
	configs, err := Config(m)
	if err != nil {
		bad("%v", err)
	}
	t := m.Text()
	if strings.TrimSpace(t) != t {
		bad("text that starts or ends with white space (Prapti trims it)")
	}
	for _, c := range configs {
		if c.Offset < 0 || c.Offset > len(t) || c.Offset > 0 && c.Offset < len(t) && t[c.Offset-1] != '\n' {
			bad("configuration line %q at offset %d, which is not the start of a line of the text", c.Source, c.Offset)
		}
		if _, _, _, isConfig := matchConfig(c.Source); strings.ContainsAny(c.Source, "\r\n") || !isConfig {
			bad("configuration line %q does not read as one", c.Source)
		}
	}
	return configs, ok
}

// messageBody is the text with escapes where needed and the configuration
// lines put back at their offsets.
func messageBody(t string, configs []ConfigLine) string {
	configs = slices.Clone(configs)
	slices.SortStableFunc(configs, func(a, b ConfigLine) int { return a.Offset - b.Offset })
	p := &parse{src: []byte(t)}
	if t != "" {
		p.structure()
	}
	var b strings.Builder
	emit := func(off int) {
		for len(configs) > 0 && configs[0].Offset <= off {
			b.WriteString(configs[0].Source)
			b.WriteByte('\n')
			configs = configs[1:]
		}
	}
	lit := 0
	for off := 0; off < len(t); {
		emit(off)
		end := strings.IndexByte(t[off:], '\n')
		if end < 0 {
			end = len(t)
		} else {
			end += off
		}
		line := t[off:end]
		for lit < len(p.literal) && p.literal[lit].end <= off {
			lit++
		}
		if !(lit < len(p.literal) && p.literal[lit].start <= off) && needsEscape(line) {
			i := prefixLen(line)
			line = line[:i] + `\` + line[i:]
		}
		b.WriteString(line)
		b.WriteByte('\n')
		off = end + 1
	}
	emit(len(t))
	return strings.TrimSuffix(b.String(), "\n")
}

// needsEscape reports whether a line of text would not read back as text.
func needsEscape(line string) bool {
	if _, _, _, heading := matchHeading([]byte(line)); heading {
		return true
	}
	if !special([]byte(line)) {
		return false
	}
	_, _, _, config := matchConfig(line)
	return config || isEscape(line)
}

// readsBack checks that out parses as doc, so that Write never produces a
// file that means something else.
func readsBack(doc *promptfmt.Document, out []byte) error {
	back, err := Parse(out)
	if err != nil {
		return err
	}
	want := withoutLines(doc.Messages)
	got := withoutLines(back.Messages)
	if promptfmt.EqualMessages(want, got) {
		return nil
	}
	for i := range want {
		if i >= len(got) || !promptfmt.EqualMessages(want[i:i+1], got[i:i+1]) {
			return &promptfmt.UnsupportedError{Format: format, Message: i, Line: doc.Messages[i].Line,
				What: "this message does not read back the same (text that leaves a code fence or HTML block open swallows what follows)"}
		}
	}
	return &promptfmt.UnsupportedError{Format: format, Message: len(want) - 1, What: "the messages do not read back the same"}
}

// withoutLines copies messages with their configuration lines in a
// comparable form: as Config reads them, without source line numbers.
func withoutLines(msgs []promptfmt.Message) []promptfmt.Message {
	out := make([]promptfmt.Message, len(msgs))
	for i, m := range msgs {
		if configs, err := Config(&m); err == nil && configs != nil {
			list := make([]any, len(configs))
			for j := range configs {
				configs[j].Line = 0
				list[j] = configs[j].toMap()
			}
			m.Metadata = map[string]any{MetaConfig: list}
		}
		out[i] = m
	}
	return out
}
