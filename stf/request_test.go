package stf

import (
	"bytes"
	"io"
	"math"
	"os"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

// testdata/canonical/settings.stf has every setting in ;meta, in the
// Request's JSON shape, beside a key that is no setting; fullRequest is
// what it says.
func fullRequest() promptfmt.Request {
	return promptfmt.Request{
		Model: "gpt-4o", Temperature: ptr(1.0), TopP: ptr(0.9), TopK: ptr(int64(40)), MaxTokens: ptr(int64(512)),
		Stop: []string{"END"}, Seed: ptr(int64(7)), FrequencyPenalty: ptr(0.5), PresencePenalty: ptr(-0.5),
		Tools: []promptfmt.Tool{{Name: "get_weather", Description: "Weather now", Strict: true,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}}},
		ToolChoice: &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired, Tool: "get_weather"},
		Output:     &promptfmt.Output{Name: "answer", Schema: map[string]any{"type": "object"}, Strict: true},
	}
}

func TestRequestRead(t *testing.T) {
	src, err := os.ReadFile("testdata/canonical/settings.stf")
	require.NoError(t, err)
	settings := string(src)
	doc, err := Parse(src)
	require.NoError(t, err)
	assert.True(t, promptfmt.EqualRequests(fullRequest(), doc.Request), "%+v", doc.Request)
	assert.Equal(t, map[string]any{"title": "Weather"}, doc.Meta, "Meta keeps what the Request does not hold")
	assert.Equal(t, map[string]int{"title": 1}, doc.KeyLines)
	for _, f := range doc.Request.Fields() {
		assert.Equal(t, 1, doc.Request.Lines[f], f)
	}
	assert.Empty(t, doc.Warnings)

	// Byte-stable: the block as written (temperature: 1 stays 1, not 1.0).
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, settings, out.String())

	// Changed, the block is written afresh, in the Request's shape.
	doc.Request.Temperature = ptr(0.5)
	doc.Request.Tools = nil
	out.Reset()
	require.NoError(t, Write(&out, doc))
	assert.Contains(t, out.String(), "  request: {\n")
	assert.Contains(t, out.String(), "    temperature: 0.5,\n    toolChoice: {\n")
	assert.NotContains(t, out.String(), "tools")
	roundTrip(t, doc)
}

// Settings live under request, so another format's metadata of a
// setting's name (a prompt file's model, Prompty's model object) stays
// Meta, beside them.
func TestRequestBesideMeta(t *testing.T) {
	src := ";meta\n{model: {id: 'gpt-4o', provider: 'openai'}, request: {model: 'o3'}}\n;end\n;user\nhi\n"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, "o3", doc.Request.Model)
	assert.Equal(t, map[string]any{"model": map[string]any{"id": "gpt-4o", "provider": "openai"}}, doc.Meta)
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, src, out.String())
	doc.Request.Model = "o4"
	assert.Contains(t, string(roundTrip(t, doc)), "  request: {\n    model: 'o4',\n  },")
	assert.Contains(t, string(roundTrip(t, &promptfmt.Document{Meta: map[string]any{"model": "gpt-4o"}})), "model: 'gpt-4o'")
}

// A key of a setting's name whose value the Request cannot hold stays in
// Meta as written, with a warning at its line; the file still parses.
func TestRequestBadValues(t *testing.T) {
	for _, tc := range []struct{ meta, key, warning string }{
		{"temperature: 'hot'", "temperature", "stf:2:1: meta key request.temperature is not read as the request's temperature: want a number, not a string"},
		{"topK: 1.5", "topK", "want an integer, not 1.5"},
		{"model: ''", "model", "an empty string names no model"},
		{"stop: 'END'", "stop", "want a list of strings, not a string"},
		{"toolChoice: {mode: 'any'}", "toolChoice", `mode "any" is not a tool choice (auto, none or required)`},
		{"tools: [{name: 'f', kind: 'function'}]", "tools", `tool 1: a tool has no member "kind"`},
		{"output: {schema: 'int'}", "output", "schema: want a JSON Schema object, not a string"},
	} {
		src := "\n;meta\n{request: {" + tc.meta + "}}\n;end\n;user\nhi\n" // the ;meta block on line 2
		doc, err := Parse([]byte(src))
		require.NoError(t, err, tc.meta)
		assert.Contains(t, doc.Meta["request"], tc.key)
		assert.True(t, doc.Request.IsZero())
		require.Len(t, doc.Warnings, 1, tc.meta)
		assert.Contains(t, doc.Warnings[0].String(), tc.warning)
		assert.Equal(t, [2]int{2, 1}, [2]int{doc.Warnings[0].Line, doc.Warnings[0].Col})
		assert.Equal(t, 1, doc.Warnings[0].Offset)
		var out bytes.Buffer
		require.NoError(t, Write(&out, doc))
		assert.Equal(t, src[1:], out.String(), "kept as written")
	}
}

func TestRequestRefusals(t *testing.T) {
	refusal := func(doc *promptfmt.Document) *promptfmt.UnsupportedError {
		t.Helper()
		err := Write(io.Discard, doc)
		promptfmt.Locate(doc, err)
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue)
		return ue
	}
	// A value no file holds, at its line.
	doc := &promptfmt.Document{Request: promptfmt.Request{Temperature: ptr(math.NaN()), Lines: map[string]int{"temperature": 4}}}
	ue := refusal(doc)
	assert.Equal(t, [3]any{promptfmt.ThingRequest, "temperature", 4}, [3]any{ue.Thing, ue.Key, ue.Line})
	assert.Contains(t, ue.What, "NaN")
	// A Meta key in a setting's place, or that would read as one.
	ue = refusal(&promptfmt.Document{Meta: map[string]any{"request": map[string]any{"temperature": "hot"}}, Request: promptfmt.Request{Temperature: ptr(0.2)}, KeyLines: map[string]int{"request": 2}})
	assert.Equal(t, [3]any{promptfmt.ThingMeta, "request", 2}, [3]any{ue.Thing, ue.Key, ue.Line})
	ue = refusal(&promptfmt.Document{Meta: map[string]any{"request": map[string]any{"model": "gpt-4o"}}})
	assert.Equal(t, [2]any{promptfmt.ThingMeta, "request"}, [2]any{ue.Thing, ue.Key})
	assert.Contains(t, ue.Error(), `would be read as the request's model`)
	// Adapt drops what is refused, and the rest is written.
	fitted, changes, err := promptfmt.Adapt(&promptfmt.Document{Meta: map[string]any{"request": map[string]any{"model": "gpt-4o"}, "title": "T"}, Request: promptfmt.Request{Seed: ptr(int64(1)), TopP: ptr(math.Inf(1))}},
		func(d *promptfmt.Document) error { return Write(io.Discard, d) })
	require.NoError(t, err)
	require.Len(t, changes, 2)
	assert.Equal(t, map[string]any{"title": "T"}, fitted.Meta)
	assert.Equal(t, promptfmt.Request{Seed: ptr(int64(1))}, fitted.Request)
	roundTrip(t, fitted)
}
