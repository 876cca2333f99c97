package provider

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

func text(s string) promptfmt.ContentPart { return promptfmt.Text(s) }

func msg(role string, parts ...promptfmt.ContentPart) promptfmt.Message {
	return promptfmt.Message{Role: role, Content: parts}
}

func image(v, mt string) promptfmt.ContentPart {
	return promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: v, MediaType: mt}
}

func call(id, name, args string) promptfmt.ContentPart {
	return promptfmt.ContentPart{Kind: promptfmt.KindToolCall, ID: id, ToolName: name, Value: args}
}

func result(id, name, v string) promptfmt.ContentPart {
	return promptfmt.ContentPart{Kind: promptfmt.KindToolResult, ID: id, ToolName: name, Value: v}
}

// compact encodes v on one line without HTML escapes.
func compact(t *testing.T, v any) string {
	t.Helper()
	b, err := marshal(v)
	require.NoError(t, err)
	return string(b)
}

// outcome is a provider's answer: the compact JSON, or the error text.
func outcome(t *testing.T, name string, msgs []promptfmt.Message) string {
	t.Helper()
	v, err := export(name, msgs)
	if err != nil {
		require.True(t, v == nil, "Export returns a nil interface with an error, not %#v", v)
		checkErrors(t, name, msgs, err)
		return err.Error()
	}
	return compact(t, v)
}

