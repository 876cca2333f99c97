package prompty

import (
	"bytes"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

// testdata/canonical/settings.prompty has every home of a setting,
// written as authors write them (integers where the Request holds floats,
// a mapping of properties, a comment), and what is no setting beside
// them; settingsRequest is what it says.
func settingsRequest() promptfmt.Request {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	return promptfmt.Request{
		Model: "gpt-4o", Temperature: ptr(1.0), TopP: ptr(0.9), TopK: ptr(int64(40)), MaxTokens: ptr(int64(512)),
		Stop: []string{"END"}, Seed: ptr(int64(7)), FrequencyPenalty: ptr(0.5), PresencePenalty: ptr(-0.5),
		Tools: []promptfmt.Tool{{Name: "get_weather", Description: "Weather now", Strict: true,
			Parameters: obj("type", "object", "required", []any{"city"}, "properties", obj(
				"city", obj("type", "string"),
				"unit", obj("type", []any{"string", "null"}, "enum", []any{"c", "f"}),
				"days", obj("type", "array", "items", obj("type", "integer"), "examples", []any{[]any{int64(1), int64(2)}}),
			))}},
		Output: &promptfmt.Output{Schema: obj("type", "object", "required", []any{"summary"}, "properties", obj(
			"summary", obj("type", "string", "description", "One line"),
			"rain", obj("type", "boolean", "default", false),
		))},
	}
}

func TestRequestRead(t *testing.T) {
	settings := string(canonicalFiles(t)["settings.prompty"])
	doc, err := Parse([]byte(settings))
	require.NoError(t, err)
	assert.True(t, promptfmt.EqualRequests(settingsRequest(), doc.Request), "%+v", doc.Request)
	assert.Equal(t, map[string]any{"name": "weather", "model": map[string]any{"provider": "openai",
		"options": map[string]any{"allowMultipleToolCalls": true}}}, doc.Meta, "Meta keeps what the Request does not hold")
	assert.Equal(t, map[string]int{"model": 4, "temperature": 7, "maxTokens": 8, "topP": 9, "topK": 10, "frequencyPenalty": 11,
		"presencePenalty": 12, "seed": 13, "stop": 14, "tools": 16, "output": 34}, doc.Request.Lines, "each at its key's line")
	assert.Empty(t, doc.Warnings)

	// fmt keeps the file byte for byte: the values as read, the author's
	// node with them.
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, settings, out.String())

	// A changed setting is written afresh, the others as they were.
	doc.Request.Temperature = ptr(0.25)
	out.Reset()
	require.NoError(t, Write(&out, doc))
	assert.Contains(t, out.String(), "    temperature: 0.25\n")
	assert.Contains(t, out.String(), "    maxOutputTokens: 512\n")
	roundTrip(t, doc)
}

// Written from another format, the settings take Prompty's shapes: model
// as its id (model.id when options go beside it), property lists with
// the required first, in the schema's order.
func TestRequestWrite(t *testing.T) {
	var out bytes.Buffer
	doc := &promptfmt.Document{Request: promptfmt.Request{Model: "o3"}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi")}}
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, "---\nmodel: o3\n---\nuser:\nhi\n", out.String())

	doc.Request = settingsRequest()
	out.Reset()
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, `---
model:
  id: gpt-4o
  options:
    frequencyPenalty: 0.5
    maxOutputTokens: 512
    presencePenalty: -0.5
    seed: 7
    stopSequences:
      - END
    temperature: 1.0
    topK: 40
    topP: 0.9
outputs:
  - description: One line
    kind: string
    name: summary
    required: true
  - default: false
    kind: boolean
    name: rain
tools:
  - description: Weather now
    kind: function
    name: get_weather
    parameters:
      - kind: string
        name: city
        required: true
      - example:
          - 1
          - 2
        items:
          kind: integer
        kind: array
        name: days
      - enumValues:
          - c
          - f
        kind: string
        name: unit
        nullable: true
    strict: true
---
user:
hi
`, out.String())
	roundTrip(t, doc)
	// Load reads what Write wrote as the same settings.
	a, err := Load(out.Bytes())
	require.NoError(t, err)
	assert.Equal(t, 1.0, *a.Model.Options.Temperature)
	assert.Equal(t, "city", a.Tools[0]["parameters"].([]any)[0].(map[string]any)["name"])
}

