package provider

import (
	"testing"

	"github.com/promptfmt/promptfmt"
)

// The payloads of Anthropic's SDK (testdata/anthropic/SOURCE.md) read as
// their .want says, and are written back the same but for the API's
// shorthand: one plain text block as a string, a custom tool's type.
func TestAnthropicPayloads(t *testing.T) {
	testDocPayloads(t, Anthropic, anthropicShorthand)
}

// anthropicShorthand is a body as Write writes it: a content, system
// prompt or result of one plain text block as its text; a tool's type
// "custom", its default, left out.
func anthropicShorthand(v any) any {
	body := v.(map[string]any)
	oneText := func(c any) any {
		if a, ok := c.([]any); ok && len(a) == 1 {
			if b, ok := a[0].(map[string]any); ok && len(b) == 2 && b["type"] == "text" {
				if s, ok := b["text"].(string); ok {
					return s
				}
			}
		}
		return c
	}
	if s, ok := body["system"]; ok {
		body["system"] = oneText(s)
	}
	if msgs, ok := body["messages"].([]any); ok {
		for _, m := range msgs {
			m := m.(map[string]any)
			m["content"] = oneText(m["content"])
			if blocks, ok := m["content"].([]any); ok {
				for _, b := range blocks {
					if b := b.(map[string]any); b["type"] == "tool_result" && b["content"] != nil {
						b["content"] = oneText(b["content"])
					}
				}
			}
		}
	}
	if tools, ok := body["tools"].([]any); ok {
		held := true // a list the Request holds is written without "custom"
		for _, tool := range tools {
			for k := range tool.(map[string]any) {
				held = held && (k == "type" || k == "name" || k == "description" || k == "input_schema" || k == "strict")
			}
		}
		for _, tool := range tools {
			if tool := tool.(map[string]any); held && tool["type"] == "custom" {
				delete(tool, "type")
			}
		}
	}
	return body
}

