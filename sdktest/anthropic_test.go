package sdktest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"testing"

	"github.com/promptfmt/promptfmt/provider"
)

// anthropicSDK is what the command in anthropic/ says one major version
// of anthropic-sdk-go makes of the bodies it is given.
type anthropicSDK struct {
	Fields map[string][]string `json:"fields"` // JSON names of the fields, by type
	Bodies []struct {
		JSON  string `json:"json"`  // the body decoded and encoded again
		Error string `json:"error"` // or why the SDK could not
	} `json:"bodies"`
}

// anthropicSampling are the members API version 2026-10-21, which
// anthropic-sdk-go v2 sends, removed (v2's MessageNewParams has no field
// for them); version 2023-06-01, v1's, takes them, and promptfmt writes
// them (provider's "Decision (sampling)").
var anthropicSampling = []string{"temperature", "top_k", "top_p"}

// runAnthropic gives bodies to anthropic-sdk-go v1 and v2: the command in
// anthropic/, a module of its own (its doc comment says why), run with go
// run. The result is by major version, "v1" and "v2".
func runAnthropic(t *testing.T, bodies [][]byte) map[string]anthropicSDK {
	t.Helper()
	texts := make([]string, len(bodies))
	for i, b := range bodies {
		texts[i] = string(b)
	}
	in, err := json.Marshal(texts)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", ".")
	cmd.Dir = "anthropic"
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go run ./anthropic: %v\n%s", err, stderr.Bytes())
	}
	var res map[string]anthropicSDK
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("go run ./anthropic: %v", err)
	}
	for _, v := range []string{"v1", "v2"} {
		if len(res[v].Bodies) != len(bodies) || len(res[v].Fields) == 0 {
			t.Fatalf("go run ./anthropic: %s answered %d bodies of %d, %d types", v, len(res[v].Bodies), len(bodies), len(res[v].Fields))
		}
	}
	return res
}

// TestAnthropic: every Messages body decodes into anthropic-sdk-go's
// MessageNewParams, v1 (v1.84.0) and v2 (v2.15.0), and encodes back the
// same, but for the documented exceptions. Both versions: v1 is the one
// that takes every member promptfmt writes (v2 has no temperature, top_k
// or top_p); v2 is the newest API, whose types must take the rest alike.
func TestAnthropic(t *testing.T) {
	names, bodies := sorted(bodies(t, provider.Anthropic))
	for i, p := range anthropicProblems(t, bodies) {
		if p != "" {
			t.Errorf("%s: %s\n%s", names[i], p, bodies[i])
		}
	}
	if len(bodies) < 50 {
		t.Fatalf("only %d bodies checked", len(bodies))
	}
}

// anthropicProblems says, for each body, how anthropic-sdk-go v1 or v2
// reads it otherwise, "" for not.
func anthropicProblems(t *testing.T, bodies [][]byte) []string {
	res := runAnthropic(t, bodies)
	problems := make([]string, len(bodies))
	for i, body := range bodies {
		for _, v := range []string{"v1", "v2"} {
			r := res[v].Bodies[i]
			if r.Error != "" {
				problems[i] = fmt.Sprintf("anthropic-sdk-go %s refuses the body: %s", v, r.Error)
				break
			}
			back := edited(t, []byte(r.JSON), func(m map[string]any) {
				// MaxTokens is required (an int64 the SDK always
				// writes): a body without max_tokens (the document set
				// no limit; a message list sent alone has none) comes
				// back with 0. Only that 0 is let pass.
				if _, ok := m["max_tokens"]; ok && !hasMember(t, body, "max_tokens") && numbersEqual(m["max_tokens"], int64(0)) {
					delete(m, "max_tokens")
				}
			})
			if diff := jsonDiff(anthropicExpected(t, body, v), back); diff != "" {
				problems[i] = fmt.Sprintf("anthropic-sdk-go %s reads the body otherwise (an unknown or mistyped member): %s", v, diff)
				break
			}
		}
	}
	return problems
}

// anthropicExpected is body as the SDK of major version v must give it
// back: without stream (the SDK's streaming call sets it), without
// temperature, top_k and top_p for v2 (see anthropicSampling), and with
// the API's string shorthands as the one text block they stand for (the
// SDK's System, MessageParam.Content and ToolResultBlockParam.Content are
// arrays of blocks: it decodes a string as that block).
func anthropicExpected(t *testing.T, body []byte, v string) []byte {
	return edited(t, body, func(m map[string]any) {
		delete(m, "stream")
		if v == "v2" {
			for _, k := range anthropicSampling {
				delete(m, k)
			}
		}
		textBlocks(m, "system")
		turns, _ := m["messages"].([]any)
		for _, turn := range turns {
			turn, _ := turn.(map[string]any)
			textBlocks(turn, "content")
			blocks, _ := turn["content"].([]any)
			for _, b := range blocks {
				if b, ok := b.(map[string]any); ok && b["type"] == "tool_result" {
					textBlocks(b, "content")
				}
			}
		}
	})
}

// textBlocks makes the string member k of m, where there is one, the one
// text block it stands for.
func textBlocks(m map[string]any, k string) {
	if s, ok := m[k].(string); ok {
		m[k] = []any{map[string]any{"type": "text", "text": s}}
	}
}

// hasMember reports whether the JSON object body has the member k.
func hasMember(t *testing.T, body []byte, k string) bool {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	_, ok := m[k]
	return ok
}
