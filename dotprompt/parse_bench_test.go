package dotprompt

import (
	"bytes"
	"io"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// benchFormat is this package for the shared benchmarks.
var benchFormat = formattest.Format{
	Parse: func(b []byte) (*promptfmt.Document, error) { return Parse(b) },
	Write: func(w io.Writer, d *promptfmt.Document) error { return Write(w, d) },
}

// BenchmarkFormat: the line-split baseline, Parse, Parse of CRLF text and
// Write, on the shared conversation without its names and metadata,
// which Dotprompt's role markers do not hold.
func BenchmarkFormat(b *testing.B) {
	doc := corpus.Conversation(formattest.BenchSize)
	for i := range doc.Messages {
		doc.Messages[i].Name, doc.Messages[i].Metadata = "", nil
	}
	var buf bytes.Buffer
	if err := Write(&buf, doc); err != nil {
		b.Fatal(err)
	}
	src := buf.Bytes()
	b.Run("LineSplit", func(b *testing.B) { formattest.BenchLineSplit(b, src) })
	b.Run("Parse", func(b *testing.B) { benchFormat.BenchParse(b, src) })
	b.Run("ParseCRLF", func(b *testing.B) { benchFormat.BenchParse(b, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))) })
	b.Run("Write", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			if err := Write(&out, doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { benchFormat.BenchShapes(b) }
