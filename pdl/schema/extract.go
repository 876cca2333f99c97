package schema

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// ValueError is a model's answer that does not fit the schema. Error
// returns exactly the message upstream sends back to the model, such as
// "Just say yes or no.".
type ValueError struct {
	Msg string
}

// Error returns the message sent back to the model.
func (e *ValueError) Error() string { return e.Msg }

func fail(msg string) (any, error) { return nil, &ValueError{Msg: msg} }

// jsonDepth is serde_json's recursion limit: it parses at most 127 nested
// arrays and objects.
const jsonDepth = 127

// Extract finds the value the schema asks for in a model's answer, decodes
// it and validates it, as the package documentation describes. The value
// is JSON-like: string, int64, float64, bool, []any or map[string]any. An
// answer that does not fit is a *ValueError whose message is meant for the
// model; any other error means s itself is invalid (a hand-built Schema
// that breaks the rules Parse enforces).
func (s *Schema) Extract(output string) (any, error) {
	if err := s.check(0); err != nil {
		return nil, err
	}
	if !utf8.ValidString(output) {
		output = strings.ToValidUTF8(output, "\uFFFD")
	}
	var v any
	switch s.Type {
	case TypeBool:
		t, f := containsFold(output, "true"), containsFold(output, "false")
		switch {
		case t && f:
			return fail("Your output contains both `true` and `false`. Please be specific.")
		case !t && !f:
			return fail("I cannot find `boolean` in your output. Please make sure that your output contains a valid boolean value.")
		}
		v = t
	case TypeYesNo:
		y, n := containsFold(output, "yes"), containsFold(output, "no")
		if y == n {
			return fail("Just say yes or no.")
		}
		v = y
	case TypeString:
		v = output
	case TypeCode:
		code, msg := extractCode(output)
		if msg != "" {
			return fail(msg)
		}
		v = code
	case TypeTaskList:
		list, msg := extractTaskList(output)
		if msg != "" {
			return fail(msg)
		}
		v = list
	default: // int, float, array, object
		text, depth, msg := s.pick(output)
		if msg != "" {
			return fail(msg)
		}
		var ok bool
		if v, ok = decode(text, depth); !ok {
			return fail("I cannot parse your output. Please make sure that your output contains a valid " + s.Type.word() + " with valid data.")
		}
	}
	if p := s.validate(v); p != nil {
		return fail(p.message(s))
	}
	return v, nil
}

// word is the one-word description of what the model must give.
func (t Type) word() string {
	switch t {
	case TypeInt, TypeFloat:
		return "numeric value"
	case TypeString:
		return "string value"
	case TypeArray, TypeObject:
		return "json value"
	case TypeBool:
		return "boolean value"
	case TypeYesNo:
		return "yes/no value"
	case TypeCode:
		return "code block"
	case TypeTaskList:
		return "markdown task list"
	}
	return "value"
}

// decode parses a candidate as JSON, refusing what serde_json refuses and
// encoding/json does not: nesting deeper than jsonDepth and numbers out of
// the float64 range.
func decode(text string, depth int) (any, bool) {
	if depth > jsonDepth {
		return nil, false
	}
	v, err := jsonvalue.Decode([]byte(text))
	if err != nil || hasInf(v) {
		return nil, false
	}
	return v, true
}

func hasInf(v any) bool {
	switch v := v.(type) {
	case float64:
		return math.IsInf(v, 0)
	case []any:
		for _, x := range v {
			if hasInf(x) {
				return true
			}
		}
	case map[string]any:
		for _, x := range v {
			if hasInf(x) {
				return true
			}
		}
	}
	return false
}

