package provider

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// describeDoc is a document on a line a message: role@line, parts,
// metadata; then the request and Meta as JSON.
func describeDoc(t *testing.T, doc *promptfmt.Document) string {
	t.Helper()
	var b strings.Builder
	for _, m := range doc.Messages {
		fmt.Fprintf(&b, "%s@%d:", m.Role, m.Line)
		for _, p := range m.Content {
			fmt.Fprintf(&b, " %s(%q", p.Kind, p.Value)
			for _, f := range [][2]string{{"id", p.ID}, {"tool", p.ToolName}, {"type", p.MediaType}, {"detail", p.Detail}, {"file", p.Filename}} {
				if f[1] != "" {
					fmt.Fprintf(&b, " %s=%s", f[0], f[1])
				}
			}
			b.WriteString(")")
		}
		for _, k := range jsonvalue.SortedKeys(m.Metadata) {
			fmt.Fprintf(&b, " %s=%s", k, compact(t, m.Metadata[k]))
		}
		b.WriteString("\n")
	}
	if !doc.Request.IsZero() {
		fmt.Fprintf(&b, "request: %s\n", compact(t, doc.Request))
	}
	if len(doc.Meta) > 0 {
		fmt.Fprintf(&b, "meta: %s\n", compact(t, doc.Meta))
	}
	return b.String()
}

// requireSameJSON requires two JSON texts to hold the same value.
func requireSameJSON(t *testing.T, want, got []byte, msg string) {
	t.Helper()
	var w, g any
	require.NoError(t, json.Unmarshal(want, &w), msg)
	require.NoError(t, json.Unmarshal(got, &g), msg)
	require.Equal(t, w, g, "%s\n%s", msg, got)
}

func writeResponsesBody(t *testing.T, doc *promptfmt.Document, opts ...promptfmt.Option) []byte {
	t.Helper()
	var b bytes.Buffer
	require.NoError(t, OpenAIResponses.Write(&b, doc, opts...))
	return b.Bytes()
}

