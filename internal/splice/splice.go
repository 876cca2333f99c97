// Package splice makes edits to a text: each replaces a span of the
// original, in order. Template packages use it to rewrite a template
// before the engine reads it (internal/tmpl wraps Jinja outputs in a
// filter; dotprompt hands sections to a helper).
package splice

import "strings"

// Edit replaces s[At:End] by Text; At == End inserts.
type Edit struct {
	At, End int
	Text    string
}

// Insert is an edit that adds text at offset at.
func Insert(at int, text string) Edit { return Edit{at, at, text} }

// Apply makes edits, in order and not overlapping, to s.
func Apply(s string, edits []Edit) string {
	if len(edits) == 0 {
		return s
	}
	n := len(s)
	for _, e := range edits {
		n += len(e.Text) - (e.End - e.At)
	}
	var b strings.Builder
	b.Grow(n)
	last := 0
	for _, e := range edits {
		b.WriteString(s[last:e.At])
		b.WriteString(e.Text)
		last = e.End
	}
	b.WriteString(s[last:])
	return b.String()
}
