package pdl

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/slab"
	"github.com/promptfmt/promptfmt/internal/tmpl"
	"github.com/promptfmt/promptfmt/pdl/schema"
)

// Write emits doc as canonical PDL: the schema turn first (from the
// Request's output, or Meta[SchemaKey]), then one turn per message, each "<|role|>", a blank
// line, the content and a blank line before the next; images as
// <|raw_media(type:base64)|>. Text is escaped so that it reads back as
// itself: "<|" as "&lt;|", an "&" that would read as an entity as "&amp;",
// and text holding template syntax inside {% raw %}. What PDL cannot
// express is an error naming it (an *UnsupportedError for each thing,
// joined): other roles, names, metadata, disabled messages, parts other
// than text and images, whitespace at either end of a message (turns are
// trimmed), an order of turns strict reading refuses, and settings other
// than an output schema a PDL schema says (see Settings). An empty last
// message is followed by an empty <|assistant|> turn, as in ragit's
// prompts, since reading drops an empty last turn. The result is read back before it is
// written, so what Write accepts, Parse returns unchanged. PDL has no
// option for writing; another format's option is an error.
func Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if _, err := newConfig(opts); err != nil {
		return err
	}
	out, err := write(doc)
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

func write(doc *promptfmt.Document) ([]byte, error) {
	errs := promptfmt.CommentErrors(doc, "pdl")
	fail := func(i int, t promptfmt.Thing, msg string, args ...any) *promptfmt.UnsupportedError {
		line := 0
		if i >= 0 {
			line = doc.Messages[i].Line
		}
		e := &promptfmt.UnsupportedError{Format: "pdl", Index: i, Line: line, What: fmt.Sprintf(msg, args...), Thing: t}
		errs = append(errs, e)
		return e
	}
	var b bytes.Buffer
	b.Grow(slab.Size(doc.Messages, 24)) // "<|assistant|>" and its line breaks
	turn := func(role, body string) {   // piece by piece: a concatenation would copy the body once more
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("<|")
		b.WriteString(role)
		b.WriteString("|>\n")
		if body != "" {
			b.WriteByte('\n')
			b.WriteString(body)
			b.WriteByte('\n')
		}
	}
	meta, rerrs := putRequest(doc)
	errs = append(errs, rerrs...)
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if k != SchemaKey {
			fail(-1, promptfmt.ThingMeta, "metadata %q (PDL keeps only a schema)", k).Key = k
		}
	}
	if v, ok := meta[SchemaKey]; ok {
		s, isString := v.(string)
		switch {
		case !isString:
			fail(-1, promptfmt.ThingMeta, "a schema that is not text (%T)", v).Key = SchemaKey
		case hasSeparatorLine(s):
			fail(-1, promptfmt.ThingMeta, "a schema with a line that reads as a turn separator").Key = SchemaKey
		default:
			if _, err := schema.Parse([]byte(s)); err != nil {
				fail(-1, promptfmt.ThingMeta, "a schema that does not parse: %v", err).Key = SchemaKey
			}
			turn("schema", protect(strings.TrimSpace(s)))
		}
	}
	for i := range doc.Messages {
		m := &doc.Messages[i]
		role := m.Role
		switch {
		case role == RoleReasoning && blank(*m):
			// Reading drops an empty reasoning turn; the model never
			// sees it, so Adapt drops it too.
			fail(i, promptfmt.ThingRole, "an empty reasoning turn (PDL reads none back)")
			continue
		case role == RoleReasoning:
			role = "reasoning"
		case role != RoleUser && role != RoleSystem && role != RoleAssistant:
			fail(i, promptfmt.ThingRole, "role %q (PDL has user, system and assistant)", m.Role)
			continue
		}
		if m.Name != "" {
			fail(i, promptfmt.ThingName, "the name %q (PDL messages have none)", m.Name)
		}
		if len(m.Metadata) > 0 {
			fail(i, promptfmt.ThingMetadata, "message metadata")
		}
		if m.Disabled {
			fail(i, promptfmt.ThingDisabled, "a disabled message")
		}
		body, ok := messageBody(i, m, fail)
		if !ok {
			continue
		}
		turn(role, body)
	}
	checkOrder(doc, fail)
	if emptyLast(doc) {
		// Reading drops an empty last turn, so it is kept by one more, as
		// ragit's prompts end.
		turn("assistant", "")
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if err := readsBack(doc, b.Bytes()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

const crIssue = "text with a carriage return (PDL reads it as a line break)"

// messageBody writes a message's parts.
func messageBody(i int, m *promptfmt.Message, fail func(int, promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) (string, bool) {
	if len(m.Content) == 1 { // the common message, one text without a problem: what the rest gives it, not built
		if p := &m.Content[0]; p.Kind == promptfmt.KindText && p.StrayField() == "" && !strings.Contains(p.Value, "\r") && strings.TrimSpace(p.Value) == p.Value {
			return protect(escapeText(p.Value)), true
		}
	}
	var b strings.Builder
	ok := true
	text := ""
	// read is the message as reading gives it back before trimming: the
	// checks below look at it, not at the escaped form, whose {% raw %}
	// hides the white space that rendering uncovers and the turn loses.
	var read strings.Builder
	// One error for the text, however many things are wrong with it:
	// Adapt meets a text error by making the text plain, once.
	var textIssues []string
	flush := func() {
		b.WriteString(protect(escapeText(text)))
		text = ""
	}
	joins := false
	for j, p := range m.Content {
		switch p.Kind {
		case promptfmt.KindText:
			if f := p.StrayField(); f != "" {
				fail(i, promptfmt.ThingPart, "part %d: a text part's %s", j+1, f).Part = j
				ok = false
			}
			// Text parts side by side read back as one, an empty one
			// beside other parts as none: a change, refused.
			joins = joins || j > 0 && m.Content[j-1].Kind == promptfmt.KindText || p.Value == "" && len(m.Content) > 1
			if strings.Contains(p.Value, "\r") && !slices.Contains(textIssues, crIssue) {
				textIssues = append(textIssues, crIssue)
			}
			text += p.Value
			read.WriteString(p.Value)
		case promptfmt.KindImage:
			ext, known := imageExt[p.MediaType]
			switch {
			case !known:
				fail(i, promptfmt.ThingPart, "part %d: an image of media type %q (PDL has png, jpeg, gif, webp and svg)", j+1, p.MediaType).Part = j
				ok = false
			case !isBase64(p.Value):
				fail(i, promptfmt.ThingPart, "part %d: an image that is not base64 data (a URL or file id)", j+1).Part = j
				ok = false
			case p.Detail != "" || p.ID != "" || p.Filename != "" || p.ToolName != "":
				fail(i, promptfmt.ThingPart, "part %d: an image's detail, id, file name or tool name", j+1).Part = j
				ok = false
			}
			flush()
			b.WriteString("<|raw_media(" + ext + ":" + p.Value + ")|>")
			read.WriteString("<|raw_media|>")
		default:
			fail(i, promptfmt.ThingPart, "part %d: a %s part (PDL has text and images)", j+1, p.Kind).Part = j
			ok = false
		}
	}
	flush()
	if joins {
		textIssues = append(textIssues, "text parts side by side, or an empty one beside other parts (PDL reads a turn's text between images as one text)")
	}
	body := b.String()
	if r := read.String(); strings.TrimSpace(r) != r {
		textIssues = append(textIssues, "whitespace at the start or end of the message (PDL trims each turn)")
	}
	if len(textIssues) > 0 {
		fail(i, promptfmt.ThingText, "%s", strings.Join(textIssues, "; "))
		ok = false
	}
	return body, ok
}

func isBase64(s string) bool {
	if strings.ContainsAny(s, "\r\n") {
		return false
	}
	_, err := base64.StdEncoding.Strict().DecodeString(s)
	return err == nil
}

// checkOrder refuses what strict reading refuses: an empty last message
// (it would be dropped), and upstream's rules on the order of turns.
func checkOrder(doc *promptfmt.Document, fail func(int, promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) {
	prev, n, last := "", 0, -1
	for i, m := range doc.Messages {
		if m.Hidden() {
			continue
		}
		switch {
		case m.Role == prev && (m.Role == RoleUser || m.Role == RoleAssistant):
			fail(i, promptfmt.ThingMessages, "a second %s message in a row (strict PDL refuses it)", m.Role)
		case m.Role == RoleSystem && n > 0:
			fail(i, promptfmt.ThingRole, "a system message after the first message (strict PDL refuses it)")
		}
		prev, n, last = m.Role, n+1, i
	}
	switch {
	case n == 0:
		fail(-1, promptfmt.ThingOther, "no message for the model (strict PDL refuses an empty file)")
	case doc.Messages[last].Role == RoleAssistant:
		fail(last, promptfmt.ThingMessages, "an assistant message at the end (strict PDL refuses it; the model answers after the last message)")
	}
}

// entity matches what unescape would read: "&" before lt;, gt; or amp;.
var entity = regexp.MustCompile(`&(lt|gt|amp);`)

// escapeText escapes text so that reading and unescaping give it back:
// "<|" (which would start a token or separator) and an "&" that would
// read as an entity.
func escapeText(s string) string {
	if strings.Contains(s, "&") {
		s = entity.ReplaceAllString(s, "&amp;$1;")
	}
	return strings.ReplaceAll(s, "<|", "&lt;|")
}

// protect puts text holding template syntax inside {% raw %}.
func protect(s string) string { return tmpl.JinjaLiteral(s) }

// emptyLast reports whether the last message the model gets is empty.
func emptyLast(doc *promptfmt.Document) bool {
	for i := len(doc.Messages) - 1; i >= 0; i-- {
		if m := doc.Messages[i]; !m.Hidden() {
			return isEmpty(m)
		}
	}
	return false
}

// isEmpty reports whether m holds nothing: no part, or empty text parts.
func isEmpty(m promptfmt.Message) bool {
	for _, p := range m.Content {
		if p.Kind != promptfmt.KindText || p.Value != "" {
			return false
		}
	}
	return true
}

// blank reports whether m holds text of white space only, which reading
// trims to nothing.
func blank(m promptfmt.Message) bool {
	for _, p := range m.Content {
		if p.Kind != promptfmt.KindText || strings.TrimSpace(p.Value) != "" {
			return false
		}
	}
	return true
}

// canonical is doc as PDL keeps it: the schema trimmed, adjacent text
// parts joined, empty ones gone, an empty message one empty text part.
func canonical(doc *promptfmt.Document) *promptfmt.Document {
	c := *doc
	if s, ok := c.Meta[SchemaKey].(string); ok {
		c.Meta = map[string]any{SchemaKey: strings.TrimSpace(s)}
	}
	c.Messages = make([]promptfmt.Message, len(doc.Messages))
	for i, m := range doc.Messages {
		if canonicalContent(m.Content) { // most are: shared, not copied (c is only compared)
			c.Messages[i] = m
			continue
		}
		var parts []promptfmt.ContentPart
		for _, p := range m.Content {
			switch n := len(parts); {
			case p.Kind == promptfmt.KindText && p.Value == "":
			case p.Kind == promptfmt.KindText && n > 0 && parts[n-1].Kind == promptfmt.KindText:
				parts[n-1].Value += p.Value
			default:
				parts = append(parts, p)
			}
		}
		if len(parts) == 0 {
			parts = []promptfmt.ContentPart{promptfmt.Text("")}
		}
		m.Content = parts
		c.Messages[i] = m
	}
	return &c
}

// canonicalContent reports whether canonical leaves content as it is:
// parts, no empty text beside others, no two texts side by side.
func canonicalContent(content []promptfmt.ContentPart) bool {
	for j, p := range content {
		if p.Kind == promptfmt.KindText && (p.Value == "" && len(content) > 1 || j > 0 && content[j-1].Kind == promptfmt.KindText) {
			return false
		}
	}
	return len(content) > 0
}

func hasSeparatorLine(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if role, _, unknown := separator(line); role != "" || unknown {
			return true
		}
	}
	return false
}

// readsBack checks that out reads back as doc: a last guard that no rule
// above missed a case. A failure names the message it is about and its
// line, so that the author can find it.
func readsBack(doc *promptfmt.Document, out []byte) error {
	c := canonical(doc)
	got, err := Parse(out)
	if err != nil {
		e := &promptfmt.UnsupportedError{Format: "pdl", Index: -1, What: "the written file does not read back: " + err.Error()}
		var pe *promptfmt.ParseError
		if errors.As(err, &pe) && pe.Line > 0 {
			if i := messageAt(doc, out, pe.Line); i >= 0 {
				e.Index, e.Line = i, doc.Messages[i].Line
			}
		}
		return e
	}
	if promptfmt.Equal(got, c) {
		return nil
	}
	for i := range c.Messages {
		if i >= len(got.Messages) || !promptfmt.EqualMessages(c.Messages[i:i+1], got.Messages[i:i+1]) {
			what := "the message does not read back the same"
			if i < len(got.Messages) {
				what += fmt.Sprintf(": %s reads as %s", excerpt(c.Messages[i].Text()), excerpt(got.Messages[i].Text()))
			}
			return &promptfmt.UnsupportedError{Format: "pdl", Index: i, Line: doc.Messages[i].Line, What: what}
		}
	}
	return &promptfmt.UnsupportedError{Format: "pdl", Index: -1, What: "the document does not read back the same"}
}

// excerpt quotes the start of s.
func excerpt(s string) string {
	cut, more := abbrev.Cut(s, 60)
	if more {
		cut += "…"
	}
	return strconv.Quote(cut)
}

// messageAt is the index of the message whose turn holds line (1-based)
// of out, or -1: the turns are counted up to that line (the schema turn
// and the closing empty assistant turn belong to no message).
func messageAt(doc *promptfmt.Document, out []byte, line int) int {
	turns := -1
	for n, l := range strings.Split(string(out), "\n") {
		if n >= line {
			break
		}
		if role, _, _ := separator(l); role != "" && role != "schema" {
			turns++
		}
	}
	if turns >= 0 && turns < len(doc.Messages) {
		return turns
	}
	return -1
}