// TestResponsesDocs reads the request bodies of OpenAI's documentation:
// each gives the messages, request and Meta below, and writing what was
// read gives back the same body (the same JSON value), a fixed point.
func TestResponsesDocs(t *testing.T) {
	want := map[string]string{
		"text-input.json": "user@3: text(\"Tell me a three sentence bedtime story about a unicorn.\")\n" +
			"request: {\"model\":\"gpt-5.4\"}\n",
		"image-input.json": "user@4: text(\"what is in this image?\") image(\"https://upload.wikimedia.org/wikipedia/commons/thumb/d/dd/Gfp-wisconsin-madison-the-nature-boardwalk.jpg/2560px-Gfp-wisconsin-madison-the-nature-boardwalk.jpg\")\n" +
			"request: {\"model\":\"gpt-5.4\"}\n",
		"file-input.json": "user@4: text(\"what is in this file?\") file(\"https://www.berkshirehathaway.com/letters/2024ltr.pdf\" detail=auto)\n" +
			"request: {\"model\":\"gpt-5.4\"}\n",
		"web-search.json": "user@4: text(\"What was a positive news story from today?\")\n" +
			"request: {\"model\":\"gpt-5.4\"}\n" +
			"meta: {\"tools\":[{\"type\":\"web_search_preview\"}]}\n",
		"file-search.json": "user@8: text(\"What are the attributes of an ancient brown dragon?\")\n" +
			"request: {\"model\":\"gpt-5.4\"}\n" +
			"meta: {\"tools\":[{\"max_num_results\":20,\"type\":\"file_search\",\"vector_store_ids\":[\"vs_1234567890\"]}]}\n",
		"streaming.json": "system@3: text(\"You are a helpful assistant.\")\nuser@4: text(\"Hello!\")\n" +
			"request: {\"model\":\"gpt-5.4\"}\nmeta: {\"stream\":true}\n",
		"functions.json": "user@3: text(\"What is the weather like in Boston today?\")\n" +
			`request: {"model":"gpt-5.4","tools":[{"name":"get_current_weather","description":"Get the current weather in a given location",` +
			`"parameters":{"properties":{"location":{"description":"The city and state, e.g. San Francisco, CA","type":"string"},` +
			`"unit":{"enum":["celsius","fahrenheit"],"type":"string"}},"required":["location","unit"],"type":"object"},"strict":true}],` +
			`"toolChoice":{"mode":"auto"}}` + "\n",
		"reasoning.json": "user@3: text(\"How much wood would a woodchuck chuck?\")\n" +
			"request: {\"model\":\"o3-mini\"}\nmeta: {\"reasoning\":{\"effort\":\"high\"}}\n",
		"compact-input.json": "user@4: text(\"Create a simple landing page for a dog petting café.\")\n" +
			"assistant@8: text(\"Below is a single file, ready-to-use landing page for a dog petting café:...\")" +
			" content.0.annotations=[] content.0.logprobs=[] id=\"msg_001\" status=\"completed\"\n" +
			"request: {\"model\":\"gpt-5.1-codex-max\"}\n",
		"reasoning-items.json": "user@4: text(\"What's the weather like in Paris today?\")\n" +
			"_reasoning@5: text(\"\") encrypted_content=\"gAAAAABoISQ24OyVRYbkYfukdJoqdzWT-3uiErKInHDC-lgAaXeky44N77j7aibc2elHISjAvX7OmUwMU1r7NgaiHSVWL5BtWgXVBp4BMFkWZpXpZY7ff5pdPFnW3VieuF2cSo8Ay7tJ4aThGUnXkNM5QJqk6_u5jwd-W9cTHjucw9ATGfGqD2qHrXyj6NEW9RmpWHV2SK41d5TpUYdN0xSuIUP98HBVZ2VGgD4MIocUm6Lx0xhRl9KUx19f7w4Sn7SCpKUQ0zwXze8UsQOVvv1HQxk_yDosbIg1SylEj38H-DNLil6yUFlWI4vGWcPn1bALXphTR2EwYVR52nD1rCFEORUd7prS99i18MUMSAhghIVv9OrpbjmfxJh8bSQaHu1ZDTMWcfC58H3i8KnogmI7V_h2TKAiLTgSQIkYRHnV3hz1XwaUqYAIhBvP6c5UxX-j_tpYpB_XCpD886L0XyJxCmfr9cwitipOhHr8zfLVwMI4ULu-P3ftw7QckIVzf71HFLNixrQlkdgTn-zM6aQl5BZcJgwwn3ylJ5ji4DQTS1H3AiTrFsEt4kyiBcE2d7tYA_m3G8L-e4-TuTDdJZtLaz-q8J12onFaKknGSyU6px8Ki4IPqnWIJw8SaFMJ5fSUYJO__myhp7lbbQwuOZHIQuvKutM-QUuR0cHus_HtfWtZZksqvVCVNBYViBxD2_KvKJvR-nN62zZ8sNiydIclt1yJfIMkiRErfRTzv92hQaUtdqz80UiW7FBcN2Lnzt8awXCz1pnGyWy_hNQe8C7W35zRxJDwFdb-f3VpanJT0tNmU5bfEWSXcIVmiMZL1clwzVNryf9Gk482LaWPwhVYrhv2MkhKMPKdeAZWVhZbgm0eTT8a4DgbwcYRGhoXMGxrXWzOdvAY536DkrI_0xsJk8-Szb5Y2EH0xPxN\"" +
			" id=\"rs_6821243503d481919e1b385c2a154d5103d2cbc5a14f3696\" status=null summary=[]\n" +
			"assistant@12: tool_call(\"{\\\"latitude\\\":48.8566,\\\"longitude\\\":2.3522}\" id=call_9ylqPOZUyFEwhxvBwgpNDqPT tool=get_weather)" +
			" content.0.id=\"fc_68210c78357c8191977197499d5de6ca00c77cc15fd2f785\" content.0.status=\"completed\"\n" +
			"tool@20: tool_result(\"16.3\" id=call_9ylqPOZUyFEwhxvBwgpNDqPT)\n" +
			`request: {"model":"o3","tools":[{"name":"get_weather","description":"Get current temperature for provided coordinates in celsius.",` +
			`"parameters":{"additionalProperties":false,"properties":{"latitude":{"type":"number"},"longitude":{"type":"number"}},` +
			`"required":["latitude","longitude"],"type":"object"},"strict":true}]}` + "\n" +
			"meta: {\"include\":[\"reasoning.encrypted_content\"],\"store\":false}\n",
		"structured-output.json": "system@4: text(\"Extract the meeting as a calendar event.\")\nuser@8: text(\"Ann and Ola meet for lunch on Friday.\")\n" +
			`request: {"model":"gpt-4o-2024-08-06","output":{"name":"calendar_event","schema":{"additionalProperties":false,` +
			`"properties":{"date":{"type":"string"},"name":{"type":"string"},"participants":{"items":{"type":"string"},"type":"array"}},` +
			`"required":["name","date","participants"],"type":"object"},"strict":true}}` + "\n",
	}
	files, err := filepath.Glob("testdata/openai-responses/*.json")
	require.NoError(t, err)
	require.Len(t, files, len(want), "a case for every body")
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			require.True(t, sniffResponses(src), "sniffed as a Responses body")
			doc, err := OpenAIResponses.Parse(src)
			require.NoError(t, err)
			w, ok := want[filepath.Base(file)]
			require.True(t, ok, "no expectation")
			require.Equal(t, w, describeDoc(t, doc))
			out := writeResponsesBody(t, doc)
			requireSameJSON(t, src, out, "written back")
			back, err := OpenAIResponses.Parse(out)
			require.NoError(t, err)
			require.True(t, promptfmt.Equal(doc, back))
			require.Equal(t, string(out), string(writeResponsesBody(t, back)), "fmt is a fixed point")
		})
	}
}

