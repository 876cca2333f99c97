package pdl

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/stretchr/testify/require"
)

// benchDoc is the shared conversation as PDL has it: no names or
// metadata, and ending with the user.
func benchDoc() *promptfmt.Document {
	doc := corpus.Conversation(formattest.BenchSize)
	for i := range doc.Messages {
		doc.Messages[i].Name, doc.Messages[i].Metadata = "", nil
	}
	if doc.Messages[len(doc.Messages)-1].Role == RoleAssistant {
		doc.Messages = doc.Messages[:len(doc.Messages)-1]
	}
	return doc
}

// BenchmarkFormat: the line-split baseline, Parse (a file without template
// tags: the engine is skipped), Parse of CRLF text, and Write, on the
// shared conversation.
func BenchmarkFormat(b *testing.B) { thisFormat.BenchDoc(b, benchDoc()) }

// BenchmarkRender is ragit's answer_query.pdl with 500 retrieved chunks of
// the shared corpus's text: the template step and the whole Parse.
func BenchmarkRender(b *testing.B) {
	src, err := os.ReadFile("testdata/upstream/prompts/answer_query.pdl")
	require.NoError(b, err)
	var chunks []any
	size := 0
	for i, m := range corpus.Conversation(1 << 20).Messages {
		text := m.Text()
		chunks = append(chunks, map[string]any{"source": fmt.Sprintf("docs/%d.md", i), "pdl_data": escape(text)})
		size += len(text)
		if len(chunks) == 500 {
			break
		}
	}
	ctx := map[string]any{"query": "Why did the rollout stall?", "chunks": chunks}
	b.Run("Render", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Render(src, Inputs(ctx)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(size))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Parse(src, Inputs(ctx)); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// TestDeepNesting: deep brackets in the template or the schema give an
// error promptly, never a stack overflow or a hang.
func TestDeepNesting(t *testing.T) {
	for name, src := range map[string]string{
		"1 MB of {":           "<|user|>\n" + strings.Repeat("{", 1<<20),
		"{{ ((((":             "<|user|>\n{{ " + strings.Repeat("(", 100000) + " }}",
		"schema [[[[":         "<|schema|>\n" + strings.Repeat("[", 100000) + strings.Repeat("]", 100000) + "\n<|user|>\nq",
		"schema of 1 MB of {": "<|schema|>\n" + strings.Repeat("{", 1<<20) + "\n<|user|>\nq",
		"nested if blocks":    "<|user|>\n" + strings.Repeat("{% if true %}", 100000),
		"1 MB line of <|x|>":  "<|user|>\n" + strings.Repeat("<|x|>", 1<<18),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Parse([]byte(src))
			require.Error(t, err)
		})
	}
	// Text that only looks like the start of tokens is text.
	doc, err := Parse([]byte("<|user|>\n" + strings.Repeat("<|", 1<<19)))
	require.NoError(t, err)
	require.Len(t, doc.Messages[0].Content, 1)
}

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { thisFormat.BenchShapes(b) }

// A file of short messages costs a bounded number of allocations, not
// some for each message.
func TestParseAllocs(t *testing.T) { thisFormat.CheckAllocs(t, 16) }

// TestWriteAllocs: writing short messages allocates per 512 messages, not per message.
func TestWriteAllocs(t *testing.T) { thisFormat.CheckWriteAllocs(t, 16) }
