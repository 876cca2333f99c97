package sdktest

import (
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/promptfmt/promptfmt/provider"
)

// TestOpenAIChat: every Chat Completions body decodes into
// openai.ChatCompletionNewParams and encodes back the same.
func TestOpenAIChat(t *testing.T) {
	n := 0
	for name, body := range bodies(t, provider.OpenAI) {
		if p := openAIProblem(t, body); p != "" {
			t.Errorf("%s: %s\n%s", name, p, body)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d bodies checked", n)
	}
}

// openAIProblem says how openai-go reads body otherwise, "" for not.
func openAIProblem(t *testing.T, body []byte) string {
	var p openai.ChatCompletionNewParams
	if err := json.Unmarshal(body, &p); err != nil {
		return "the SDK refuses the body: " + err.Error()
	}
	back, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	body = withoutMembers(t, body, "stream")
	// openai-go v3.98.0 decodes {"type":"function","function":{"name"}}
	// into no variant of its union, and writes {"type":"function"} back:
	// the SDK's loss, not the body's. Such a tool_choice is checked
	// against the variant's type, ChatCompletionNamedToolChoiceParam.
	body, back, p2 := functionChoice(t, body, back, &openai.ChatCompletionNamedToolChoiceParam{})
	if p2 != "" {
		return p2
	}
	if diff := jsonDiff(body, back); diff != "" {
		return "the SDK reads the body otherwise (an unknown or mistyped member): " + diff
	}
	return ""
}

// functionChoice: when body's tool_choice names a function (its type is
// "function"), which openai-go's tool choice unions decode into none of
// their variants, it checks it by decoding it into variant, the SDK's
// type for that form, and encoding it back; it returns body and back
// without tool_choice then, and what differs.
func functionChoice(t *testing.T, body, back []byte, variant any) (b1, b2 []byte, problem string) {
	var m struct {
		ToolChoice json.RawMessage `json:"tool_choice"`
	}
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	var c struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(m.ToolChoice, &c) != nil || c.Type != "function" {
		return body, back, ""
	}
	if err := json.Unmarshal(m.ToolChoice, variant); err != nil {
		return body, back, "the SDK refuses the tool_choice: " + err.Error()
	}
	v, err := json.Marshal(variant)
	if err != nil {
		t.Fatal(err)
	}
	if diff := jsonDiff(m.ToolChoice, v); diff != "" {
		return body, back, "the SDK reads the tool_choice otherwise (an unknown or mistyped member): " + diff
	}
	return withoutMembers(t, body, "tool_choice"), withoutMembers(t, back, "tool_choice"), ""
}