// TestResponsesParse: the shapes the documentation's bodies leave out.
func TestResponsesParse(t *testing.T) {
	tests := []struct{ name, body, want string }{{
		name: "typed messages, every role, parts and their members",
		body: `{"instructions": "Be brief.", "input": [
{"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "Use metric units."}]},
{"type": "message", "role": "user", "status": "completed", "content": [
  {"type": "input_image", "file_id": "file-1", "detail": "high"},
  {"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0xLjcK", "filename": "a.pdf", "prompt_cache_breakpoint": {"type": "ephemeral"}},
  {"type": "input_file", "file_id": "file-2"},
  {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "file_id": null}]},
{"role": "system", "content": ""}]}`,
		want: "system@1: text(\"Be brief.\")\n" +
			"developer@2: text(\"Use metric units.\")\n" +
			"user@3: image(\"\" id=file-1 detail=high) file(\"data:application/pdf;base64,JVBERi0xLjcK\" file=a.pdf) file(\"\" id=file-2) image(\"data:image/png;base64,iVBORw0KGgo=\")" +
			" content.1.prompt_cache_breakpoint={\"type\":\"ephemeral\"} content.3.file_id=null status=\"completed\"\n" +
			"system@8: text(\"\")\n",
	}, {
		name: "an assistant's text and parallel calls are one message; a call after a result starts one",
		body: `{"input": [
{"role": "assistant", "content": "Checking."},
{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{\"a\":1}"},
{"type": "function_call", "call_id": "c2", "name": "g", "arguments": "not JSON", "id": "fc_2"},
{"type": "function_call_output", "call_id": "c1", "output": "one", "name": "f", "status": "completed"},
{"type": "function_call", "call_id": "c3", "name": "f", "arguments": "{}"},
{"type": "function_call_output", "call_id": "c3", "output": ""}]}`,
		want: "assistant@2: text(\"Checking.\") tool_call(\"{\\\"a\\\":1}\" id=c1 tool=f) tool_call(\"not JSON\" id=c2 tool=g) content.2.id=\"fc_2\"\n" +
			"tool@5: tool_result(\"one\" id=c1 tool=f) status=\"completed\"\n" +
			"assistant@6: tool_call(\"{}\" id=c3 tool=f)\n" +
			"tool@7: tool_result(\"\" id=c3)\n",
	}, {
		name: "a reasoning item between a message and a call: hidden, and the call starts its own message",
		body: `{"input": [{"role": "assistant", "content": [{"type": "output_text", "text": "Hm.", "annotations": []}]},
{"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "Thinking."}]},
{"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"}]}`,
		want: "assistant@1: text(\"Hm.\") content.0.annotations=[]\n" +
			"_reasoning@2: text(\"\") id=\"rs_1\" summary=[{\"text\":\"Thinking.\",\"type\":\"summary_text\"}]\n" +
			"assistant@3: tool_call(\"{}\" id=c1 tool=f)\n",
	}, {
		name: "settings: strict tools, a named tool choice, JSON mode; nulls and the rest in Meta",
		body: `{"model": "gpt-4.1", "input": "Hi", "temperature": 0.5, "top_p": 1, "max_output_tokens": 100,
"tools": [{"type": "function", "name": "f", "strict": false}, {"type": "function", "name": "g", "description": "G.", "parameters": {"type": "object"}, "strict": true}],
"tool_choice": {"type": "function", "name": "g"}, "text": {"format": {"type": "json_object"}},
"instructions": null, "user": "u-1", "parallel_tool_calls": false}`,
		want: "user@1: text(\"Hi\")\n" +
			`request: {"model":"gpt-4.1","temperature":0.5,"topP":1,"maxTokens":100,"tools":[{"name":"f"},{"name":"g","description":"G.","parameters":{"type":"object"},"strict":true}],"toolChoice":{"mode":"required","tool":"g"},"output":{}}` + "\n" +
			`meta: {"instructions":null,"parallel_tool_calls":false,"user":"u-1"}` + "\n",
	}, {
		name: "settings the Request cannot hold exactly stay in Meta as written",
		body: `{"input": [], "tools": [{"type": "function", "name": "f", "strict": null}], "tool_choice": {"type": "allowed_tools", "mode": "auto", "tools": []},
"text": {"format": {"type": "json_schema", "name": "x", "schema": {}}, "verbosity": "low"}, "temperature": null, "seed": 7}`,
		want: `meta: {"seed":7,"temperature":null,"text":{"format":{"name":"x","schema":{},"type":"json_schema"},"verbosity":"low"},"tool_choice":{"mode":"auto","tools":[],"type":"allowed_tools"},"tools":[{"name":"f","strict":null,"type":"function"}]}` + "\n",
	}, {
		name: "file data of no known type, as written",
		body: `{"input": [{"role": "user", "content": [{"type": "input_file", "file_data": "JVBERi0xLjcK", "filename": "a.pdf"}, {"type": "input_file", "file_data": "data:;base64,JVBERi0xLjcK"}]}]}`,
		want: "user@1: file(\"JVBERi0xLjcK\" file=a.pdf) file(\"data:;base64,JVBERi0xLjcK\")\n",
	}, {
		name: "instructions alone",
		body: "{\n  \"instructions\": \"Say hi.\"\n}",
		want: "system@2: text(\"Say hi.\")\n",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := OpenAIResponses.Parse([]byte(tt.body))
			require.NoError(t, err)
			require.Equal(t, tt.want, describeDoc(t, doc))
			out := writeResponsesBody(t, doc)
			requireSameJSON(t, []byte(tt.body), out, "written back")
		})
	}
}

