package diag

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
)

func TestParseErrorFormat(t *testing.T) {
	err := error(Errorf("stf", []byte("a\nbc /*"), 5, "unterminated block comment"))
	if got := err.Error(); got != "stf:2:4: unterminated block comment" {
		t.Errorf("Error() = %q", got)
	}
	var pe *promptfmt.ParseError
	if !errors.As(fmt.Errorf("wrapped: %w", err), &pe) || pe.Offset != 5 {
		t.Errorf("errors.As failed: %v", pe)
	}
	cause := errors.New("boom")
	e2 := &promptfmt.ParseError{Format: "pdl", Msg: "schema", Err: cause}
	if e2.Error() != "pdl: schema: boom" || !errors.Is(e2, cause) {
		t.Errorf("unpositioned error = %q", e2.Error())
	}
}

func TestCheckUTF8(t *testing.T) {
	if err := CheckUTF8("x", []byte("héllo")); err != nil {
		t.Fatal(err)
	}
	err := CheckUTF8("prompty", []byte("ok\nab\xffc"))
	var pe *promptfmt.ParseError
	if !errors.As(err, &pe) || pe.Offset != 5 || pe.Line != 2 || pe.Col != 3 {
		t.Fatalf("CheckUTF8 = %v", err)
	}
	if err.Error() != "prompty:2:3: invalid UTF-8 (byte 0xff)" {
		t.Errorf("message = %q", err)
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
