package provider

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// benchBody is the shared benchmark conversation as f writes it (names and
// metadata left out, which the providers have no place for; every third
// message of two text parts, so that content arrays are read too), with
// a model and settings.
func benchBody(b *testing.B, f promptfmt.Format) []byte {
	doc := corpus.Conversation(formattest.BenchSize)
	temperature, maxTokens := 0.2, int64(1024)
	doc.Request = promptfmt.Request{Temperature: &temperature, MaxTokens: &maxTokens}
	for i := range doc.Messages {
		m := &doc.Messages[i]
		m.Name, m.Metadata = "", nil
		if head, tail, ok := strings.Cut(m.Content[0].Value, "\n\n"); ok && i%3 == 0 {
			m.Content = []promptfmt.ContentPart{promptfmt.Text(head), promptfmt.Text(tail)}
		}
	}
	var out bytes.Buffer
	if err := f.Write(&out, doc); err != nil {
		b.Fatal(err)
	}
	return out.Bytes()
}

// benchParse measures f.Parse on src beside encoding/json decoding src
// into into, a struct of the body's shape.
func benchParse(b *testing.B, f promptfmt.Format, src []byte, into func() any) {
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := f.Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if err := json.Unmarshal(src, into()); err != nil {
				b.Fatal(err)
			}
		}
	})
	doc, err := f.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("Write", func(b *testing.B) {
		var out bytes.Buffer
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			out.Reset()
			if err := f.Write(&out, doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// anthropicShape is a Messages body as a struct: what encoding/json
// decodes beside Parse.
type anthropicShape struct {
	Model       string               `json:"model"`
	MaxTokens   int64                `json:"max_tokens"`
	Temperature *float64             `json:"temperature"`
	System      textOrBlocks         `json:"system"`
	Messages    []anthropicTurnShape `json:"messages"`
}

type anthropicTurnShape struct {
	Role    string       `json:"role"`
	Content textOrBlocks `json:"content"`
}

// textOrBlocks is content: a string, or an array of blocks.
type textOrBlocks struct {
	Text   string
	Blocks []struct {
		Type      string          `json:"type"`
		Text      string          `json:"text"`
		ID        string          `json:"id"`
		Name      string          `json:"name"`
		Input     json.RawMessage `json:"input"`
		ToolUseID string          `json:"tool_use_id"`
		Content   json.RawMessage `json:"content"`
		Source    *struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type"`
			Data      string `json:"data"`
			URL       string `json:"url"`
		} `json:"source"`
	}
}

func (c *textOrBlocks) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Text)
	}
	return json.Unmarshal(b, &c.Blocks)
}

// geminiShape is a generateContent body (snake_case) as a struct.
type geminiShape struct {
	SystemInstruction *geminiContentShape  `json:"system_instruction"`
	Contents          []geminiContentShape `json:"contents"`
	GenerationConfig  struct {
		Temperature     *float64 `json:"temperature"`
		MaxOutputTokens *int64   `json:"max_output_tokens"`
	} `json:"generation_config"`
}

type geminiContentShape struct {
	Role  string `json:"role"`
	Parts []struct {
		Text       *string `json:"text"`
		InlineData *struct {
			MimeType string `json:"mime_type"`
			Data     string `json:"data"`
		} `json:"inline_data"`
		FunctionCall *struct {
			ID   string          `json:"id"`
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"function_call"`
	} `json:"parts"`
}

func BenchmarkAnthropicBody(b *testing.B) {
	benchParse(b, Anthropic, benchBody(b, Anthropic), func() any { return new(anthropicShape) })
}

func BenchmarkGeminiBody(b *testing.B) {
	benchParse(b, Gemini, benchBody(b, Gemini), func() any { return new(geminiShape) })
}
