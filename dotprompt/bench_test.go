package dotprompt

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// thisFormat is this package for the shared benchmarks.
var thisFormat = formattest.Format{
	Parse: func(b []byte) (*promptfmt.Document, error) { return Parse(b) },
	Write: func(w io.Writer, d *promptfmt.Document) error { return Write(w, d) },
}

// benchDoc is the shared conversation as Dotprompt has it: no names or
// metadata, and no tool calls or results (text and media only).
func benchDoc() *promptfmt.Document {
	doc := corpus.Conversation(formattest.BenchSize)
	msgs := doc.Messages[:0]
	for _, m := range doc.Messages {
		m.Name, m.Metadata = "", nil
		parts := m.Content[:0:0]
		for _, p := range m.Content {
			if p.Kind == promptfmt.KindText && (len(parts) == 0 || parts[len(parts)-1].Kind != promptfmt.KindText) {
				parts = append(parts, p)
			}
		}
		if m.Content = parts; hasContent(&m) {
			msgs = append(msgs, m)
		}
	}
	doc.Messages = msgs
	return doc
}

// BenchmarkFormat: the line-split baseline, Parse, Parse of CRLF text and
// Write, on the shared conversation.
func BenchmarkFormat(b *testing.B) { thisFormat.BenchDoc(b, benchDoc()) }

// BenchmarkWriteEscaped writes text full of template syntax (1 MiB):
// escaped, then checked by rendering the file back.
func BenchmarkWriteEscaped(b *testing.B) {
	text := strings.Repeat("Use {{name}} or \\{{raw}}; a } and a {.\n", 1<<20/40)
	doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("system", text), promptfmt.NewMessage("user", text)}}
	var out bytes.Buffer
	b.SetBytes(int64(2 * len(text)))
	b.ReportAllocs()
	for b.Loop() {
		out.Reset()
		if err := Write(&out, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSchema compiles the example's Picoschema.
func BenchmarkSchema(b *testing.B) {
	s := map[string]any{"subject": "string, what the joke is about", "style?(enum, how to tell it)": []any{"pun", "story"},
		"tags(array)": "string", "author(object)": map[string]any{"name": "string", "age?": "integer"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Schema(s, nil); err != nil {
			b.Fatal(err)
		}
	}
}
