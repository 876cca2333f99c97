package dotprompt

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// leadingSpace and trailingSpace strip what raymond's "~" strips, Go's
// regexp \s: checked against the regexp on generated strings of every
// kind of white space (\v and U+00A0 are not \s).
func TestStripSpace(t *testing.T) {
	lead, trail := regexp.MustCompile(`^\s*`), regexp.MustCompile(`\s*$`)
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{" ", "\t", "\n", "\r", "\f", "\v", "\u00a0", "\u2028", "x", "{"}
	for range 20000 {
		var b strings.Builder
		for range r.IntN(8) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		s := b.String()
		if got, want := leadingSpace(s), lead.FindString(s); got != want {
			t.Fatalf("leadingSpace(%q) = %q, want %q", s, got, want)
		}
		if got, want := trailingSpace(s), trail.FindString(s); got != want {
			t.Fatalf("trailingSpace(%q) = %q, want %q", s, got, want)
		}
	}
}
