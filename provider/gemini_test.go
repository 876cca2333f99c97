package provider

import (
	"math"
	"testing"

	"github.com/promptfmt/promptfmt"
)

// The payloads of Gemini's SDK and REST examples (testdata/gemini/SOURCE.md)
// read as their .want says, or fail as their .err says (the REST examples'
// trailing commas and raw line breaks in strings), and are written back
// as they are: spelling, one content or part given as an object, no role
// and lower-case modes included.
func TestGeminiPayloads(t *testing.T) {
	testDocPayloads(t, Gemini, func(v any) any { return v })
}

func TestParseGemini(t *testing.T) {
	png := "iVBORw0KGgo="
	meta := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	testParse(t, Gemini, []parseCase{{
		name: "snake_case: the system instruction; role model is assistant, none is user",
		body: `{"system_instruction": {"parts": [{"text": "Be brief."}, {"text": "Be kind."}]},
			"contents": [{"parts": [{"text": "Hi"}]}, {"role": "model", "parts": [{"text": "Hello"}]}, {"role": "user", "parts": [{"text": "?"}]}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("system", text("Be brief."), text("Be kind.")), msg("user", text("Hi")), msg("assistant", text("Hello")), msg("user", text("?"))}},
	}, {
		name: "camelCase media: the kind is the MIME type's family; a display name is the filename",
		body: `{"contents": [{"role": "user", "parts": [
			{"inlineData": {"mimeType": "image/png", "data": "` + png + `"}},
			{"inlineData": {"mimeType": "audio/wav", "data": "UklGRiQAAABXQVZF", "displayName": "hi.wav"}},
			{"inlineData": {"mimeType": "application/pdf", "data": "JVBERi0xLjcK"}},
			{"fileData": {"mimeType": "video/mp4", "fileUri": "gs://bucket/clip.mp4"}, "videoMetadata": {"startOffset": "1s"}},
			{"fileData": {"fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc"}}]}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{
			image(png, "image/png"),
			{Kind: promptfmt.KindAudio, Value: "UklGRiQAAABXQVZF", MediaType: "audio/wav", Filename: "hi.wav"},
			{Kind: promptfmt.KindFile, Value: "JVBERi0xLjcK", MediaType: "application/pdf"},
			{Kind: promptfmt.KindFile, Value: "gs://bucket/clip.mp4", MediaType: "video/mp4"},
			{Kind: promptfmt.KindFile, Value: "https://generativelanguage.googleapis.com/v1beta/files/abc"},
		}, Metadata: meta("content.3.videoMetadata", map[string]any{"startOffset": "1s"})}}},
	}, {
		name: "calls with and without ids, args or none; responses: {\"output\": text} unwrapped, else the object",
		body: `{"contents": [
			{"role": "model", "parts": [{"function_call": {"id": "c1", "name": "weather", "args": {"city": "Oslo"}}, "thought_signature": "c2ln"},
				{"function_call": {"name": "clock"}}]},
			{"role": "user", "parts": [{"function_response": {"id": "c1", "name": "weather", "response": {"output": "4°C"}}},
				{"function_response": {"name": "clock", "response": {"time": "09:30", "output": "x"}}}]}]}`,
		want: &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: "assistant", Content: []promptfmt.ContentPart{call("c1", "weather", `{"city":"Oslo"}`), call("", "clock", "")},
				Metadata: meta("content.0.thought_signature", "c2ln")},
			msg("user", result("c1", "weather", "4°C"), result("", "clock", `{"time":"09:30","output":"x"}`))}},
	}, {
		name: "the request's settings; the rest of generationConfig and toolConfig in Meta",
		body: `{"model": "models/gemini-2.5-flash", "contents": [],
			"generationConfig": {"temperature": 0.5, "topP": 0.9, "topK": 40, "maxOutputTokens": 800, "stopSequences": ["END"],
				"seed": 7, "presencePenalty": 0.1, "frequencyPenalty": 0.2, "candidateCount": 1,
				"responseMimeType": "application/json", "responseJsonSchema": {"type": "object"}},
			"tools": [{"functionDeclarations": [{"name": "weather", "description": "d", "parametersJsonSchema": {"type": "object"}},
				{"name": "lights_on"}]}],
			"toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["weather"]}, "includeServerSideToolInvocations": true},
			"safetySettings": []}`,
		want: &promptfmt.Document{
			Request: promptfmt.Request{Model: "models/gemini-2.5-flash", Temperature: ptr(0.5), TopP: ptr(0.9), TopK: ptr(int64(40)),
				MaxTokens: ptr(int64(800)), Stop: []string{"END"}, Seed: ptr(int64(7)), PresencePenalty: ptr(0.1), FrequencyPenalty: ptr(0.2),
				Output: &promptfmt.Output{Schema: map[string]any{"type": "object"}, Strict: true},
				Tools: []promptfmt.Tool{{Name: "weather", Description: "d", Parameters: map[string]any{"type": "object"}},
					{Name: "lights_on"}},
				ToolChoice: &promptfmt.ToolChoice{Mode: "required", Tool: "weather"}},
			Meta: meta("generationConfig", map[string]any{"candidateCount": int64(1)},
				"toolConfig", map[string]any{"includeServerSideToolInvocations": true}, "safetySettings", []any{})},
	}, {
		name: "JSON mode; OpenAPI's schema; modes in lower case",
		body: `{"contents": [], "generation_config": {"response_mime_type": "application/json"},
			"tool_config": {"function_calling_config": {"mode": "none"}}}`,
		want: &promptfmt.Document{Request: promptfmt.Request{Output: &promptfmt.Output{},
			ToolChoice: &promptfmt.ToolChoice{Mode: "none"}}},
	}, {
		name: "settings the Request cannot hold exactly stay in Meta as written",
		body: `{"contents": [], "tools": [{"googleSearch": {}}],
			"toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}},
			"generationConfig": {"responseMimeType": "text/x.enum", "responseSchema": {"type": "STRING", "enum": ["a", "b"]}}}`,
		want: &promptfmt.Document{Meta: meta(
			"tools", []any{map[string]any{"googleSearch": map[string]any{}}},
			"toolConfig", map[string]any{"functionCallingConfig": map[string]any{"mode": "VALIDATED"}},
			"generationConfig", map[string]any{"responseMimeType": "text/x.enum", "responseSchema": map[string]any{"type": "STRING", "enum": []any{"a", "b"}}})},
	}, {
		name:     "an empty text is read, and refused when written",
		body:     `{"contents": [{"parts": [{"text": ""}]}]}`,
		want:     &promptfmt.Document{Messages: []promptfmt.Message{msg("user", text(""))}},
		writeErr: "gemini: message 1 (line 1): an empty message cannot be expressed (Gemini refuses empty text)",
	}, {
		name: "no contents",
		body: "{\"system_instruction\": {\"parts\": [{\"text\": \"x\"}]}}",
		err:  "gemini:1:1: a generateContent body needs contents",
	}, {
		name: "roles and parts",
		body: "{\"contents\": [\n {\"role\": \"robot\", \"parts\": [{\"text\": \"x\"}]},\n {\"role\": \"user\"},\n" +
			" {\"parts\": [{}, {\"thought\": true}, {\"text\": \"a\", \"inline_data\": {}}, {\"executableCode\": {\"code\": \"1\"}}]}]}",
		err: "gemini:2:11: unknown role \"robot\" (Gemini's are user and model)\n" +
			"gemini:3:2: a content without parts\n" +
			"gemini:4:13: an empty part\n" +
			"gemini:4:17: a part without text, inlineData, fileData, functionCall or functionResponse\n" +
			"gemini:4:50: a part with both text and inline_data (a part holds one)\n" +
			"gemini:4:71: an executableCode part (the model has no part of this kind)",
	}, {
		name: "calls and responses",
		body: "{\"contents\": [\n" +
			"{\"role\": \"user\", \"parts\": [{\"functionCall\": {\"name\": \"f\", \"args\": {}}}]},\n" +
			"{\"role\": \"model\", \"parts\": [{\"functionResponse\": {\"name\": \"f\", \"response\": {}}},\n" +
			" {\"functionCall\": {\"args\": {}}}, {\"functionCall\": {\"name\": \"f\", \"args\": [1]}},\n" +
			" {\"functionCall\": {\"name\": \"f\", \"willContinue\": true}}]},\n" +
			"{\"parts\": [{\"functionResponse\": {\"name\": \"f\"}}, {\"functionResponse\": {\"response\": {}}}]}]}",
		err: "gemini:2:29: a functionCall in a user content (only the model calls functions)\n" +
			"gemini:3:30: a functionResponse in a model content (responses go in a user content)\n" +
			"gemini:4:19: a functionCall without name\n" +
			"gemini:4:73: args must be an object, not an array\n" +
			"gemini:5:33: unknown member \"willContinue\" of functionCall\n" +
			"gemini:6:33: a functionResponse without response\n" +
			"gemini:6:70: a functionResponse without name",
	}, {
		name: "media",
		body: "{\"system_instruction\": {\"parts\": [{\"inline_data\": {\"mime_type\": \"image/png\", \"data\": \"" + png + "\"}}]},\n" +
			"\"contents\": [{\"parts\": [{\"inline_data\": {\"data\": \"" + png + "\"}},\n" +
			" {\"inline_data\": {\"mime_type\": \"image/png\", \"data\": \"iVBOR!w0KGgo=\"}},\n" +
			" {\"file_data\": {\"mime_type\": \"image/png\"}}]}]}",
		err: "gemini:1:36: an inline_data part in the systemInstruction (it holds text)\n" +
			"gemini:2:41: inlineData without mimeType\n" +
			"gemini:3:53: inlineData data is not valid base64: illegal base64 data at input byte 5\n" +
			"gemini:4:16: fileData without fileUri",
	}, {
		name: "numbers past the API's float and int32, refused as the writer refuses them",
		body: "{\"contents\": [{\"parts\": [{\"text\": \"x\"}]}], \"generationConfig\": {\n\"temperature\": 1e39, \"topK\": 2147483648,\n" +
			"\"maxOutputTokens\": -2147483649, \"seed\": 2147483647, \"topP\": 3.4e38}}",
		err: "gemini:2:16: temperature 1e39 is out of the range of Gemini's temperature (a 32-bit float)\n" +
			"gemini:2:30: topK 2147483648 is out of the range of Gemini's topK (a 32-bit integer)\n" +
			"gemini:3:20: maxOutputTokens -2147483649 is out of the range of Gemini's maxOutputTokens (a 32-bit integer)",
	}, {
		name: "two spellings of one member",
		body: "{\"contents\": [], \"generationConfig\": {},\n\"generation_config\": {}}",
		err:  "gemini:2:1: both generationConfig and generation_config (two spellings of one member: give one)",
	}})
}