// TestResponsesErrors: every problem at the value it is about.
func TestResponsesErrors(t *testing.T) {
	tests := []struct{ body, want string }{
		{`[]`, "openai-responses:1:1: a Responses body must be an object, not an array"},
		{`{"model": "x"}`, "openai-responses:1:1: a Responses body needs input or instructions"},
		{`{"input": 3}`, "openai-responses:1:11: input must be a string or an array of items, not a number"},
		{`{"instructions": ["a"]}`, "openai-responses:1:18: instructions must be a string, not an array"},
		{`{"input": null}`, "openai-responses:1:11: input must be a string or an array of items, not null"},
		{`{"input": [1]}`, "openai-responses:1:12: an input item must be an object, not a number"},
		{"{\"input\": [\n  {\"content\": \"hi\"}]}", "openai-responses:2:3: an input item without a type or role"},
		{`{"input": [{"type": "message", "content": "hi"}]}`, "openai-responses:1:12: a message without a role"},
		{`{"input": [{"role": "tool", "content": "hi"}]}`, `openai-responses:1:21: unknown role "tool" (the Responses API's are user, assistant, system and developer)`},
		{`{"input": [{"type": "web_search_call", "id": "ws_1"}]}`, `openai-responses:1:21: unknown input item type "web_search_call" (promptfmt reads message, function_call, function_call_output and reasoning items)`},
		{`{"input": [{"type": 1}]}`, "openai-responses:1:21: type must be a string, not a number"},
		{`{"input": [{"role": "user", "content": null}]}`, "openai-responses:1:40: content must be a string or an array of parts, not null"},
		{`{"input": [{"role": "user", "content": [{"text": "x"}]}]}`, "openai-responses:1:41: a content part without a type"},
		{`{"input": [{"role": "user", "content": [{"type": "input_text"}]}]}`, "openai-responses:1:41: a text part without text"},
		{`{"input": [{"role": "user", "content": [{"type": "input_audio", "input_audio": {}}]}]}`, `openai-responses:1:50: unknown content part type "input_audio" (the Responses API's are input_text, output_text, input_image and input_file)`},
		{`{"input": [{"role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]}]}`, "openai-responses:1:55: a refusal part (the model holds no refusals)"},
		{`{"input": [{"role": "assistant", "content": [{"type": "input_image", "image_url": "https://x"}]}]}`, "openai-responses:1:55: an input_image part in an assistant message (the Responses API takes media in user, system and developer messages)"},
		{`{"input": [{"role": "user", "content": [{"type": "input_image", "detail": "low"}]}]}`, "openai-responses:1:41: an input_image part with neither image_url nor file_id"},
		{`{"input": [{"role": "user", "content": [{"type": "input_file", "file_id": "f", "file_url": "https://x"}]}]}`, "openai-responses:1:41: an input_file part with both file_url and file_id (give one)"},
		{`{"input": [{"role": "user", "content": [{"type": "input_file", "filename": "a.pdf"}]}]}`, "openai-responses:1:41: an input_file part with none of file_data, file_url and file_id"},
		{`{"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "iVBORw0KGgo="}]}]}`, "openai-responses:1:78: image_url holds no URL (give data as a data: URI)"},
		{`{"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "data:;base64,iVBORw0KGgo="}]}]}`, "openai-responses:1:78: image_url: a data: URI without a media type"},
		{`{"input": [{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,iVB!"}]}]}`, "openai-responses:1:78: image_url: image data is not valid base64: illegal base64 data at input byte 3"},
		{`{"input": [{"role": "user", "content": [{"type": "input_file", "file_data": "https://x/a.pdf"}]}]}`, "openai-responses:1:77: file_data holds a URL (give it as file_url)"},
		{`{"input": [{"role": "user", "content": [{"type": "input_file", "file_url": "JVBERi0xLjcK"}]}]}`, "openai-responses:1:76: file_url holds no URL (give data as file_data)"},
		{`{"input": [{"role": "user", "content": [{"type": "input_file", "file_data": "JVBERi0x!"}]}]}`, "openai-responses:1:77: file_data: file data is not valid base64: illegal base64 data at input byte 8"},
		{`{"input": [{"role": "user", "content": [{"type": "input_file", "file_id": 7}]}]}`, "openai-responses:1:75: input_file.file_id must be a string, not a number"},
		{`{"input": [{"type": "function_call", "name": "f", "arguments": "{}"}]}`, "openai-responses:1:12: a function_call without call_id"},
		{`{"input": [{"type": "function_call", "call_id": "c", "arguments": "{}"}]}`, "openai-responses:1:12: a function_call without name"},
		{`{"input": [{"type": "function_call", "call_id": "c", "name": "f"}]}`, "openai-responses:1:12: a function_call without arguments"},
		{`{"input": [{"type": "function_call", "call_id": "c", "name": "f", "arguments": {}}]}`, "openai-responses:1:80: arguments must be a string, not an object"},
		{`{"input": [{"type": "function_call_output", "output": "x"}]}`, "openai-responses:1:12: a function_call_output without call_id"},
		{`{"input": [{"type": "function_call_output", "call_id": ""}]}`, "openai-responses:1:56: a function_call_output with an empty call_id"},
		{`{"input": [{"type": "function_call_output", "call_id": "c"}]}`, "openai-responses:1:12: a function_call_output without output"},
		{`{"input": [{"type": "function_call_output", "call_id": "c", "output": [{"type": "input_text", "text": "x"}]}]}`, "openai-responses:1:71: a function_call_output whose output is an array of content (the model's tool results are text)"},
		{`{"input": "x", "max_output_tokens": 1.5}`, "openai-responses:1:37: max_output_tokens must be an integer, not 1.5"},
		{`{"input": "x", "model": 4}`, "openai-responses:1:25: model must be a string, not a number"},
		{`{"input": "x",}`, "openai-responses:1:15: unexpected '}', want a member name in double quotes"},
	}
	for _, tt := range tests {
		_, err := OpenAIResponses.Parse([]byte(tt.body))
		require.Error(t, err, tt.body)
		require.Equal(t, tt.want, err.Error(), tt.body)
		var pe *promptfmt.ParseError
		require.ErrorAs(t, err, &pe)
	}

	// Several problems at once, each at its place; nothing returned.
	doc, err := OpenAIResponses.Parse([]byte("{\"input\": [\n {\"role\": \"robot\"},\n {\"type\": \"function_call\"}\n]}"))
	require.Nil(t, doc)
	require.EqualError(t, err, "openai-responses:2:11: unknown role \"robot\" (the Responses API's are user, assistant, system and developer)\n"+
		"openai-responses:3:2: a function_call without call_id\nopenai-responses:3:2: a function_call without name\nopenai-responses:3:2: a function_call without arguments")
}

