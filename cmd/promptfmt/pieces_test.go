package main

import (
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A message with large texts is encoded in pieces, as it is encoded whole.
func TestMessagePieces(t *testing.T) {
	big := strings.Repeat("line \"quoted\" \\ ü 🙂 \x01\n", largeText/20)
	m := promptfmt.Message{Role: "user", Name: `"value":""`, Content: []promptfmt.ContentPart{
		promptfmt.Text(big), {Kind: promptfmt.KindImage, Value: "", MediaType: "image/png"}, promptfmt.Text("small \"value\":\"\""),
	}, Metadata: map[string]any{"value": "", "k": []any{`"value":""`}}}
	want, err := jsonvalue.Encode(m)
	require.NoError(t, err)
	var got []byte
	require.NoError(t, messagePieces{m}.JSONPieces(func(p []byte) { got = append(got, p...) }))
	assert.Equal(t, string(want), string(got))
}
