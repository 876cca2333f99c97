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
		var p openai.ChatCompletionNewParams
		if err := json.Unmarshal(body, &p); err != nil {
			t.Errorf("%s: the SDK refuses the body: %v\n%s", name, err, body)
			continue
		}
		back, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if diff := jsonDiff(withoutMembers(t, body, "stream"), back); diff != "" {
			t.Errorf("%s: the SDK reads the body otherwise (an unknown or mistyped member): %s\n%s", name, diff, body)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d bodies checked", n)
	}
}