// TestMapping holds one expectation per provider for each conversation:
// the request as compact JSON, or the exact error text.
func TestMapping(t *testing.T) {
	png := "iVBORw0KGgo="
	callC1 := msg("assistant", call("c1", "lookup", `{"q":"x"}`))
	tests := []struct {
		name                     string
		msgs                     []promptfmt.Message
		openai, anthropic, gemin string
	}{{
		name:      "disabled message",
		msgs:      []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{text("x")}, Disabled: true, Line: 7}},
		openai:    `openai: message 1 (line 7): a disabled message cannot be sent (it is not among a document's LLMMessages)`,
		anthropic: `anthropic: message 1 (line 7): a disabled message cannot be sent (it is not among a document's LLMMessages)`,
		gemin:     `gemini: message 1 (line 7): a disabled message cannot be sent (it is not among a document's LLMMessages)`,
	}, {
		name:      "role not UTF-8",
		msgs:      []promptfmt.Message{msg("us\xffer", text("x"))},
		openai:    "openai: message 1: the role is not valid UTF-8\nopenai: message 1: role \"us\\xffer\" has no OpenAI equivalent",
		anthropic: "anthropic: message 1: the role is not valid UTF-8\nanthropic: message 1: role \"us\\xffer\" has no Anthropic equivalent",
		gemin:     "gemini: message 1: the role is not valid UTF-8\ngemini: message 1: role \"us\\xffer\" has no Gemini equivalent",
	}, {
		name:      "name not UTF-8",
		msgs:      []promptfmt.Message{{Role: "user", Name: "R\xffss", Content: []promptfmt.ContentPart{text("x")}}},
		openai:    `openai: message 1: the name is not valid UTF-8`,
		anthropic: `anthropic: message 1: the name is not valid UTF-8`,
		gemin:     `gemini: message 1: the name is not valid UTF-8`,
	}, {
		name:      "unknown kind, stray field, bad UTF-8 in a part",
		msgs:      []promptfmt.Message{msg("user", promptfmt.ContentPart{Kind: "video", Value: "v"}, promptfmt.ContentPart{Kind: promptfmt.KindText, Value: "t", MediaType: "text/plain"}, text("\xc3"))},
		openai:    "openai: message 1: part 1: a part of unknown kind \"video\"\nopenai: message 1: part 2: a text part with a mediaType (a field its kind does not use)\nopenai: message 1: part 3: a text part holding text that is not valid UTF-8",
		anthropic: "anthropic: message 1: part 1: a part of unknown kind \"video\"\nanthropic: message 1: part 2: a text part with a mediaType (a field its kind does not use)\nanthropic: message 1: part 3: a text part holding text that is not valid UTF-8",
		gemin:     "gemini: message 1: part 1: a part of unknown kind \"video\"\ngemini: message 1: part 2: a text part with a mediaType (a field its kind does not use)\ngemini: message 1: part 3: a text part holding text that is not valid UTF-8",
	}, {
		name:      "base64 that is not",
		msgs:      []promptfmt.Message{msg("user", image("iVBOR!w0KGgo=", "image/png"))},
		openai:    `openai: message 1: part 1: image data is not valid base64: illegal base64 data at input byte 5`,
		anthropic: `anthropic: message 1: part 1: image data is not valid base64: illegal base64 data at input byte 5`,
		gemin:     `gemini: message 1: part 1: image data is not valid base64: illegal base64 data at input byte 5`,
	}, {
		name:      "base64 with a line break, unpadded, empty data: URI",
		msgs:      []promptfmt.Message{msg("user", image("iVBO\nRw0KGgo=", "image/png"), image("iVBORw0KGgo", "image/png"), image("data:image/png;base64,", ""))},
		openai:    "openai: message 1: part 1: image data is not valid base64: a line break at input byte 4\nopenai: message 1: part 2: image data is not valid base64: illegal base64 data at input byte 8\nopenai: message 1: part 3: image data is not valid base64: no data",
		anthropic: "anthropic: message 1: part 1: image data is not valid base64: a line break at input byte 4\nanthropic: message 1: part 2: image data is not valid base64: illegal base64 data at input byte 8\nanthropic: message 1: part 3: image data is not valid base64: no data",
		gemin:     "gemini: message 1: part 1: image data is not valid base64: a line break at input byte 4\ngemini: message 1: part 2: image data is not valid base64: illegal base64 data at input byte 8\ngemini: message 1: part 3: image data is not valid base64: no data",
	}, {
		name:      "no media type, no value",
		msgs:      []promptfmt.Message{msg("user", image(png, ""), image("", "image/png"))},
		openai:    "openai: message 1: part 1: an image part needs a media type (give MediaType or a data: URI)\nopenai: message 1: part 2: an image part with no URL or data cannot be expressed",
		anthropic: "anthropic: message 1: part 1: an image part needs a media type (give MediaType or a data: URI)\nanthropic: message 1: part 2: an image part with no URL or data cannot be expressed",
		gemin:     "gemini: message 1: part 1: an image part needs a media type (give MediaType or a data: URI)\ngemini: message 1: part 2: an image part with no URL or data cannot be expressed",
	}, {
		name:      "data: URI not base64, media types that disagree or do not fit",
		msgs:      []promptfmt.Message{msg("user", image("data:image/svg+xml,<svg/>", ""), image("data:image/png;base64,"+png, "image/jpeg"), image(png, "application/pdf"), image(png, "png"))},
		openai:    "openai: message 1: part 1: a data: URI that is not base64 (data:<type>;base64,<data>) cannot be expressed\nopenai: message 1: part 2: the media type \"image/jpeg\" differs from the data: URI's \"image/png\"\nopenai: message 1: part 3: the media type \"application/pdf\" is not an image type\nopenai: message 1: part 4: the media type \"png\" is not a MIME type (type/subtype)",
		anthropic: "anthropic: message 1: part 1: a data: URI that is not base64 (data:<type>;base64,<data>) cannot be expressed\nanthropic: message 1: part 2: the media type \"image/jpeg\" differs from the data: URI's \"image/png\"\nanthropic: message 1: part 3: the media type \"application/pdf\" is not an image type\nanthropic: message 1: part 4: the media type \"png\" is not a MIME type (type/subtype)",
		gemin:     "gemini: message 1: part 1: a data: URI that is not base64 (data:<type>;base64,<data>) cannot be expressed\ngemini: message 1: part 2: the media type \"image/jpeg\" differs from the data: URI's \"image/png\"\ngemini: message 1: part 3: the media type \"application/pdf\" is not an image type\ngemini: message 1: part 4: the media type \"png\" is not a MIME type (type/subtype)",
	}, {
		name:      "a data: URI without a type takes the part's, case aside",
		msgs:      []promptfmt.Message{msg("user", image("data:;base64,"+png, "image/png"), image("DATA:image/PNG;BASE64,"+png, "image/png"))},
		openai:    `{"messages":[{"role":"user","content":[{"type":"image_url","image_url":{"url":"data:image/png;base64,iVBORw0KGgo="}},{"type":"image_url","image_url":{"url":"DATA:image/PNG;BASE64,iVBORw0KGgo="}}]}]}`,
		anthropic: `{"messages":[{"role":"user","content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBORw0KGgo="}}]}]}`,
		gemin:     `{"contents":[{"role":"user","parts":[{"inline_data":{"mime_type":"image/png","data":"iVBORw0KGgo="}},{"inline_data":{"mime_type":"image/PNG","data":"iVBORw0KGgo="}}]}]}`,
	}, {
		name:      "image types and URL schemes",
		msgs:      []promptfmt.Message{msg("user", image(png, "image/svg+xml"), image("gs://bucket/cat.png", ""))},
		openai:    `openai: message 1: part 2: an image URL of scheme "gs" cannot be expressed (OpenAI takes http, https and data: URLs)`,
		anthropic: "anthropic: message 1: part 1: an image of type \"image/svg+xml\" cannot be expressed (Anthropic takes image/jpeg, image/png, image/gif and image/webp)\nanthropic: message 1: part 2: an image URL of scheme \"gs\" cannot be expressed (Anthropic takes http and https URLs)",
		gemin:     `{"contents":[{"role":"user","parts":[{"inline_data":{"mime_type":"image/svg+xml","data":"iVBORw0KGgo="}},{"file_data":{"file_uri":"gs://bucket/cat.png"}}]}]}`,
	}, {
		name: "files that are not PDF",
		msgs: []promptfmt.Message{msg("user",
			promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "YSxiCg==", MediaType: "text/csv"},
			promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "https://example.com/page", MediaType: "text/html"})},
		openai:    `openai: message 1: part 2: a file URL cannot be expressed (OpenAI takes file data or a file id)`,
		anthropic: "anthropic: message 1: part 1: a file of type \"text/csv\" cannot be expressed (Anthropic documents are PDF)\nanthropic: message 1: part 2: a file of type \"text/html\" cannot be expressed (Anthropic documents are PDF)",
		gemin:     `{"contents":[{"role":"user","parts":[{"inline_data":{"mime_type":"text/csv","data":"YSxiCg=="}},{"file_data":{"mime_type":"text/html","file_uri":"https://example.com/page"}}]}]}`,
	}, {
		name: "audio formats",
		msgs: []promptfmt.Message{msg("user",
			promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "SUQzBAAA", MediaType: "mp3"},
			promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "SUQzBAAA", MediaType: "audio/MPEG"},
			promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "T2dnUw==", MediaType: "audio/ogg"},
			promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "T2dnUw=="},
			promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "https://example.com/a.mp3", Detail: "low"})},
		openai:    "openai: message 1: part 3: audio of type \"audio/ogg\" cannot be expressed (OpenAI takes wav and mp3)\nopenai: message 1: part 4: an audio part needs a media type (OpenAI takes wav and mp3)\nopenai: message 1: part 5: an audio part with a detail (\"low\") cannot be expressed\nopenai: message 1: part 5: an audio URL cannot be expressed (OpenAI takes audio as base64 data)",
		anthropic: "anthropic: message 1: part 1: an audio part cannot be expressed\nanthropic: message 1: part 2: an audio part cannot be expressed\nanthropic: message 1: part 3: an audio part cannot be expressed\nanthropic: message 1: part 4: an audio part cannot be expressed\nanthropic: message 1: part 5: an audio part cannot be expressed",
		gemin:     "gemini: message 1: part 1: the media type \"mp3\" is not a MIME type (type/subtype)\ngemini: message 1: part 4: an audio part needs a media type (give MediaType or a data: URI)\ngemini: message 1: part 5: an audio part with a detail (\"low\") cannot be expressed",
	}, {
		name:      "OpenAI audio in its two formats",
		msgs:      []promptfmt.Message{msg("user", promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "SUQzBAAA", MediaType: "mp3"}, promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: "data:audio/x-wav;base64,UklGRiQAAABXQVZF"})},
		openai:    `{"messages":[{"role":"user","content":[{"type":"input_audio","input_audio":{"data":"SUQzBAAA","format":"mp3"}},{"type":"input_audio","input_audio":{"data":"UklGRiQAAABXQVZF","format":"wav"}}]}]}`,
		anthropic: "anthropic: message 1: part 1: an audio part cannot be expressed\nanthropic: message 1: part 2: an audio part cannot be expressed",
		gemin:     `gemini: message 1: part 1: the media type "mp3" is not a MIME type (type/subtype)`,
	}, {
		name: "media fields a provider has no place for",
		msgs: []promptfmt.Message{msg("user",
			promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: png, MediaType: "image/png", ID: "file-1", Filename: "a.png"},
			promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "JVBERi0xLjcK", MediaType: "application/pdf", ID: "file-2"})},
		openai:    "openai: message 1: part 1: an image part with a file id (\"file-1\") cannot be expressed\nopenai: message 1: part 1: an image part with a filename (\"a.png\") cannot be expressed\nopenai: message 1: part 2: a file part with both a file id and data cannot be expressed (OpenAI takes one)",
		anthropic: "anthropic: message 1: part 1: an image part with a filename (\"a.png\") and a file id (\"file-1\") beside its data cannot be expressed\nanthropic: message 1: part 2: a file part with a file id (\"file-2\") beside its data cannot be expressed",
		gemin:     "gemini: message 1: part 1: an image part with a file id (\"file-1\") cannot be expressed\ngemini: message 1: part 2: a file part with a file id (\"file-2\") cannot be expressed",
	}, {
		name:      "media outside user messages",
		msgs:      []promptfmt.Message{msg("system", text("look:"), image(png, "image/png")), msg("user", text("?")), msg("assistant", image(png, "image/png"))},
		openai:    "openai: message 1: part 2: an image part in a system message cannot be expressed\nopenai: message 3: part 1: an image part in an assistant message cannot be expressed",
		anthropic: "anthropic: message 1: part 2: an image part in a system message cannot be expressed\nanthropic: message 3: part 1: an image part in an assistant message cannot be expressed",
		gemin:     `gemini: message 1: part 2: an image part in a system message cannot be expressed`,
	}, {
		name:      "tool call without an id or a name",
		msgs:      []promptfmt.Message{msg("assistant", call("", "lookup", `{}`), call("c2", "", `{}`))},
		openai:    "openai: message 1: part 1: a tool_call without an id cannot be expressed\nopenai: message 1: part 2: a tool_call without a tool name cannot be expressed",
		anthropic: "anthropic: message 1: part 1: a tool_call without an id cannot be expressed\nanthropic: message 1: part 2: a tool_call without a tool name cannot be expressed",
		gemin:     `gemini: message 1: part 2: a tool_call without a tool name cannot be expressed`,
	}, {
		name:      "tool call arguments that are not an object",
		msgs:      []promptfmt.Message{msg("assistant", call("c1", "f", `[1, 2]`), call("c2", "f", ``), call("c3", "f", `{"query": "a very long argument that goes on", "x": `))},
		openai:    `{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"f","arguments":"[1, 2]"}},{"id":"c2","type":"function","function":{"name":"f","arguments":""}},{"id":"c3","type":"function","function":{"name":"f","arguments":"{\"query\": \"a very long argument that goes on\", \"x\": "}}]}]}`,
		anthropic: "anthropic: message 1: part 1: tool_call arguments are not a JSON object: \"[1, 2]\"\nanthropic: message 1: part 2: tool_call arguments are not a JSON object: \"\"\nanthropic: message 1: part 3: tool_call arguments are not a JSON object: \"{\\\"query\\\": \\\"a very long argument that goe\"...",
		gemin:     "gemini: message 1: part 1: tool_call arguments are not a JSON object: \"[1, 2]\"\ngemini: message 1: part 3: tool_call arguments are not a JSON object: \"{\\\"query\\\": \\\"a very long argument that goe\"...",
	}, {
		name:      "Gemini calls without ids; results by tool name",
		msgs:      []promptfmt.Message{msg("assistant", call("", "clock", `{}`)), msg("tool", result("", "clock", "09:30"))},
		openai:    "openai: message 1: part 1: a tool_call without an id cannot be expressed\nopenai: message 2: part 1: a tool_result without an id cannot be expressed",
		anthropic: "anthropic: message 1: part 1: a tool_call without an id cannot be expressed\nanthropic: message 2: part 1: a tool_result without an id cannot be expressed",
		gemin:     `{"contents":[{"role":"model","parts":[{"function_call":{"name":"clock","args":{}}}]},{"role":"user","parts":[{"function_response":{"name":"clock","response":{"output":"09:30"}}}]}]}`,
	}, {
		name:      "tool parts in the wrong message",
		msgs:      []promptfmt.Message{msg("user", call("c1", "f", `{}`)), msg("assistant", result("c1", "", "r")), msg("system", result("c1", "", "r"))},
		openai:    "openai: message 1: part 1: a tool_call part in a user message cannot be expressed\nopenai: message 2: part 1: a tool_result part in an assistant message cannot be expressed\nopenai: message 3: part 1: a tool_result part in a system message cannot be expressed",
		anthropic: "anthropic: message 1: part 1: a tool_call part in a user message cannot be expressed\nanthropic: message 2: part 1: a tool_result part in an assistant message cannot be expressed\nanthropic: message 3: a system message after the conversation has started cannot be expressed (Anthropic's system prompt comes before it)",
		gemin:     "gemini: message 1: part 1: a tool_call part in a user message cannot be expressed\ngemini: message 2: part 1: a tool_result part in an assistant message cannot be expressed\ngemini: message 3: a system message after the conversation has started cannot be expressed (Gemini's system instruction comes before it)",
	}, {
		name:      "a result for another tool than its call",
		msgs:      []promptfmt.Message{callC1, msg("tool", result("c1", "search", "r"))},
		openai:    `openai: message 2: part 1: a tool_result for tool "search" answers call "c1", which called "lookup"`,
		anthropic: `anthropic: message 2: part 1: a tool_result for tool "search" answers call "c1", which called "lookup"`,
		gemin:     `gemini: message 2: part 1: a tool_result for tool "search" answers call "c1", which called "lookup"`,
	}, {
		name:      "a result Gemini cannot name",
		msgs:      []promptfmt.Message{callC1, msg("tool", result("c9", "", "r"), result("", "", "s"))},
		openai:    `openai: message 2: part 2: a tool_result without an id cannot be expressed`,
		anthropic: `anthropic: message 2: part 2: a tool_result without an id cannot be expressed`,
		gemin:     "gemini: message 2: part 1: a tool_result for call \"c9\" names no tool, and no earlier tool_call has that id\ngemini: message 2: part 2: a tool_result with neither an id nor a tool name cannot be expressed",
	}, {
		name: "tool messages the model cannot hold",
		msgs: []promptfmt.Message{
			callC1,
			{Role: "tool", Name: "lookup", Content: []promptfmt.ContentPart{result("c1", "", "r")}},
			msg("tool", text("no id")),
			msg("tool", text("a"), text("b")),
			msg("tool", result("c1", "", "r"), text("and text")),
			{Role: "tool", Content: []promptfmt.ContentPart{text("r")}, Metadata: map[string]any{"tool_call_id": "c1", "call_id": "c2"}},
		},
		openai:    "openai: message 2: a name (\"lookup\") on a tool message cannot be expressed\nopenai: message 3: a tool message holds the results of calls (tool_result parts); this one holds none\nopenai: message 4: a tool message holds the results of calls (tool_result parts); this one holds none\nopenai: message 5: part 2: a text part in a tool message cannot be expressed\nopenai: message 6: a tool message holds the results of calls (tool_result parts); this one holds none",
		anthropic: "anthropic: message 2: a name (\"lookup\") cannot be expressed\nanthropic: message 3: a tool message holds the results of calls (tool_result parts); this one holds none\nanthropic: message 4: a tool message holds the results of calls (tool_result parts); this one holds none\nanthropic: message 5: part 2: a text part in a tool message cannot be expressed\nanthropic: message 6: a tool message holds the results of calls (tool_result parts); this one holds none",
		gemin:     "gemini: message 2: a name (\"lookup\") cannot be expressed\ngemini: message 3: a tool message holds the results of calls (tool_result parts); this one holds none\ngemini: message 4: a tool message holds the results of calls (tool_result parts); this one holds none\ngemini: message 5: part 2: a text part in a tool message cannot be expressed\ngemini: message 6: a tool message holds the results of calls (tool_result parts); this one holds none",
	}, {
		name:      "an empty result; tool_call_id metadata",
		msgs:      []promptfmt.Message{callC1, {Role: "tool", Content: []promptfmt.ContentPart{text("")}, Metadata: map[string]any{"tool_call_id": "c1"}}},
		openai:    `{"messages":[{"role":"assistant","tool_calls":[{"id":"c1","type":"function","function":{"name":"lookup","arguments":"{\"q\":\"x\"}"}}]},{"role":"tool","tool_call_id":"c1","content":""}]}`,
		anthropic: `{"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"lookup","input":{"q":"x"}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1"}]}]}`,
		gemin:     `{"contents":[{"role":"model","parts":[{"function_call":{"id":"c1","name":"lookup","args":{"q":"x"}}}]},{"role":"user","parts":[{"function_response":{"id":"c1","name":"lookup","response":{"output":""}}}]}]}`,
	}, {
		name:      "OpenAI: text after a tool call; a name on tool results",
		msgs:      []promptfmt.Message{msg("assistant", text("a"), call("c1", "f", `{}`), text("b")), {Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{result("c1", "", "r")}}},
		openai:    "openai: message 1: part 3: a text part after a tool_call cannot be expressed (OpenAI puts an assistant's text before its tool calls)\nopenai: message 2: a name (\"Ross\") on tool results cannot be expressed",
		anthropic: `anthropic: message 2: a name ("Ross") cannot be expressed`,
		gemin:     `gemini: message 2: a name ("Ross") cannot be expressed`,
	}, {
		name:      "blank text",
		msgs:      []promptfmt.Message{msg("system", text(" \n")), msg("user", text("x"), text("\t"))},
		openai:    `{"messages":[{"role":"system","content":" \n"},{"role":"user","content":[{"type":"text","text":"x"},{"type":"text","text":"\t"}]}]}`,
		anthropic: "anthropic: message 1: part 1: a text part of only white space cannot be expressed (Anthropic refuses blank text)\nanthropic: message 2: part 2: a text part of only white space cannot be expressed (Anthropic refuses blank text)",
		gemin:     `{"system_instruction":{"parts":[{"text":" \n"}]},"contents":[{"role":"user","parts":[{"text":"x"},{"text":"\t"}]}]}`,
	}, {
		name:      "empty system message",
		msgs:      []promptfmt.Message{msg("developer", text("")), msg("user", text("x"))},
		openai:    `{"messages":[{"role":"developer","content":""},{"role":"user","content":"x"}]}`,
		anthropic: `anthropic: message 1: an empty message cannot be expressed (Anthropic refuses empty text)`,
		gemin:     `gemini: message 1: an empty message cannot be expressed (Gemini refuses empty text)`,
	}, {
		name:      "a developer message later; one system text is a string",
		msgs:      []promptfmt.Message{msg("system", text(""), text("Be brief.")), msg("assistant", text("Hi")), msg("developer", text("Now in French."))},
		openai:    `{"messages":[{"role":"system","content":[{"type":"text","text":""},{"type":"text","text":"Be brief."}]},{"role":"assistant","content":"Hi"},{"role":"developer","content":"Now in French."}]}`,
		anthropic: `anthropic: message 3: a developer message after the conversation has started cannot be expressed (Anthropic's system prompt comes before it)`,
		gemin:     `gemini: message 3: a developer message after the conversation has started cannot be expressed (Gemini's system instruction comes before it)`,
	}, {
		name:      "no messages",
		msgs:      nil,
		openai:    `{"messages":[]}`,
		anthropic: `{"messages":[]}`,
		gemin:     `{"contents":[]}`,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.openai, outcome(t, "openai", tt.msgs), "openai")
			require.Equal(t, tt.anthropic, outcome(t, "anthropic", tt.msgs), "anthropic")
			require.Equal(t, tt.gemin, outcome(t, "gemini", tt.msgs), "gemini")
		})
	}
}

