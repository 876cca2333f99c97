package pdl

import (
	"bytes"
	"io"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A schema turn whose schema has a JSON Schema is the Request's output,
// at the turn's line; written back as the author wrote it while
// unchanged.
func TestRequestOutput(t *testing.T) {
	src := "<|schema|>\n\n[int{min:1}] {len_max: 3}\n\n<|user|>\n\nPick.\n"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	assert.Nil(t, doc.Meta)
	assert.Equal(t, &promptfmt.Output{Schema: map[string]any{"type": "array", "maxItems": int64(3),
		"items": map[string]any{"type": "integer", "minimum": int64(1)}}}, doc.Request.Output)
	assert.Equal(t, map[string]int{"output": 1}, doc.Request.Lines)
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, src, out.String(), "the schema as written")

	// Changed, it is written in canonical form.
	doc.Request.Output.Schema["maxItems"] = int64(5)
	out.Reset()
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, "<|schema|>\n\n[int { min: 1 }] { max: 5 }\n\n<|user|>\n\nPick.\n", out.String())
}

// An extraction mode has no JSON Schema: the schema stays Meta's text,
// as before, without a warning (it is PDL's own).
func TestRequestExtractionMode(t *testing.T) {
	for _, s := range []string{"yesno", "code { max: 100 }", "{ done: tasklist }", "[yesno]"} {
		src := "<|schema|>\n\n" + s + "\n\n<|user|>\n\nq\n"
		doc, err := Parse([]byte(src))
		require.NoError(t, err)
		assert.Equal(t, map[string]any{SchemaKey: s}, doc.Meta)
		assert.True(t, doc.Request.IsZero())
		assert.Empty(t, doc.Warnings)
		var out bytes.Buffer
		require.NoError(t, Write(&out, doc))
		assert.Equal(t, src, out.String())
	}
}

func TestRequestRefusals(t *testing.T) {
	msgs := []promptfmt.Message{promptfmt.NewMessage("user", "q")}
	schema := map[string]any{"type": "integer"}
	doc := &promptfmt.Document{Messages: msgs, Request: promptfmt.Request{
		Model: "gpt-4o", Output: &promptfmt.Output{Name: "n", Schema: schema},
		Lines: map[string]int{"model": 2, "output": 3},
	}}
	err := Write(io.Discard, doc)
	promptfmt.Locate(doc, err)
	got := map[string]*promptfmt.UnsupportedError{}
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		ue := e.(*promptfmt.UnsupportedError)
		got[ue.Key] = ue
	}
	require.Len(t, got, 2)
	assert.Equal(t, "pdl: document: the request's model (pdl has no place for it)", got["model"].Error())
	assert.Equal(t, 2, got["model"].Line)
	assert.Equal(t, &promptfmt.Request{Output: &promptfmt.Output{Schema: schema}}, got["output"].NearestRequest, "the schema alone")
	fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
	require.NoError(t, err)
	require.Len(t, changes, 2)
	assert.Equal(t, "document: changed the request's output to what pdl can hold (pdl: the request's output: a schema turn holds a schema, without a name, description or strict)", changes[1].String())
	thisFormat.RoundTrip(t, fitted)

	// A schema PDL cannot say; a Meta schema that would read as the
	// output; both at once.
	for _, d := range []*promptfmt.Document{
		{Messages: msgs, Request: promptfmt.Request{Output: &promptfmt.Output{Schema: map[string]any{"type": "object"}}}},
		{Messages: msgs, Request: promptfmt.Request{Output: &promptfmt.Output{}}},
		{Messages: msgs, Meta: map[string]any{SchemaKey: "int"}},
		{Messages: msgs, Meta: map[string]any{SchemaKey: "yesno"}, Request: promptfmt.Request{Output: &promptfmt.Output{Schema: schema}}},
	} {
		err := Write(io.Discard, d)
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue, "%+v", d)
		if d.Meta != nil {
			assert.Equal(t, [2]any{promptfmt.ThingMeta, SchemaKey}, [2]any{ue.Thing, ue.Key})
		} else {
			assert.Equal(t, [2]any{promptfmt.ThingRequest, "output"}, [2]any{ue.Thing, ue.Key})
		}
	}
}
