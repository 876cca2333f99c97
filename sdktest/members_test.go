package sdktest

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/wire"
	"google.golang.org/genai"
)

// TestMemberLists: every member in the provider package's documented
// member lists (internal/wire) is a JSON field of the SDK's type for that
// body, message or part; a body's list is all of the SDK's request
// fields, and stream (which the SDKs set for a streaming call), so no
// member the API takes is refused when written from Meta.
func TestMemberLists(t *testing.T) {
	// OpenAI Chat Completions and Responses (openai-go v3).
	same(t, "wire.OpenAIBody", wire.OpenAIBody, []string{"stream"}, jsonFields(openai.ChatCompletionNewParams{}))
	within(t, "wire.OpenAIMessage", wire.OpenAIMessage, jsonFields(openai.ChatCompletionAssistantMessageParam{}))
	same(t, "wire.ResponsesBody", wire.ResponsesBody, []string{"stream"}, jsonFields(responses.ResponseNewParams{}))
	within(t, "wire.ResponsesMessage", wire.ResponsesMessage, jsonFields(responses.EasyInputMessageParam{},
		responses.ResponseInputItemMessageParam{}, responses.ResponseOutputMessageParam{}))
	within(t, "wire.ResponsesOutput", wire.ResponsesOutput, jsonFields(responses.ResponseInputItemFunctionCallOutputParam{}))
	within(t, "wire.ResponsesReasoning", wire.ResponsesReasoning, jsonFields(responses.ResponseReasoningItemParam{}))
	byKind(t, "wire.ResponsesPart", wire.ResponsesPart, map[promptfmt.Kind][]string{
		promptfmt.KindText:     jsonFields(responses.ResponseInputTextParam{}, responses.ResponseOutputTextParam{}),
		promptfmt.KindImage:    jsonFields(responses.ResponseInputImageParam{}),
		promptfmt.KindFile:     jsonFields(responses.ResponseInputFileParam{}),
		promptfmt.KindToolCall: jsonFields(responses.ResponseFunctionToolCallParam{}),
	})

	// Anthropic (anthropic-sdk-go v1 and v2, by the command in anthropic/).
	sdk := runAnthropic(t, nil)
	v1, v2 := sdk["v1"].Fields, sdk["v2"].Fields
	same(t, "wire.AnthropicBody", wire.AnthropicBody, []string{"stream"}, v1["MessageNewParams"])
	// v2's request is v1's without the sampling members, no more.
	if removed, added := minus(v1["MessageNewParams"], v2["MessageNewParams"]), minus(v2["MessageNewParams"], v1["MessageNewParams"]); !slices.Equal(removed, anthropicSampling) || len(added) > 0 {
		t.Errorf("anthropic-sdk-go v2's MessageNewParams drops %q and adds %q, want it to drop %q only", removed, added, anthropicSampling)
	}
	for v, fields := range map[string]map[string][]string{"v1": v1, "v2": v2} {
		same(t, "wire.AnthropicMessage ("+v+")", wire.AnthropicMessage, nil, fields["MessageParam"])
		byKind(t, "wire.AnthropicPart ("+v+")", wire.AnthropicPart, map[promptfmt.Kind][]string{
			promptfmt.KindText:       fields["TextBlockParam"],
			promptfmt.KindImage:      fields["ImageBlockParam"],
			promptfmt.KindFile:       fields["DocumentBlockParam"],
			promptfmt.KindToolCall:   fields["ToolUseBlockParam"],
			promptfmt.KindToolResult: fields["ToolResultBlockParam"],
		})
	}

	// Gemini (genai): the body has no type of its own; its members are
	// those genai writes (geminiWrites), and model (see geminiProblem).
	same(t, "wire.GeminiBody", wire.GeminiBody, []string{"model"}, geminiWrites(t, newGeminiSDK(t)))
	same(t, "wire.GeminiContent", wire.GeminiContent, nil, jsonFields(genai.Content{}))
	within(t, "wire.GeminiPart", wire.GeminiPart, jsonFields(genai.Part{}))
}

