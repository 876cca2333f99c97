package dotprompt

import "strings"

// quietComments returns s, a template, with the white space inside each
// comment but its last run (the one before the comment's end) written as
// "x", byte for byte, so that offsets stay those of s. The engine's lexer
// tries to match a comment's end, white space first, at every byte of the
// comment, so a run of n blanks inside one costs it n²/2 steps: a
// comment of 40,000 spaces and an "x" took a minute and a half to load.
// What a comment holds is never rendered; where it ends, and its "~",
// are unchanged; a raw block's text is not a comment. A template that does not scan is returned as it is
// (Load has refused it already).
func quietComments(s string) string {
	var b []byte // a copy, once there is something to change
	for from := 0; ; {
		t, err := nextTag([]byte(nil), s, from)
		if err != nil || t.start < 0 {
			break
		}
		from = t.end
		if strings.HasPrefix(s[t.start:], "{{{{") && !strings.HasPrefix(s[t.start:], "{{{{/") {
			// A raw block's text is text up to the first "{{{{/", as the
			// lexer reads it.
			k := strings.Index(s[from:], "{{{{/")
			if k < 0 {
				break
			}
			from += k
			continue
		}
		open := t.start + 2
		if open < t.end && s[open] == '~' {
			open++
		}
		if !t.raw || open >= t.end || s[open] != '!' {
			continue // not a comment
		}
		open++
		end := t.end - len("}}")
		if strings.HasPrefix(s[open:t.end], "--") { // {{!-- ... --}}, or --~}}
			open += 2
			end = strings.LastIndex(s[:t.end], "--")
		} else if end > open && s[end-1] == '~' {
			end--
		}
		for end > open && isRegexpSpace(s[end-1]) {
			end-- // the last run stays: the end matches at its start
		}
		for i := open; i < end; i++ {
			if isRegexpSpace(s[i]) {
				if b == nil {
					b = []byte(s)
				}
				b[i] = 'x'
			}
		}
	}
	if b == nil {
		return s
	}
	return string(b)
}

// isRegexpSpace is Go's regexp \s, which the engine's lexer uses: the
// ASCII blanks but the vertical tab.
func isRegexpSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}