// TestResponsesLayout: fmt writes a body back as it was spelled, where the
// model does not keep the spelling.
func TestResponsesLayout(t *testing.T) {
	for _, body := range []string{
		// A system input item stays one; instructions stay instructions.
		`{"input":[{"role":"system","content":"a"},{"role":"user","content":"b"}]}`,
		`{"instructions":"a","input":[{"role":"user","content":"b"}]}`,
		`{"instructions":"a","input":"b"}`,
		`{"instructions":"a"}`,
		`{"input":"b"}`,
		`{"input":[{"role":"user","content":"b"}]}`,
		`{"input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"b"}]}]}`,
		`{"input":[{"role":"assistant","content":[{"type":"input_text","text":"b"}]},{"role":"user","content":[{"type":"output_text","text":"c"}]}]}`,
		`{"input":[],"tools":[{"type":"function","name":"f"},{"type":"function","name":"g","strict":true},{"type":"function","name":"h","strict":false}]}`,
		// Members kept in Meta come after the mapping's, sorted.
		`{"model":"m","input":[],"tool_choice":"none","temperature":null,"text":{"format":{"type":"text"}},"tools":[{"type":"web_search"}]}`,
	} {
		doc, err := OpenAIResponses.Parse([]byte(body))
		require.NoError(t, err, body)
		var c bytes.Buffer
		require.NoError(t, json.Compact(&c, writeResponsesBody(t, doc)))
		require.Equal(t, body, c.String())
	}
}

