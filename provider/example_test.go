package provider_test

import (
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/provider"
)

// conversation is a system prompt, a question, a tool call and its result,
// with the settings of the request.
func conversation() *promptfmt.Document {
	temperature, maxTokens := 0.2, int64(256)
	return &promptfmt.Document{
		Request: promptfmt.Request{Model: "gpt-4o", Temperature: &temperature, MaxTokens: &maxTokens},
		Messages: []promptfmt.Message{
			promptfmt.NewMessage("system", "Be brief."),
			promptfmt.NewMessage("user", "Weather in Oslo?"),
			{Role: "assistant", Content: []promptfmt.ContentPart{
				{Kind: promptfmt.KindToolCall, ID: "call_1", ToolName: "weather", Value: `{"city":"Oslo"}`},
			}},
			{Role: "tool", Content: []promptfmt.ContentPart{
				{Kind: promptfmt.KindToolResult, ID: "call_1", Value: "4°C, rain"},
			}},
		},
	}
}

// A document written as a whole Chat Completions request body.
func Example_openAI() {
	if err := provider.OpenAI.Write(os.Stdout, conversation()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "model": "gpt-4o",
	//   "messages": [
	//     {
	//       "role": "system",
	//       "content": "Be brief."
	//     },
	//     {
	//       "role": "user",
	//       "content": "Weather in Oslo?"
	//     },
	//     {
	//       "role": "assistant",
	//       "tool_calls": [
	//         {
	//           "id": "call_1",
	//           "type": "function",
	//           "function": {
	//             "name": "weather",
	//             "arguments": "{\"city\":\"Oslo\"}"
	//           }
	//         }
	//       ]
	//     },
	//     {
	//       "role": "tool",
	//       "tool_call_id": "call_1",
	//       "content": "4°C, rain"
	//     }
	//   ],
	//   "temperature": 0.2,
	//   "max_completion_tokens": 256
	// }
}

// Reading a request body gives the messages and the settings.
func Example_parse() {
	body := []byte(`{"model": "gpt-4o-mini", "temperature": 0.7, "user": "u-42",
  "messages": [{"role": "developer", "content": "Answer in French."},
               {"role": "user", "content": [{"type": "text", "text": "Hello"},
                 {"type": "image_url", "image_url": {"url": "https://example.com/cat.png", "detail": "low"}}]}]}`)
	doc, err := provider.OpenAI.Parse(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Request.Model, *doc.Request.Temperature, doc.Meta["user"])
	for _, m := range doc.Messages {
		for _, p := range m.Content {
			fmt.Printf("%s (line %d): %s %q\n", m.Role, m.Line, p.Kind, p.Value+" "+p.Detail)
		}
	}
	// Output:
	// gpt-4o-mini 0.7 u-42
	// developer (line 2): text "Answer in French. "
	// user (line 3): text "Hello "
	// user (line 3): image "https://example.com/cat.png low"
}

// A writer refuses what its provider cannot express, naming every problem.
func Example_refusals() {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		{Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{promptfmt.Text("Hi")}, Line: 3},
		{Role: "critic", Content: []promptfmt.ContentPart{promptfmt.Text("Too short.")}, Line: 5},
	}}
	for _, f := range []promptfmt.Format{provider.OpenAI, provider.Anthropic, provider.Gemini} {
		if err := f.Write(os.Stdout, doc, promptfmt.Send()); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// openai: message 2 (line 5): role "critic" has no OpenAI equivalent
	// anthropic: message 1 (line 3): a name ("Ross") cannot be expressed
	// anthropic: message 2 (line 5): role "critic" has no Anthropic equivalent
	// gemini: message 1 (line 3): a name ("Ross") cannot be expressed
	// gemini: message 2 (line 5): role "critic" has no Gemini equivalent
}

// Reading a Messages body: the system prompt is the first message, and a
// block's cache_control is kept in the message's metadata.
func Example_anthropic() {
	body := []byte(`{"model": "claude-sonnet-4-5", "max_tokens": 512,
  "system": [{"type": "text", "text": "Be brief.", "cache_control": {"type": "ephemeral"}}],
  "messages": [{"role": "user", "content": "Weather in Oslo?"}]}`)
	doc, err := provider.Anthropic.Parse(body)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(doc.Request.Model, *doc.Request.MaxTokens)
	for _, m := range doc.Messages {
		fmt.Println(m.Role, m.Text(), m.Metadata)
	}
	// Output:
	// claude-sonnet-4-5 512
	// system Be brief. map[content.0.cache_control:map[type:ephemeral]]
	// user Weather in Oslo? map[]
}

// A conversation sent as a Gemini body: the tool message's result is a
// function response in a user content, named after the call it answers.
func Example_gemini() {
	doc := conversation()
	doc.Request.Model = "models/gemini-2.5-flash"
	if err := provider.Gemini.Write(os.Stdout, doc.ForModel(), promptfmt.Send()); err != nil {
		fmt.Println(err)
	}
	// Output:
	// {
	//   "model": "models/gemini-2.5-flash",
	//   "system_instruction": {
	//     "parts": [
	//       {
	//         "text": "Be brief."
	//       }
	//     ]
	//   },
	//   "contents": [
	//     {
	//       "role": "user",
	//       "parts": [
	//         {
	//           "text": "Weather in Oslo?"
	//         }
	//       ]
	//     },
	//     {
	//       "role": "model",
	//       "parts": [
	//         {
	//           "function_call": {
	//             "id": "call_1",
	//             "name": "weather",
	//             "args": {
	//               "city": "Oslo"
	//             }
	//           }
	//         }
	//       ]
	//     },
	//     {
	//       "role": "user",
	//       "parts": [
	//         {
	//           "function_response": {
	//             "id": "call_1",
	//             "name": "weather",
	//             "response": {
	//               "output": "4°C, rain"
	//             }
	//           }
	//         }
	//       ]
	//     }
	//   ],
	//   "generation_config": {
	//     "temperature": 0.2,
	//     "max_output_tokens": 256
	//   }
	// }
}

// Missing names what an API requires of a request that the document does
// not set: here Anthropic's max_tokens, which a file for another
// provider seldom says.
func ExampleMissing() {
	doc := &promptfmt.Document{Request: promptfmt.Request{Model: "claude-sonnet-4-5"}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "Hi")}}
	fmt.Println(provider.Missing(provider.Anthropic, doc.Request))
	fmt.Println(provider.Missing(provider.OpenAI, doc.Request))
	// Output:
	// [max_tokens]
	// []
}
