package prompty

import (
	"strconv"
	"strings"

	"github.com/promptfmt/promptfmt/internal/lines"
)

// attr is one attribute of a boundary line, in source order.
type attr struct {
	key    string
	value  any    // string, bool, int64 or float64
	text   string // the value as written (a quoted one without its escapes)
	quoted bool
	// wrapped: in strict mode, the value stood between the sentinels
	// PreRender puts around every attribute value of the template
	wrapped bool
}

// marker is a recognised boundary line.
type marker struct {
	role  string
	attrs []attr
	col   int // byte offset in the line of the first non-blank character
}

// isBlank reports the blanks a boundary line may carry around its tokens:
// ASCII white space other than line breaks (RE2's \s, plus VT).
func isBlank(c byte) bool { return lines.IsBlank(c) } // a function, so that it inlines (a variable is called indirectly)

func isWord(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// parseMarker recognises a boundary line (without its line break). ok is
// false for an ordinary content line; bad is non-empty when the line has the
// shape role[...]: but an attribute block that does not parse, so the caller
// can warn that it is read as content. One pass over the line, no
// backtracking: adversarial attribute blocks cost linear time.
func parseMarker(line string) (m marker, ok bool, bad string) {
	return parseMarkerIn(line, nil)
}

// parseMarkerIn is parseMarker for strict mode when sent is not nil: an
// attribute value between its sentinels is read as it stands.
func parseMarkerIn(line string, sent *sentinels) (m marker, ok bool, bad string) {
	// Cheapest rejection first: a boundary line ends with ':' (and blanks).
	end := len(line)
	for end > 0 && isBlank(line[end-1]) {
		end--
	}
	if end == 0 || line[end-1] != ':' {
		return m, false, ""
	}
	col, start, i := roleWord(line, end)
	m.col = col
	if m.role = roleOf(line[start:i]); m.role == "" {
		return m, false, ""
	}
	if i < end && line[i] == '[' {
		j, attrs, err := parseAttrs(line[:end-1], i+1, sent)
		if err != "" {
			return m, false, err
		}
		m.attrs, i = attrs, j
	}
	for i < end-1 && isBlank(line[i]) {
		i++
	}
	if i != end-1 { // something other than blanks before the final ':'
		if len(m.attrs) > 0 {
			return m, false, "unexpected text after the attribute block"
		}
		return m, false, ""
	}
	return m, true, ""
}

// roleWord finds, in line[:end], the word a boundary names its role with:
// the letters after blanks and an optional '#' (and blanks). col is the
// offset of the line's first non-blank byte; the word is line[start:stop].
func roleWord[T string | []byte](line T, end int) (col, start, stop int) {
	i := 0
	for i < end && isBlank(line[i]) {
		i++
	}
	col = i
	if i < end && line[i] == '#' {
		i++
		for i < end && isBlank(line[i]) {
			i++
		}
	}
	start = i
	for i < end && ('a' <= line[i]|0x20 && line[i]|0x20 <= 'z') {
		i++
	}
	return col, start, i
}

// lineRole reads the first word of a line from the bytes the line search
// has just read, not from the copy texts are cut from (which has left the
// cache by then): role is the role it names, or "" (then the line is no
// boundary and no warning: what parseMarkerIn asks first), col the
// offset of the line's first non-blank byte; plain says the line is that
// word and ':' alone ("user:", "# Assistant :"), the common boundary, of
// which parseMarkerIn would say no more (no attributes).
func lineRole(line []byte) (role string, col int, plain bool) {
	end := len(line)
	for end > 0 && isBlank(line[end-1]) {
		end--
	}
	col, start, stop := roleWord(line, end)
	if stop-start > 9 { // no role is longer than 9 letters
		return "", col, false
	}
	role = roleOf(string(line[start:stop])) // so few bytes, not escaping: not allocated
	i := stop
	for i < end-1 && isBlank(line[i]) {
		i++
	}
	return role, col, role != "" && i == end-1 && line[i] == ':'
}

// mayName reports whether the first word of line is a role (lineRole).
func mayName(line []byte) bool {
	role, _, _ := lineRole(line)
	return role != ""
}

// roleOf returns the role word spells, in lower case, or "": the roles a
// boundary may name are system, user, assistant, developer and tool.
func roleOf(word string) string {
	if word == "" {
		return ""
	}
	var r string
	switch word[0] | 0x20 {
	case 's':
		r = "system"
	case 'u':
		r = "user"
	case 'a':
		r = "assistant"
	case 'd':
		r = "developer"
	case 't':
		r = "tool"
	default:
		return ""
	}
	if word != r && !strings.EqualFold(word, r) { // most are written in lower case: compared whole first
		return ""
	}
	return r
}

// parseAttrs reads `k=v, k2="v 2"` from s[i:] up to the closing ']' and
// returns the index after it. With sentinels (strict mode), a value that
// starts with sent.open runs to the next sent.close, whatever it holds.
func parseAttrs(s string, i int, sent *sentinels) (int, []attr, string) {
	attrs := make([]attr, 0, 4)
	var seen map[string]bool // for long blocks; short ones search attrs
	skip := func() {
		for i < len(s) && isBlank(s[i]) {
			i++
		}
	}
	for {
		skip()
		k := i
		for i < len(s) && isWord(s[i]) {
			i++
		}
		if k == i {
			return i, nil, "expected an attribute name"
		}
		key := s[k:i]
		if dup(attrs, &seen, key) {
			return i, nil, "attribute " + key + " is given twice"
		}
		skip()
		if i == len(s) || s[i] != '=' {
			return i, nil, "attribute " + key + " has no '='"
		}
		i++
		skip()
		a := attr{key: key}
		if j, ok := sent.value(s, i, &a); ok {
			if j < 0 {
				return i, nil, "attribute " + key + " has a value that does not end on its line"
			}
			i = j
			skip()
		} else if i < len(s) && s[i] == '"' {
			i++
			v, escaped := i, false
			for ; i < len(s) && s[i] != '"'; i++ {
				if isEscape(s, i) {
					i++
					escaped = true
				}
			}
			if i == len(s) {
				return i, nil, "attribute " + key + " has an unterminated quoted value"
			}
			a.text, a.quoted = s[v:i], true
			if escaped {
				a.text = unescape(s[v:i])
			}
			a.value = a.text
			i++
			skip()
		} else {
			v := i
			for i < len(s) && s[i] != ',' && s[i] != ']' && s[i] != '"' {
				i++
			}
			if i < len(s) && s[i] == '"' {
				return i, nil, "attribute " + key + " has a quote inside an unquoted value"
			}
			a.text = strings.TrimRight(s[v:i], " \t\f\v")
			a.value = unquotedValue(key, a.text)
		}
		attrs = append(attrs, a)
		if i == len(s) {
			return i, nil, "attribute block has no closing ']'"
		}
		switch s[i] {
		case ']':
			return i + 1, attrs, ""
		case ',':
			i++
			skip()
			if i < len(s) && s[i] == ']' { // trailing comma
				return i + 1, attrs, ""
			}
		default:
			return i, nil, "expected ',' or ']' after attribute " + key
		}
	}
}

// unquotedValue is what an unquoted value text means: "name" and "nonce"
// are strings, others are coerced.
func unquotedValue(key, text string) any {
	if key == "name" || key == "nonce" {
		return text
	}
	return coerce(text)
}

// isEscape reports whether s[i] starts one of a quoted value's escapes,
// \" and \\; any other backslash is itself.
func isEscape(s string, i int) bool {
	return s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\')
}

// unescape resolves the escapes of a quoted value.
func unescape(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if isEscape(s, i) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func dup(attrs []attr, seen *map[string]bool, key string) bool {
	if len(attrs) < 8 {
		for _, a := range attrs {
			if a.key == key {
				return true
			}
		}
		return false
	}
	if *seen == nil {
		*seen = make(map[string]bool, 16)
		for _, a := range attrs {
			(*seen)[a.key] = true
		}
	}
	if (*seen)[key] {
		return true
	}
	(*seen)[key] = true
	return false
}

// coerce turns an unquoted attribute value into a bool, int64 or float64
// when it is spelled as one, else keeps the string. Only JSON number syntax
// counts, so nothing is lost: "007", "+1", "1_000", "inf" and integers too
// large for int64 stay strings.
func coerce(s string) any {
	switch {
	case strings.EqualFold(s, "true"):
		return true
	case strings.EqualFold(s, "false"):
		return false
	}
	isInt, ok := numberSyntax(s)
	if !ok {
		return s
	}
	if isInt {
		if n, err := strconv.ParseInt(s, 10, 64); err == nil {
			return n
		}
		return s
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return s // out of float64 range
}

// numberSyntax reports whether s is a JSON number, and whether it is an
// integer (no fraction, no exponent).
func numberSyntax(s string) (isInt, ok bool) {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		j := i
		for i < len(s) && '0' <= s[i] && s[i] <= '9' {
			i++
		}
		return i - j
	}
	d0 := i
	if n := digits(); n == 0 || n > 1 && s[d0] == '0' {
		return false, false
	}
	isInt = true
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false, false
		}
		isInt = false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false, false
		}
		isInt = false
	}
	return isInt, i == len(s)
}