// TestResponsesWrite: what a document from elsewhere is written as, and
// what is refused, without and with promptfmt.Send.
func TestResponsesWrite(t *testing.T) {
	temp, tokens, seed := 0.2, int64(300), int64(1)
	tests := []struct {
		name         string
		doc          *promptfmt.Document
		strict       string // the compact body, or the errors
		send         string // "" for the same as strict
		sendFitted   bool   // not sent: the metadata refused is not sent
		sendForModel bool   // sent as Document.ForModel returns it
	}{{
		name: "a first system message is instructions, one user message the input string",
		doc: &promptfmt.Document{Request: promptfmt.Request{Model: "gpt-4.1", Temperature: &temp, MaxTokens: &tokens},
			Messages: []promptfmt.Message{msg("system", text("Be brief.")), msg("user", text("Hi"))}},
		strict: `{"model":"gpt-4.1","instructions":"Be brief.","input":"Hi","temperature":0.2,"max_output_tokens":300}`,
	}, {
		name:   "a developer message is an item; two system messages, one instructions",
		doc:    &promptfmt.Document{Messages: []promptfmt.Message{msg("developer", text("a")), msg("user", text("b"))}},
		strict: `{"input":[{"type":"message","role":"developer","content":"a"},{"type":"message","role":"user","content":"b"}]}`,
	}, {
		name:   "no messages",
		doc:    &promptfmt.Document{},
		strict: `{"input":[]}`,
	}, {
		name: "tools: strict written, false too; a named choice; a schema",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{msg("user", text("x"))}, Request: promptfmt.Request{
			Tools:      []promptfmt.Tool{{Name: "f"}, {Name: "g", Description: "G.", Parameters: map[string]any{"type": "object"}, Strict: true}},
			ToolChoice: &promptfmt.ToolChoice{Mode: "required", Tool: "g"},
			Output:     &promptfmt.Output{Name: "o", Description: "O.", Schema: map[string]any{"type": "object"}, Strict: true}}},
		strict: `{"input":"x","tools":[{"type":"function","name":"f","strict":false},{"type":"function","name":"g","description":"G.","parameters":{"type":"object"},"strict":true}],` +
			`"tool_choice":{"type":"function","name":"g"},"text":{"format":{"type":"json_schema","name":"o","description":"O.","schema":{"type":"object"},"strict":true}}}`,
	}, {
		name: "settings Responses has no member for; an output schema without a name",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{msg("user", text("x"))}, Request: promptfmt.Request{
			Seed: &seed, Stop: []string{"END"}, TopK: &seed, FrequencyPenalty: &temp, PresencePenalty: &temp, Output: &promptfmt.Output{Schema: map[string]any{}}}},
		strict: "openai-responses: document: a top-k setting (the Responses API has none)\n" +
			"openai-responses: document: stop sequences (the Responses API has none)\n" +
			"openai-responses: document: a seed (the Responses API has none)\n" +
			"openai-responses: document: a frequency penalty (the Responses API has none)\n" +
			"openai-responses: document: a presence penalty (the Responses API has none)\n" +
			"openai-responses: document: an output schema without a name (OpenAI's json_schema needs one)",
	}, {
		name: "media: data and a media type is a data: URI with Send, refused (nearest offered) without",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{msg("user", image("iVBORw0KGgo=", "image/png"),
			promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "JVBERi0xLjcK", MediaType: "application/pdf", Filename: "a.pdf"},
			promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "https://x/a.pdf", Detail: "low"},
			promptfmt.ContentPart{Kind: promptfmt.KindImage, ID: "file-1", MediaType: "image/png"})}},
		strict: "openai-responses: message 1: part 1: an image part in a form the Responses API's body does not keep (it reads back as a data: URI with no media type)\n" +
			"openai-responses: message 1: part 2: a file part in a form the Responses API's body does not keep (it reads back as a data: URI with no media type, filename \"a.pdf\")\n" +
			"openai-responses: message 1: part 4: an image part in a form the Responses API's body does not keep (it reads back as the file id \"file-1\" with no media type)",
		send: `{"input":[{"type":"message","role":"user","content":[{"type":"input_image","image_url":"data:image/png;base64,iVBORw0KGgo="},` +
			`{"type":"input_file","file_data":"data:application/pdf;base64,JVBERi0xLjcK","filename":"a.pdf"},` +
			`{"type":"input_file","file_url":"https://x/a.pdf","detail":"low"},{"type":"input_image","file_id":"file-1"}]}]}`,
	}, {
		name: "refused everywhere: names, audio, other schemes, filenames on images, media in assistant messages, other roles",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindAudio, Value: "aGk=", MediaType: "audio/wav"},
				image("gs://b/a.png", ""), {Kind: promptfmt.KindImage, Value: "https://x/a.png", Filename: "a.png"}}},
			msg("assistant", image("https://x/a.png", "")), msg("critic", text("x")), msg("_head", text("x"))}},
		strict: "openai-responses: message 1: a name (\"Ross\") cannot be expressed\n" +
			"openai-responses: message 1: part 1: an audio part cannot be expressed (the Responses API takes no audio input)\n" +
			"openai-responses: message 1: part 2: an image URL of scheme \"gs\" cannot be expressed (the Responses API takes http, https and data: URLs)\n" +
			"openai-responses: message 1: part 3: an image part with a filename (\"a.png\") cannot be expressed\n" +
			"openai-responses: message 2: part 1: an image part in an assistant message cannot be expressed\n" +
			"openai-responses: message 3: role \"critic\" has no Responses API equivalent\n" +
			"openai-responses: message 4: role \"_head\" has no Responses API equivalent",
	}, {
		name: "results in a user message, two in a tool message, text after a call: Send writes them in order",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("assistant", call("c1", "f", "{}"), text("and"), call("c2", "f", "{}")),
			msg("user", text("a"), result("c1", "", "1"), text("b")),
			msg("tool", result("c2", "f", "2"), result("c3", "", "3"))}},
		strict: "openai-responses: message 1: part 2: a text part after a tool_call (it reads back as a message of its own: promptfmt.Send, or request --as, writes it after the call)\n" +
			"openai-responses: message 2: part 2: a tool_result in a user message (the Responses API's results are function_call_output items of their own: promptfmt.Send, or request --as, writes it as one)\n" +
			"openai-responses: message 3: part 2: a second tool_result in a tool message (a function_call_output is a message of its own: promptfmt.Send, or request --as, writes an item for each)",
		send: `{"input":[{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"message","role":"assistant","content":"and"},` +
			`{"type":"function_call","call_id":"c2","name":"f","arguments":"{}"},{"type":"message","role":"user","content":"a"},` +
			`{"type":"function_call_output","call_id":"c1","output":"1"},{"type":"message","role":"user","content":"b"},` +
			`{"type":"function_call_output","call_id":"c2","name":"f","output":"2"},{"type":"function_call_output","call_id":"c3","output":"3"}]}`,
	}, {
		name: "calls right after an assistant's message would join it",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{msg("assistant", text("Let me see.")), msg("assistant", call("c1", "f", "{}")),
			msg("assistant", call("c2", "f", "{}"))}},
		strict: "openai-responses: message 2: an assistant message that starts with a tool_call, right after an assistant's message or call (it reads back joined to that message)\n" +
			"openai-responses: message 3: an assistant message that starts with a tool_call, right after an assistant's message or call (it reads back joined to that message)",
		send: `{"input":[{"type":"message","role":"assistant","content":"Let me see."},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call","call_id":"c2","name":"f","arguments":"{}"}]}`,
	}, {
		name: "metadata of another format's document: the SDK's members are written, an id with its type",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: "assistant", Content: []promptfmt.ContentPart{text("a"), call("c1", "f", "{}")},
				Metadata: map[string]any{"id": "msg_1", "status": "completed", "content.0.annotations": []any{}, "content.1.id": "fc_1"}},
			{Role: "tool", Content: []promptfmt.ContentPart{result("c1", "", "ok")}, Metadata: map[string]any{"status": "completed"}},
			{Role: "_reasoning", Content: []promptfmt.ContentPart{text("")}, Metadata: map[string]any{"id": "rs_1", "summary": []any{}}}}},
		strict: `{"input":[{"type":"message","role":"assistant","content":[{"type":"output_text","text":"a","annotations":[]}],"id":"msg_1","status":"completed"},` +
			`{"type":"function_call","call_id":"c1","name":"f","arguments":"{}","id":"fc_1"},{"type":"function_call_output","call_id":"c1","output":"ok","status":"completed"},` +
			`{"type":"reasoning","id":"rs_1","summary":[]}]}`,
		send:         `{"input":[{"type":"message","role":"assistant","content":"a"},{"type":"function_call","call_id":"c1","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"c1","output":"ok"}]}`,
		sendForModel: true,
	}, {
		name: "metadata: the SDK's members from any document, partKeys of known part members; others refused",
		doc: &promptfmt.Document{Meta: map[string]any{"store": false, "title": "x", "input": "y"}, Messages: []promptfmt.Message{
			{Role: "assistant", Content: []promptfmt.ContentPart{text("a")}, Metadata: map[string]any{"id": "msg_1", "status": "completed", "content.0.annotations": []any{}, "ticket": "T-1"}},
			{Role: "assistant", Content: []promptfmt.ContentPart{call("c1", "f", "{}")}, Metadata: map[string]any{"content.0.id": "fc_1", "phase": "final_answer", "content.0.type": "x"}},
			{Role: "_reasoning", Content: []promptfmt.ContentPart{text("thought")}, Metadata: map[string]any{"id": "rs_1", "summary": []any{}, "type": "x"}}}},
		strict: "openai-responses: message 1: the metadata key \"ticket\" (not a member of Responses API's message)\n" +
			"openai-responses: message 2: the metadata key \"content.0.type\" (not a member of Responses API's message)\n" +
			"openai-responses: message 2: an assistant message that starts with a tool_call, right after an assistant's message or call (it reads back joined to that message)\n" +
			"openai-responses: message 2: the metadata key \"phase\" (an assistant message of tool calls alone has no message item to hold it)\n" +
			"openai-responses: message 3: the metadata key \"type\", which names a member the mapping writes itself\n" +
			"openai-responses: message 3: part 1: a text part in a reasoning message (its item is in its metadata; content would be lost)\n" +
			"openai-responses: document: the metadata key \"input\", which names what the Responses API's body holds in its own place (a request setting of another type, or the conversation)\n" +
			"openai-responses: document: the metadata key \"title\" (not a member of the Responses API's request body)",
		sendFitted: true,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.Equal(t, tt.strict, responsesOutcome(t, tt.doc))
			send := tt.send
			if send == "" {
				send = tt.strict
			}
			doc := tt.doc
			if tt.sendForModel {
				doc = doc.ForModel()
			}
			if !tt.sendFitted {
				require.Equal(t, send, responsesOutcome(t, doc, promptfmt.Send()))
			}
			if !strings.HasPrefix(tt.strict, "{") {
				// What the refusals name, Adapt changes, and the result is written.
				fitted, _, err := promptfmt.Adapt(tt.doc, func(d *promptfmt.Document) error { return OpenAIResponses.Write(io.Discard, d) })
				require.NoError(t, err)
				back, err := OpenAIResponses.Parse(writeResponsesBody(t, fitted))
				require.NoError(t, err)
				require.True(t, promptfmt.Equal(fitted, back), "Adapt's document reads back")
			}
		})
	}
}

