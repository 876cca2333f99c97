package prapti

import (
	"bytes"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// countingWriter counts the writes it is given and the most bytes in one.
type countingWriter struct {
	bytes.Buffer
	writes, most int
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	c.most = max(c.most, len(p))
	return c.Buffer.Write(p)
}

// checkStream asserts what streaming rests on: a document streamable
// says is proven by construction reads back from the text made without
// streaming, and streaming writes that same text.
func checkStream(t *testing.T, doc *promptfmt.Document) {
	t.Helper()
	if !streamable(doc) {
		return
	}
	out, err := write(doc, nil)
	if err != nil {
		return // refused, as streaming refuses it before writing
	}
	require.NoError(t, readsBack(doc, out), "streamable, but does not read back: %q", out)
	var c countingWriter
	require.NoError(t, Write(&c, doc))
	require.Equal(t, string(out), c.String())
}

// A large document of prose is written in blocks, never held whole, as
// it is written whole; a refused one writes nothing.
func TestWriteStreams(t *testing.T) {
	doc := corpus.Short(1 << 20)
	require.True(t, streamable(doc))
	checkStream(t, doc)
	var c countingWriter
	require.NoError(t, Write(&c, doc))
	assert.Greater(t, c.writes, 8)
	assert.Less(t, c.most, 2*flushSize)
	doc.Messages[len(doc.Messages)-1].Role = "Not a role"
	c = countingWriter{}
	require.Error(t, Write(&c, doc))
	assert.Zero(t, c.Len())
}

// FuzzStreamable: texts split into messages, streamed when streamable.
func FuzzStreamable(f *testing.F) {
	for _, s := range []string{"Hi\n\nthere", "a\n1. b", "a\n12 b\n   c", "x\n    code", "a|b\n2) c", "### x", "a\r\nb", "Zoë\n\tx"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		doc := &promptfmt.Document{}
		for i, text := range strings.Split(s, "|") {
			doc.Messages = append(doc.Messages, promptfmt.NewMessage([]string{"user", "assistant"}[i%2], text))
		}
		checkStream(t, doc)
	})
}
