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

// Text is One of a text part, capped the same way.
func TestText(t *testing.T) {
	s := New(1)
	a := s.Text("a")
	b := s.Text("b") // from a new array
	a = append(a, promptfmt.Text("x"))
	if a[0] != promptfmt.Text("a") || b[0] != promptfmt.Text("b") || len(a) != 2 || cap(b) != 1 {
		t.Fatalf("a %v, b %v", a, b)
	}
	if n := testing.AllocsPerRun(10*size, func() { s.Text("x") }); n > 2.0/size {
		t.Errorf("%.4f allocations a part, want one per %d parts", n, size)
	}
}

// Next hands out zero messages, keeps those before, and doubles a full
// list: a million messages cost about twenty allocations.
func TestNext(t *testing.T) {
	var msgs []promptfmt.Message
	for i := range 1000 {
		m := Next(&msgs, 0, 0)
		if m.Role != "" || m.Content != nil || m.Line != 0 {
			t.Fatalf("message %d is not zero: %+v", i, *m)
		}
		m.Role, m.Line = "user", i+1
	}
	for i, m := range msgs {
		if m.Line != i+1 {
			t.Fatalf("message %d has line %d", i, m.Line)
		}
	}
	msgs = nil
	if n := testing.AllocsPerRun(1, func() {
		msgs = msgs[:0:0]
		for range 1 << 20 {
			Next(&msgs, 0, 0)
		}
	}); n > 22 {
		t.Errorf("%v allocations for a million messages, want at most 22 (the list doubles)", n)
	}
}

// A list grows to the input's rate of messages: a uniform input is read
// with one growth after the first messages, and an estimate never reserves
// more than a message for every 4 bytes.
func TestNextRate(t *testing.T) {
	const size, each = 1 << 20, 150 // bytes, bytes a message
	msgs := make([]promptfmt.Message, 0, First(size))
	grown := 0
	for at := 0; at+each <= size; at += each {
		if len(msgs) == cap(msgs) {
			grown++
		}
		Next(&msgs, at, size)
	}
	if grown != 1 || cap(msgs) > len(msgs)+len(msgs)/7+16 {
		t.Errorf("%d growths to %d for %d messages, want 1 to at most an eighth more", grown, cap(msgs), len(msgs))
	}
	if got := grow(100, 1, 1000); got > 100+999/4 {
		t.Errorf("grow(100, 1, 1000) = %d, over one message for every 4 bytes left", got)
	}
}

func TestSize(t *testing.T) {
	msgs := []promptfmt.Message{promptfmt.NewMessage("user", "hello"), {Role: "assistant", Content: []promptfmt.ContentPart{promptfmt.Text("ab"), {Kind: promptfmt.KindImage, Value: "AAAA"}}}}
	if got := Size(msgs, 10); got != 5+2+4+2*10 {
		t.Errorf("Size = %d, want 31", got)
	}
	if got := Size(nil, 10); got != 0 {
		t.Errorf("Size(nil) = %d", got)
	}
}
