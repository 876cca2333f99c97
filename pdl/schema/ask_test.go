package schema

import (
	"context"
	"errors"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// script is a model that gives the answers in order and records what it
// was sent.
type script struct {
	answers []string
	errs    []error
	sent    [][]promptfmt.Message
}

func (m *script) model(ctx context.Context, msgs []promptfmt.Message) (string, error) {
	i := len(m.sent)
	m.sent = append(m.sent, append([]promptfmt.Message(nil), msgs...))
	if i < len(m.errs) && m.errs[i] != nil {
		return "", m.errs[i]
	}
	return m.answers[i], nil
}

func texts(msgs []promptfmt.Message) []string {
	var out []string
	for _, m := range msgs {
		out = append(out, m.Role+": "+m.Text())
	}
	return out
}

func mustParse(t testing.TB, src string) *Schema {
	t.Helper()
	s, err := Parse([]byte(src))
	require.NoError(t, err)
	return s
}

func TestAsk(t *testing.T) {
	s := mustParse(t, "int { min: 1, max: 10 }")
	prompt := []promptfmt.Message{promptfmt.NewMessage("system", "Answer with a number."), promptfmt.NewMessage("user", "Pick one.")}
	tooBig := "Your output is too big. Make sure that the output is at most 10."

	t.Run("first try", func(t *testing.T) {
		m := &script{answers: []string{"I pick 7."}}
		res, err := s.Ask(context.Background(), prompt, m.model)
		require.NoError(t, err)
		require.Equal(t, int64(7), res.Value)
		require.False(t, res.Defaulted)
		require.Equal(t, 1, res.Tries)
		require.Nil(t, res.Err)
		require.Equal(t, []string{"system: Answer with a number.", "user: Pick one.", "assistant: I pick 7."}, texts(res.Messages))
		require.Equal(t, [][]string{texts(prompt)}, [][]string{texts(m.sent[0])})
	})

	t.Run("retry then success", func(t *testing.T) {
		m := &script{answers: []string{"42", "maybe 3 or 4", "3"}}
		res, err := s.Ask(context.Background(), prompt, m.model)
		require.NoError(t, err)
		require.Equal(t, int64(3), res.Value)
		require.False(t, res.Defaulted)
		require.Equal(t, 3, res.Tries)
		require.Equal(t, []string{
			"system: Answer with a number.", "user: Pick one.",
			"assistant: 42", "user: " + tooBig,
			"assistant: maybe 3 or 4", "user: " + msgManyInt,
			"assistant: 3",
		}, texts(res.Messages))
		// Each call got the whole conversation so far.
		require.Len(t, m.sent, 3)
		require.Len(t, m.sent[0], 2)
		require.Len(t, m.sent[1], 4)
		require.Equal(t, texts(res.Messages[:6]), texts(m.sent[2]))
		require.Len(t, prompt, 2, "the caller's slice is not modified")
	})

	t.Run("default", func(t *testing.T) {
		m := &script{answers: []string{"42", "43", "44", "never asked"}}
		res, err := s.Ask(context.Background(), prompt, m.model, Default(int64(5)))
		require.NoError(t, err)
		require.Equal(t, int64(5), res.Value)
		require.True(t, res.Defaulted)
		require.Equal(t, 3, res.Tries)
		require.Len(t, m.sent, 3)
		require.Len(t, res.Messages, 2+6)
		require.Equal(t, "user: "+tooBig, texts(res.Messages)[7])
		require.NotNil(t, res.Err)
		require.Equal(t, tooBig, res.Err.Error())
	})

	t.Run("nil default", func(t *testing.T) {
		m := &script{answers: []string{"none"}}
		res, err := s.Ask(context.Background(), prompt, m.model, Tries(1))
		require.NoError(t, err)
		require.Nil(t, res.Value)
		require.True(t, res.Defaulted)
		require.Equal(t, 1, res.Tries)
		require.Equal(t, msgNoInt, res.Err.Msg)
	})

	t.Run("tries 0", func(t *testing.T) {
		m := &script{}
		res, err := s.Ask(context.Background(), prompt, m.model, Tries(0), Default("d"))
		require.NoError(t, err)
		require.Equal(t, "d", res.Value)
		require.True(t, res.Defaulted)
		require.Zero(t, res.Tries)
		require.Empty(t, m.sent)
		require.Nil(t, res.Err)
		require.Equal(t, texts(prompt), texts(res.Messages))
		res, err = s.Ask(context.Background(), prompt, m.model, Tries(-4))
		require.NoError(t, err)
		require.True(t, res.Defaulted)
		require.Empty(t, m.sent)
	})

	t.Run("many tries", func(t *testing.T) {
		answers := make([]string, 20)
		for i := range answers {
			answers[i] = "0"
		}
		answers[19] = "10"
		m := &script{answers: answers}
		res, err := s.Ask(context.Background(), nil, m.model, Tries(20))
		require.NoError(t, err)
		require.Equal(t, int64(10), res.Value)
		require.Equal(t, 20, res.Tries)
		require.Len(t, res.Messages, 39)
	})

	t.Run("model error", func(t *testing.T) {
		boom := errors.New("503")
		m := &script{answers: []string{"42", ""}, errs: []error{nil, boom}}
		res, err := s.Ask(context.Background(), prompt, m.model, Default(int64(1)))
		require.ErrorIs(t, err, boom)
		require.Contains(t, err.Error(), "model call 2")
		require.Nil(t, res.Value)
		require.False(t, res.Defaulted)
		require.Equal(t, 2, res.Tries)
		require.Len(t, res.Messages, 4)
	})

	t.Run("cancelled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		m := &script{answers: []string{"42", "5"}}
		model := func(c context.Context, msgs []promptfmt.Message) (string, error) {
			cancel()
			return m.model(c, msgs)
		}
		res, err := s.Ask(ctx, prompt, model)
		require.ErrorIs(t, err, context.Canceled)
		require.Equal(t, 1, res.Tries)
	})

	t.Run("invalid schema", func(t *testing.T) {
		m := &script{answers: []string{"1"}}
		_, err := (&Schema{Type: TypeBool, Max: IntBound(1)}).Ask(context.Background(), prompt, m.model)
		require.Error(t, err)
		require.Empty(t, m.sent)
	})

	t.Run("model appends to its slice", func(t *testing.T) {
		calls := 0
		model := func(_ context.Context, msgs []promptfmt.Message) (string, error) {
			calls++
			_ = append(msgs, promptfmt.NewMessage("user", "sneaky"))
			if calls == 1 {
				return "42", nil
			}
			return "2", nil
		}
		res, err := s.Ask(context.Background(), prompt, model)
		require.NoError(t, err)
		require.Equal(t, []string{"system: Answer with a number.", "user: Pick one.", "assistant: 42", "user: " + tooBig, "assistant: 2"}, texts(res.Messages))
	})
}
