package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
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
		c.emit(in, diagnostic{Line: pe.Line, Col: pe.Col, Severity: "error", Format: pe.Format, Message: pe.Message(), Hint: pe.Hint})
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

func (c *cli) emit(in *input, d diagnostic) {
	d.File = in.display()
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
	if d.Col > 0 {
		if line, ok := sourceLine(in.src, d.Line); ok && strings.TrimSpace(line) != "" {
			fmt.Fprint(c.stderr, excerpt(line, d.Line, d.Col))
		}
	}
	if d.Hint != "" {
		fmt.Fprintf(c.stderr, "  hint: %s\n", d.Hint)
	}
}

// sourceLine returns line n (1-based) of src; lines end at LF, CRLF or CR,
// as promptfmt.Position counts them.
func sourceLine(src []byte, n int) (string, bool) {
	for line := 1; ; line++ {
		end := 0
		for end < len(src) && src[end] != '\n' && src[end] != '\r' {
			end++
		}
		if line == n {
			return string(src[:end]), utf8.Valid(src[:end])
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

// excerptWidth is how much of a long line is shown around the column.
const excerptWidth = 100

// excerpt shows the line with a caret under byte column col:
//
//	12 | ;usr
//	   | ^
func excerpt(line string, n, col int) string {
	at := min(col-1, len(line))
	for at > 0 && !utf8.RuneStart(line[at]) {
		at--
	}
	before, after := line[:at], line[at:]
	// A long line is cut to a window around the column.
	if utf8.RuneCountInString(line) > excerptWidth {
		if utf8.RuneCountInString(before) > excerptWidth/2 {
			r := []rune(before)
			before = "..." + string(r[len(r)-excerptWidth/2:])
		}
		if utf8.RuneCountInString(after) > excerptWidth/2 {
			after = string([]rune(after)[:excerptWidth/2]) + "..."
		}
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
