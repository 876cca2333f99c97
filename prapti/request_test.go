package prapti

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

// The Request is what the configuration lines set for the default
// responder: each field at the line that decided it.
func TestRequestFromLines(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		want      promptfmt.Request
	}{
		{"model and temperature are variables", "% model = \"gpt-4o\"\n% vars.temperature = 1\n### @user:\nhi\n",
			promptfmt.Request{Model: "gpt-4o", Temperature: ptr(1.0), Lines: map[string]int{"model": 1, "temperature": 2}}},
		{"the last assignment wins", "% model = \"a\"\n### @user:\n% vars.model = \"b\"\nhi\n% model = \"c\"\n",
			promptfmt.Request{Model: "c", Lines: map[string]int{"model": 5}}},
		{"the responder's own field wins over the variable it was bound to", "% responders.default.model = \"r\"\n% model = \"v\"\n### @user:\nhi\n",
			promptfmt.Request{Model: "r", Lines: map[string]int{"model": 1}}},
		{"a var() reference is the variable's value", "% responders.default.temperature = var(t)\n% t = 0.5\n### @user:\nhi\n",
			promptfmt.Request{Temperature: ptr(0.5), Lines: map[string]int{"temperature": 2}}},
		{"the responder's settings", "### @user:\n% responders.default.top_p = 0.9\n% responders.default.max_tokens = 100\n" +
			"% responders.default.stop = \"END\"\n% responders.default.presence_penalty = -1\n% responders.default.frequency_penalty = 0.5\nhi\n",
			promptfmt.Request{TopP: ptr(0.9), MaxTokens: ptr(int64(100)), Stop: []string{"END"}, PresencePenalty: ptr(-1.0), FrequencyPenalty: ptr(0.5),
				Lines: map[string]int{"topP": 2, "maxTokens": 3, "stop": 4, "presencePenalty": 5, "frequencyPenalty": 6}}},
		{"a list of stop sequences", "% responders.default.stop = [\"a\", \"b\"]\n### @user:\nhi\n",
			promptfmt.Request{Stop: []string{"a", "b"}, Lines: map[string]int{"stop": 1}}},
		{"null is the responder's default, where it takes one", "% responders.default.max_tokens = 5\n% responders.default.max_tokens = null\n% responders.default.stop = null\n### @user:\nhi\n", promptfmt.Request{}},
		{"variables the responder does not read", "% top_p = 0.5\n% max_tokens = 3\n% responders.other.model = \"x\"\n### @user:\nhi\n", promptfmt.Request{}},
		{"disabled lines and messages do not count", "//% model = \"a\"\n### //@user:\n% model = \"b\"\n### @user:\nhi\n", promptfmt.Request{}},
		{"! counts in the last message only", "% !model = \"a\"\n### @user:\nhi\n% !temperature = 0\n",
			promptfmt.Request{Temperature: ptr(0.0), Lines: map[string]int{"temperature": 4}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.src))
			require.NoError(t, err)
			assert.Empty(t, doc.Warnings)
			assert.True(t, promptfmt.EqualRequests(tc.want, doc.Request), "%+v", doc.Request)
			assert.Equal(t, tc.want.Lines, doc.Request.Lines)
			var out bytes.Buffer
			require.NoError(t, Write(&out, doc), "the request is what the lines written set")
			back, err := Parse(out.Bytes())
			require.NoError(t, err)
			assert.True(t, promptfmt.EqualRequests(doc.Request, back.Request))
		})
	}
}

// An assignment that does not fit leaves the field as it was, as
// upstream's validation does, with a warning.
func TestRequestBadAssignmentKeepsTheField(t *testing.T) {
	doc, err := Parse([]byte("% responders.default.temperature = 0.5\n### @user:\n% responders.default.temperature = true\nhi\n"))
	require.NoError(t, err)
	assert.True(t, promptfmt.EqualRequests(promptfmt.Request{Temperature: ptr(0.5)}, doc.Request))
	require.Len(t, doc.Warnings, 1)
	assert.Equal(t, "prapti:3:1: % responders.default.temperature = true is not read as the request's setting: want a number, not a boolean", doc.Warnings[0].String())
}

