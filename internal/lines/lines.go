// Package lines splits text into lines for the format parsers. A line ends
// at LF, CRLF or a lone CR; formats that break only at LF do not use it.
package lines

import (
	"bytes"
	"strings"
	"sync/atomic"
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

// ToLF returns s with every CRLF and lone CR turned into LF. Without a CR
// it returns s itself, allocating nothing.
func ToLF(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for { // a stretch without CR at a time: a byte at a time runs at a tenth of the speed
		i := strings.IndexByte(s, '\r')
		if i < 0 {
			sb.WriteString(s)
			return sb.String()
		}
		sb.WriteString(s[:i])
		sb.WriteByte('\n')
		if i+1 < len(s) && s[i+1] == '\n' {
			i++ // CRLF: its LF is the line break written
		}
		s = s[i+1:]
	}
}

// CRLFToLF returns s with every CRLF turned into LF; a lone CR stays.
// Without a CRLF it returns s itself, allocating nothing.
func CRLFToLF(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	var sb strings.Builder
	sb.Grow(len(s))
	for { // as ToLF, a stretch at a time
		i := strings.IndexByte(s, '\r')
		if i < 0 {
			sb.WriteString(s)
			return sb.String()
		}
		if i+1 < len(s) && s[i+1] == '\n' {
			sb.WriteString(s[:i])
		} else {
			sb.WriteString(s[:i+1])
		}
		s = s[i+1:]
	}
}

// CountCR returns how many CRs s holds, and how many of them begin a
// CRLF: one pass, a CR at a time.
func CountCR(s string) (cr, crlf int) {
	for {
		i := strings.IndexByte(s, '\r')
		if i < 0 {
			return cr, crlf
		}
		cr++
		if i+1 < len(s) && s[i+1] == '\n' {
			crlf++
		}
		s = s[i+1:]
	}
}

// First returns s up to its first LF (all of s without one).
func First(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// LineLF returns the end of the line of s that starts at off (its LF, or
// the end of s) and where the next line starts, for text whose lines end
// at LF alone: a loop over lines is for off := 0; off < len(s); off = next.
func LineLF(s string, off int) (end, next int) {
	if i := strings.IndexByte(s[off:], '\n'); i >= 0 {
		return off + i, off + i + 1
	}
	return len(s), len(s)
}

// LineLFBytes is LineLF for bytes.
func LineLFBytes(b []byte, off int) (end, next int) {
	if i := bytes.IndexByte(b[off:], '\n'); i >= 0 {
		return off + i, off + i + 1
	}
	return len(b), len(b)
}

// IsBlank reports the blanks that may pad a line's tokens: ASCII white
// space other than line breaks (space, tab, VT, FF).
func IsBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\f' || c == '\v' }

// Ending calls yield, in order, for each line of src whose last byte other
// than blanks is c, with the line's 1-based number and the offsets Next
// returns; it stops early when yield returns false. See Endings.
func Ending(src []byte, c byte, yield func(n, start, end, next int) bool) {
	e := NewEndings(src, c)
	for {
		n, s, end, next, ok := e.Next()
		if !ok || !yield(n, s, end, next) {
			return
		}
	}
}

// Endings walks the lines of a source whose last byte other than blanks
// is one byte c. Without a CR in the source it searches for c rather than
// for line breaks, which is several times faster when c is rarer than LF;
// each byte is still looked at a bounded number of times, so the cost stays
// linear whatever the input.
type Endings struct {
	src        []byte
	c          byte
	cr         *Scanner // the line scanner, when src has a CR
	n, counted int      // line number of offset counted
	off        int      // where the search resumes
}

// NewEndings returns Endings at the start of src.
func NewEndings(src []byte, c byte) *Endings {
	e := &Endings{src: src, c: c, n: 1}
	if bytes.IndexByte(src, '\r') >= 0 {
		e.cr = NewScanner(src)
	}
	return e
}

// HasCR reports whether the source holds a CR.
func (e *Endings) HasCR() bool { return e.cr != nil }

// Next returns the next line ending in c: its 1-based number and the
// offsets Scanner.Next returns. ok is false when there is none.
func (e *Endings) Next() (n, start, end, next int, ok bool) {
	src := e.src
	if e.cr != nil {
		for {
			s, end, next, ok := e.cr.Next()
			if !ok {
				return 0, 0, 0, 0, false
			}
			e.n++
			t := end
			for t > s && IsBlank(src[t-1]) {
				t--
			}
			if t > s && src[t-1] == e.c {
				return e.n - 1, s, end, next, true
			}
		}
	}
	for e.off < len(src) {
		i := bytes.IndexByte(src[e.off:], e.c)
		if i < 0 {
			e.off = len(src)
			break
		}
		end := e.off + i + 1
		for end < len(src) && IsBlank(src[end]) {
			end++
		}
		if end < len(src) && src[end] != '\n' {
			e.off = end // not the line's last token; resume after the blanks
			continue
		}
		s := bytes.LastIndexByte(src[:e.off+i], '\n') + 1
		e.n += bytes.Count(src[e.counted:s], []byte{'\n'})
		e.counted = s
		next := min(end+1, len(src))
		e.off = next
		return e.n, s, end, next, true
	}
	return 0, 0, 0, 0, false
}

// BOM is the UTF-8 byte order mark. Every format reads a file from after a
// leading one, with the warning BOMWarning at offset 0.
const BOM = "\uFEFF"

// BOMWarning is the warning each format gives for a leading BOM.
const BOMWarning = "byte order mark at the start of the file ignored"

// SkipBOM returns the length of a leading byte order mark in src: 3, or 0
// when src does not start with one.
func SkipBOM(src []byte) int {
	if bytes.HasPrefix(src, []byte(BOM)) {
		return len(BOM)
	}
	return 0
}

// Position returns the 1-based line and byte column of offset off in src.
// Lines end at LF, CRLF or a lone CR, as editors count them.
func Position(src []byte, off int) (line, col int) {
	off = min(max(off, 0), len(src))
	if counting.Load() {
		work.Add(int64(off))
	}
	line, start := 1, 0
	for i := 0; i < off; i++ {
		switch src[i] {
		case '\n':
			line, start = line+1, i+1
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue // the LF ends this line
			}
			line, start = line+1, i+1
		}
	}
	return line, off - start + 1
}

// Start returns the offset in src where the 1-based line n starts, as
// Position counts lines; len(src) when src has fewer lines.
func Start(src []byte, n int) int {
	if n <= 1 {
		return 0
	}
	line := 1
	for i := 0; i < len(src) && line < n; i++ {
		switch src[i] {
		case '\n':
			line++
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			line++
		}
		if line == n {
			return i + 1
		}
	}
	return len(src)
}

// work is the bytes Position and Counters have walked since CountWork;
// counting is whether they count.
var (
	work     atomic.Int64
	counting atomic.Bool
)

// Work is the bytes Position and Counters have walked since CountWork
// was first called: a deterministic cost, so that a test can tell a
// parser that asks Position once per message (quadratic) from one that
// walks forward.
func Work() int64 { return work.Load() }

// CountWork starts the count Work returns. Until then nothing is
// counted: the count is one word of memory that every parse on every
// core would write, at each message.
func CountWork() { counting.Store(true) }

// Counter is Position for offsets asked for in increasing order: each call
// counts only the bytes after the last one's offset, so that positioning
// every message of a file is linear in its size, not quadratic. An offset
// before the last one's counts again from the start.
type Counter struct {
	src              []byte
	off, line, start int  // src[:off] is counted: line is off's, starting at start
	cr               bool // src holds a CR: count byte by byte
}

// NewCounter returns a Counter of positions in src.
func NewCounter(src []byte) *Counter {
	return &Counter{src: src, line: 1, cr: bytes.IndexByte(src, '\r') >= 0}
}

// Position returns what Position(src, off) returns.
func (c *Counter) Position(off int) (line, col int) {
	off = min(max(off, 0), len(c.src))
	if off < c.off {
		c.off, c.line, c.start = 0, 1, 0
	}
	if counting.Load() {
		work.Add(int64(off - c.off))
	}
	if !c.cr {
		seg := c.src[c.off:off]
		if n := bytes.Count(seg, []byte{'\n'}); n > 0 {
			c.line += n
			c.start = c.off + bytes.LastIndexByte(seg, '\n') + 1
		}
	} else { // the LFs counted at once, then each CR: a byte at a time ran at a fifth of the speed
		seg := c.src[c.off:off]
		n, last := bytes.Count(seg, []byte{'\n'}), bytes.LastIndexByte(seg, '\n')
		for i := 0; ; i++ {
			j := bytes.IndexByte(seg[i:], '\r')
			if j < 0 {
				break
			}
			if i += j; c.off+i+1 >= len(c.src) || c.src[c.off+i+1] != '\n' { // a lone CR; in a CRLF the LF ends the line
				n, last = n+1, max(last, i)
			}
		}
		if n > 0 {
			c.line, c.start = c.line+n, c.off+last+1
		}
	}
	c.off = off
	return c.line, off - c.start + 1
}
