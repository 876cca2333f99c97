package pdl

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/promptfmt/promptfmt"
)

// canonicalContent is true exactly when joining adjacent texts and
// dropping empty ones (what reading a turn back does) changes nothing:
// checked against doing it, on every content of up to four parts.
func TestCanonicalContent(t *testing.T) {
	kinds := []promptfmt.ContentPart{promptfmt.Text(""), promptfmt.Text("a"), {Kind: promptfmt.KindImage, Value: "AA=="}}
	r := rand.New(rand.NewPCG(4, 4))
	for range 5000 {
		var content []promptfmt.ContentPart
		for range r.IntN(5) {
			content = append(content, kinds[r.IntN(len(kinds))])
		}
		var joined []promptfmt.ContentPart
		for _, p := range content {
			switch n := len(joined); {
			case p.Kind == promptfmt.KindText && p.Value == "":
			case p.Kind == promptfmt.KindText && n > 0 && joined[n-1].Kind == promptfmt.KindText:
				joined[n-1].Value += p.Value
			default:
				joined = append(joined, p)
			}
		}
		if len(joined) == 0 {
			joined = []promptfmt.ContentPart{promptfmt.Text("")}
		}
		if got, want := canonicalContent(content), slices.Equal(joined, content); got != want {
			t.Fatalf("canonicalContent(%v) = %v, want %v", content, got, want)
		}
	}
}
