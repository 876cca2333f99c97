// Package jsontree reads JSON text into a tree that knows where each value
// is in the text, so that a format built on JSON (a provider's request
// body) can put its errors at a line and column, and keeps every member of
// an object in the order written.
//
// The text is RFC 8259 JSON, read strictly: UTF-8 only, no trailing
// commas, no comments, no text after the value. Decisions: an object that
// names a member twice is an error (decoders disagree on which one counts,
// so either answer could change what the file says); nesting deeper than
// values.MaxDepth and a number that is not finite as a float64 are errors
// with internal/values' messages, as every format gives them. Strings
// without escapes share the text's memory; it is read in one pass.
package jsontree

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The kinds of JSON value.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}

// String names the kind for a message: "a string", "an object", ...
func (k Kind) String() string { return kindNames[k] }

// Value is one JSON value and where it is: Off is the offset of its first
// byte in the text, End the offset just after it.
type Value struct {
	Kind Kind
	Off  int
	End  int
	// Str is a string's text, unescaped; a number's literal as written;
	// "true" or "false".
	Str     string
	Elems   []Value  // an array's elements
	Members []Member // an object's members, in the order written
}

// Member is one name and value of an object.
type Member struct {
	Key    string
	KeyOff int // the offset of the name's opening quote
	Value  Value
}

// Get returns the value of the member called key, or nil.
func (v *Value) Get(key string) *Value {
	for i := range v.Members {
		if v.Members[i].Key == key {
			return &v.Members[i].Value
		}
	}
	return nil
}

// Raw returns the value's text as written in src, the text it was parsed
// from.
func (v *Value) Raw(src []byte) []byte { return src[v.Off:v.End] }

// Any returns the value as the model's JSON-like values: nil, bool,
// string, int64 (an integer that fits), float64, []any and map[string]any.
func (v *Value) Any() any {
	switch v.Kind {
	case Bool:
		return v.Str == "true"
	case Number:
		if i, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
			return i
		}
		f, _ := strconv.ParseFloat(v.Str, 64)
		if f == 0 { // -0, 0.0: as jsonvalue reads them
			if i, ok := integral(v.Str); ok {
				return i
			}
		}
		return f
	case String:
		return v.Str
	case Array:
		out := make([]any, len(v.Elems))
		for i := range v.Elems {
			out[i] = v.Elems[i].Any()
		}
		return out
	case Object:
		out := make(map[string]any, len(v.Members))
		for i := range v.Members {
			out[v.Members[i].Key] = v.Members[i].Value.Any()
		}
		return out
	}
	return nil
}

// integral reports whether a number literal of value zero has no fraction
// or exponent ("-0"), which jsonvalue.Decode reads as the integer 0.
func integral(lit string) (int64, bool) {
	for i := 0; i < len(lit); i++ {
		if c := lit[i]; c == '.' || c == 'e' || c == 'E' {
			return 0, false
		}
	}
	return 0, true
}

// Parse reads src, which must hold exactly one JSON value (white space
// around it allowed). An error is a *jsonvalue.Error at its offset.
func Parse(src []byte) (*Value, error) {
	p := parser{src: string(src)}
	p.space()
	var v Value
	if err := p.value(&v, 0); err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(src) {
		return nil, p.fail(p.i, "text after the JSON value")
	}
	return &v, nil
}

type parser struct {
	src string // one copy of the text: strings without escapes are slices of it
	i   int
}

func (p *parser) fail(off int, msg string) *jsonvalue.Error {
	return &jsonvalue.Error{Offset: off, Msg: msg}
}

func (p *parser) space() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// unexpected describes the byte at p.i for an error.
func (p *parser) unexpected(want string) *jsonvalue.Error {
	if p.i >= len(p.src) {
		return p.fail(p.i, "unexpected end of JSON text, want "+want)
	}
	c := p.src[p.i]
	what := strconv.QuoteRune(rune(c))
	if c >= utf8.RuneSelf {
		r, _ := utf8.DecodeRuneInString(p.src[p.i:])
		if r == utf8.RuneError {
			return p.fail(p.i, "invalid UTF-8")
		}
		what = strconv.QuoteRune(r)
	}
	return p.fail(p.i, "unexpected "+what+", want "+want)
}

