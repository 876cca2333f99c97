package prompty

import (
	"bytes"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Issue 18: Write kept a templated attribute bare (name={{ customer }}),
// after which a value with a comma or a space no longer read as the value,
// and a number-like one became a number. It stays quoted, and the written
// template renders as the original did, strict or not.
func TestWriteKeepsTemplatedAttributeQuoted(t *testing.T) {
	src := "user[name=\"{{ customer }}\", k=\"{{ n }}\", m={x}]:\n{{ q }}\n"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, "user[name=\"{{ customer }}\", k=\"{{ n }}\", m=\"{x}\"]:\n{{ q }}\n", out.String())
	again, err := Parse(out.Bytes())
	require.NoError(t, err)
	assert.Equal(t, stripLines(doc.Messages), stripLines(again.Messages))

	for _, front := range []string{"", "---\ntemplate: {format: {kind: jinja2, strict: false}}\n---\n"} {
		a := load(t, front+strings.Replace(out.String(), ", m=\"{x}\"", "", 1))
		msgs, err := Prepare(a, map[string]any{"customer": "A, B", "n": "7", "q": "hi"})
		require.NoError(t, err, front)
		assert.Equal(t, []promptfmt.Message{msg("user", "hi", "name", "A, B", "k", "7")}, stripLines(msgs), front)
	}
}

// The strings Parse read are template source whenever Write asks, even
// though the layout reads them again only then; a string changed in
// place after Parse is not one of them and is escaped.
func TestWriteSourceStringsAfterChange(t *testing.T) {
	doc, err := Parse([]byte("user:\n{{ q }}\n\nassistant:\n{{ r }}\n"))
	require.NoError(t, err)
	doc.Messages[1].Content[0].Value = "{{ s }}"
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, "user:\n{{ q }}\n\nassistant:\n{% raw %}{{ s }}{% endraw %}\n", out.String())
}
