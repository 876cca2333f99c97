// Package slab cuts the content of many small messages from a few shared
// arrays, and grows message lists in place, so that a parser does not
// allocate, or copy a whole struct, once for each message: a file of short
// messages would otherwise spend most of its parse, and a good share of
// its memory, in one tiny allocation per message. Writers size their
// output once with Size, for the same reason.
//
// Decision: parts and messages are written field by field where they lie,
// never built on the stack and copied in. A copy of a struct that holds
// pointers is a typed copy: while the collector marks, it runs the write
// barrier over every pointer slot of the struct, set or not; writing the
// fields that are set runs it only for those.
package slab

import "github.com/promptfmt/promptfmt"

// size is the number of parts in each array after the first: large enough
// that allocation is rare, small enough that a small file wastes little.
const size = 1024

// Parts hands out one-part contents. The zero value is ready; New sizes
// the first array for the expected number of messages.
type Parts struct{ free []promptfmt.ContentPart }

// New returns Parts whose first array holds n parts.
func New(n int) Parts { return Parts{free: make([]promptfmt.ContentPart, 0, n)} }

// One returns a content of the one part p. Its capacity is capped at one,
// so that appending to it copies rather than overwrite a neighbour's part.
func (s *Parts) One(p promptfmt.ContentPart) []promptfmt.ContentPart {
	if len(s.free) == cap(s.free) {
		s.free = make([]promptfmt.ContentPart, 0, size)
	}
	s.free = append(s.free, p)
	n := len(s.free)
	return s.free[n-1 : n : n]
}

// Text is One(promptfmt.Text(v)), written in place.
func (s *Parts) Text(v string) []promptfmt.ContentPart {
	if len(s.free) == cap(s.free) {
		s.free = make([]promptfmt.ContentPart, 0, size)
	}
	n := len(s.free)
	s.free = s.free[:n+1] // past len, an array's parts were never handed out: zero
	p := &s.free[n]
	p.Kind, p.Value = promptfmt.KindText, v
	return s.free[n : n+1 : n+1]
}

// Next appends a zero message to *msgs and returns it, to be filled in
// place; the parser has read at bytes of an input of size bytes. A full
// list grows to what the whole input holds at the rate of messages read
// so far, an eighth more, or to double, whichever is more (append grows a
// large slice by a quarter, which for a million tiny messages copies it
// many times over): a list that starts small is sized once for a
// uniform file, without a pass to count its messages first. The messages
// past len(*msgs) must be zero, as they are in a list that only Next and
// append have grown (a caller that shortens its list clears what it cut).
func Next(msgs *[]promptfmt.Message, at, size int) *promptfmt.Message {
	m := *msgs
	if len(m) == cap(m) {
		m = append(make([]promptfmt.Message, 0, grow(len(m), at, size)), m...)
	}
	m = m[:len(m)+1]
	*msgs = m
	return &m[len(m)-1]
}

// First is the capacity to start a message list with for an input of
// size bytes: room for the first messages, or for as many as a small
// input can hold.
func First(size int) int { return min(firstMessages, size/32+1) }

// firstMessages are enough messages to tell the rate of a file's messages.
const firstMessages = 256

// grow is the capacity a full list of n messages grows to when at bytes
// of size are read. The rate is not trusted to more than one message for
// every 4 bytes left.
func grow(n, at, size int) int {
	c := 2*n + 1
	if at > 0 && at < size {
		rate := n*(size/at) + n*(size%at)/at // n*size/at without overflow
		c = max(c, min(n+(size-at)/4, rate+rate/8+16))
	}
	return c
}

// Size is about what writing msgs takes: every part's value, and per
// bytes of syntax around each message. A writer grows its buffer to it
// first, so that the buffer is not grown, and copied, as it fills.
func Size(msgs []promptfmt.Message, per int) int {
	n := 0
	for i := range msgs {
		n += per
		for _, p := range msgs[i].Content {
			n += len(p.Value)
		}
	}
	return n
}
