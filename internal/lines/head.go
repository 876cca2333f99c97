package lines

import (
	"bytes"
	"iter"
)

// HeadSize is how much of a file Head looks at: formats sniff a file by
// its start, in time independent of its size.
const HeadSize = 64 << 10

// Head yields the lines of src's first HeadSize bytes (after a byte order
// mark) that are not blank (spaces, tabs, CR), trimmed of a final CR.
func Head(src []byte) iter.Seq[[]byte] {
	return func(yield func([]byte) bool) {
		src = src[SkipBOM(src):]
		src = src[:min(len(src), HeadSize)]
		for s := NewScanner(src); ; {
			start, end, _, ok := s.Next()
			if !ok {
				return
			}
			line := src[start:end]
			if len(bytes.Trim(line, " \t\r\f\v")) == 0 {
				continue
			}
			if !yield(line) {
				return
			}
		}
	}
}