// TestEncodingEscapes: a body is written without HTML escapes.
func TestEncodingEscapes(t *testing.T) {
	var b bytes.Buffer
	require.NoError(t, OpenAI.Write(&b, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "a<b & c>d")}}))
	require.Equal(t, "{\n  \"messages\": [\n    {\n      \"role\": \"user\",\n      \"content\": \"a<b & c>d\"\n    }\n  ]\n}\n", b.String())
}

func TestCheckBase64(t *testing.T) {
	long := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{0xfb, 0xff, 0x01}, 2000)) // 8000 chars, several pieces
	tests := []struct{ in, want string }{
		{"iVBORw0KGgo=", ""},
		{"TWE=", ""},
		{"TQ==", ""},
		{long, ""},
		{"", "no data"},
		{"TWE", "illegal base64 data at input byte 0"},
		{"TW=E", "illegal base64 data at input byte 2"},
		{"TR==", "illegal base64 data at input byte 2"}, // non-zero padding bits
		{"TWE=\n", "a line break at input byte 4"},
		{"TW-_", "illegal base64 data at input byte 2"}, // URL alphabet
		{long[:1020] + "TQ==" + long[1024:], "illegal base64 data at input byte 1022"},
		{long + "!", "illegal base64 data at input byte 8000"},
		{long[:5000] + "*" + long[5001:], "illegal base64 data at input byte 5000"},
	}
	for _, tt := range tests {
		err := checkBase64(tt.in)
		if tt.want == "" {
			require.NoError(t, err, "%.20q", tt.in)
		} else {
			require.EqualError(t, err, tt.want, "%.20q", tt.in)
		}
	}
}

