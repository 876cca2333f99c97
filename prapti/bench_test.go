package prapti

import (
	"bytes"
	"sort"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// benchDoc is the shared benchmark conversation (fences, quotes, lists and
// indented code in its text) with each message's metadata turned into
// configuration lines, the home Prapti has for it.
func benchDoc() *promptfmt.Document {
	doc := corpus.Conversation(formattest.BenchSize)
	for i := range doc.Messages {
		m := &doc.Messages[i]
		if len(m.Metadata) == 0 {
			continue
		}
		keys := make([]string, 0, len(m.Metadata))
		for k := range m.Metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var list []any
		for _, k := range keys {
			c := ConfigLine{Enabled: true, Kind: KindAssignment, Name: "vars." + k, Value: m.Metadata[k]}
			c.Source = c.synthesize()
			list = append(list, c.toMap())
		}
		m.Metadata = map[string]any{MetaConfig: list}
	}
	return doc
}

// goldmarkBlocks is goldmark's CommonMark block parser as goldmark ships
// it: the default block parsers, no inline parsers.
var goldmarkBlocks = parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...))

func benchInput(b testing.TB) []byte {
	var out bytes.Buffer
	if err := Write(&out, benchDoc()); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// BenchmarkFormat: the shared benchmarks, and goldmark's own block parse
// of the same bytes (only the default block parsers, no inline parsing),
// the baseline this parser is measured against.
func BenchmarkFormat(b *testing.B) {
	src := benchInput(b)
	b.Run("LineSplit", func(b *testing.B) { formattest.BenchLineSplit(b, src) })
	b.Run("Goldmark", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			goldmarkBlocks.Parse(text.NewReader(src))
		}
	})
	// Structure is the part of Parse that is goldmark: its block parse
	// through the recording parsers, without the inline pass's text.
	b.Run("Structure", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			structure(src)
		}
	})
	b.Run("Parse", func(b *testing.B) { thisFormat.BenchParse(b, src) })
	b.Run("ParseCRLF", func(b *testing.B) { thisFormat.BenchParse(b, bytes.ReplaceAll(src, []byte("\n"), []byte("\r\n"))) })
	b.Run("Write", func(b *testing.B) {
		doc := benchDoc()
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if err := Write(&bytes.Buffer{}, doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func TestBenchInput(t *testing.T) {
	doc := benchDoc()
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	back, err := Parse(out.Bytes())
	require.NoError(t, err)
	require.Len(t, back.Messages, len(doc.Messages))
}

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { thisFormat.BenchShapes(b) }

// TestParseAllocs: parsing short messages allocates per 512 messages, not
// per message.
func TestParseAllocs(t *testing.T) { thisFormat.CheckAllocs(t, 16) }

// TestWriteAllocs: the same of writing them.
func TestWriteAllocs(t *testing.T) { thisFormat.CheckWriteAllocs(t, 16) }
