// Package abbrev cuts text for messages: errors and notes that quote a
// value show its start, never half a UTF-8 character.
package abbrev

import (
	"strconv"
	"unicode/utf8"
)

// Cut returns s when it is at most max bytes long, else its first max
// bytes or fewer, ending on a character boundary, and whether it cut.
func Cut(s string, max int) (string, bool) {
	if len(s) <= max {
		return s, false
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], true
}

// Middle returns s when it is at most max bytes long, else its first and
// last max/2 bytes or fewer, on character boundaries, around a note of how
// many bytes were left out: the end of a message says as much as its
// start.
func Middle(s string, max int) string {
	if len(s) <= max {
		return s
	}
	head, _ := Cut(s, max/2)
	from := len(s) - max/2
	for from < len(s) && !utf8.RuneStart(s[from]) {
		from++
	}
	return head + "... (" + strconv.Itoa(from-len(head)) + " bytes cut) ..." + s[from:]
}