func (p *parser) value(v *Value, depth int) error {
	v.Off = p.i
	if p.i >= len(p.src) {
		return p.unexpected("a value")
	}
	switch c := p.src[p.i]; {
	case c == '{':
		if depth >= values.MaxDepth {
			return &jsonvalue.Error{Offset: p.i, Msg: values.DepthMessage()}
		}
		v.Kind = Object
		return p.object(v, depth+1)
	case c == '[':
		if depth >= values.MaxDepth {
			return &jsonvalue.Error{Offset: p.i, Msg: values.DepthMessage()}
		}
		v.Kind = Array
		return p.array(v, depth+1)
	case c == '"':
		v.Kind = String
		s, err := p.str()
		v.Str, v.End = s, p.i
		return err
	case c == '-' || c >= '0' && c <= '9':
		v.Kind = Number
		return p.number(v)
	case c == 't':
		v.Kind, v.Str = Bool, "true"
		return p.literal(v, "true")
	case c == 'f':
		v.Kind, v.Str = Bool, "false"
		return p.literal(v, "false")
	case c == 'n':
		v.Kind = Null
		return p.literal(v, "null")
	}
	return p.unexpected("a value")
}

func (p *parser) literal(v *Value, word string) error {
	if len(p.src)-p.i < len(word) || p.src[p.i:p.i+len(word)] != word {
		return p.fail(p.i, "invalid literal, want "+word)
	}
	p.i += len(word)
	v.End = p.i
	return nil
}

func (p *parser) object(v *Value, depth int) error {
	p.i++ // {
	p.space()
	if p.i < len(p.src) && p.src[p.i] == '}' {
		p.i++
		v.End = p.i
		return nil
	}
	for {
		if p.i >= len(p.src) || p.src[p.i] != '"' {
			return p.unexpected("a member name in double quotes")
		}
		m := Member{KeyOff: p.i}
		key, err := p.str()
		if err != nil {
			return err
		}
		m.Key = key
		for j := range v.Members {
			if v.Members[j].Key == key {
				return p.fail(m.KeyOff, "the member "+strconv.Quote(key)+" is named twice in one object")
			}
		}
		p.space()
		if p.i >= len(p.src) || p.src[p.i] != ':' {
			return p.unexpected("':' after a member name")
		}
		p.i++
		p.space()
		v.Members = append(v.Members, m)
		if err := p.value(&v.Members[len(v.Members)-1].Value, depth); err != nil {
			return err
		}
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == '}' {
			p.i++
			v.End = p.i
			return nil
		}
		return p.unexpected("',' or '}' in an object")
	}
}

func (p *parser) array(v *Value, depth int) error {
	p.i++ // [
	p.space()
	if p.i < len(p.src) && p.src[p.i] == ']' {
		p.i++
		v.End = p.i
		return nil
	}
	for {
		v.Elems = append(v.Elems, Value{})
		if err := p.value(&v.Elems[len(v.Elems)-1], depth); err != nil {
			return err
		}
		p.space()
		if p.i < len(p.src) && p.src[p.i] == ',' {
			p.i++
			p.space()
			continue
		}
		if p.i < len(p.src) && p.src[p.i] == ']' {
			p.i++
			v.End = p.i
			return nil
		}
		return p.unexpected("',' or ']' in an array")
	}
}

