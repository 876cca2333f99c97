package sdktest

import (
	"strings"
	"testing"
)

// TestChecksCatch: each SDK check fails a body with a member the SDK does
// not have, of a type it does not take, or in a place it does not put it,
// as promptfmt might write by mistake; and lets the well-formed body they
// are made from pass (so that it is the mistake that fails it). A check
// that let these pass would let promptfmt's bodies pass unread.
func TestChecksCatch(t *testing.T) {
	type bad struct{ body, want string }
	sdk := newGeminiSDK(t)
	checks := []struct {
		name  string
		check func([]string) []string
		good  string
		bad   []bad
	}{{
		name: "openai", check: each(t, openAIProblem),
		good: `{"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":{"type":"function","function":{"name":"f"}}}`,
		bad: []bad{
			{`{"model":"m","messages":[{"role":"user","content":"hi"}],"max_token":5}`, "$.max_token is not kept"},
			{`{"model":"m","messages":[{"role":"user","content":"hi"}],"n":"2"}`, "$.n"},
			{`{"model":"m","messages":[{"role":"user","content":"hi","tool_call_id":"c"}]}`, "tool_call_id"},
			{`{"model":"m","messages":[{"role":"user","content":"hi"}],"tool_choice":{"type":"function","name":"f"}}`, "tool_choice"},
		},
	}, {
		name: "openai-responses", check: each(t, responsesProblem),
		good: `{"model":"m","input":[{"role":"user","content":"hi"}],"tool_choice":{"type":"function","name":"f"}}`,
		bad: []bad{
			{`{"model":"m","input":"hi","max_tokens":5}`, "$.max_tokens is not kept"},
			{`{"model":"m","input":[{"role":"user","content":[{"type":"input_text","text":"hi","detail":"low"}]}]}`, "detail"},
			{`{"model":"m","input":"hi","tool_choice":{"type":"function","function":{"name":"f"}}}`, "tool_choice"},
		},
	}, {
		name: "anthropic", check: func(bodies []string) []string { return anthropicProblems(t, asBytes(bodies)) },
		good: `{"model":"m","max_tokens":5,"temperature":0.5,"system":"s","messages":[{"role":"user","content":"hi"},` +
			`{"role":"assistant","content":[{"type":"tool_use","id":"c","name":"f","input":{"a":1}}]},` +
			`{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","content":"r"}]}]}`,
		bad: []bad{
			{`{"model":"m","max_tokens":5,"stop":["x"],"messages":[{"role":"user","content":"hi"}]}`, "$.stop is not kept"},
			{`{"model":"m","max_tokens":"5","messages":[{"role":"user","content":"hi"}]}`, `max_tokens: a string "5"`},
			{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"hi","name":"n"}]}`, "name"},
			{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"c","is_error":"yes"}]}]}`, "is_error"},
			{`{"model":"m","max_tokens":5,"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","mime_type":"image/png","data":"aGk="}}]}]}`, "mime_type"},
		},
	}, {
		name: "gemini", check: each(t, func(t *testing.T, b []byte) string { return geminiProblem(t, sdk, b) }),
		good: `{"model":"models/m","system_instruction":{"parts":{"text":"s"}},"contents":[{"role":"user","parts":[{"text":"hi"},` +
			`{"inline_data":{"mime_type":"image/png","data":"aGk="}}]},{"role":"model","parts":[{"function_call":{"name":"f","args":{"a_b":1}}}]}],` +
			`"tools":[{"function_declarations":[{"name":"f","parameters_json_schema":{"type":"object","additionalProperties":false}}]}],` +
			`"tool_config":{"function_calling_config":{"mode":"ANY"}},"generation_config":{"temperature":0.5,"max_output_tokens":0,"response_mime_type":"application/json"}}`,
		bad: []bad{
			{`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generation_config":{"temprature":0.5}}`, "temprature is not kept"},
			{`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"temperature":0.5}`, "$.generationConfig is added"},
			{`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"tools":[{"functionDeclarations":[{"name":"f"}]}]}}`, "tools"},
			{`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"maxOutputTokens":"5"}}`, "maxOutputTokens"},
			{`{"contents":[{"role":"user","parts":[{"text":"hi","mime_type":"text/plain"}]}]}`, "mimeType is not kept"},
			{`{"contents":[{"role":"user","parts":[{"inlineData":{"mimeType":"image/png","data":"not base64!"}}]}]}`, "base64"},
			{`{"contents":[{"role":"user","parts":[{"functionCall":{"name":"f","args":"{}"}}]}]}`, "args"},
			{`{"model":5,"contents":[{"role":"user","parts":[{"text":"hi"}]}]}`, "model"},
			{`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"store":true,"outputConfig":{}}`, "refuses the request"},
		},
	}}
	for _, c := range checks {
		bodies := []string{c.good}
		for _, b := range c.bad {
			bodies = append(bodies, b.body)
		}
		got := c.check(bodies)
		if got[0] != "" {
			t.Errorf("%s: the well-formed body fails: %s\n%s", c.name, got[0], c.good)
		}
		for i, b := range c.bad {
			if p := got[i+1]; !strings.Contains(p, b.want) || p == "" {
				t.Errorf("%s: got %q, want a problem naming %q\n%s", c.name, p, b.want, b.body)
			}
		}
	}
}

// each makes a check of bodies from a check of one.
func each(t *testing.T, problem func(*testing.T, []byte) string) func([]string) []string {
	return func(bodies []string) []string {
		out := make([]string, len(bodies))
		for i, b := range bodies {
			out[i] = problem(t, []byte(b))
		}
		return out
	}
}

func asBytes(ss []string) [][]byte {
	out := make([][]byte, len(ss))
	for i, s := range ss {
		out[i] = []byte(s)
	}
	return out
}
