package slab

import (
	"testing"

	"github.com/promptfmt/promptfmt"
)

// Each content is its own: appending to one never changes another.
func TestOne(t *testing.T) {
	var s Parts
	a := s.One(promptfmt.Text("a"))
	b := s.One(promptfmt.Text("b"))
	a = append(a, promptfmt.Text("x"))
	if b[0].Value != "b" || len(a) != 2 || cap(b) != 1 {
		t.Fatalf("a %v, b %v", a, b)
	}
}

// One allocates once per array, not once per message: the design
// property the parsers rely on.
func TestAllocs(t *testing.T) {
	s := New(0)
	if n := testing.AllocsPerRun(10*size, func() { s.One(promptfmt.Text("x")) }); n > 2.0/size {
		t.Errorf("%.4f allocations a part, want one per %d parts", n, size)
	}
}