func TestWriteGemini(t *testing.T) {
	png := "iVBORw0KGgo="
	testWrite(t, Gemini, []writeCase{{
		name: "strict: what reads back otherwise, with the nearest",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("user", image("data:image/png;base64,"+png, ""), promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: png, MediaType: "image/png"},
				image("https://example.com/a.png", ""), promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: png, MediaType: "image/png", ID: "f1"}),
			msg("assistant", call("c1", "lookup", `{"q": "x"}`)),
			msg("user", result("c1", "", "r"), result("c1", "lookup", `{"output":"r"}`), result("c1", "lookup", `{ "a": 1 }`)),
		}},
		err: "gemini: message 1: part 1: an image part in a form Gemini's body does not keep (it reads back as an image part, base64 data of media type image/png)\n" +
			"gemini: message 1: part 2: a file part in a form Gemini's body does not keep (it reads back as an image part, base64 data of media type image/png)\n" +
			"gemini: message 1: part 3: an image part in a form Gemini's body does not keep (it reads back as a file part, a URL with no media type)\n" +
			"gemini: message 1: part 4: an image part with a file id (\"f1\") cannot be expressed\n" +
			"gemini: message 2: part 1: tool_call arguments with white space between their tokens cannot be kept (Gemini keeps them compact)\n" +
			"gemini: message 3: part 1: a tool_result without the name of its tool (Gemini's function response names it) cannot be kept\n" +
			"gemini: message 3: part 2: a tool_result whose result reads back as \"r\" cannot be kept\n" +
			"gemini: message 3: part 3: a tool_result whose result reads back as \"{\\\"a\\\":1}\" cannot be kept",
		nearest: []promptfmt.ContentPart{image(png, "image/png"), image(png, "image/png"),
			{Kind: promptfmt.KindFile, Value: "https://example.com/a.png"}, image(png, "image/png"),
			call("c1", "lookup", `{"q":"x"}`), result("c1", "lookup", "r"), result("c1", "lookup", "r"), result("c1", "lookup", `{"a":1}`)},
	}, {
		name: "strict: contents of one role apart, roles as read; a part's members in place",
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("user", text("a")), msg("user", text("b")),
			{Role: "assistant", Content: []promptfmt.ContentPart{call("", "f", "")}, Metadata: map[string]any{"content.0.thoughtSignature": "c2ln"}},
			msg("user", result("", "f", "done"))}},
		body: `{"contents":[{"role":"user","parts":[{"text":"a"}]},{"role":"user","parts":[{"text":"b"}]},{"role":"model","parts":[{"function_call":{"name":"f"},"thoughtSignature":"c2ln"}]},{"role":"user","parts":[{"function_response":{"name":"f","response":{"output":"done"}}}]}]}`,
	}, {
		name: "sent: the export's form",
		send: true,
		doc: &promptfmt.Document{Messages: []promptfmt.Message{
			msg("developer", text("A")), msg("user", text("x"), image("data:image/png;base64,"+png, "")),
			msg("assistant", call("c1", "lookup", `{"q": "x"}`)), msg("tool", result("c1", "", "r")), msg("user", text("thanks"))}},
		body: `{"system_instruction":{"parts":[{"text":"A"}]},"contents":[{"role":"user","parts":[{"text":"x"},{"inline_data":{"mime_type":"image/png","data":"iVBORw0KGgo="}}]},{"role":"model","parts":[{"function_call":{"id":"c1","name":"lookup","args":{"q":"x"}}}]},{"role":"user","parts":[{"function_response":{"id":"c1","name":"lookup","response":{"output":"r"}}},{"text":"thanks"}]}]}`,
	}, {
		name: "the request under Gemini's names, Meta merged into generationConfig and toolConfig",
		doc: &promptfmt.Document{
			Request: promptfmt.Request{Model: "models/gemini-2.5-flash", Temperature: ptr(0.2), TopP: ptr(0.9), TopK: ptr(int64(5)),
				MaxTokens: ptr(int64(100)), Stop: []string{"END"}, Seed: ptr(int64(3)), PresencePenalty: ptr(0.1), FrequencyPenalty: ptr(0.2),
				Tools:      []promptfmt.Tool{{Name: "weather", Description: "d", Parameters: map[string]any{"type": "object"}}, {Name: "clock"}},
				ToolChoice: &promptfmt.ToolChoice{Mode: "required", Tool: "weather"},
				Output:     &promptfmt.Output{Schema: map[string]any{"type": "object"}, Strict: true}},
			Meta: map[string]any{"generationConfig": map[string]any{"thinkingConfig": map[string]any{"thinkingBudget": int64(0)}},
				"toolConfig": map[string]any{"includeServerSideToolInvocations": true}, "labels": map[string]any{"team": "a"}},
			Messages: []promptfmt.Message{msg("user", text("hi"))}},
		body: `{"model":"models/gemini-2.5-flash","contents":[{"role":"user","parts":[{"text":"hi"}]}],"tools":[{"function_declarations":[{"name":"weather","description":"d","parameters_json_schema":{"type":"object"}},{"name":"clock"}]}],"toolConfig":{"function_calling_config":{"mode":"ANY","allowed_function_names":["weather"]},"includeServerSideToolInvocations":true},"generationConfig":{"temperature":0.2,"top_p":0.9,"top_k":5,"max_output_tokens":100,"stop_sequences":["END"],"seed":3,"presence_penalty":0.1,"frequency_penalty":0.2,"response_mime_type":"application/json","response_json_schema":{"type":"object"},"thinkingConfig":{"thinkingBudget":0}},"labels":{"team":"a"}}`,
	}, {
		name: "the request Gemini cannot hold; Meta that would read back otherwise",
		doc: &promptfmt.Document{
			Request: promptfmt.Request{Tools: []promptfmt.Tool{{Name: "weather", Parameters: map[string]any{"type": "object"}, Strict: true}},
				ToolChoice: &promptfmt.ToolChoice{Mode: "none", Tool: "weather"},
				Output:     &promptfmt.Output{Name: "answer", Schema: map[string]any{"type": "object"}, Strict: true}},
			Meta:     map[string]any{"generationConfig": map[string]any{"temperature": 1}, "model": "gemini", "system_instruction": "x"},
			Messages: []promptfmt.Message{msg("user", text("hi"))}},
		err: "gemini: document: tools held strictly to their schema, \"weather\" (Gemini's function declarations have no strict)\n" +
			"gemini: document: a tool choice naming a tool with mode \"none\" (a tool is named with mode required)\n" +
			"gemini: document: an output schema's name or description (Gemini's structured output has neither)\n" +
			"gemini: document: the metadata key \"generationConfig\", whose members would not read back beside the request's settings in it (a setting of the request's own, or of another type)\n" +
			"gemini: document: the metadata key \"model\", which would read back as the request's settings (it is the request's to hold)\n" +
			"gemini: document: the metadata key \"system_instruction\", which names what Gemini's body holds in its own place (a request setting of another type, or the conversation)",
	}, {
		// Found by sdktest: genai's types (int32, float32) refused these
		// bodies, as the API's JSON reader does.
		name: "numbers past protobuf's int32 and float, refused (sent too)",
		send: true,
		doc: &promptfmt.Document{
			Request: promptfmt.Request{Temperature: ptr(-1e308), TopP: ptr(math.MaxFloat32 * 2), TopK: ptr(int64(math.MaxInt64)),
				MaxTokens: ptr(int64(1 << 60)), Seed: ptr(int64(math.MinInt32 - 1)), PresencePenalty: ptr(1e39), FrequencyPenalty: ptr(-1e39)},
			Messages: []promptfmt.Message{msg("user", text("hi"))}},
		err: "gemini: document: temperature -1e+308, out of the range of Gemini's temperature (a 32-bit float)\n" +
			"gemini: document: topP 6.805646932770577e+38, out of the range of Gemini's topP (a 32-bit float)\n" +
			"gemini: document: topK 9223372036854775807, out of the range of Gemini's topK (a 32-bit integer)\n" +
			"gemini: document: maxTokens 1152921504606846976, out of the range of Gemini's maxOutputTokens (a 32-bit integer)\n" +
			"gemini: document: seed -2147483649, out of the range of Gemini's seed (a 32-bit integer)\n" +
			"gemini: document: presencePenalty 1e+39, out of the range of Gemini's presencePenalty (a 32-bit float)\n" +
			"gemini: document: frequencyPenalty -1e+39, out of the range of Gemini's frequencyPenalty (a 32-bit float)",
	}, {
		name: "numbers at protobuf's int32 and float bounds, written",
		doc: &promptfmt.Document{
			Request: promptfmt.Request{Temperature: ptr(math.MaxFloat32), TopK: ptr(int64(math.MaxInt32)), MaxTokens: ptr(int64(math.MaxInt32)),
				Seed: ptr(int64(math.MinInt32)), PresencePenalty: ptr(-math.MaxFloat32)},
			Messages: []promptfmt.Message{msg("user", text("hi"))}},
		body: `{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generation_config":{"temperature":3.4028234663852886e+38,"top_k":2147483647,"max_output_tokens":2147483647,"seed":-2147483648,"presence_penalty":-3.4028234663852886e+38}}`,
	}})
}
