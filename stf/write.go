package stf

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/json5"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Write writes doc as canonical STF; see the package documentation for its
// shape. Every Document can be written, so Parse(Write(doc)) equals doc;
// the only errors are values no format could hold (strings that are not
// UTF-8, metadata that is not JSON-like, parts of unknown kinds or with
// fields their kind does not use, settings that are not finite) and Meta
// keys that would read as settings (see Settings), one UnsupportedError
// each, joined, and then nothing is written: every message is checked
// first, then the text is written as it is made, in blocks of 64 KB. A
// message without content is written, and read back, as one empty text
// part. It takes Parse's options, so that one list serves both; none
// changes what it writes.
func Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if _, err := newConfig(opts); err != nil {
		return err
	}
	var b []byte
	errs := promptfmt.CommentErrors(doc, format)
	for i, c := range doc.Comments {
		if c.Format == format && !isComment(c.Text) {
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: -1, Line: c.Line, Thing: promptfmt.ThingComment, Part: i,
				What: fmt.Sprintf("comment %d is not one STF comment (a ;# or ;// line, or a ;/* ... ;*/ block)", i+1)})
		}
	}
	places := commentPlaces(doc)
	// The comments before the first message, up to the first ;meta block.
	lead := places[0]
	for k, i := range lead {
		if doc.Comments[i].Part >= 0 && len(doc.Messages) > 0 {
			lead = lead[:k]
			break
		}
	}
	l := layoutOf(doc)
	if n := l.metaAfter; n >= 0 && n < len(lead) {
		lead = lead[:n]
	}
	b = appendComments(b, doc, lead)
	meta, rerrs := putRequest(doc, l)
	errs = append(errs, rerrs...)
	if blocks := l.meta; len(blocks) > 0 && jsonvalue.Equal(decodeBlocks(blocks, "meta"), meta) {
		for _, data := range blocks {
			b = appendBlock(b, ";meta\n", data)
		}
	} else if len(meta) > 0 {
		out, err := json5.Append(append(b, ";meta\n"...), meta)
		if err != nil {
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: -1, What: "metadata: " + err.Error(), Thing: promptfmt.ThingMeta})
		}
		b = append(out, "\n;end\n"...)
	}
	// Every message is checked before any is written: one that holds
	// metadata or is a ;raw block is formatted (into scratch, thrown
	// away), as only JSON5 values can fail; any other cannot once check
	// passes.
	at := func(i int) []int {
		if i == 0 {
			return places[0][len(lead):]
		}
		return places[i]
	}
	var scratch []byte
	for i := range doc.Messages {
		m := &doc.Messages[i]
		err := check(m)
		if err == nil && (len(m.Metadata) > 0 || needsRaw(m)) {
			scratch, err = appendMessage(scratch[:0], doc, l, m, at(i))
		}
		if err != nil {
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: i, Line: m.Line, What: err.Error()})
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	// Then the text is written as it is made, a block at a time, so that
	// a large document's is never held whole.
	for i := range doc.Messages {
		if len(b) >= flushSize {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
		var err error
		if b, err = appendMessage(b, doc, l, &doc.Messages[i], at(i)); err != nil {
			return err // check and scratch found every error: never
		}
	}
	end := places[len(doc.Messages)]
	if len(doc.Messages) == 0 {
		end = end[len(lead):]
	}
	b = appendComments(b, doc, end)
	_, err := w.Write(b)
	return err
}

// flushSize is how much text Write makes before it writes it.
const flushSize = 64 << 10

// check finds what no STF file can hold.
func check(m *promptfmt.Message) error {
	if !utf8.ValidString(m.Role) || !utf8.ValidString(m.Name) {
		return fmt.Errorf("a role or name that is not UTF-8")
	}
	for i, part := range m.Content {
		switch {
		case part.Kind != promptfmt.KindText && part.Kind != promptfmt.KindToolCall && part.Kind != promptfmt.KindToolResult && !isMedia(part.Kind):
			return fmt.Errorf("part %d has the unknown kind %q", i+1, part.Kind)
		case part.StrayField() != "":
			return fmt.Errorf("a %s part with a %s", part.Kind, part.StrayField())
		}
		for _, s := range []string{part.Value, part.MediaType, part.Detail, part.ID, part.ToolName, part.Filename} {
			if !utf8.ValidString(s) {
				return fmt.Errorf("part %d holds text that is not UTF-8", i+1)
			}
		}
	}
	if path := jsonvalue.NotJSONLike(m.Metadata); path != "" {
		return fmt.Errorf("metadata %s is not a JSON-like value", path)
	}
	return nil
}

// needsRaw reports whether m must be written as a ;raw block: the command
// form cannot hold it.
func needsRaw(m *promptfmt.Message) bool {
	if m.Disabled {
		return true
	}
	prevText := false
	for _, part := range m.Content {
		switch part.Kind {
		case promptfmt.KindText:
			// Adjacent texts would join; an empty one would vanish.
			if prevText || part.Value == "" && len(m.Content) > 1 {
				return true
			}
		case promptfmt.KindToolCall:
			if !callable(part.Value) {
				return true
			}
		case promptfmt.KindToolResult:
			return true
		default:
			if !embeddable(part.Value) || part.ID != "" || part.Filename != "" {
				return true
			}
		}
		prevText = part.Kind == promptfmt.KindText
	}
	return false
}

var roleNames = map[string]string{
	"user": ";user", "assistant": ";ai", "system": ";sys", "developer": ";dev", "tool": ";tool",
}