// responsesOutcome is the compact body written, or the error text.
func responsesOutcome(t *testing.T, doc *promptfmt.Document, opts ...promptfmt.Option) string {
	t.Helper()
	var b bytes.Buffer
	if err := OpenAIResponses.Write(&b, doc, opts...); err != nil {
		require.Zero(t, b.Len(), "nothing written with an error")
		return err.Error()
	}
	var c bytes.Buffer
	require.NoError(t, json.Compact(&c, b.Bytes()))
	return c.String()
}

// TestResponsesSniff: a Responses body is told from the other providers'.
func TestResponsesSniff(t *testing.T) {
	for body, want := range map[string]bool{
		`{"input": "hi"}`:                                              true,
		`{"instructions": "x", "model": "m"}`:                          true,
		`{"model": "m", "input": [{"role": "user", "content": "hi"}]}`: true,
		`{"messages": [], "input": "x"}`:                               false,
		`{"contents": [], "instructions": "x"}`:                        false,
		`{"messages": [{"role": "user", "content": "hi"}]}`:            false,
		`[{"role": "user", "content": "hi"}]`:                          false,
		`{"question": "what is in input?"}`:                            false,
		`{"data": {"input": "x"}}`:                                     false,
		`not json`:                                                     false,
	} {
		require.Equal(t, want, sniffResponses([]byte(body)), body)
		if want {
			require.False(t, sniffOpenAI([]byte(body)), "OpenAI's too: %s", body)
			require.False(t, sniffAnthropic([]byte(body)), "Anthropic's too: %s", body)
			require.False(t, sniffGemini([]byte(body)), "Gemini's too: %s", body)
		}
	}
}

