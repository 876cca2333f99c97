package provider_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/provider"
)

// conversation is a system prompt, a question, a tool call and its result.
func conversation() []promptfmt.Message {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		promptfmt.NewMessage("system", "Be brief."),
		promptfmt.NewMessage("user", "Weather in Oslo?"),
		{Role: "assistant", Content: []promptfmt.ContentPart{
			{Kind: promptfmt.KindToolCall, ID: "call_1", ToolName: "weather", Value: `{"city":"Oslo"}`},
		}},
		{Role: "tool", Content: []promptfmt.ContentPart{
			{Kind: promptfmt.KindToolResult, ID: "call_1", Value: "4°C, rain"},
		}},
	}}
	return doc.LLMMessages()
}

func show(v any) {
	enc := json.NewEncoder(os.Stdout)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		fmt.Println(err)
	}
}

func ExampleOpenAI() {
	req, err := provider.OpenAI(conversation())
	if err != nil {
		fmt.Println(err)
		return
	}
	// The rest of the body is the caller's.
	show(struct {
		Model string `json:"model"`
		*provider.OpenAIRequest
	}{"gpt-4o", req})
	// Output:
	// {"model":"gpt-4o","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":"Weather in Oslo?"},{"role":"assistant","tool_calls":[{"id":"call_1","type":"function","function":{"name":"weather","arguments":"{\"city\":\"Oslo\"}"}}]},{"role":"tool","tool_call_id":"call_1","content":"4°C, rain"}]}
}

func ExampleAnthropic() {
	req, err := provider.Anthropic(conversation())
	if err != nil {
		fmt.Println(err)
		return
	}
	show(req)
	// Output:
	// {"system":"Be brief.","messages":[{"role":"user","content":[{"type":"text","text":"Weather in Oslo?"}]},{"role":"assistant","content":[{"type":"tool_use","id":"call_1","name":"weather","input":{"city":"Oslo"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"call_1","content":"4°C, rain"}]}]}
}

func ExampleGemini() {
	req, err := provider.Gemini(conversation())
	if err != nil {
		fmt.Println(err)
		return
	}
	show(req)
	// Output:
	// {"system_instruction":{"parts":[{"text":"Be brief."}]},"contents":[{"role":"user","parts":[{"text":"Weather in Oslo?"}]},{"role":"model","parts":[{"function_call":{"id":"call_1","name":"weather","args":{"city":"Oslo"}}}]},{"role":"user","parts":[{"function_response":{"id":"call_1","name":"weather","response":{"output":"4°C, rain"}}}]}]}
}

// Export refuses what a provider cannot express, naming every problem.
func ExampleExport() {
	msgs := []promptfmt.Message{
		{Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{promptfmt.Text("Hi")}, Line: 3},
		{Role: "critic", Content: []promptfmt.ContentPart{promptfmt.Text("Too short.")}, Line: 5},
	}
	for _, name := range provider.Names() {
		req, err := provider.Export(name, msgs)
		if err != nil {
			fmt.Println(err)
			continue
		}
		show(req)
	}
	// Output:
	// openai: message 2 (line 5): role "critic" has no OpenAI equivalent
	// anthropic: message 1 (line 3): a name ("Ross") cannot be expressed
	// anthropic: message 2 (line 5): role "critic" has no Anthropic equivalent
	// gemini: message 1 (line 3): a name ("Ross") cannot be expressed
	// gemini: message 2 (line 5): role "critic" has no Gemini equivalent
}
