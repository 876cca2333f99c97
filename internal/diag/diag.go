// Package diag makes the positioned errors and warnings of every format:
// messages cut so that no parser echoes a huge value, positions counted
// as editors count them.
package diag

import (
	"cmp"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Errorf returns a ParseError at byte offset off of src. A long string
// argument is cut (see [QuoteLimit]).
func Errorf(format string, src []byte, off int, msgFormat string, args ...any) *promptfmt.ParseError {
	line, col := lines.Position(src, off)
	return &promptfmt.ParseError{Format: format, Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(msgFormat, cutArgs(args)...)}
}

// Sprintf formats a message as Errorf and Warnf do, long string arguments
// cut: for a parser that builds a message before it has its position.
func Sprintf(msgFormat string, args ...any) string {
	return fmt.Sprintf(msgFormat, cutArgs(args)...)
}

// Limits on the strings Errorf and Warnf put in a message, so that no
// parser echoes a huge value (a 2 MB line, key or value) into an error:
// quoted (%q), a string shows its first QuoteLimit bytes, then how long it
// was; as text (%s, %v), its first and last TextLimit/2 bytes, around the
// number of bytes left out (a parser may pass a message it built as %s).
const (
	QuoteLimit = 100
	TextLimit  = 1000
)

// cutArgs returns args with each string longer than QuoteLimit replaced by
// a longString, which prints cut.
func cutArgs(args []any) []any {
	out, copied := args, false
	for i, a := range args {
		if s, ok := a.(string); ok && len(s) > QuoteLimit {
			if !copied {
				out, copied = slices.Clone(args), true // the caller's slice is left as it is
			}
			out[i] = longString(s)
		}
	}
	return out
}

// longString is a string argument that prints cut.
type longString string

func (s longString) Format(f fmt.State, verb rune) {
	switch verb {
	case 'q':
		head, _ := abbrev.Cut(string(s), QuoteLimit)
		fmt.Fprintf(f, fmt.FormatString(f, verb)+"... (%d bytes)", head, len(s))
	case 's', 'v':
		fmt.Fprintf(f, fmt.FormatString(f, verb), abbrev.Middle(string(s), TextLimit))
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), string(s))
	}
}

// Warnf returns a Warning at byte offset off of src. A long string argument
// is cut, as by Errorf.
func Warnf(format string, src []byte, off int, msgFormat string, args ...any) promptfmt.Warning {
	line, col := lines.Position(src, off)
	return promptfmt.Warning{Format: format, Line: line, Col: col, Offset: off, Msg: fmt.Sprintf(msgFormat, cutArgs(args)...)}
}

// CheckUTF8 returns a ParseError at the first byte of src that is not valid
// UTF-8, or nil when src is valid.
func CheckUTF8(format string, src []byte) error {
	if utf8.Valid(src) {
		return nil
	}
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n <= 1 {
			e := Errorf(format, src, i, "invalid UTF-8 (byte 0x%02x)", src[i])
			e.Hint = "save the file as UTF-8 (iconv -f LATIN1 -t UTF-8 converts a Latin-1 file)"
			return e
		}
		i += n
	}
	return nil
}

// SortWarnings puts warnings in source order (by line, then column),
// keeping the order of those at one place: a parser that finds some at
// a later step adds them where they belong.
func SortWarnings(ws []promptfmt.Warning) {
	slices.SortStableFunc(ws, func(a, b promptfmt.Warning) int { return cmp.Or(a.Line-b.Line, a.Col-b.Col) })
}
