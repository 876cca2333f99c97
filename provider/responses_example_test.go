package provider_test

import (
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt/provider"
)

// A document written as a whole Responses API request body: the system
// message is its instructions, the tool call and result are items.
func Example_openAIResponses() {
	if err := provider.OpenAIResponses.Write(os.Stdout, conversation()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "model": "gpt-4o",
	//   "instructions": "Be brief.",
	//   "input": [
	//     {
	//       "type": "message",
	//       "role": "user",
	//       "content": "Weather in Oslo?"
	//     },
	//     {
	//       "type": "function_call",
	//       "call_id": "call_1",
	//       "name": "weather",
	//       "arguments": "{\"city\":\"Oslo\"}"
	//     },
	//     {
	//       "type": "function_call_output",
	//       "call_id": "call_1",
	//       "output": "4°C, rain"
	//     }
	//   ],
	//   "temperature": 0.2,
	//   "max_output_tokens": 256
	// }
}

// Reading a Responses body: instructions are a first system message, a
// function_call joins the assistant message before it, a reasoning item
// is a hidden message, never sent to a model.
func Example_parseResponses() {
	body := []byte(`{"model": "o4-mini", "instructions": "Use tools.", "store": false,
  "input": [{"role": "user", "content": "Weather in Paris?"},
            {"type": "reasoning", "id": "rs_1", "summary": []},
            {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "weather", "arguments": "{\"city\":\"Paris\"}"},
            {"type": "function_call_output", "call_id": "call_1", "output": "16°C"}]}`)
	doc, err := provider.OpenAIResponses.Parse(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Request.Model, doc.Meta["store"])
	for _, m := range doc.Messages {
		fmt.Printf("%s (line %d):", m.Role, m.Line)
		for _, p := range m.Content {
			fmt.Printf(" %s %q", p.Kind, p.Value)
		}
		fmt.Println()
	}
	fmt.Println(len(doc.LLMMessages()), "messages are sent")
	// Output:
	// o4-mini false
	// system (line 1): text "Use tools."
	// user (line 2): text "Weather in Paris?"
	// _reasoning (line 3): text ""
	// assistant (line 4): tool_call "{\"city\":\"Paris\"}"
	// tool (line 5): tool_result "16°C"
	// 4 messages are sent
}
