// Package formattest holds the checks and benchmarks that every format
// package runs the same way: the round trip of a document through Write
// and Parse, and the throughput of both on the shared corpus beside the
// line-split baseline. Only tests import it.
package formattest

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
)

// Format is a format package's two functions.
type Format struct {
	Parse func([]byte) (*promptfmt.Document, error)
	Write func(io.Writer, *promptfmt.Document) error
}

// RoundTrip writes doc, reads the text back and writes that again: the
// document must come back equal and the text must be a fixed point
// (canonical). It returns the text.
func (f Format) RoundTrip(tb testing.TB, doc *promptfmt.Document) []byte {
	tb.Helper()
	var out bytes.Buffer
	if err := f.Write(&out, doc); err != nil {
		tb.Fatalf("Write failed: %v\ndocument: %s", err, show(doc))
	}
	back, err := f.Parse(out.Bytes())
	if err != nil {
		tb.Fatalf("the written text does not parse: %v\nwritten: %q", err, out.Bytes())
	}
	if !promptfmt.Equal(doc, back) {
		tb.Fatalf("round trip changed the document\nwritten: %q\nbefore:  %s\nafter:   %s", out.Bytes(), show(doc), show(back))
	}
	var again bytes.Buffer
	if err := f.Write(&again, back); err != nil || again.String() != out.String() {
		tb.Fatalf("canonical form is not stable: %v\nfirst:  %q\nsecond: %q", err, out.Bytes(), again.Bytes())
	}
	return out.Bytes()
}

func show(doc *promptfmt.Document) string {
	b, err := json.Marshal(doc)
	if err != nil {
		return err.Error()
	}
	return string(b)
}

// BenchSize is the size of the benchmark conversation's text.
const BenchSize = 4 << 20

// BenchLineSplit is the baseline: finding the lines of src.
func BenchLineSplit(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		corpus.CountLines(src)
	}
}

// BenchParse measures f.Parse on src.
func (f Format) BenchParse(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := f.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchReadWrite measures f.Parse of src and f.Write of what it read,
// as fmt does.
func (f Format) BenchReadWrite(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		doc, err := f.Parse(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := f.Write(io.Discard, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchWrite measures f.Write of doc (the shared conversation when nil).
func (f Format) BenchWrite(b *testing.B, doc *promptfmt.Document) {
	if doc == nil {
		doc = corpus.Conversation(BenchSize)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, doc); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := f.Write(&buf, doc); err != nil {
			b.Fatal(err)
		}
	}
}

// Bench runs the shared benchmarks of a format as sub-benchmarks: the
// line-split baseline, Parse, Parse of the CRLF form, and Write, all on
// the shared conversation.
func (f Format) Bench(b *testing.B) { f.BenchDoc(b, nil) }

// BenchDoc is Bench on doc, for a format that cannot hold all of the
// shared conversation (nil: the shared conversation).
func (f Format) BenchDoc(b *testing.B, doc *promptfmt.Document) {
	if doc == nil {
		doc = corpus.Conversation(BenchSize)
	}
	var buf bytes.Buffer
	if err := f.Write(&buf, doc); err != nil {
		b.Fatal(err)
	}
	src := buf.Bytes()
	b.Run("LineSplit", func(b *testing.B) { BenchLineSplit(b, src) })
	b.Run("Parse", func(b *testing.B) { f.BenchParse(b, src) })
	b.Run("ParseCRLF", func(b *testing.B) { f.BenchParse(b, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))) })
	b.Run("Write", func(b *testing.B) { f.BenchWrite(b, doc) })
}

// ShapeSize is the size of the text of the short- and long-message
// conversations BenchShapes parses.
const ShapeSize = 8 << 20

// BenchShapes runs the line-split baseline, the model's floor, Parse and
// Write on two more conversations written by f: one-line messages of
// ~120 bytes (corpus.Short: the cost of a message) and messages of ~4 KB
// (corpus.Long: the cost of a byte), each ShapeSize bytes of text. The
// conversation itself is made again for Write, not kept while the others
// run: its ~70,000 messages would be marked by every collection a parse
// causes, a quarter of a short parse's time.
func (f Format) BenchShapes(b *testing.B) {
	for _, shape := range []struct {
		name string
		doc  func(int) *promptfmt.Document
	}{{"Short", corpus.Short}, {"Long", corpus.Long}} {
		doc := shape.doc(ShapeSize)
		var buf bytes.Buffer
		if err := f.Write(&buf, doc); err != nil {
			b.Fatal(err)
		}
		src, n := bytes.Clone(buf.Bytes()), len(doc.Messages)
		doc, buf = nil, bytes.Buffer{}
		b.Run(shape.name+"/LineSplit", func(b *testing.B) { BenchLineSplit(b, src) })
		b.Run(shape.name+"/CopySplit", func(b *testing.B) { BenchCopySplit(b, src) })
		b.Run(shape.name+"/Floor", func(b *testing.B) { BenchFloor(b, src, n) })
		b.Run(shape.name+"/Parse", func(b *testing.B) { f.BenchParse(b, src) })
		b.Run(shape.name+"/Write", func(b *testing.B) { f.BenchWrite(b, shape.doc(ShapeSize)) })
	}
}

// CheckWriteAllocs asserts the same of f's writer: writing a megabyte
// of corpus.Short costs one allocation for every 512 messages, plus
// fixed, not one or more for each message (a concatenation, a list
// grown by append, a message made to check the file against).
func (f Format) CheckWriteAllocs(t *testing.T, fixed int) {
	t.Helper()
	doc := corpus.Short(1 << 20)
	var buf bytes.Buffer
	if err := f.Write(&buf, doc); err != nil {
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(5, func() {
		buf.Reset()
		if err := f.Write(&buf, doc); err != nil {
			t.Fatal(err)
		}
	})
	if want := float64(len(doc.Messages)/512 + fixed); allocs > want {
		t.Errorf("%v allocations to write %d short messages, want at most %v", allocs, len(doc.Messages), want)
	}
}

// CheckAllocs asserts a design property of f's parser: a file of short
// messages costs a bounded number of allocations, not one or more for
// each message (messages are written into one list, parts cut from shared
// arrays, texts cut from one copy of the source). It parses a megabyte
// of corpus.Short and allows one allocation for every 512 messages, plus
// fixed.
func (f Format) CheckAllocs(t *testing.T, fixed int) {
	t.Helper()
	doc := corpus.Short(1 << 20)
	var buf bytes.Buffer
	if err := f.Write(&buf, doc); err != nil {
		t.Fatal(err)
	}
	src, n := buf.Bytes(), len(doc.Messages)
	allocs := testing.AllocsPerRun(5, func() {
		if _, err := f.Parse(src); err != nil {
			t.Fatal(err)
		}
	})
	if want := float64(n/512 + fixed); allocs > want {
		t.Errorf("%v allocations to parse %d short messages, want at most %v", allocs, n, want)
	}
}
