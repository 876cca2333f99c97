// Package slab cuts the content of many small messages from a few shared
// arrays, so that a parser does not allocate once for each message: a
// file of short messages would otherwise spend most of its parse, and a
// good share of its memory, in one tiny allocation per message.
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