func TestParseAnthropic(t *testing.T) {
	png := "iVBORw0KGgo="
	meta := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	ephemeral := map[string]any{"type": "ephemeral"}
	testParse(t, Anthropic, []parseCase{{
		name: "system as a string, content as a string",
		body: `{"system": "Be brief.", "messages": [{"role": "user", "content": "Hi"}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("system", text("Be brief.")), msg("user", text("Hi"))}},
	}, {
		name: "system as text blocks is one message; a block's cache_control",
		body: `{"messages": [], "system": [{"type": "text", "text": "A"},
			{"type": "text", "text": "B", "cache_control": {"type": "ephemeral"}}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: "system", Content: []promptfmt.ContentPart{text("A"), text("B")},
				Metadata: meta("content.1.cache_control", ephemeral)}}},
	}, {
		name: "images and documents: base64, url, file; a document's title",
		body: `{"messages": [{"role": "user", "content": [
			{"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "` + png + `"}},
			{"type": "image", "source": {"type": "url", "url": "https://example.com/a.jpg"}},
			{"type": "image", "source": {"type": "file", "file_id": "file_01"}},
			{"type": "document", "source": {"type": "base64", "media_type": "application/pdf", "data": "JVBERi0xLjcK"}, "title": "q3.pdf"},
			{"type": "document", "source": {"type": "url", "url": "https://example.com/q3.pdf"}, "context": "Q3", "citations": {"enabled": true}},
			{"type": "document", "source": {"type": "file", "file_id": "file_02"}}]}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{
			image(png, "image/png"),
			{Kind: promptfmt.KindImage, Value: "https://example.com/a.jpg"},
			{Kind: promptfmt.KindImage, ID: "file_01"},
			{Kind: promptfmt.KindFile, Value: "JVBERi0xLjcK", MediaType: "application/pdf", Filename: "q3.pdf"},
			{Kind: promptfmt.KindFile, Value: "https://example.com/q3.pdf"},
			{Kind: promptfmt.KindFile, ID: "file_02"},
		}, Metadata: meta("content.4.context", "Q3", "content.4.citations", map[string]any{"enabled": true})}}},
	}, {
		name: "tool_use input as compact JSON; tool_result as a string, one text block, or none; is_error",
		body: `{"messages": [
			{"role": "assistant", "content": [{"type": "text", "text": "Checking."},
				{"type": "tool_use", "id": "toolu_1", "name": "weather", "input": {"city": "Oslo", "days": [1, 2]}},
				{"type": "tool_use", "id": "toolu_2", "name": "clock", "input": {}}]},
			{"role": "user", "content": [
				{"type": "tool_result", "tool_use_id": "toolu_1", "content": "4°C"},
				{"type": "tool_result", "tool_use_id": "toolu_2", "content": [{"type": "text", "text": "09:30"}], "is_error": false},
				{"type": "tool_result", "tool_use_id": "toolu_3"}]}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("assistant", text("Checking."), call("toolu_1", "weather", `{"city":"Oslo","days":[1,2]}`), call("toolu_2", "clock", `{}`)),
			{Role: "user", Content: []promptfmt.ContentPart{result("toolu_1", "", "4°C"), result("toolu_2", "", "09:30"), result("toolu_3", "", "")},
				Metadata: meta("content.1.is_error", false)},
		}},
	}, {
		name: "turns of one role stay apart; a message member is metadata; no content is empty text",
		body: `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b", "id": "m2"},
			{"role": "assistant", "content": []}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("user", text("a")), {Role: "user", Content: []promptfmt.ContentPart{text("b")}, Metadata: meta("id", "m2")},
			msg("assistant", text(""))}},
		writeErr: "anthropic: message 3 (line 2): an empty message cannot be expressed (Anthropic refuses empty text)",
	}, {
		name: "the request's settings; other members in Meta",
		body: `{"model": "claude-sonnet-4-5", "max_tokens": 1024, "temperature": 0.5, "top_p": 0.9, "top_k": 40,
			"stop_sequences": ["END"], "stream": true, "metadata": {"user_id": "u1"}, "messages": [],
			"tools": [{"name": "weather", "description": "The weather", "input_schema": {"type": "object"}, "strict": true},
				{"type": "custom", "name": "clock", "input_schema": {"type": "object", "properties": {}}}],
			"tool_choice": {"type": "tool", "name": "weather"},
			"output_config": {"effort": "low", "format": {"type": "json_schema", "schema": {"type": "object"}}}}`,
		want: &promptfmt.Document{
			Request: promptfmt.Request{Model: "claude-sonnet-4-5", MaxTokens: ptr(int64(1024)), Temperature: ptr(0.5),
				TopP: ptr(0.9), TopK: ptr(int64(40)), Stop: []string{"END"},
				Tools: []promptfmt.Tool{
					{Name: "weather", Description: "The weather", Parameters: map[string]any{"type": "object"}, Strict: true},
					{Name: "clock", Parameters: map[string]any{"type": "object", "properties": map[string]any{}}}},
				ToolChoice: &promptfmt.ToolChoice{Mode: "required", Tool: "weather"},
				Output:     &promptfmt.Output{Schema: map[string]any{"type": "object"}, Strict: true}},
			Meta: meta("stream", true, "metadata", map[string]any{"user_id": "u1"}, "output_config", map[string]any{"effort": "low"})},
	}, {
		name: "settings the Request cannot hold exactly stay in Meta as written",
		body: `{"messages": [], "tools": [{"type": "web_search_20250305", "name": "web_search"}],
			"tool_choice": {"type": "any", "disable_parallel_tool_use": true},
			"output_config": {"format": {"type": "json_schema"}}}`,
		want: &promptfmt.Document{Meta: meta(
			"tools", []any{map[string]any{"type": "web_search_20250305", "name": "web_search"}},
			"tool_choice", map[string]any{"type": "any", "disable_parallel_tool_use": true},
			"output_config", map[string]any{"format": map[string]any{"type": "json_schema"}})},
	}, {
		name: "tool_choice modes",
		body: `{"messages": [], "tool_choice": {"type": "any"}}`,
		want: &promptfmt.Document{Request: promptfmt.Request{ToolChoice: &promptfmt.ToolChoice{Mode: "required"}}},
	}, {
		name: "not JSON",
		body: "{\"messages\": [\n  {\"role\": \"user\", \"content\": \"Hi\"},\n]}",
		err:  "anthropic:3:1: unexpected ']', want a value",
	}, {
		name: "no messages; a message without role; an unknown role",
		body: "{\"system\": \"x\"}",
		err:  "anthropic:1:1: a Messages body needs messages",
	}, {
		name: "roles",
		body: "{\"messages\": [\n {\"content\": \"x\"},\n {\"role\": \"system\", \"content\": \"x\"},\n {\"role\": \"user\"}]}",
		err: "anthropic:2:2: a message without a role\n" +
			"anthropic:3:11: unknown role \"system\" (Anthropic's are user and assistant; the system prompt is the body's system)\n" +
			"anthropic:4:2: a message without content",
	}, {
		name: "blocks the model has no part for",
		body: "{\"messages\": [{\"role\": \"assistant\", \"content\": [\n" +
			"{\"type\": \"thinking\", \"thinking\": \"hmm\", \"signature\": \"s\"},\n" +
			"{\"type\": \"server_tool_use\", \"id\": \"s1\", \"name\": \"web_search\", \"input\": {}},\n" +
			"{\"text\": \"no type\"}]}]}",
		err: "anthropic:2:10: a thinking block (the model has no place for a model's reasoning)\n" +
			"anthropic:3:10: unknown content block type \"server_tool_use\" (the model holds text, image, document, tool_use and tool_result)\n" +
			"anthropic:4:1: a content block without a type",
	}, {
		name: "blocks in the wrong turn; a tool_use without input or name; a result without its id",
		body: "{\"messages\": [{\"role\": \"assistant\", \"content\": [\n" +
			"{\"type\": \"image\", \"source\": {\"type\": \"url\", \"url\": \"https://x\"}},\n" +
			"{\"type\": \"tool_result\", \"tool_use_id\": \"t\"},\n" +
			"{\"type\": \"tool_use\", \"id\": \"t\", \"name\": \"f\"},\n" +
			"{\"type\": \"tool_use\", \"id\": \"t\", \"input\": []}]},\n" +
			"{\"role\": \"user\", \"content\": [{\"type\": \"tool_use\", \"id\": \"t\", \"name\": \"f\", \"input\": {}},\n" +
			"{\"type\": \"tool_result\", \"content\": \"r\"}]}]}",
		err: "anthropic:2:10: an image block in an assistant turn (Anthropic takes images and documents in user turns)\n" +
			"anthropic:3:10: a tool_result block in an assistant turn (results go in a user turn)\n" +
			"anthropic:4:1: a tool_use block without input\n" +
			"anthropic:5:1: a tool_use block without name\n" +
			"anthropic:5:42: input must be an object, not an array\n" +
			"anthropic:6:39: a tool_use block in a user turn (only the assistant uses tools)\n" +
			"anthropic:7:1: a tool_result block without tool_use_id",
	}, {
		name: "sources; base64 that does not decode; a result of several blocks",
		body: "{\"messages\": [{\"role\": \"user\", \"content\": [\n" +
			"{\"type\": \"image\", \"source\": {\"type\": \"base64\", \"media_type\": \"image/png\", \"data\": \"iVBOR!w0KGgo=\"}},\n" +
			"{\"type\": \"image\", \"source\": {\"type\": \"url\", \"url\": \"https://x\", \"detail\": \"low\"}},\n" +
			"{\"type\": \"document\", \"source\": {\"type\": \"text\", \"media_type\": \"text/plain\", \"data\": \"hi\"}},\n" +
			"{\"type\": \"image\"},\n" +
			"{\"type\": \"tool_result\", \"tool_use_id\": \"t\", \"content\": [{\"type\": \"text\", \"text\": \"a\"}, {\"type\": \"text\", \"text\": \"b\"}]}]}]}",
		err: "anthropic:2:83: image data is not valid base64: illegal base64 data at input byte 5\n" +
			"anthropic:3:65: unknown member \"detail\" of a url source\n" +
			"anthropic:4:41: a source of type \"text\" (the model holds base64, url and file sources)\n" +
			"anthropic:5:1: an image block without a source\n" +
			"anthropic:6:56: a tool_result's content must be a string or one text block, not an array of 2 (the model's result is one text)",
	}, {
		name: "system of another block type",
		body: "{\"messages\": [], \"system\": [{\"type\": \"image\", \"source\": {}}]}",
		err:  "anthropic:1:38: a system block of type \"image\" (Anthropic's system prompt is text blocks)",
	}, {
		name: "wrong JSON types",
		body: "{\"messages\": {}, \"system\": 1, \"max_tokens\": \"many\", \"temperature\": \"hot\"}",
		err: "anthropic:1:14: messages must be an array, not an object\n" +
			"anthropic:1:28: system must be a string or an array of text blocks, not a number\n" +
			"anthropic:1:45: max_tokens must be a number, not a string\n" +
			"anthropic:1:68: temperature must be a number, not a string",
	}})
}

func ptr[T any](v T) *T { return &v }

func TestWriteAnthropic(t *testing.T) {
	png := "iVBORw0KGgo="
	callC1 := msg("assistant", call("c1", "lookup", `{"q":"x"}`))
	testWrite(t, Anthropic, []writeCase{{
		name: "strict: what reads back otherwise, with the nearest",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("user", image("data:image/png;base64,"+png, ""), image(png, "image/PNG"),
				promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://example.com/a.png", MediaType: "image/png", Detail: "low"}),
			msg("assistant", call("c1", "lookup", `{"q": "x"}`)),
			msg("user", result("c1", "lookup", "r")),
		}},
		err: "anthropic: message 1: part 1: an image part in a form Anthropic's body does not keep (it reads back as base64 data of media type image/png)\n" +
			"anthropic: message 1: part 2: an image part in a form Anthropic's body does not keep (it reads back as base64 data of media type image/png)\n" +
			"anthropic: message 1: part 3: an image part with a detail (\"low\") cannot be expressed\n" +
			"anthropic: message 2: part 1: tool_call arguments with white space between their tokens cannot be kept (Anthropic keeps them compact)\n" +
			"anthropic: message 3: part 1: a tool_result with a tool name cannot be kept (Anthropic's names only the call)",
		nearest: []promptfmt.ContentPart{image(png, "image/png"), image(png, "image/png"),
			{Kind: promptfmt.KindImage, Value: "https://example.com/a.png"},
			call("c1", "lookup", `{"q":"x"}`), result("c1", "", "r")},
	}, {
		name: "strict: messages that read back otherwise",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("system", text("A")), msg("developer", text("B")), msg("user", text("x"), text("")),
			callC1, msg("tool", result("c1", "", "r")), msg("system", text("late"))}},
		err: "anthropic: message 2: a developer message cannot be kept (Anthropic's system prompt reads back as a system message)\n" +
			"anthropic: message 3: part 2: an empty text part cannot be expressed (Anthropic refuses empty text)\n" +
			"anthropic: message 5: a tool message cannot be kept (Anthropic's results are tool_result blocks of a user turn: promptfmt.Send, or request --as, writes it as one)\n" +
			"anthropic: message 6: a system message after the conversation has started cannot be expressed (Anthropic's system prompt comes before it)",
	}, {
		name: "strict: turns of one role are written apart; a block's members in place",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: "system", Content: []promptfmt.ContentPart{text("Be brief.")}, Metadata: map[string]any{"content.0.cache_control": map[string]any{"type": "ephemeral"}}},
			msg("user", text("a")), msg("user", text("b")), callC1,
			{Role: "user", Content: []promptfmt.ContentPart{result("c1", "", "r")}, Metadata: map[string]any{"content.0.is_error": true}}}},
		body: `{"system":[{"type":"text","text":"Be brief.","cache_control":{"type":"ephemeral"}}],"messages":[{"role":"user","content":"a"},{"role":"user","content":"b"},{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"lookup","input":{"q":"x"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"r","is_error":true}]}]}`,
	}, {
		name: "sent: the export's form",
		send: true,
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("system", text("A")), msg("developer", text("B")), msg("user", text("x"), text(""), image("data:image/png;base64,"+png, "")),
			callC1, msg("tool", result("c1", "lookup", "r")), msg("user", text("thanks"))}},
		body: `{"system":[{"type":"text","text":"A"},{"type":"text","text":"B"}],"messages":[{"role":"user","content":[{"type":"text","text":"x"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]},{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"lookup","input":{"q":"x"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":"r"},{"type":"text","text":"thanks"}]}]}`,
	}, {
		name: "the request under Anthropic's names, Meta merged into output_config",
		doc: &promptfmt.Document{
			Request: promptfmt.Request{Model: "claude-sonnet-4-5", MaxTokens: ptr(int64(512)), Temperature: ptr(0.2), TopP: ptr(0.9),
				TopK: ptr(int64(5)), Stop: []string{"END"},
				Tools:      []promptfmt.Tool{{Name: "weather", Description: "d", Parameters: map[string]any{"type": "object"}, Strict: true}},
				ToolChoice: &promptfmt.ToolChoice{Mode: "none"},
				Output:     &promptfmt.Output{Schema: map[string]any{"type": "object"}, Strict: true}},
			Meta:     map[string]any{"output_config": map[string]any{"effort": "high"}, "metadata": map[string]any{"user_id": "u"}},
			Messages: []promptfmt.Message{msg("user", text("hi"))}},
		body: `{"model":"claude-sonnet-4-5","max_tokens":512,"messages":[{"role":"user","content":"hi"}],"temperature":0.2,"top_p":0.9,"top_k":5,"stop_sequences":["END"],"tools":[{"name":"weather","description":"d","input_schema":{"type":"object"},"strict":true}],"tool_choice":{"type":"none"},"output_config":{"format":{"type":"json_schema","schema":{"type":"object"}},"effort":"high"},"metadata":{"user_id":"u"}}`,
	}, {
		name: "the request Anthropic cannot hold",
		doc: &promptfmt.Document{
			Request: promptfmt.Request{Seed: ptr(int64(1)), FrequencyPenalty: ptr(0.1), PresencePenalty: ptr(0.1),
				Tools:      []promptfmt.Tool{{Name: "clock"}},
				ToolChoice: &promptfmt.ToolChoice{Mode: "auto", Tool: "clock"},
				Output:     &promptfmt.Output{Name: "answer", Schema: map[string]any{"type": "object"}}},
			Meta:     map[string]any{"model": "claude", "tools": []any{map[string]any{"name": "x", "input_schema": map[string]any{}}}, "user": "u"},
			Messages: []promptfmt.Message{msg("user", text("hi"))}},
		err: "anthropic: document: a seed (Anthropic's Messages API has none)\n" +
			"anthropic: document: a frequency penalty (Anthropic's Messages API has none)\n" +
			"anthropic: document: a presence penalty (Anthropic's Messages API has none)\n" +
			"anthropic: document: tools without parameters, \"clock\" (Anthropic's tools need an input_schema)\n" +
			"anthropic: document: a tool choice naming a tool with mode \"auto\" (a tool is named with mode required)\n" +
			"anthropic: document: an output schema's name or description (Anthropic's structured output has neither)\n" +
			"anthropic: document: the metadata key \"model\", which would read back as the request's settings (it is the request's to hold)\n" +
			"anthropic: document: the metadata key \"tools\", which names what Anthropic's body holds in its own place (a request setting of another type, or the conversation)\n" +
			"anthropic: document: the metadata key \"user\" (not a member of Anthropic's request body)",
	}})
}
