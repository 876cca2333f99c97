package provider

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// sameJSON reports whether two JSON texts hold the same value, member
// order aside.
func sameJSON(t *testing.T, a, b []byte) bool {
	t.Helper()
	x, err := jsonvalue.Decode(a)
	require.NoError(t, err)
	y, err := jsonvalue.Decode(b)
	require.NoError(t, err)
	return jsonvalue.Equal(x, y)
}

// Every body of the docs reads, writes back as the same JSON value, and
// reads back as the same document.
func TestOpenAIBodies(t *testing.T) {
	files, err := filepath.Glob("testdata/openai/*.json")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			require.True(t, OpenAI.Sniff(src), "Sniff")
			doc, err := OpenAI.Parse(src)
			require.NoError(t, err)
			var out bytes.Buffer
			require.NoError(t, OpenAI.Write(&out, doc))
			require.True(t, sameJSON(t, openAICanonical(t, src), out.Bytes()), "written back:\n%s", out.String())
			back, err := OpenAI.Parse(out.Bytes())
			require.NoError(t, err)
			require.True(t, promptfmt.Equal(doc, back), "read back changed")
			var again bytes.Buffer
			require.NoError(t, OpenAI.Write(&again, back))
			require.Equal(t, out.String(), again.String(), "fmt is idempotent")
		})
	}
}

// openAICanonical is a body as Write writes it back: the same value but
// for two forms of one meaning, which it writes one way (package doc,
// "Writing"): no "content": null beside tool_calls, and a tool message's
// one text part as a string.
func openAICanonical(t *testing.T, src []byte) []byte {
	v, err := jsonvalue.Decode(src)
	require.NoError(t, err)
	for _, m := range v.(map[string]any)["messages"].([]any) {
		m := m.(map[string]any)
		if m["content"] == nil && m["tool_calls"] != nil {
			delete(m, "content")
		}
		if parts, ok := m["content"].([]any); ok && m["role"] == "tool" {
			m["content"] = parts[0].(map[string]any)["text"]
		}
	}
	out, err := jsonvalue.Encode(v)
	require.NoError(t, err)
	return out
}

func TestOpenAIRead(t *testing.T) {
	read := func(name string) *promptfmt.Document {
		src, err := os.ReadFile("testdata/openai/" + name)
		require.NoError(t, err)
		doc, err := OpenAI.Parse(src)
		require.NoError(t, err)
		return doc
	}
	doc := read("tool-results.json")
	require.Len(t, doc.Messages, 6)
	calls := doc.Messages[2]
	require.Equal(t, "assistant", calls.Role)
	require.Equal(t, []promptfmt.ContentPart{
		{Kind: promptfmt.KindToolCall, Value: `{"location":"Paris"}`, ID: "call_abc", ToolName: "get_weather"},
		{Kind: promptfmt.KindToolCall, Value: `{"location":"Oslo"}`, ID: "call_def", ToolName: "get_weather"},
	}, calls.Content, "no text part for content null; arguments verbatim")
	require.Equal(t, map[string]any{"refusal": nil}, calls.Metadata, "a member the model has no field for is kept")
	require.Equal(t, []promptfmt.ContentPart{{Kind: promptfmt.KindToolResult, Value: "4°C, rain", ID: "call_def"}}, doc.Messages[4].Content,
		"a tool message of one text part")
	require.Equal(t, "weatherbot", doc.Messages[5].Name)
	require.Equal(t, map[string]any{"parallel_tool_calls": true, "stream": false}, doc.Meta)
	require.Equal(t, []int{4, 5, 6, 15, 16, 17}, lineList(doc), "each message's line")

	doc = read("structured.json")
	require.Equal(t, "calendar_event", doc.Request.Output.Name)
	require.True(t, doc.Request.Output.Strict)
	require.Equal(t, "object", doc.Request.Output.Schema["type"])
	require.Equal(t, 0.0, *doc.Request.Temperature)
	require.Equal(t, int64(42), *doc.Request.Seed)
	require.Equal(t, []string{"\n\n"}, doc.Request.Stop)
	require.Equal(t, 7, doc.Request.Lines[promptfmt.FieldOutput])

	doc = read("audio-file.json")
	require.Equal(t, []promptfmt.ContentPart{
		promptfmt.Text("What is in this recording and this file?"),
		{Kind: promptfmt.KindAudio, Value: "UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAIA+AAACABAAZGF0YQAAAAA=", MediaType: "audio/wav"},
		{Kind: promptfmt.KindFile, Value: "data:application/pdf;base64,JVBERi0xLjQK", Filename: "draconomicon.pdf"},
		{Kind: promptfmt.KindFile, ID: "file-6F2ksmvXxt4VdoqmHRw6kL"},
	}, doc.Messages[0].Content)
	require.Equal(t, int64(2048), *doc.Request.MaxTokens)
	require.Equal(t, "gpt-4o-audio-preview", doc.Request.Model)
	require.Contains(t, doc.Meta, "modalities")
	require.Contains(t, doc.Meta, "logit_bias")

	doc = read("functions.json")
	require.Len(t, doc.Request.Tools, 1)
	require.Equal(t, "get_current_weather", doc.Request.Tools[0].Name)
	require.Equal(t, &promptfmt.ToolChoice{Mode: "auto"}, doc.Request.ToolChoice)

	// A bare array of messages; a part's own member is kept.
	doc, err := OpenAI.Parse([]byte(`[{"role":"user","content":[{"type":"text","text":"hi","cache_control":{"type":"ephemeral"}}]}]`))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"content.0.cache_control": map[string]any{"type": "ephemeral"}}, doc.Messages[0].Metadata)
	var out bytes.Buffer
	require.NoError(t, OpenAI.Write(&out, doc))
	require.Contains(t, out.String(), `"cache_control": {`)
	require.NotContains(t, out.String(), `"model"`)
}

