package provider

import (
	"math/rand/v2"
	"testing"

	"github.com/promptfmt/promptfmt/internal/lines"
)

// lineOf agrees with lines.Position at every offset, asked in order or
// not, with LF, CRLF and CR line ends.
func TestLineOf(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		src := make([]byte, r.IntN(60))
		for i := range src {
			src[i] = "ab\n\r"[r.IntN(4)]
		}
		rd := &reader{src: src, line: 1}
		for range 20 {
			off := r.IntN(len(src) + 1)
			want, _ := lines.Position(src, off)
			if got := rd.lineOf(off); got != want {
				t.Fatalf("%q at %d: line %d, want %d", src, off, got, want)
			}
		}
	}
}