func TestCutScheme(t *testing.T) {
	for _, tt := range []struct {
		in, scheme string
		ok         bool
	}{
		{"https://x", "https", true},
		{"gs://b/o", "gs", true},
		{"data:image/png;base64,", "data", true},
		{"svn+ssh://h", "svn+ssh", true},
		{"iVBORw0KGgo=", "", false},
		{"/9j/4AAQ", "", false},
		{"1http://x", "", false},
		{":x", "", false},
		{"", "", false},
	} {
		s, _, ok := cutScheme(tt.in)
		require.Equal(t, tt.scheme, s, tt.in)
		require.Equal(t, tt.ok, ok, tt.in)
	}
}

func TestShort(t *testing.T) {
	require.Equal(t, `"abc"`, short("abc"))
	s := strings.Repeat("é", 30) // 60 bytes: cut on a rune boundary
	require.Equal(t, `"`+strings.Repeat("é", 20)+`"...`, short(s))
}

// TestErrorsNameTheirThing: each refusal says what it is about, so that
// promptfmt.Adapt (messages --as X --lossy) can change exactly that.
func TestErrorsNameTheirThing(t *testing.T) {
	named := promptfmt.NewMessage("user", "hi")
	named.Name = "Ross"
	audio := promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("listen"), {Kind: promptfmt.KindAudio, Value: "aGk=", MediaType: "audio/wav"}}}
	late := promptfmt.NewMessage("system", "late")
	msgs := []promptfmt.Message{named, audio, promptfmt.NewMessage("assistant", "ok"), late, promptfmt.NewMessage("critic", "x")}
	sendAnthropic := func(msgs []promptfmt.Message) error {
		return Anthropic.Write(io.Discard, &promptfmt.Document{Messages: msgs}, promptfmt.Send())
	}
	err := sendAnthropic(msgs)
	var got []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		ue := e.(*promptfmt.UnsupportedError)
		got = append(got, fmt.Sprintf("%d %d %d", ue.Index, ue.Thing, ue.Part))
	}
	require.ElementsMatch(t, []string{
		fmt.Sprintf("0 %d 0", promptfmt.ThingName),
		fmt.Sprintf("1 %d 1", promptfmt.ThingPart),
		fmt.Sprintf("3 %d 0", promptfmt.ThingRole),
		fmt.Sprintf("4 %d 0", promptfmt.ThingRole),
	}, got)

	fitted, changes, err := promptfmt.Adapt(&promptfmt.Document{Messages: msgs}, func(d *promptfmt.Document) error {
		return sendAnthropic(d.Messages)
	})
	require.NoError(t, err)
	require.Len(t, changes, 4)
	require.NoError(t, sendAnthropic(fitted.Messages))
}

// Missing names what each API requires of a request and req lacks.
func TestMissing(t *testing.T) {
	none := promptfmt.Request{}
	max := int64(10)
	full := promptfmt.Request{Model: "m", MaxTokens: &max}
	for _, c := range []struct {
		f    promptfmt.Format
		req  promptfmt.Request
		want []string
	}{
		{OpenAI, none, []string{"model"}},
		{OpenAIResponses, none, nil},
		{Anthropic, none, []string{"model", "max_tokens"}},
		{Anthropic, promptfmt.Request{Model: "m"}, []string{"max_tokens"}},
		{Gemini, none, nil},
		{OpenAI, full, nil},
		{Anthropic, full, nil},
	} {
		if got := Missing(c.f, c.req); !slices.Equal(got, c.want) {
			t.Errorf("%s %+v: %q, want %q", c.f.Name(), c.req, got, c.want)
		}
	}
}
