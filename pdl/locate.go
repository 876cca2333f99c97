package pdl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// source holds a file three ways: as written (orig), with LF line endings
// (norm, what the template engine reads) and rendered. Errors are found in
// the rendered text and reported in the file as written.
type source struct {
	orig     []byte
	bom      int // length of a leading byte order mark in orig, not in norm
	norm     string
	rendered string
	seps     map[string][]int // file lines of each separator, as written, once needed
}

// same reports whether the rendered text is the file itself (no template
// tags), so that every rendered offset is a file offset.
func (s *source) same() bool { return s.rendered == s.norm }

// origOffset turns an offset of norm into one of orig: normalising only
// dropped a leading BOM and shortened each CRLF by one byte.
func (s *source) origOffset(off int) int {
	if len(s.orig)-s.bom == len(s.norm) {
		return s.bom + off
	}
	o, n := s.bom, 0
	for n < off && o < len(s.orig) {
		if s.orig[o] == '\r' && o+1 < len(s.orig) && s.orig[o+1] == '\n' {
			o++
		}
		o, n = o+1, n+1
	}
	return o
}

// at returns the file position of the text span that starts at rendered
// offset off: the same offset when the file has no template tags;
// otherwise the occurrence of span in the file nearest to the rendered
// line (the template moved it or made it), and a note of the rendered
// line. ok is false when the file does not contain span (a value made it).
func (s *source) at(off int, span string) (fileOff int, note string, ok bool) {
	if s.same() {
		return s.origOffset(off), "", true
	}
	rline := 1 + strings.Count(s.rendered[:off], "\n")
	if span == "" {
		return 0, "", false
	}
	best, bestDist := -1, 0
	line := 1 // of offset i
	for i, n := 0, 0; n < 1000; n++ {
		j := strings.Index(s.norm[i:], span)
		if j < 0 {
			break
		}
		line += strings.Count(s.norm[i:i+j], "\n")
		if d := abs(line - rline); best < 0 || d < bestDist {
			best, bestDist = i+j, d
		}
		line += strings.Count(span, "\n")
		i += j + len(span)
	}
	if best < 0 {
		_, col := lines.Position([]byte(s.rendered), off)
		return 0, fmt.Sprintf(" (line %d, column %d of the rendered template: the text comes from a value)", rline, col), false
	}
	if line := 1 + strings.Count(s.norm[:best], "\n"); line != rline {
		note = fmt.Sprintf(" (line %d of the rendered template)", rline)
	}
	return s.origOffset(best), note, true
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// errorf is a ParseError for the span at rendered offset off.
func (s *source) errorf(off int, span, format string, args ...any) *promptfmt.ParseError {
	fileOff, note, ok := s.at(off, span)
	msg := fmt.Sprintf(format, args...) + note
	if !ok {
		return &promptfmt.ParseError{Format: "pdl", Msg: msg}
	}
	return diag.Errorf("pdl", s.orig, fileOff, "%s", msg)
}

// warnf is a Warning for the span at rendered offset off.
func (s *source) warnf(off int, span, format string, args ...any) promptfmt.Warning {
	e := s.errorf(off, span, format, args...)
	return promptfmt.Warning{Format: "pdl", Line: e.Line, Col: e.Col, Offset: e.Offset, Msg: e.Msg}
}

// sepLine is the file line of a separator that is on rendered line rline:
// that line itself without template tags, else the file's line with the
// same separator nearest to it (0 when a value made it).
func (s *source) sepLine(rline int, sep string) int {
	if s.same() {
		return rline
	}
	if s.seps == nil {
		s.seps = map[string][]int{}
		n := 0
		for line := range strings.Lines(s.norm) {
			n++
			if role, _, _ := separator(line); role != "" {
				k := strings.TrimSpace(line)
				s.seps[k] = append(s.seps[k], n)
			}
		}
	}
	lines := s.seps[sep]
	if len(lines) == 0 {
		return 0
	}
	i, _ := slices.BinarySearch(lines, rline)
	switch {
	case i == len(lines):
		return lines[i-1]
	case i > 0 && rline-lines[i-1] < lines[i]-rline:
		return lines[i-1]
	}
	return lines[i]
}