// A value that is no setting, or that the Request cannot hold exactly,
// stays in the front matter as written; the second with a warning at its
// key.
func TestRequestStaysInMeta(t *testing.T) {
	for _, tc := range []struct{ yaml, key, warning string }{
		// Load refuses these two (and so Write does, as before).
		{"model:\n  options:\n    temperature: hot", "model", "prompty:4:5: front matter: model.options.temperature is not read as the request's temperature: want a number, not a string (it stays in the front matter)"},
		{"model: 5", "model", "prompty:2:1: front matter: model is not read as the request's model: want a model id or a mapping, not a number"},
		{"tools:\n  - name: fs\n    kind: mcp", "tools", `tool 1: kind "mcp" is not a function tool`},
		{"tools:\n  - name: f\n    kind: function\n    bindings: {a: b}", "tools", "tool 1: bindings has no place in a request's tool"},
		{"outputs:\n  answer: 42", "outputs", `property "answer": the scalar shorthand`},
		{"outputs:\n  - name: t\n    kind: thread", "outputs", `property "t": kind "thread" has no JSON Schema type`},
		{"outputs:\n  - name: t\n    kind: array\n    items: {kind: string, required: true}", "outputs", "items: required has no meaning"},
		{"model: ${env:MODEL}", "model", ""},
		{"model:\n  options:\n    temperature: ${env:T:0.2}", "model", ""},
	} {
		src := "---\n" + tc.yaml + "\n---\nuser:\nhi\n"
		doc, err := Parse([]byte(src))
		require.NoError(t, err, tc.yaml)
		assert.Contains(t, doc.Meta, tc.key, tc.yaml)
		assert.True(t, doc.Request.IsZero(), tc.yaml)
		if tc.warning == "" {
			assert.Empty(t, doc.Warnings, "a reference is Load's to resolve: %s", tc.yaml)
		} else {
			require.Len(t, doc.Warnings, 1, tc.yaml)
			assert.Contains(t, doc.Warnings[0].String(), tc.warning)
		}
		var out bytes.Buffer
		if err := Write(&out, doc); strings.Contains(tc.warning, "want a model id") || strings.Contains(tc.warning, "want a number") {
			assert.ErrorContains(t, err, "Load and Prepare would refuse the file")
			continue
		} else {
			require.NoError(t, err)
		}
		assert.Equal(t, src, out.String(), "kept as written")
	}
}

func TestRequestRefusals(t *testing.T) {
	refusals := func(doc *promptfmt.Document) []*promptfmt.UnsupportedError {
		t.Helper()
		err := Write(io.Discard, doc)
		require.Error(t, err)
		promptfmt.Locate(doc, err)
		var out []*promptfmt.UnsupportedError
		for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
			out = append(out, e.(*promptfmt.UnsupportedError))
		}
		return out
	}
	msgs := []promptfmt.Message{promptfmt.NewMessage("user", "hi")}
	// No home for a tool choice; a tool without a name (that tool alone);
	// a schema a property list cannot say; an output's name (the nearest
	// is its schema alone); NaN.
	schema := map[string]any{"type": "object", "properties": map[string]any{}}
	doc := &promptfmt.Document{Messages: msgs, Request: promptfmt.Request{
		ToolChoice: &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceAuto},
		Tools:      []promptfmt.Tool{{Name: "ok"}, {Name: ""}},
		Output:     &promptfmt.Output{Name: "answer", Schema: schema},
		TopP:       ptr(math.NaN()),
		Lines:      map[string]int{"toolChoice": 3, "tools": 4, "output": 5, "topP": 6},
	}}
	got := map[string]*promptfmt.UnsupportedError{}
	for _, e := range refusals(doc) {
		require.Equal(t, promptfmt.ThingRequest, e.Thing, e.Error())
		got[e.Key] = e
	}
	require.Len(t, got, 4)
	assert.Equal(t, 3, got["toolChoice"].Line)
	assert.Equal(t, "prompty: document: the request's toolChoice (prompty has no place for it)", got["toolChoice"].Error())
	assert.Equal(t, [2]int{1, 4}, [2]int{got["tools"].Part, got["tools"].Line})
	assert.Equal(t, &promptfmt.Request{Output: &promptfmt.Output{Schema: schema}}, got["output"].NearestRequest)
	assert.Equal(t, 6, got["topP"].Line)
	fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
	require.NoError(t, err)
	assert.Len(t, changes, 4)
	assert.True(t, promptfmt.EqualRequests(promptfmt.Request{Tools: []promptfmt.Tool{{Name: "ok"}}, Output: &promptfmt.Output{Schema: schema}}, fitted.Request))
	roundTrip(t, fitted)

	// What no property list says.
	for _, s := range []map[string]any{
		{"type": "object"},
		{"type": "object", "properties": map[string]any{"d": map[string]any{"type": "string", "format": "date"}}},
		{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
		{"type": "array"},
		{"type": "object", "properties": map[string]any{"": map[string]any{"type": "string"}}},
	} {
		e := refusals(&promptfmt.Document{Messages: msgs, Request: promptfmt.Request{Output: &promptfmt.Output{Schema: s}}})
		require.Len(t, e, 1, "%v", s)
		assert.Equal(t, "output", e[0].Key)
	}
	// Front matter that would read as a setting the document does not make.
	e := refusals(&promptfmt.Document{Messages: msgs, Meta: map[string]any{"model": map[string]any{"id": "x"}}})
	assert.Equal(t, [2]any{promptfmt.ThingMeta, "model"}, [2]any{e[0].Thing, e[0].Key})
}

// FuzzPropertyList: no JSON Schema panics the conversion to a property
// list, and one converted reads back as the same schema (what Write
// relies on).
func FuzzPropertyList(f *testing.F) {
	for _, s := range []string{`{"type":"object","properties":{"a":{"type":["string","null"],"enum":["x",null]}},"required":["a"]}`,
		`{"type":"object","properties":{"o":{"type":"object","properties":{"b":{"type":"array","items":{"type":"integer"}}},"required":["b"]}}}`,
		`{"type":"object","properties":{"e":{"type":"number","examples":[1],"default":2.5,"description":"d"}}}`, `{"type":"object"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, err := jsonvalue.Decode(src)
		s, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		list, err := propertyList(s, 0)
		if err != nil {
			return
		}
		back, err := propertiesSchema(list, 0)
		if err != nil || !jsonvalue.Equal(back, s) {
			t.Fatalf("%s came back as %v (%v)", src, back, err)
		}
	})
}
