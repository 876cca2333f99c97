package schema

import (
	"context"
	"errors"
	"fmt"

	"github.com/promptfmt/promptfmt"
)

// Model sends a conversation to a model and returns its answer. An error is
// a transport failure, not a bad answer. The model must not modify msgs.
type Model func(ctx context.Context, msgs []promptfmt.Message) (string, error)

// Option configures Ask.
type Option func(*askOptions)

type askOptions struct {
	tries int
	def   any
}

// Tries sets how many times Ask calls the model (default 3, as every ragit
// call site uses). With 0 (or less) Ask makes no call and returns the
// default.
func Tries(n int) Option { return func(o *askOptions) { o.tries = max(n, 0) } }

// Default sets the value Ask returns when every try failed (default nil,
// JSON null, as `rag pdl` prints). It is returned as given: it is not
// checked against the schema.
func Default(v any) Option { return func(o *askOptions) { o.def = v } }

// Result is what Ask got.
type Result struct {
	// Value is the extracted value, or the default when Defaulted.
	Value any
	// Defaulted reports that every try failed (or none was allowed) and
	// Value is the default. Upstream does not tell its callers; we do.
	Defaulted bool
	// Tries is how many times the model was called.
	Tries int
	// Messages is the whole conversation: the caller's messages, then for
	// every try the model's answer as an assistant message and, when the
	// answer did not fit, the error text as a user message. After the last
	// failed try that user message was never sent.
	Messages []promptfmt.Message
	// Err is the last try's error when Defaulted after at least one try.
	Err *ValueError
}

// Ask runs upstream's retry loop (send_and_validate): it calls the model
// with msgs and extracts the schema's value from the answer. When the
// answer does not fit, it appends the answer as an assistant message and
// the error text (the *ValueError's message) as a user message, and calls
// the model again with the longer conversation, up to Tries times; then
// it returns the Default with Defaulted set. A model error, a cancelled
// ctx or an invalid schema ends Ask at once with that error (wrapped), and
// the Result so far. The caller's slice is never modified.
func (s *Schema) Ask(ctx context.Context, msgs []promptfmt.Message, model Model, opts ...Option) (Result, error) {
	o := askOptions{tries: 3}
	for _, opt := range opts {
		opt(&o)
	}
	conv := make([]promptfmt.Message, len(msgs), len(msgs)+2*min(o.tries, 8))
	copy(conv, msgs)
	res := Result{Messages: conv}
	if err := s.check(0); err != nil {
		return res, err
	}
	for res.Tries < o.tries {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		res.Tries++
		// The full slice expression makes an append by the model copy.
		answer, err := model(ctx, conv[:len(conv):len(conv)])
		if err != nil {
			return res, fmt.Errorf("pdl/schema: model call %d: %w", res.Tries, err)
		}
		conv = append(conv, promptfmt.NewMessage("assistant", answer))
		res.Messages = conv
		v, err := s.Extract(answer)
		if err == nil {
			res.Value, res.Err = v, nil
			return res, nil
		}
		var ve *ValueError
		if !errors.As(err, &ve) {
			return res, err
		}
		res.Err = ve
		conv = append(conv, promptfmt.NewMessage("user", ve.Msg))
		res.Messages = conv
	}
	res.Value, res.Defaulted = o.def, true
	return res, nil
}
