// Package lines splits text into lines for the format parsers. A line ends
// at LF, CRLF or a lone CR; formats that break only at LF do not use it.
package lines

import (
	"bytes"
	"strings"
)

// Scanner walks the lines of a source in one linear pass.
type Scanner struct {
	src    []byte
	pos    int
	nextCR int // index of the next CR at or after pos, len(src) if none
}

// NewScanner returns a scanner at the start of src.
func NewScanner(src []byte) *Scanner {
	s := &Scanner{src: src}
	s.nextCR = s.findCR(0)
	return s
}

func (s *Scanner) findCR(from int) int {
	if i := bytes.IndexByte(s.src[from:], '\r'); i >= 0 {
		return from + i
	}
	return len(s.src)
}

// Next returns the next line as byte offsets: its text is src[start:end] and
// the following line starts at next. ok is false once the source is used up;
// a final line break does not start another (empty) line.
func (s *Scanner) Next() (start, end, next int, ok bool) {
	start = s.pos
	if start >= len(s.src) {
		return start, start, start, false
	}
	end = len(s.src)
	if i := bytes.IndexByte(s.src[start:s.nextCR], '\n'); i >= 0 {
		end = start + i
		next = end + 1
	} else if s.nextCR < len(s.src) {
		end = s.nextCR
		next = end + 1
		if next < len(s.src) && s.src[next] == '\n' {
			next++
		}
	} else {
		next = end
	}
	s.pos = next
	if s.nextCR < next {
		s.nextCR = s.findCR(next)
	}
	return start, end, next, true
}

// ToLF returns b with every CRLF and lone CR turned into LF.
func ToLF(b []byte) string {
	if bytes.IndexByte(b, '\r') < 0 {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '\r' {
			if i+1 < len(b) && b[i+1] == '\n' {
				continue
			}
			c = '\n'
		}
		sb.WriteByte(c)
	}
	return sb.String()
}