// containsFold reports whether s contains word (lower-case ASCII), with
// ASCII letters of s compared case-insensitively, as Rust's
// to_ascii_lowercase followed by contains.
func containsFold(s, word string) bool {
	first := word[0]
	for i := 0; i+len(word) <= len(s); i++ {
		if s[i]|0x20 != first {
			continue
		}
		j := 1
		for j < len(word) && lowerASCII(s[i+j]) == word[j] {
			j++
		}
		if j == len(word) && lowerASCII(s[i]) == first {
			return true
		}
	}
	return false
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// span is a candidate's byte range; depth is a JSON candidate's deepest
// nesting.
type span struct{ start, end, depth int }

// The kinds of candidates the scanner finds.
type candKind uint8

const (
	kInt    candKind = iota // an integer literal, also a float candidate
	kFloat                  // a literal with a '.': a float candidate only
	kObject                 // a top-level {...}
	kArray                  // a top-level [...]
)

// special marks the bytes that matter outside JSON.
var special = [256]bool{'-': true, '{': true, '[': true,
	'0': true, '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true, '8': true, '9': true}

// scan is upstream's jsonish scanner: one pass over the bytes, calling emit
// with each number literal and each top-level {...} and [...] span, in
// order, until emit returns false. See the package documentation for its
// rules.
func scan(s string, emit func(candKind, span) bool) {
	var stack []byte
	n := len(s)
	for i := 0; i < n; {
		b := s[i]
		if !special[b] {
			i++
			continue
		}
		if b != '{' && b != '[' {
			// A number: '-' or a digit starts it, digits continue it, one
			// '.' makes it a float, any other byte ends it and is consumed.
			start, kind := i, kInt
			i++
			for i < n {
				d := s[i]
				if '0' <= d && d <= '9' {
					i++
				} else if d == '.' && kind == kInt {
					kind = kFloat
					i++
				} else {
					break
				}
			}
			if !emit(kind, span{start, i, 0}) {
				return
			}
			i++ // the byte after the number is consumed
			continue
		}
		// JSON: follow brackets and strings until the stack empties.
		start, depth := i, 1
		stack = append(stack[:0], b)
		i++
		for len(stack) > 0 {
			if i >= n {
				return // unclosed at the end: dropped
			}
			switch d := s[i]; d {
			case '{', '[':
				stack = append(stack, d)
				depth = max(depth, len(stack))
				i++
			case '}', ']':
				if top := stack[len(stack)-1]; top != d-2 { // '{'+2 == '}', '['+2 == ']'
					return // a mismatched closer stops the whole scan
				}
				stack = stack[:len(stack)-1]
				i++
			case '"':
				i++
				for i < n && s[i] != '"' {
					if s[i] == '\\' {
						i++
					}
					i++
				}
				i++
			default:
				i++
			}
		}
		kind := kObject
		if b == '[' {
			kind = kArray
		}
		if !emit(kind, span{start, i, depth}) {
			return
		}
	}
}

// chooser decides among candidates as they come: one alone is chosen as
// is; with several, those that read (read returns ok) must all be equal
// to the first that reads (same reports that), which is chosen. It keeps
// the first candidate unread until a second one comes.
type chooser struct {
	n     int
	first span
	found bool   // a candidate has read well: chosen
	text  string // the chosen text
	depth int
	multi bool   // two candidates that read differ
	bad   string // the last candidate that did not read
}

// add takes the next candidate; it returns false once the outcome is
// several different candidates, when scanning can stop.
func (c *chooser) add(output string, sp span, read func(t string, sp span) bool, same func() bool) bool {
	c.n++
	if c.n == 1 {
		c.first = sp
		return true
	}
	if c.n == 2 && !c.take(output, c.first, read, same) {
		return false
	}
	return c.take(output, sp, read, same)
}

func (c *chooser) take(output string, sp span, read func(t string, sp span) bool, same func() bool) bool {
	t := output[sp.start:sp.end]
	if c.found && t == c.text || t == c.bad {
		return true // the same text again: the same outcome
	}
	if !read(t, sp) {
		c.bad = t
		return true // skipped
	}
	if !c.found {
		c.found, c.text, c.depth = true, t, sp.depth
		return true
	}
	if !same() {
		c.multi = true
		return false
	}
	return true
}

// result is the chosen text, or the message: none, or several.
func (c *chooser) result(output, noMatch, multiple string) (string, int, string) {
	switch {
	case c.n == 0:
		return "", 0, noMatch
	case c.n == 1:
		return output[c.first.start:c.first.end], c.first.depth, ""
	case c.multi:
		return "", 0, multiple
	case !c.found:
		return "", 0, noMatch
	}
	return c.text, c.depth, ""
}

// pick chooses the candidate text for an int, float, array or object
// schema, or returns the message for the model.
func (s *Schema) pick(output string) (text string, depth int, msg string) {
	name := s.Type.String()
	noMatch := "I cannot find `" + name + "` in your output. Please make sure that your output contains a valid " + s.Type.word() + "."
	multiple := "I see more than 1 candidates that look like `" + name + "`. I don't know which one to choose. Please give me just one `" + name + "`."
	var c chooser
	switch s.Type {
	case TypeInt:
		// Integers are read as Rust's i128: sign and digits.
		var neg, n bool
		var digits, d string
		read := func(t string, _ span) (ok bool) {
			n, d, ok = parseI128(t)
			if ok && !c.found {
				neg, digits = n, d
			}
			return ok
		}
		same := func() bool { return n == neg && d == digits }
		floats := 0
		var float span
		scan(output, func(k candKind, sp span) bool {
			switch k {
			case kInt:
				return c.add(output, sp, read, same)
			case kFloat:
				if floats++; floats == 1 {
					float = sp
				}
			}
			return true
		})
		if c.n == 0 { // no integer: maybe "The answer is 7."
			if floats != 1 {
				return "", 0, noMatch
			}
			f := output[float.start:float.end]
			if strings.HasSuffix(f, ".") {
				return f[:len(f)-1], 0, ""
			}
			return "", 0, "I want an integer, but I can only find a float literal: `" + f + "`. Could you give me an integer literal?"
		}
		return c.result(output, noMatch, multiple)
	case TypeFloat:
		// Every candidate is read (there is no choosing one unread), as
		// Rust's parse::<f64>; a trailing '.' is dropped from the text.
		var first, f float64
		read := func(t string, _ span) bool {
			var err error
			f, err = strconv.ParseFloat(t, 64)
			if err != nil && err.(*strconv.NumError).Err != strconv.ErrRange {
				return false // "-", "-.": Rust's parse fails too
			}
			if !c.found {
				first = f
			}
			return true
		}
		same := func() bool { return f == first }
		scan(output, func(k candKind, sp span) bool {
			if k != kInt && k != kFloat {
				return true
			}
			return c.take(output, sp, read, same)
		})
		if !c.found {
			return "", 0, noMatch
		}
		if c.multi {
			return "", 0, multiple
		}
		return strings.TrimSuffix(c.text, "."), 0, ""
	}
	want := kObject
	if s.Type == TypeArray {
		want = kArray
	}
	var first, v any
	read := func(t string, sp span) (ok bool) {
		if v, ok = decode(t, sp.depth); ok && !c.found {
			first = v
		}
		return ok
	}
	same := func() bool { return jsonvalue.Equal(first, v) } // serde_json's equality: 1 and 1.0 differ
	scan(output, func(k candKind, sp span) bool {
		if k != want {
			return true
		}
		return c.add(output, sp, read, same)
	})
	return c.result(output, noMatch, multiple)
}

// parseI128 reads an integer candidate ("-?[0-9]*") as Rust's
// parse::<i128> would, returning its sign and digits without leading zeros
// so that equal values compare equal.
func parseI128(t string) (neg bool, digits string, ok bool) {
	if strings.HasPrefix(t, "-") {
		neg, t = true, t[1:]
	}
	if t == "" {
		return false, "", false
	}
	t = strings.TrimLeft(t, "0")
	if t == "" {
		return false, "0", true
	}
	limit := "170141183460469231731687303715884105727" // 2^127-1
	if neg {
		limit = "170141183460469231731687303715884105728"
	}
	if len(t) > len(limit) || len(t) == len(limit) && t > limit {
		return false, "", false
	}
	return neg, t, true
}

// lines calls f with each line of s as Rust's str::lines splits them: at
// "\n", dropping one "\r" before it; no empty line after a final "\n". It
// stops when f returns false.
func lines(s string, f func(line string) bool) {
	for len(s) > 0 {
		j := strings.IndexByte(s, '\n')
		if j < 0 {
			f(s)
			return
		}
		line := s[:j]
		s = s[j+1:]
		if !f(strings.TrimSuffix(line, "\r")) {
			return
		}
	}
}

// extractCode finds the one fenced code block in s.
func extractCode(s string) (code, msg string) {
	const (
		before = iota
		inside
		after
	)
	state, open := before, 0 // open: the opening fence's backticks
	var b strings.Builder
	nlines := 0
	lines(s, func(line string) bool {
		switch state {
		case before:
			if n := fence(line, true); n > 0 {
				state, open = inside, n
			}
		case inside:
			if n := fence(line, false); n >= open {
				state = after
				return true
			}
			if nlines > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(line)
			nlines++
		case after:
			if fence(line, true) > 0 {
				msg = "It seems like your response has more than 1 code block. Please give me exactly 1 code block."
				return false
			}
		}
		return true
	})
	if msg != "" {
		return "", msg
	}
	if state == before {
		return "", "I cannot find a code block in your response. Please give me a fenced code block. An opening and closing fence consist of 3 or more backtick characters."
	}
	return strings.TrimSpace(b.String()), ""
}

func alnum(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
}

// fence returns the backtick count of a fence line, 0 for any other line:
// spaces, 3 or more backticks, then spaces. An opening fence (info) may
// also have an info string of letters, digits and spaces after them.
func fence(line string, info bool) int {
	n, done := 0, false
	for i := 0; i < len(line); i++ {
		switch c := line[i]; {
		case c == '`':
			if done {
				return 0
			}
			n++
		case c == ' ' && n == 0:
		case c == ' ' || info && alnum(c):
			if n < 3 {
				return 0
			}
			done = true
		default:
			return 0
		}
	}
	if n < 3 {
		return 0
	}
	return n
}

// taskItem matches upstream's ^(\s*)(\+|\*|\-)\s*\[.\]\s+.+$ (Unicode \s)
// and returns the marker and whether the item is indented.
func taskItem(line string) (marker byte, indented, ok bool) {
	i := skipSpace(line, 0)
	indented = i > 0
	if i >= len(line) || line[i] != '+' && line[i] != '*' && line[i] != '-' {
		return 0, false, false
	}
	marker = line[i]
	i = skipSpace(line, i+1)
	if i >= len(line) || line[i] != '[' {
		return 0, false, false
	}
	i++
	if i >= len(line) {
		return 0, false, false
	}
	_, size := utf8.DecodeRuneInString(line[i:]) // '.': any character
	i += size
	if i >= len(line) || line[i] != ']' {
		return 0, false, false
	}
	rest := line[i+1:]
	r, size := utf8.DecodeRuneInString(rest)
	if rest == "" || !unicode.IsSpace(r) || len(rest) == size { // \s+ then .+
		return 0, false, false
	}
	return marker, indented, true
}

func skipSpace(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

func blank(line string) bool { return skipSpace(line, 0) == len(line) }

// extractTaskList finds the one markdown task list in s.
func extractTaskList(s string) (list, msg string) {
	const (
		notYet = iota
		inList
		after
	)
	state := notYet
	var marker byte
	extra := false // a non-item line was kept already
	var b strings.Builder
	keep := func(line string) {
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(line)
	}
	found := false
	lines(s, func(line string) bool {
		switch state {
		case notYet:
			if m, _, ok := taskItem(line); ok {
				keep(line)
				found, marker, state = true, m, inList
			}
		case inList:
			if blank(line) {
				state = after
			} else if m, _, ok := taskItem(line); ok {
				if m != marker {
					msg = "I see multiple task lists in your output, each having different markers: `" + string(m) + "` and `" + string(marker) + "`. Please give me exactly one task list."
					return false
				}
				keep(line)
			} else if extra {
				state = after
			} else {
				extra = true
				keep(line)
			}
		case after:
			if _, _, ok := taskItem(line); ok {
				msg = "I see multiple task lists in your output. Please give me exactly one task list."
				return false
			}
		}
		return true
	})
	if msg != "" {
		return "", msg
	}
	if !found {
		return "", "I cannot find a task list in your output. Please give me a markdown task list. A task list consists of lines where each line starts with \"-\", followed by a whitespace, followed by \"[ ]\" (if the task is not complete) or \"[X]\" (if the task is complete), and followed by a task."
	}
	return b.String(), ""
}

// countTasks counts the task items of a list that are not indented.
func countTasks(list string) int {
	n := 0
	lines(list, func(line string) bool {
		if _, indented, ok := taskItem(line); ok && !indented {
			n++
		}
		return true
	})
	return n
}
