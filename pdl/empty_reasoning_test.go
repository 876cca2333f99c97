package pdl

import (
	"bytes"
	"io"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// An empty reasoning turn (a Responses reasoning item's, whose members
// PDL cannot keep) is refused as a role Adapt drops: reading would drop
// it, and the model never sees it.
func TestEmptyReasoningDropped(t *testing.T) {
	for _, text := range []string{"", " \n"} {
		doc := &promptfmt.Document{Messages: []promptfmt.Message{
			promptfmt.NewMessage("user", "hi"), promptfmt.NewMessage(RoleReasoning, text),
			promptfmt.NewMessage("assistant", "yo"), promptfmt.NewMessage("user", "ok")}}
		err := Write(io.Discard, doc)
		require.EqualError(t, err, "pdl: message 2: an empty reasoning turn (PDL reads none back)")
		fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
		require.NoError(t, err)
		require.Len(t, changes, 1)
		var b bytes.Buffer
		require.NoError(t, Write(&b, fitted))
		back, err := Parse(b.Bytes())
		require.NoError(t, err)
		require.True(t, promptfmt.Equal(fitted, back))
	}
}
