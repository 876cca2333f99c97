package prompty

import (
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestThreads(t *testing.T) {
	hist := []promptfmt.Message{msg("user", "prev q"), msg("assistant", "prev a")}
	other := []promptfmt.Message{msg("tool", "42", "call_id", "c1")}
	long := "__PROMPTY_THREAD_0123456789abcdef_hist__"
	short := "__PROMPTY_THREAD_ab_other__"
	threads := map[string][]promptfmt.Message{long: hist, short: other, "__PROMPTY_THREAD_ab_": {msg("user", "prefix key must not win")}, "not a placeholder": hist}

	runParseCases(t, []parseCase{
		{"alone in a message", "system:\nS\n\n" + long + "\n\nuser:\nHi",
			[]promptfmt.Message{msg("system", "S"), msg("user", "prev q"), msg("assistant", "prev a"), msg("user", "Hi")}},
		{"message is only a placeholder", "system:\nS\nuser:\n" + long,
			[]promptfmt.Message{msg("system", "S"), msg("user", "prev q"), msg("assistant", "prev a")}},
		{"every placeholder, in order, with text between", "user[name=\"R\", k=1]:\nbefore\n" + long + " mid " + short + "\n\nafter\n",
			[]promptfmt.Message{msg("user", "before", "name", "R", "k", int64(1)), msg("user", "prev q"), msg("assistant", "prev a"),
				msg("user", " mid ", "name", "R", "k", int64(1)), msg("tool", "42", "call_id", "c1"), msg("user", "after", "name", "R", "k", int64(1))}},
		{"unknown placeholder stays text", "user:\n__PROMPTY_THREAD_ffff_nope__ and " + long + "x",
			[]promptfmt.Message{msg("user", "__PROMPTY_THREAD_ffff_nope__ and "), msg("user", "prev q"), msg("assistant", "prev a"), msg("user", "x")}},
		{"in the preamble", long + "\nuser:\nq", []promptfmt.Message{msg("user", "prev q"), msg("assistant", "prev a"), msg("user", "q")}},
	}, Threads(threads))

	// Thread content is never parsed or searched: markers and placeholders
	// in it are text, and the caller's messages are not shared.
	sneaky := []promptfmt.Message{msg("user", "user:\n"+long+"\nsystem:")}
	doc, err := Parse([]byte("system:\nS\n"+long), Threads(map[string][]promptfmt.Message{long: sneaky}))
	require.NoError(t, err)
	assert.Equal(t, []promptfmt.Message{msg("system", "S"), msg("user", "user:\n"+long+"\nsystem:")}, stripLines(doc.Messages))
	doc.Messages[1].Content[0].Value = "changed"
	assert.Equal(t, "user:\n"+long+"\nsystem:", sneaky[0].Content[0].Value)

	// Strict mode and threads together: thread text may hold boundaries.
	nonce := NewNonce()
	doc, err = Parse([]byte(render(PreRender("system:\nS\n{{h}}\nuser:\nq", nonce), map[string]string{"h": long})),
		Strict(nonce), Threads(map[string][]promptfmt.Message{long: sneaky}))
	require.NoError(t, err)
	assert.Len(t, doc.Messages, 3)
}