// A line that sets a field to what the Request cannot hold is still a
// configuration line; the field is not set, and a warning says why at
// the line.
func TestRequestBadLines(t *testing.T) {
	for _, tc := range []struct{ line, warning string }{
		{`% temperature = "hot"`, `prapti:2:1: % temperature = "hot" is not read as the request's setting: want a number, not a string`},
		{`% model = ""`, "an empty string names no model"},
		{`% responders.default.max_tokens = 1.5`, "want an integer, not 1.5"},
		{`% responders.default.stop = [1]`, "item 1: want a string, not a number"},
		{`% model = var(nope)`, "var(nope) is never assigned"},
		{`% responders.default.model = var(nope)`, "var(nope) is never assigned"},
		{`% model = null`, "null is not a value of this setting"},
		{`% model = var(model)`, "var() references go more than 20 deep"},
	} {
		doc, err := Parse([]byte("### @user:\n" + tc.line + "\nhi\n"))
		require.NoError(t, err, tc.line)
		assert.True(t, doc.Request.IsZero(), tc.line)
		require.Len(t, doc.Warnings, 1, tc.line)
		assert.Contains(t, doc.Warnings[0].String(), tc.warning)
		assert.Equal(t, [3]int{2, 1, 11}, [3]int{doc.Warnings[0].Line, doc.Warnings[0].Col, doc.Warnings[0].Offset})
		roundTrip(t, doc)
	}
	// In a CRLF file after a byte order mark, at the file's position.
	doc, err := Parse([]byte("\uFEFF### @user:\r\n% temperature = \"hot\"\r\n"))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 2)
	assert.Equal(t, [3]int{2, 1, 15}, [3]int{doc.Warnings[1].Line, doc.Warnings[1].Col, doc.Warnings[1].Offset})
}

// Write refuses a request its configuration lines do not make, offering
// what they make; Adapt takes it, or drops a field no line sets.
func TestRequestWriteRefuses(t *testing.T) {
	doc, err := Parse([]byte("% model = \"gpt-4o\"\n### @user:\nhi\n"))
	require.NoError(t, err)
	doc.Request.Model = "o3"
	doc.Request.TopK = ptr(int64(40))
	doc.Request.Temperature = ptr(0.2)
	doc.Request.Lines["topK"] = 9
	err = Write(io.Discard, doc)
	promptfmt.Locate(doc, err)
	got := map[string]*promptfmt.UnsupportedError{}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		ue := e.(*promptfmt.UnsupportedError)
		require.Equal(t, promptfmt.ThingRequest, ue.Thing)
		got[ue.Key] = ue
	}
	require.Len(t, got, 3)
	assert.Equal(t, `prapti: document: the request's model differs from what the configuration lines set ("gpt-4o"; Write adds no lines)`, got["model"].Error())
	assert.Equal(t, &promptfmt.Request{Model: "gpt-4o"}, got["model"].NearestRequest)
	assert.Equal(t, 1, got["model"].Line, "at the line that sets it")
	assert.Contains(t, got["temperature"].What, "which no configuration line sets")
	assert.Contains(t, got["topK"].What, "Prapti's openai.chat responder has no such setting")
	assert.Equal(t, 9, got["topK"].Line)
	fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
	require.NoError(t, err)
	require.Len(t, changes, 3)
	assert.True(t, promptfmt.EqualRequests(promptfmt.Request{Model: "gpt-4o"}, fitted.Request))
	var out bytes.Buffer
	require.NoError(t, Write(&out, fitted))
	assert.True(t, strings.HasPrefix(out.String(), "% model = \"gpt-4o\"\n"))
}
