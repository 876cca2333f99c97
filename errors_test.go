package promptfmt

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestPosition(t *testing.T) {
	src := []byte("ab\ncd\r\nef\rgh")
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 2, 4}, {7, 3, 1}, {10, 4, 1}, {12, 4, 3}, {99, 4, 3},
	} {
		line, col := Position(src, tc.off)
		if line != tc.line || col != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, line, col, tc.line, tc.col)
		}
	}
}

func TestParseErrorFormat(t *testing.T) {
	err := error(Errorf("stf", []byte("a\nbc /*"), 5, "unterminated block comment"))
	if got := err.Error(); got != "stf:2:4: unterminated block comment" {
		t.Errorf("Error() = %q", got)
	}
	var pe *ParseError
	if !errors.As(fmt.Errorf("wrapped: %w", err), &pe) || pe.Offset != 5 {
		t.Errorf("errors.As failed: %v", pe)
	}
	cause := errors.New("boom")
	e2 := &ParseError{Format: "pdl", Msg: "schema", Err: cause}
	if e2.Error() != "pdl: schema: boom" || !errors.Is(e2, cause) {
		t.Errorf("unpositioned error = %q", e2.Error())
	}
}

func TestCheckUTF8(t *testing.T) {
	if err := CheckUTF8("x", []byte("héllo")); err != nil {
		t.Fatal(err)
	}
	err := CheckUTF8("prompty", []byte("ok\nab\xffc"))
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Offset != 5 || pe.Line != 2 || pe.Col != 3 {
		t.Fatalf("CheckUTF8 = %v", err)
	}
	if err.Error() != "prompty:2:3: invalid UTF-8 (byte 0xff)" {
		t.Errorf("message = %q", err)
	}
}

func TestUnsupportedError(t *testing.T) {
	for _, tc := range []struct {
		e    UnsupportedError
		want string
	}{
		{UnsupportedError{Format: "prompty", Message: 1, Line: 14, What: "an image part cannot be expressed"}, "prompty: message 2 (line 14): an image part cannot be expressed"},
		{UnsupportedError{Format: "promptfile", Message: 0, What: "x"}, "promptfile: message 1: x"},
		{UnsupportedError{Format: "pdl", Message: -1, What: "two schemas"}, "pdl: document: two schemas"},
	} {
		if got := tc.e.Error(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// No message echoes a huge value: quoted, it shows its start and length;
// as text, its start and end.
func TestErrorfCutsLongValues(t *testing.T) {
	huge := strings.Repeat("a", 2<<20) + "Z"
	e := Errorf("stf", []byte("x"), 0, "unknown command %q (known: user)", huge)
	want := `unknown command "` + strings.Repeat("a", QuoteLimit) + `"... (2097153 bytes) (known: user)`
	if e.Msg != want {
		t.Errorf("Msg = %.300q", e.Msg)
	}
	w := Warnf("promptfile", []byte("x"), 0, "%s: %d, %q", huge, 7, "short")
	if len(w.Msg) > TextLimit+100 || !strings.HasSuffix(w.Msg, `aZ: 7, "short"`) || !strings.Contains(w.Msg, "bytes cut") {
		t.Errorf("Msg = %.300q (%d bytes)", w.Msg, len(w.Msg))
	}
	if got := Errorf("x", nil, 0, "%q and %s", "é", "b").Msg; got != `"é" and b` {
		t.Errorf("a short value is left alone: %q", got)
	}
}

// With File set, an error and a warning read the Go way, file first.
func TestErrorWithFile(t *testing.T) {
	e := Errorf("stf", []byte("a\nb"), 2, "bad %s", "thing")
	require.Equal(t, "stf:2:1: bad thing", e.Error())
	e.File = "chat.stf"
	require.Equal(t, "chat.stf:2:1: bad thing", e.Error())
	w := Warnf("stf", []byte("a"), 0, "odd")
	w.File = "chat.stf"
	require.Equal(t, "chat.stf:1:1: odd", w.String())
	require.Equal(t, "chat.stf: whole", (&ParseError{Format: "stf", File: "chat.stf", Msg: "whole"}).Error())
}