// str reads a string at p.i (its opening quote) and returns its text.
func (p *parser) str() (string, error) {
	start := p.i + 1
	i := start
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '"':
			p.i = i + 1
			return p.src[start:i], nil
		case c == '\\':
			return p.escaped(start, i)
		case c < 0x20:
			return "", p.fail(i, "a control character in a string (write it as an escape, \\n or \\u00XX)")
		case c < utf8.RuneSelf:
			i++
		default:
			r, n := utf8.DecodeRuneInString(p.src[i:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail(i, "invalid UTF-8 in a string")
			}
			i += n
		}
	}
	return "", p.fail(p.i, "a string that is never closed")
}

// escaped reads the rest of a string from i, its first backslash, with
// the text before it at src[start:i].
func (p *parser) escaped(start, i int) (string, error) {
	b := make([]byte, 0, i-start+16)
	b = append(b, p.src[start:i]...)
	for i < len(p.src) {
		c := p.src[i]
		switch {
		case c == '"':
			p.i = i + 1
			return string(b), nil
		case c == '\\':
			if i+1 >= len(p.src) {
				return "", p.fail(p.i, "a string that is never closed")
			}
			switch e := p.src[i+1]; e {
			case '"', '\\', '/':
				b = append(b, e)
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r, n, err := p.unicode(i)
				if err != nil {
					return "", err
				}
				b = utf8.AppendRune(b, r)
				i += n
				continue
			default:
				return "", p.fail(i, "invalid escape "+strconv.Quote(p.src[i:i+2]))
			}
			i += 2
		case c < 0x20:
			return "", p.fail(i, "a control character in a string (write it as an escape, \\n or \\u00XX)")
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(p.src[i:])
			if r == utf8.RuneError && n == 1 {
				return "", p.fail(i, "invalid UTF-8 in a string")
			}
			b = append(b, p.src[i:i+n]...)
			i += n
		}
	}
	return "", p.fail(p.i, "a string that is never closed")
}

// unicode reads \uXXXX at i (and a low surrogate after a high one): the
// rune and the bytes read. A lone surrogate becomes U+FFFD, as
// encoding/json reads it.
func (p *parser) unicode(i int) (rune, int, error) {
	r, ok := hex4(p.src, i+2)
	if !ok {
		return 0, 0, p.fail(i, `invalid escape: \u needs four hex digits`)
	}
	if utf16.IsSurrogate(r) {
		if i+12 <= len(p.src) && p.src[i+6] == '\\' && p.src[i+7] == 'u' {
			if r2, ok := hex4(p.src, i+8); ok {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					return d, 12, nil
				}
			}
		}
		return utf8.RuneError, 6, nil
	}
	return r, 6, nil
}

func hex4(src string, i int) (rune, bool) {
	if i+4 > len(src) {
		return 0, false
	}
	var r rune
	for _, c := range []byte(src[i : i+4]) {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// number reads a number literal as RFC 8259 defines it.
func (p *parser) number(v *Value) error {
	start, i := p.i, p.i
	if p.src[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9' {
			i++
			n++
		}
		return n
	}
	switch {
	case i < len(p.src) && p.src[i] == '0':
		i++
	case digits() == 0:
		return p.fail(start, "invalid number")
	}
	if i < len(p.src) && p.src[i] == '.' {
		i++
		if digits() == 0 {
			return p.fail(start, "invalid number: no digit after '.'")
		}
	}
	exp := false
	if i < len(p.src) && (p.src[i] == 'e' || p.src[i] == 'E') {
		i++
		exp = true
		if i < len(p.src) && (p.src[i] == '+' || p.src[i] == '-') {
			i++
		}
		if digits() == 0 {
			return p.fail(start, "invalid number: no digit in the exponent")
		}
	}
	v.Str = p.src[start:i]
	// Only an exponent or over 308 digits makes a float64 overflow.
	if exp || i-start > 308 {
		if f, _ := strconv.ParseFloat(v.Str, 64); values.CheckFloat(f) != "" {
			return &jsonvalue.Error{Offset: start, Msg: values.CheckFloat(f), Hint: values.NonFiniteHint}
		}
	}
	p.i = i
	v.End = i
	return nil
}
