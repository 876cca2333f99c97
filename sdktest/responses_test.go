package sdktest

import (
	"encoding/json"
	"testing"

	"github.com/openai/openai-go/v3/responses"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/provider"
)

// TestOpenAIResponses: every Responses body decodes into
// responses.ResponseNewParams and encodes back the same.
func TestOpenAIResponses(t *testing.T) {
	n := 0
	for name, body := range bodies(t, provider.OpenAIResponses) {
		if p := responsesProblem(t, body); p != "" {
			t.Errorf("%s: %s\n%s", name, p, body)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d bodies checked", n)
	}
}

// responsesProblem says how openai-go reads body otherwise, "" for not.
func responsesProblem(t *testing.T, body []byte) string {
	body = typedItems(t, body)
	var p responses.ResponseNewParams
	if err := json.Unmarshal(body, &p); err != nil {
		return "the SDK refuses the body: " + err.Error()
	}
	back, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	body = withoutMembers(t, body, "stream")
	// {"type":"function","name"}, as the Chat's (functionChoice): checked
	// against ToolChoiceFunctionParam.
	body, back, p2 := functionChoice(t, body, back, &responses.ToolChoiceFunctionParam{})
	if p2 != "" {
		return p2
	}
	if diff := jsonDiff(body, back); diff != "" {
		return "the SDK reads the body otherwise (an unknown or mistyped member): " + diff
	}
	return ""
}

// typedItems gives each input item of body that has a role and no type
// the type "message": the API takes such an item (an EasyInputMessage),
// and promptfmt writes one back so when the body read had it, but the
// SDK's decoder tells its items apart by their type and drops one without.
func typedItems(t *testing.T, body []byte) []byte {
	v, err := jsonvalue.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if items, ok := v.(map[string]any)["input"].([]any); ok {
		for _, it := range items {
			m, ok := it.(map[string]any)
			if !ok {
				continue
			}
			if m["type"] == nil && m["role"] != nil {
				m["type"] = "message"
			}
			// Two more the SDK's decoder cannot tell (the docs' own
			// bodies have them): a member set to null, which it leaves
			// out, and an earlier output message (id, status), which it
			// reads as an input message.
			for k, x := range m {
				if x == nil {
					delete(m, k)
				}
			}
			if m["type"] == "message" && m["role"] == "assistant" {
				delete(m, "id")
				delete(m, "status")
			}
		}
	}
	out, err := jsonvalue.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
