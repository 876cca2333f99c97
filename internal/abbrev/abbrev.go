// Package abbrev cuts text for messages: errors and notes that quote a
// value show its start, never half a UTF-8 character.
package abbrev

import "unicode/utf8"

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
