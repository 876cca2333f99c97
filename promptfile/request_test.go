package promptfile

import (
	"io"
	"os"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A prompt file's front matter records where the prompt came from: its
// model is metadata, not the request's, and a request has no home here.
func TestRequestNoHome(t *testing.T) {
	src, err := os.ReadFile("../testdata/examples/discard-html.prompt")
	require.NoError(t, err)
	doc, err := Parse(src)
	require.NoError(t, err)
	assert.Equal(t, "gpt-4o-mini", doc.Meta["model"])
	assert.True(t, doc.Request.IsZero())

	temp := 0.2
	doc.Request = promptfmt.Request{Model: "gpt-4o", Temperature: &temp, Lines: map[string]int{"model": 3}}
	err = Write(io.Discard, doc)
	promptfmt.Locate(doc, err)
	var keys []string
	for _, e := range err.(interface{ Unwrap() []error }).Unwrap() {
		ue := e.(*promptfmt.UnsupportedError)
		require.Equal(t, promptfmt.ThingRequest, ue.Thing)
		keys = append(keys, ue.Key)
		if ue.Key == "model" {
			assert.Equal(t, "promptfile: document: the request's model (promptfile has no place for it)", ue.Error())
			assert.Equal(t, 3, ue.Line)
		}
	}
	assert.Equal(t, []string{"model", "temperature"}, keys)
	fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
	require.NoError(t, err)
	assert.Len(t, changes, 2)
	assert.True(t, fitted.Request.IsZero())
	assert.Equal(t, "gpt-4o-mini", fitted.Meta["model"], "the prompt's own model stays")
}
