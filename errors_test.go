package promptfmt

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestUnsupportedError(t *testing.T) {
	for _, tc := range []struct {
		e    UnsupportedError
		want string
	}{
		{UnsupportedError{Format: "prompty", Index: 1, Line: 14, What: "an image part cannot be expressed"}, "prompty: message 2 (line 14): an image part cannot be expressed"},
		{UnsupportedError{Format: "promptfile", Index: 0, What: "x"}, "promptfile: message 1: x"},
		{UnsupportedError{Format: "pdl", Index: -1, What: "two schemas"}, "pdl: document: two schemas"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// With File set, an error and a warning read the Go way, file first.
func TestErrorWithFile(t *testing.T) {
	e := &ParseError{Format: "stf", Line: 2, Col: 1, Msg: "bad thing"}
	require.Equal(t, "stf:2:1: bad thing", e.Error())
	e.File = "chat.stf"
	require.Equal(t, "chat.stf:2:1: bad thing", e.Error())
	w := Warning{Format: "stf", File: "chat.stf", Line: 1, Col: 1, Msg: "odd"}
	require.Equal(t, "chat.stf:1:1: odd", w.String())
	require.Equal(t, "chat.stf: whole", (&ParseError{Format: "stf", File: "chat.stf", Msg: "whole"}).Error())
	cause := errors.New("boom")
	e2 := &ParseError{Format: "pdl", Msg: "schema", Err: cause}
	require.Equal(t, "pdl: schema: boom", e2.Error())
	require.ErrorIs(t, e2, cause)
}
