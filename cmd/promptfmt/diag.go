package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/diag"
)

// diagnostic is one problem with a file, printed as text with the source
// line and a caret under the column, or with --json as one JSON object on
// a line.
type diagnostic struct {
	File     string `json:"file"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Severity string `json:"severity"` // error, warning, or change (what --lossy did)
	Format   string `json:"format,omitempty"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

// report prints an error about a file: FILE:LINE:COL: message for a parse
// error, FILE:LINE: message for each thing a writer could not express.
func (c *cli) report(in *input, err error) {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		for _, e := range j.Unwrap() {
			c.report(in, e)
		}
		return
	}
	var pe *promptfmt.ParseError
	if errors.As(err, &pe) {
		d := diagnostic{Line: pe.Line, Col: pe.Col, Severity: "error", Format: pe.Format, Message: pe.Message(), Hint: pe.Hint}
		if pe.File != "" && pe.File != in.name {
			d.File = pe.File // in a file the input reads (a Dotprompt partial)
		}
		c.emit(in, d)
		return
	}
	var ue *promptfmt.UnsupportedError
	if errors.As(err, &ue) {
		c.emit(in, diagnostic{Line: ue.Line, Severity: "error", Format: ue.Format, Message: ue.Error()})
		return
	}
	for _, line := range strings.Split(err.Error(), "\n") {
		c.emit(in, diagnostic{Severity: "error", Message: line})
	}
}

// warn prints the file's warnings; as errors when severity is "error"
// (check fails on them), else with "warning: " before each.
func (c *cli) warn(in *input, severity string) {
	for _, w := range in.doc.Warnings {
		c.emit(in, diagnostic{Line: w.Line, Col: w.Col, Severity: severity, Format: w.Format, Message: w.Msg, Hint: w.Hint})
	}
}

// maxMessage bounds a message or hint as printed: Errorf and Warnf cut the
// values they quote, and this catches any message built otherwise.
const maxMessage = 4 * diag.TextLimit

// emit prints d, about in unless d names another file (whose lines it
// then does not show).
func (c *cli) emit(in *input, d diagnostic) {
	own := d.File == ""
	if own {
		d.File = in.display()
	}
	d.Message, d.Hint = abbrev.Middle(d.Message, maxMessage), abbrev.Middle(d.Hint, maxMessage)
	if c.jsonDiag {
		w := c.stderr
		if c.diagStdout {
			w = c.stdout
		}
		b, _ := json.Marshal(d) // a diagnostic always encodes
		fmt.Fprintf(w, "%s\n", b)
		return
	}
	pos := d.File
	if d.Line > 0 {
		pos += fmt.Sprintf(":%d", d.Line)
		if d.Col > 0 {
			pos += fmt.Sprintf(":%d", d.Col)
		}
	}
	prefix := ""
	switch d.Severity {
	case "warning", "change":
		prefix = d.Severity + ": "
	}
	fmt.Fprintf(c.stderr, "%s: %s%s\n", pos, prefix, d.Message)
	if d.Col > 0 && own {
		if line, ok := sourceLine(in.src, d.Line-in.base); ok && strings.TrimSpace(line) != "" {
			fmt.Fprint(c.stderr, excerpt(line, d.Line, d.Col))
		}
	}
	if d.Hint != "" {
		fmt.Fprintf(c.stderr, "  hint: %s\n", d.Hint)
	}
}

// sourceLine returns line n (1-based) of src; lines end at LF, CRLF or CR,
// as lines.Position counts them. ok is false when src has no line n.
func sourceLine(src []byte, n int) (string, bool) {
	if n < 1 {
		return "", false
	}
	for line := 1; ; line++ {
		end := 0
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		if line == n {
			return string(src[:end]), true
		}
		if end == len(src) {
			return "", false
		}
		if src[end] == '\r' && end+1 < len(src) && src[end+1] == '\n' {
			end++
		}
		src = src[end+1:]
	}
}

// excerptWidth is how many characters of a long line are shown around the
// column.
const excerptWidth = 100

// excerpt shows the line with a caret under byte column col:
//
//	12 | ;usr
//	   | ^
//
// It is total, as a printer of untrusted positions must be: a column
// before the line is put at its start, one past it (an error at the end of
// the line or of the input) or beyond after its last character, one inside
// a character at that character. A long line is cut to a window around the
// column, and what a terminal would not show as one character (invalid
// UTF-8, control characters, line and paragraph separators, bidi controls)
// is shown as U+FFFD, so that the caret stays under its column.
func excerpt(line string, n, col int) string {
	at := runeAt(line, min(max(col-1, 0), len(line)))
	// The window: at most excerptWidth/2 characters each side of the
	// column, found without looking at the rest of a huge line.
	from, cutBefore := at, false
	for k := 0; from > 0; k++ {
		if k == excerptWidth/2 {
			cutBefore = true
			break
		}
		_, size := utf8.DecodeLastRuneInString(line[:from])
		from -= size
	}
	to, cutAfter := at, false
	for k := 0; to < len(line); k++ {
		if k == excerptWidth/2 {
			cutAfter = true
			break
		}
		_, size := utf8.DecodeRuneInString(line[to:])
		to += size
	}
	if (cutBefore || cutAfter) && len(line) <= excerptWidth*utf8.UTFMax && utf8.RuneCountInString(line) <= excerptWidth {
		from, to, cutBefore, cutAfter = 0, len(line), false, false // short enough to show whole
	}
	before, after := printable(line[from:at]), printable(line[at:to])
	if cutBefore {
		before = "..." + before
	}
	if cutAfter {
		after += "..."
	}
	gutter := fmt.Sprintf("%4d | ", n)
	// The caret lines up under tabs as the line above does.
	pad := strings.Map(func(r rune) rune {
		if r == '\t' {
			return '\t'
		}
		return ' '
	}, before)
	return gutter + before + after + "\n" + strings.Repeat(" ", len(gutter)-2) + "| " + pad + "^\n"
}

// runeAt returns the start of the character of line that byte offset at
// (0 <= at <= len(line)) falls in, reading line from its start as
// utf8.DecodeRuneInString does (an invalid byte is a character of its own).
func runeAt(line string, at int) int {
	if at >= len(line) {
		return len(line)
	}
	start := at
	for start > 0 && at-start < utf8.UTFMax-1 && !utf8.RuneStart(line[start]) {
		start--
	}
	if _, size := utf8.DecodeRuneInString(line[start:]); start+size > at {
		return start
	}
	return at
}

// printable returns s with each character a terminal would not show as
// one character of its own replaced by U+FFFD; tabs stay.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t':
			return r
		case r < ' ', r == 0x7f, r >= 0x80 && r < 0xa0,
			r == '\u2028', r == '\u2029', r == '\uFEFF',
			r >= '\u202A' && r <= '\u202E', r >= '\u2066' && r <= '\u2069', r == '\u200E', r == '\u200F':
			return utf8.RuneError
		}
		return r
	}, s)
}
