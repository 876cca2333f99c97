package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// responsesBenchDoc is the shared benchmark conversation as a Responses
// body holds it: no names; every fourth assistant turn calls a tool, whose
// result follows; every fifth user turn shows an image; a model, a
// temperature and the tool.
func responsesBenchDoc() *promptfmt.Document {
	conv := corpus.Conversation(formattest.BenchSize).ForModel()
	temp := 0.3
	doc := &promptfmt.Document{Request: promptfmt.Request{Model: "gpt-4.1", Temperature: &temp, Tools: []promptfmt.Tool{{
		Name: "kubectl", Description: "Runs a read-only kubectl command.", Strict: true,
		Parameters: map[string]any{"type": "object", "properties": map[string]any{"args": map[string]any{"type": "string"}}}}}}}
	for i, m := range conv.Messages {
		m.Name = ""
		switch {
		case m.Role == "assistant" && i%8 == 2:
			id := fmt.Sprintf("call_%d", i)
			m.Content = append(m.Content, promptfmt.ContentPart{Kind: promptfmt.KindToolCall, ID: id, ToolName: "kubectl", Value: `{"args":"get pods -n staging"}`})
			doc.Messages = append(doc.Messages, m, promptfmt.Message{Role: "tool",
				Content: []promptfmt.ContentPart{{Kind: promptfmt.KindToolResult, ID: id, Value: "NAME READY STATUS\napi-7d9 0/1 CrashLoopBackOff"}}})
			continue
		case m.Role == "user" && i%10 == 1:
			m.Content = append(m.Content, promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://example.com/dashboards/latency.png", Detail: "low"})
		}
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

// The body's shape as a program would decode it with encoding/json.
type (
	benchResponsesBody struct {
		Model        string               `json:"model"`
		Instructions string               `json:"instructions"`
		Input        []benchResponsesItem `json:"input"`
		Temperature  *float64             `json:"temperature"`
		Tools        []struct {
			Type        string         `json:"type"`
			Name        string         `json:"name"`
			Description string         `json:"description"`
			Parameters  map[string]any `json:"parameters"`
			Strict      *bool          `json:"strict"`
		} `json:"tools"`
	}
	benchResponsesItem struct {
		Type      string                `json:"type"`
		Role      string                `json:"role"`
		Content   benchResponsesContent `json:"content"`
		CallID    string                `json:"call_id"`
		Name      string                `json:"name"`
		Arguments string                `json:"arguments"`
		Output    string                `json:"output"`
	}
	// benchResponsesContent is a string or parts, as the API's union.
	benchResponsesContent struct {
		Text  string
		Parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL string `json:"image_url"`
			Detail   string `json:"detail"`
		}
	}
)

func (c *benchResponsesContent) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &c.Text)
	}
	return json.Unmarshal(b, &c.Parts)
}

// BenchmarkResponses: Parse beside encoding/json decoding the same body
// into a struct of its shape (which reads no positions and checks no
// mapping), and Write, in bytes of the body.
func BenchmarkResponses(b *testing.B) {
	doc := responsesBenchDoc()
	var buf bytes.Buffer
	if err := OpenAIResponses.Write(&buf, doc); err != nil {
		b.Fatal(err)
	}
	src := buf.Bytes()
	b.Run("Parse", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := OpenAIResponses.Parse(src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("EncodingJSON", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			var body benchResponsesBody
			if err := json.Unmarshal(src, &body); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("Write", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		var out bytes.Buffer
		for b.Loop() {
			out.Reset()
			if err := OpenAIResponses.Write(&out, doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// The benchmark's body is what it says: every item kind, read back whole.
func TestResponsesBenchBody(t *testing.T) {
	doc := responsesBenchDoc()
	var buf bytes.Buffer
	if err := OpenAIResponses.Write(&buf, doc); err != nil {
		t.Fatal(err)
	}
	back, err := OpenAIResponses.Parse(buf.Bytes())
	if err != nil || !promptfmt.Equal(doc, back) {
		t.Fatalf("the benchmark body does not read back: %v", err)
	}
	var body benchResponsesBody
	if err := json.Unmarshal(buf.Bytes(), &body); err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, it := range body.Input {
		kinds[it.Type+it.Role]++
		if len(it.Content.Parts) > 0 {
			kinds["parts"]++
		}
	}
	for _, k := range []string{"messageuser", "messageassistant", "function_call", "function_call_output", "parts"} {
		if kinds[k] == 0 {
			t.Errorf("no %s item in %v", k, kinds)
		}
	}
	if body.Instructions == "" || len(body.Tools) != 1 {
		t.Error("no instructions or tool")
	}
}