// jsonFields returns the JSON names of the fields of the structs values,
// once each, sorted; the fields of an inlined union (json:",inline") are
// its variants'.
func jsonFields(values ...any) []string {
	set := map[string]bool{}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for f := range t.Fields() {
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case !f.IsExported() || name == "-":
			case name == "" && strings.Contains(opts, "inline") && f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct:
				add(f.Type.Elem())
			case name != "":
				set[name] = true
			}
		}
	}
	for _, v := range values {
		add(reflect.TypeOf(v))
	}
	return slices.Sorted(maps.Keys(set))
}

// within fails t for each name of list that is not among fields.
func within(t *testing.T, list string, names, fields []string) {
	t.Helper()
	if len(fields) == 0 {
		t.Errorf("%s: the SDK's type has no fields", list)
	}
	if out := minus(names, fields); len(out) > 0 {
		t.Errorf("%s names %q, which the SDK's type has no field for (it has %q)", list, out, fields)
	}
}

// same fails t unless list holds the names fields and extra, no more.
func same(t *testing.T, list string, names, extra, fields []string) {
	t.Helper()
	within(t, list, minus(names, extra), fields)
	if missing := minus(fields, names); len(missing) > 0 {
		t.Errorf("%s leaves out %q, which the SDK has", list, missing)
	}
}

// byKind checks each kind's list within the fields of its types; each
// kind listed must have them.
func byKind(t *testing.T, list string, lists map[promptfmt.Kind][]string, fields map[promptfmt.Kind][]string) {
	t.Helper()
	for k, names := range lists {
		within(t, list+"["+string(k)+"]", names, fields[k])
	}
}

// minus returns the names of a not in b, in a's order.
func minus(a, b []string) []string {
	var out []string
	for _, n := range a {
		if !slices.Contains(b, n) {
			out = append(out, n)
		}
	}
	return out
}

// geminiWrites returns the members genai writes into a generateContent
// body: each field of GenerateContentConfig is given a value alone, and
// the request sent by both backends (a field one backend refuses is sent
// by the other); the body's members are gathered. HTTPOptions is left
// out: it is where genai sends, not what.
func geminiWrites(t *testing.T, sdk *geminiSDK) []string {
	set := map[string]bool{}
	fields := 0
	for _, f := range reflect.VisibleFields(reflect.TypeFor[genai.GenerateContentConfig]()) {
		if !f.IsExported() || f.Name == "HTTPOptions" {
			continue
		}
		fields++
		sent := false
		for _, b := range []genai.Backend{genai.BackendGeminiAPI, genai.BackendVertexAI} {
			var cfg genai.GenerateContentConfig
			reflect.ValueOf(&cfg).Elem().FieldByIndex(f.Index).Set(nonZero(f.Type))
			body, _, err := sdk.send(b, "m", genai.Text("hi"), &cfg)
			if err != nil {
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(body, &m); err != nil {
				t.Fatal(err)
			}
			for k := range m {
				set[k] = true
			}
			sent = true
		}
		if !sent {
			t.Errorf("genai sends no request with GenerateContentConfig.%s set", f.Name)
		}
	}
	if fields < 20 || !set["generationConfig"] || !set["systemInstruction"] {
		t.Fatalf("genai's GenerateContentConfig gave %d fields and the members %q", fields, slices.Sorted(maps.Keys(set)))
	}
	t.Logf("genai writes %q", slices.Sorted(maps.Keys(set)))
	return slices.Sorted(maps.Keys(set))
}

// nonZero returns a value of type t that is not its zero: one of
// everything, "x" for a string, an object for any JSON.
func nonZero(t reflect.Type) reflect.Value {
	switch t.Kind() {
	case reflect.Pointer:
		p := reflect.New(t.Elem())
		p.Elem().Set(nonZero(t.Elem()))
		return p
	case reflect.String:
		return reflect.ValueOf("x").Convert(t)
	case reflect.Bool:
		return reflect.ValueOf(true).Convert(t)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return reflect.ValueOf(1).Convert(t)
	case reflect.Slice:
		s := reflect.MakeSlice(t, 1, 1)
		s.Index(0).Set(nonZero(t.Elem()))
		return s
	case reflect.Map:
		m := reflect.MakeMap(t)
		m.SetMapIndex(nonZero(t.Key()), nonZero(t.Elem()))
		return m
	case reflect.Interface:
		return reflect.ValueOf(map[string]any{"type": "object"})
	}
	return reflect.Zero(t) // a struct: its zero is {} in JSON, not nothing
}