func lineList(doc *promptfmt.Document) []int {
	var out []int
	for _, m := range doc.Messages {
		out = append(out, m.Line)
	}
	return out
}

func TestOpenAIReadErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`{"messages": [}`, "openai:1:15: unexpected '}', want a value"},
		{`{"model": "x"}`, "openai:1:1: a Chat Completions body needs messages"},
		{`{"messages": {}}`, "openai:1:14: messages must be an array, not an object"},
		{`{"messages": [{"content": "hi"}]}`, "openai:1:15: a message without a role"},
		{`{"messages": [{"role": "robot", "content": "hi"}]}`, `openai:1:24: unknown role "robot" (OpenAI's are system, developer, user, assistant and tool)`},
		{`{"messages": [{"role": "user", "content": 5}]}`, "openai:1:43: content must be a string or an array of parts, not a number"},
		{`{"messages": [{"role": "user", "content": [{"type": "video", "video": {}}]}]}`, `openai:1:53: unknown content part type "video" (OpenAI's are text, image_url, input_audio and file)`},
		{`{"messages": [{"role": "tool", "content": "x"}]}`, "openai:1:15: a tool message without tool_call_id"},
		{"{\"messages\": [\n  {\"role\": \"assistant\", \"tool_calls\": [{\"id\": \"c\", \"type\": \"function\", \"function\": {\"arguments\": \"{}\"}}]}]}",
			"openai:2:84: a tool call's function without name"},
		{`{"messages": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {"data": "not base64!", "format": "wav"}}]}]}`,
			"openai:1:92: input_audio data is not valid base64: illegal base64 data at input byte 3"},
		{`{"messages": [], "temperature": "hot"}`, "openai:1:33: temperature must be a number, not a string"},
		{`{"messages": [], "max_tokens": 1.5}`, "openai:1:32: max_tokens must be an integer, not 1.5"},
		{`{"messages": [], "max_tokens": 1, "max_completion_tokens": 2}`, "openai:1:35: both max_tokens and max_completion_tokens (give one)"},
		{`{"messages": [], "messages": []}`, `openai:1:18: the member "messages" is named twice in one object`},
		{`{"messages": [], "temperature": 1e999}`, "openai:1:33: Infinity is not a JSON number (or the number is too large for a 64-bit float)"},
		{"{\"messages\": [{\"role\": \"user\", \"content\": \"\xff\"}]}", "openai:1:44: invalid UTF-8 (byte 0xff)"},
	} {
		_, err := OpenAI.Parse([]byte(c.src))
		require.Error(t, err, c.src)
		var pe *promptfmt.ParseError
		require.True(t, errors.As(err, &pe), "%s: %T", c.src, err)
		require.Equal(t, c.want, strings.SplitN(err.Error(), "\n", 2)[0], c.src)
	}
}

// What the model holds in two forms is written in the one OpenAI keeps,
// and only with Send; strict writing offers that form.
func TestOpenAIStrictForms(t *testing.T) {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{
		{Kind: promptfmt.KindImage, Value: "aGk=", MediaType: "image/png"},
	}}}}
	err := OpenAI.Write(&bytes.Buffer{}, doc)
	var ue *promptfmt.UnsupportedError
	require.True(t, errors.As(err, &ue), "%v", err)
	require.Equal(t, &promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "data:image/png;base64,aGk="}, ue.NearestPart)
	fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return OpenAI.Write(&bytes.Buffer{}, d) })
	require.NoError(t, err)
	require.Len(t, changes, 1)
	require.Equal(t, "changed part 1 (image, image/png, 4 bytes) to the form openai holds", changes[0].Done)
	require.Equal(t, "data:image/png;base64,aGk=", fitted.Messages[0].Content[0].Value)
	require.NoError(t, OpenAI.Write(&bytes.Buffer{}, doc, promptfmt.Send()))
}

// A documented member is written from Meta whatever format the document
// came from, and reads back into Meta; moderation and
// prompt_cache_options were left out of the list until sdktest compared
// it with openai-go's ChatCompletionNewParams.
func TestOpenAIDocumentedMeta(t *testing.T) {
	meta := map[string]any{"moderation": map[string]any{"model": "omni-moderation-latest"},
		"prompt_cache_options": map[string]any{"mode": "explicit", "ttl": "30m"}, "service_tier": "flex"}
	doc := &promptfmt.Document{Meta: meta, Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("hi")}}}}
	var out bytes.Buffer
	require.NoError(t, OpenAI.Write(&out, doc))
	require.True(t, sameJSON(t, out.Bytes(), []byte(`{"messages":[{"role":"user","content":"hi"}],"moderation":{"model":"omni-moderation-latest"},"prompt_cache_options":{"mode":"explicit","ttl":"30m"},"service_tier":"flex"}`)), "%s", out.Bytes())
	back, err := OpenAI.Parse(out.Bytes())
	require.NoError(t, err)
	require.Equal(t, meta, back.Meta)
	doc.Meta = map[string]any{"moderations": true}
	require.EqualError(t, OpenAI.Write(&bytes.Buffer{}, doc), `openai: document: the metadata key "moderations" (not a member of OpenAI's request body)`)
}

func BenchmarkParseOpenAI(b *testing.B) {
	src := openAIBenchBody()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := OpenAI.Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWriteOpenAI(b *testing.B) {
	src := openAIBenchBody()
	doc, err := OpenAI.Parse(src)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var out bytes.Buffer
		if err := OpenAI.Write(&out, doc); err != nil {
			b.Fatal(err)
		}
	}
}
