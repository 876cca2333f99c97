package provider

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// benchMessages is the shared benchmark conversation as a model receives
// it (Document.ForModel), and the size of its text. Without names when keepNames is false:
// every third message of the corpus has one, which only OpenAI can send.
func benchMessages(b *testing.B, keepNames bool) ([]promptfmt.Message, int64) {
	msgs := corpus.Conversation(formattest.BenchSize).ForModel().Messages
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

// bench measures a mapping alone ("map") and with the JSON encoding after it
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
		var buf []byte
		for b.Loop() {
			req, err := mapping(msgs)
			if err != nil {
				b.Fatal(err)
			}
			if buf, err = jsonvalue.Append(buf[:0], req); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkOpenAI(b *testing.B)    { bench(b, true, mapOpenAI) }
func BenchmarkAnthropic(b *testing.B) { bench(b, false, mapAnthropic) }
func BenchmarkGemini(b *testing.B)    { bench(b, false, mapGemini) }

func mapOpenAI(msgs []promptfmt.Message) (list[openAIMessage], error) {
	m := newMapper(nameOpenAI, "OpenAI", msgs)
	m.send = true
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

// openAIBenchBody is the shared benchmark conversation as a Chat
// Completions body.
func openAIBenchBody() []byte {
	msgs := corpus.Conversation(formattest.BenchSize).LLMMessages()
	var out bytes.Buffer
	if err := OpenAI.Write(&out, (&promptfmt.Document{Messages: msgs}).ForModel(), promptfmt.Send()); err != nil {
		panic(err)
	}
	return out.Bytes()
}

// chatBody is the shape of a Chat Completions body, as a program would
// decode it with encoding/json: the baseline of BenchmarkParseOpenAI.
type chatBody struct {
	Model       string        `json:"model"`
	Messages    []chatMessage `json:"messages"`
	Temperature *float64      `json:"temperature"`
}

type chatMessage struct {
	Role       string      `json:"role"`
	Name       string      `json:"name"`
	Content    chatContent `json:"content"`
	ToolCallID string      `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// chatContent is a string or an array of parts, as the SDKs read it.
type chatContent struct {
	Text  string
	Parts []struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *struct {
			URL    string `json:"url"`
			Detail string `json:"detail"`
		} `json:"image_url"`
	}
}

func (c *chatContent) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Text)
	}
	return json.Unmarshal(b, &c.Parts)
}

func BenchmarkParseOpenAIBaseline(b *testing.B) {
	src := openAIBenchBody()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var body chatBody
		if err := json.Unmarshal(src, &body); err != nil {
			b.Fatal(err)
		}
	}
}