// TestOwnMembersKeptInMeta: a setting the Request could not hold, kept in
// Meta, is written back, by both OpenAI formats; with the Request's own
// value it is refused, not written twice.
func TestOwnMembersKeptInMeta(t *testing.T) {
	for _, tt := range []struct {
		f    promptfmt.Format
		body string
	}{
		{OpenAI, `{"messages":[{"role":"user","content":"hi"}],"tools":[{"type":"custom","custom":{"name":"x"}}],"response_format":{"type":"text"}}`},
		{OpenAIResponses, `{"input":"hi","tools":[{"type":"web_search"}],"text":{"format":{"type":"text"}}}`},
	} {
		doc, err := tt.f.Parse([]byte(tt.body))
		require.NoError(t, err)
		var b bytes.Buffer
		require.NoError(t, tt.f.Write(&b, doc))
		requireSameJSON(t, []byte(tt.body), b.Bytes(), tt.f.Name())
		doc.Request.Tools = []promptfmt.Tool{{Name: "f"}}
		err = tt.f.Write(io.Discard, doc)
		require.ErrorContains(t, err, `the metadata key "tools", which names what`)
	}
}

// TestWholeFloatsReadBack: a float that is whole (2.0) is written as a
// float, so the document reads back the same, not with the integer 2.
func TestWholeFloatsReadBack(t *testing.T) {
	body := []byte(`{"input":"x","metadata":{"a":2.0,"b":-0.0,"c":2,"d":1e300,"e":[0.0,{"f":100.0}]},"tools":[{"type":"function","name":"f","parameters":{"minimum":1.0},"strict":true}],"temperature":1.0}`)
	doc, err := OpenAIResponses.Parse(body)
	require.NoError(t, err)
	out := writeResponsesBody(t, doc)
	var c bytes.Buffer
	require.NoError(t, json.Compact(&c, out))
	require.Equal(t, `{"input":"x","temperature":1.0,"tools":[{"type":"function","name":"f","parameters":{"minimum":1.0},"strict":true}],"metadata":{"a":2.0,"b":-0.0,"c":2,"d":1e+300,"e":[0.0,{"f":100.0}]}}`, c.String())
	back, err := OpenAIResponses.Parse(out)
	require.NoError(t, err)
	require.True(t, promptfmt.Equal(doc, back))
	require.Equal(t, 100.0, doc.Meta["metadata"].(map[string]any)["e"].([]any)[1].(map[string]any)["f"], "the document is left alone")
}

// TestResponsesNoMemberTwice: metadata read from a body never writes a
// member twice: a null name kept beside a tool name set since is refused.
func TestResponsesNoMemberTwice(t *testing.T) {
	doc, err := OpenAIResponses.Parse([]byte(`{"input":[{"type":"function_call_output","call_id":"c","output":"x","name":null}]}`))
	require.NoError(t, err)
	require.Equal(t, map[string]any{"name": nil}, doc.Messages[0].Metadata)
	var c bytes.Buffer
	require.NoError(t, json.Compact(&c, writeResponsesBody(t, doc)))
	require.Equal(t, `{"input":[{"type":"function_call_output","call_id":"c","output":"x","name":null}]}`, c.String())
	doc.Messages[0].Content[0].ToolName = "f"
	require.EqualError(t, OpenAIResponses.Write(io.Discard, doc),
		`openai-responses: message 1 (line 1): the metadata key "name", which names a member the mapping writes itself`)
}

// TestObjectEncodesAsEncodingJSON: an object's text is what
// jsonvalue.Encode writes of the same values, its fast path for plain
// strings included.
func TestObjectEncodesAsEncodingJSON(t *testing.T) {
	strs := []string{"", "plain text", `q"uote`, `back\slash`, "tab\t", "\x7f", "<a & b>", "é", "\u2028", "\xff", "\x00"}
	var o object
	plain := map[string]any{}
	for i, s := range strs {
		k := fmt.Sprintf("%s%d", s, i)
		o.add(k, s)
		plain[k] = s
	}
	o.add("nested", []object{{{"a", 1.5}, {"b", int64(2)}}, {}})
	plain["nested"] = []any{map[string]any{"a": 1.5, "b": int64(2)}, map[string]any{}}
	got, err := marshal(o)
	require.NoError(t, err)
	var back map[string]any
	require.NoError(t, json.Unmarshal(got, &back))
	want, err := jsonvalue.Encode(plain)
	require.NoError(t, err)
	var wantBack map[string]any
	require.NoError(t, json.Unmarshal(want, &wantBack))
	require.Equal(t, wantBack, back)
	for _, s := range strs { // each string as encoding/json writes it
		w, err := jsonvalue.Encode(s)
		require.NoError(t, err)
		g, err := appendValue(nil, s)
		require.NoError(t, err)
		require.Equal(t, string(w), string(g), "%q", s)
	}
}
