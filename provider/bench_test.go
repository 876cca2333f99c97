package provider

import (
	"encoding/json"
	"io"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// benchMessages is the shared benchmark conversation as a model receives
// it, and the size of its text. Without names when keepNames is false:
// every third message of the corpus has one, which only OpenAI can send.
func benchMessages(b *testing.B, keepNames bool) ([]promptfmt.Message, int64) {
	msgs := corpus.Conversation(formattest.BenchSize).LLMMessages()
	var n int64
	for i := range msgs {
		if !keepNames {
			msgs[i].Name = ""
		}
		for _, p := range msgs[i].Content {
			n += int64(len(p.Value))
		}
	}
	return msgs, n
}

// bench measures a mapping alone ("map") and with encoding/json after it
// ("encode"), throughput counted in bytes of message text.
func bench[T any](b *testing.B, keepNames bool, mapping func([]promptfmt.Message) (T, error)) {
	msgs, size := benchMessages(b, keepNames)
	b.Run("map", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := mapping(msgs); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encode", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		enc := json.NewEncoder(io.Discard)
		enc.SetEscapeHTML(false)
		for b.Loop() {
			req, err := mapping(msgs)
			if err != nil {
				b.Fatal(err)
			}
			if err := enc.Encode(req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkOpenAI(b *testing.B)    { bench(b, true, mapOpenAI) }
func BenchmarkAnthropic(b *testing.B) { bench(b, false, mapAnthropic) }
func BenchmarkGemini(b *testing.B)    { bench(b, false, mapGemini) }

func mapOpenAI(msgs []promptfmt.Message) ([]openAIMessage, error) {
	m := newMapper(nameOpenAI, "OpenAI", msgs)
	out := m.openAIMessages(nil)
	return out, m.err()
}

func mapAnthropic(msgs []promptfmt.Message) ([]anthropicTurn, error) {
	m := newMapper(nameAnthropic, "Anthropic", msgs)
	m.send = true
	_, turns := m.anthropicMessages(nil)
	return turns, m.err()
}

func mapGemini(msgs []promptfmt.Message) ([]object, error) {
	g := &geminiMapper{mapper: newMapper(nameGemini, "Gemini", msgs), lay: &layout{}}
	g.send = true
	_, contents := g.messages(nil)
	return contents, g.err()
}