// appendMessage appends m with its comments (indexes into doc.Comments,
// those before it first).
func appendMessage(b []byte, doc *promptfmt.Document, l *layout, m *promptfmt.Message, comments []int) ([]byte, error) {
	if needsRaw(m) {
		// A ;raw block holds no comment: all of them go before it.
		return appendRaw(appendComments(b, doc, comments), m)
	}
	inside := comments
	for len(inside) > 0 && doc.Comments[inside[0]].Part < 0 {
		inside = inside[1:]
	}
	b = appendComments(b, doc, comments[:len(comments)-len(inside)])
	if cmd, ok := roleNames[m.Role]; ok {
		b = append(b, cmd...)
	} else {
		b = appendArg(append(b, ";msg"...), "role", m.Role)
	}
	if m.Name != "" {
		b = appendArg(b, "name", m.Name)
	}
	// id and call_id first, then the other one-line string metadata by key;
	// the rest goes in an ;extra block.
	// The ;extra blocks as written, while the message still holds all
	// they say; their keys are then not written again.
	blocks := l.extra[m.Line]
	verbatim := decodeBlocks(blocks, "extra")
	for k, v := range verbatim {
		if x, ok := m.Metadata[k]; !ok || !jsonvalue.Equal(x, v) {
			blocks, verbatim = nil, nil
			break
		}
	}
	var extra map[string]any
	keys := make([]string, 0, len(m.Metadata))
	for k, v := range m.Metadata {
		if _, done := verbatim[k]; done {
			continue
		}
		if s, ok := v.(string); ok && isKey(k) && k != "role" && k != "name" && utf8.ValidString(s) {
			keys = append(keys, k)
		} else {
			if extra == nil {
				extra = map[string]any{}
			}
			extra[k] = v
		}
	}
	// In the order written, then id and call_id, then by name.
	written := l.args[m.Line]
	rank := func(k string) int {
		if i := slices.Index(written, k); i >= 0 {
			return i
		}
		return len(written)
	}
	slices.SortFunc(keys, func(x, y string) int {
		return cmp.Or(rank(x)-rank(y), strings.Compare(argOrder(x), argOrder(y)))
	})
	for _, k := range keys {
		b = appendArg(b, k, m.Metadata[k].(string))
	}
	b = append(b, '\n')
	for j, part := range m.Content {
		here := inside
		for len(inside) > 0 && doc.Comments[inside[0]].Part == j {
			inside = inside[1:]
		}
		here = here[:len(here)-len(inside)]
		if part.Kind != promptfmt.KindText {
			b = appendComments(b, doc, here)
		}
		switch part.Kind {
		case promptfmt.KindText:
			if len(here) > 0 {
				b = appendDataComments(b, doc, part.Value, here)
				break
			}
			b = appendData(b, part.Value)
		case promptfmt.KindToolCall:
			b = append(b, ";call"...)
			if part.ToolName != "" {
				b = appendArg(b, "name", part.ToolName)
			}
			if part.ID != "" {
				b = appendArg(b, "id", part.ID)
			}
			b = append(append(append(b, '\n'), part.Value...), '\n')
		default:
			b = appendArg(append(b, ";embed"...), "kind", string(part.Kind))
			if part.MediaType != "" {
				b = appendArg(b, "type", part.MediaType)
			}
			if part.Detail != "" {
				b = appendArg(b, "detail", part.Detail)
			}
			b = appendData(append(b, '\n'), part.Value)
		}
	}
	b = appendComments(b, doc, inside)
	for _, data := range blocks {
		b = appendBlock(b, ";extra\n", data)
	}
	if extra != nil {
		var err error
		if b, err = json5.Append(append(b, ";extra\n"...), extra); err != nil {
			return b, err
		}
		b = append(b, "\n;end\n"...)
	}
	return b, nil
}

// argOrder sorts id and call_id before every other key.
func argOrder(k string) string {
	switch k {
	case "id":
		return "\x00"
	case "call_id":
		return "\x01"
	}
	return k
}

// appendArg appends " key=value", quoting the value only when it needs it.
func appendArg(b []byte, key, v string) []byte {
	b = append(append(append(b, ' '), key...), '=')
	if needsQuotes(v) {
		return json5.AppendJSONString(b, v)
	}
	return append(b, v...)
}

func needsQuotes(v string) bool {
	if v == "" {
		return true
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; c <= ' ' || c == 0x7f || c == '"' || c == '\'' || c == ';' {
			return true
		}
	}
	return false
}

// appendData appends text as data lines, each line that starts with ';'
// escaped as ";;", and a line feed after the last. Empty text is no lines.
func appendData(b []byte, text string) []byte {
	if text == "" {
		return b
	}
	if text[0] != ';' && !strings.Contains(text, "\n;") {
		return append(append(b, text...), '\n')
	}
	for line := range strings.Lines(text) {
		if line[0] == ';' {
			b = append(b, ';')
		}
		b = append(b, line...)
	}
	return append(b, '\n')
}

// decodeBlocks merges the JSON5 data of ;meta or ;extra blocks as Parse
// does; nil when there are none or one no longer decodes.
func decodeBlocks(blocks []string, key string) map[string]any {
	var out map[string]any
	for _, data := range blocks {
		v, err := json5.Parse(data)
		if err != nil {
			return nil
		}
		merge(&out, key, v)
	}
	return out
}

// appendBlock appends a block command, its data lines (escaped as data)
// and ;end.
func appendBlock(b []byte, cmd, data string) []byte {
	return append(appendData(append(b, cmd...), data), ";end\n"...)
}
