package tmpl

import (
	"fmt"
	"strings"
)

// The limits Check enforces. Real templates stay far below them; gonja
// needs about 10 KB of stack per bracket level, and its parser slows down
// with the cube of a chain of attribute accesses, so these bound both
// stack and time.
const (
	MaxBlockDepth   = 100  // nested {% if %}, {% for %}, ... blocks
	MaxBracketDepth = 100  // nested (, [ and { inside one tag
	MaxOperators    = 1000 // operators, brackets, dots and filters in one tag
)

// blockTags open a block that an {% end... %} tag closes.
var blockTags = map[string]bool{
	"if": true, "for": true, "macro": true, "call": true, "filter": true,
	"block": true, "with": true, "autoescape": true, "raw": true,
}

// Check refuses a template nested deeper than the limits above, with the
// line of the tag that passes one. It reads tags and string literals the
// way gonja's lexer does; anything it misreads, gonja reports later.
func Check(src string) error {
	depth := 0
	for i := 0; i < len(src); {
		j := indexTag(src, i)
		if j < 0 {
			return nil
		}
		open := src[j+1]
		if open == '#' {
			k := indexFrom(src, j+2, "#}")
			if k < 0 {
				return nil
			}
			i = k + 2
			continue
		}
		end, err := checkTag(src, j)
		if err != nil {
			return err
		}
		if open == '%' {
			word := firstWord(src[j+2 : end])
			switch {
			case word == "raw":
				k := indexFrom(src, end, "endraw")
				if k < 0 {
					return nil
				}
				end = k
			case blockTags[word] || word == "set" && !hasAssign(src[j+2:end]):
				depth++
				if depth > MaxBlockDepth {
					return &Error{Line: lineOf(src, j), Msg: fmt.Sprintf("blocks nest deeper than %d", MaxBlockDepth)}
				}
			case len(word) > 3 && word[:3] == "end":
				depth = max(depth-1, 0)
			}
		}
		i = end
	}
	return nil
}

// indexTag returns the offset of the next "{{", "{%" or "{#" at or after i.
func indexTag(src string, i int) int {
	for ; i+1 < len(src); i++ {
		if src[i] == '{' && (src[i+1] == '{' || src[i+1] == '%' || src[i+1] == '#') {
			return i
		}
	}
	return -1
}

func indexFrom(src string, i int, s string) int {
	if k := strings.Index(src[i:], s); k >= 0 {
		return i + k
	}
	return -1
}

// checkTag scans the tag at j up to its closing "}}" or "%}" (outside
// string literals) and returns the offset after it.
func checkTag(src string, j int) (int, error) {
	closer := byte('}')
	if src[j+1] == '%' {
		closer = '%'
	}
	depth, ops := 0, 0
	fail := func(k int, msg string) (int, error) {
		return 0, &Error{Line: lineOf(src, k), Msg: msg}
	}
	for k := j + 2; k < len(src); k++ {
		c := src[k]
		switch c {
		case '\'', '"':
			for k++; k < len(src) && src[k] != c; k++ {
				if src[k] == '\\' {
					k++
				}
			}
		case '(', '[', '{':
			depth++
			ops++
			if depth > MaxBracketDepth {
				return fail(k, fmt.Sprintf("brackets nest deeper than %d in one tag", MaxBracketDepth))
			}
		case ')', ']':
			depth = max(depth-1, 0)
		case '}':
			if closer == '}' && depth == 0 && k+1 < len(src) && src[k+1] == '}' {
				return k + 2, nil
			}
			depth = max(depth-1, 0)
		case '%':
			if closer == '%' && k+1 < len(src) && src[k+1] == '}' {
				return k + 2, nil
			}
			ops++
		case '.', '|', '+', '-', '*', '/', '~', '<', '>', '=', '!':
			ops++
		case ' ', '\t', '\n', '\r':
			// words such as "not", "and", "if" are operators too
			if k+1 < len(src) && isLetter(src[k+1]) {
				ops++
			}
		}
		if ops > MaxOperators {
			return fail(k, fmt.Sprintf("more than %d operators in one tag", MaxOperators))
		}
	}
	return len(src), nil
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }

// firstWord returns the tag's keyword, skipping a "-" or "+" whitespace
// control mark.
func firstWord(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' || s[i] == '-' || s[i] == '+') {
		i++
	}
	k := i
	for k < len(s) && isLetter(s[k]) {
		k++
	}
	return s[i:k]
}

// hasAssign tells {% set x = 1 %} (no block) from {% set x %}...{% endset %}.
func hasAssign(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '=' && (i+1 >= len(s) || s[i+1] != '=') {
			return true
		}
	}
	return false
}
