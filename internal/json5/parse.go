// Package json5 reads and writes JSON5 (https://spec.json5.org/, 1.0.0)
// values as the module's JSON-like Go values: map[string]any, []any,
// string, int64, float64, bool and nil.
//
// It exists because STF carries JSON5 in its command arguments and blocks,
// and the Go JSON5 decoders fall short of the spec (no \x, \0 or \v escapes,
// no tabs in strings, no Unicode identifiers or whitespace, no byte
// positions, unbounded recursion). Decisions where JSON5.parse is silent or
// JavaScript-specific:
//
//   - A number written as an integer (decimal without fraction or
//     exponent, or hexadecimal) that fits an int64 is an int64; every other
//     number is a float64. -0 is the float64 negative zero (an int64 has
//     none, and JSON5.parse keeps the sign).
//   - NaN, Infinity and -Infinity, and a number too large for a float64
//     (1e400, which JavaScript reads as Infinity), are refused at the
//     number with values.CheckFloat's message and values.NonFiniteHint:
//     the model's values are JSON values (see internal/values), and a
//     value that parse and messages cannot print must not pass check.
//   - A duplicate object key is an error (JSON5.parse keeps the last value
//     and silently drops the first).
//   - A lone surrogate escape (\uD800 without its pair) becomes U+FFFD: Go
//     strings hold UTF-8 only.
//   - Nesting deeper than MaxDepth (values.MaxDepth) is an error at the
//     opening bracket, with values.DepthMessage, so hostile input cannot
//     exhaust the stack and every value can be printed.
package json5

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/values"
)

// MaxDepth is how deeply arrays and objects may nest.
const MaxDepth = values.MaxDepth

// SyntaxError is a malformed JSON5 text, or a value the model cannot hold;
// Offset is the byte offset of the problem in the parsed text.
type SyntaxError struct {
	Offset int
	Msg    string
	Hint   string // how to write it instead, when that helps
}

// Error returns the message, without the position (Offset holds it).
func (e *SyntaxError) Error() string { return e.Msg }

// Parse parses src, which must hold exactly one JSON5 value with optional
// whitespace and comments around it.
func Parse(src string) (any, error) {
	p := parser{s: src}
	p.space()
	v := p.value()
	if p.err == nil {
		p.space()
		if p.i < len(p.s) && p.err == nil {
			p.fail(p.i, "unexpected %s after the value", p.what())
		}
	}
	if p.err != nil {
		return nil, p.err
	}
	return v, nil
}

// ParseString decodes src, which must be exactly one quoted JSON5 string.
func ParseString(src string) (string, error) {
	p := parser{s: src}
	if len(src) == 0 || src[0] != '"' && src[0] != '\'' {
		p.fail(0, "expected a quoted string")
		return "", p.err
	}
	s := p.str()
	if p.err == nil && p.i < len(p.s) {
		p.fail(p.i, "unexpected %s after the string", p.what())
	}
	if p.err != nil {
		return "", p.err
	}
	return s, nil
}

type parser struct {
	s     string
	i     int
	depth int
	err   *SyntaxError
}

func (p *parser) fail(off int, format string, args ...any) {
	if p.err == nil {
		p.err = &SyntaxError{Offset: off, Msg: fmt.Sprintf(format, args...)}
		p.i = len(p.s) // stop every loop
	}
}

// what names the character at p.i for an error message.
func (p *parser) what() string {
	if p.i >= len(p.s) {
		return "end of input"
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return fmt.Sprintf("character %q", r)
}

// space skips whitespace and comments.
func (p *parser) space() {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f':
			p.i++
		case c == '/' && p.i+1 < len(p.s) && p.s[p.i+1] == '/':
			for p.i < len(p.s) && !isLineTerminator(p.s, p.i) {
				p.i++
			}
		case c == '/' && p.i+1 < len(p.s) && p.s[p.i+1] == '*':
			end := strings.Index(p.s[p.i+2:], "*/")
			if end < 0 {
				p.fail(p.i, "unterminated /* comment")
				return
			}
			p.i += 2 + end + 2
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRuneInString(p.s[p.i:])
			if r != '\uFEFF' && r != '\u2028' && r != '\u2029' && !unicode.Is(unicode.Zs, r) {
				return
			}
			p.i += n
		default:
			return
		}
	}
}

// isLineTerminator reports whether a JSON5 line terminator (LF, CR, U+2028,
// U+2029) starts at s[i].
func isLineTerminator(s string, i int) bool {
	switch s[i] {
	case '\n', '\r':
		return true
	case 0xE2:
		return strings.HasPrefix(s[i:], "\u2028") || strings.HasPrefix(s[i:], "\u2029")
	}
	return false
}

func (p *parser) value() any {
	if p.i >= len(p.s) {
		p.fail(p.i, "unexpected end of input, expected a value")
		return nil
	}
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"' || c == '\'':
		return p.str()
	case c == '+' || c == '-' || c == '.' || c >= '0' && c <= '9':
		return p.number()
	case c == 'I' || c == 'N':
		return p.number()
	}
	start := p.i
	word := p.word()
	switch word {
	case "true":
		return true
	case "false":
		return false
	case "null":
		return nil
	}
	p.i = start
	p.fail(start, "unexpected %s, expected a value", p.what())
	return nil
}

// word reads a run of identifier characters (no escapes).
func (p *parser) word() string {
	start := p.i
	for p.i < len(p.s) {
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if !isIDPart(r) {
			break
		}
		p.i += n
	}
	return p.s[start:p.i]
}

func (p *parser) enter() bool {
	p.depth++
	if p.depth > MaxDepth {
		p.fail(p.i, "%s", values.DepthMessage())
		return false
	}
	return true
}

func (p *parser) object() any {
	if !p.enter() {
		return nil
	}
	open := p.i
	p.i++ // {
	m := map[string]any{}
	for {
		p.space()
		if p.i >= len(p.s) {
			p.fail(open, "unterminated object: no closing }")
			return nil
		}
		if p.s[p.i] == '}' {
			p.i++
			p.depth--
			return m
		}
		keyAt := p.i
		key := p.key()
		if p.err != nil {
			return nil
		}
		if _, dup := m[key]; dup {
			p.fail(keyAt, "duplicate key %q", key)
			return nil
		}
		p.space()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			p.fail(p.i, "unexpected %s, expected ':' after key %q", p.what(), key)
			return nil
		}
		p.i++
		p.space()
		m[key] = p.value()
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == '}' {
			continue
		}
		if p.i >= len(p.s) {
			p.fail(open, "unterminated object: no closing }")
		} else {
			p.fail(p.i, "unexpected %s, expected ',' or '}'", p.what())
		}
		return nil
	}
}

func (p *parser) array() any {
	if !p.enter() {
		return nil
	}
	open := p.i
	p.i++ // [
	a := []any{}
	for {
		p.space()
		if p.i >= len(p.s) {
			p.fail(open, "unterminated array: no closing ]")
			return nil
		}
		if p.s[p.i] == ']' {
			p.i++
			p.depth--
			return a
		}
		a = append(a, p.value())
		p.space()
		if p.i < len(p.s) && p.s[p.i] == ',' {
			p.i++
			continue
		}
		if p.i < len(p.s) && p.s[p.i] == ']' {
			continue
		}
		if p.i >= len(p.s) {
			p.fail(open, "unterminated array: no closing ]")
		} else {
			p.fail(p.i, "unexpected %s, expected ',' or ']'", p.what())
		}
		return nil
	}
}

// key reads an object key: a string or an ECMAScript IdentifierName.
func (p *parser) key() string {
	if c := p.s[p.i]; c == '"' || c == '\'' {
		return p.str()
	}
	start := p.i
	// Fast path: an ASCII identifier is a substring of the source.
	for p.i < len(p.s) && isASCIIIDPart(p.s[p.i]) && (p.i > start || p.s[p.i] > '9') {
		p.i++
	}
	if p.i > start && (p.i == len(p.s) || p.s[p.i] < utf8.RuneSelf && p.s[p.i] != '\\') {
		return p.s[start:p.i]
	}
	p.i = start
	var b strings.Builder
	for p.i < len(p.s) {
		at := p.i
		r, n := utf8.DecodeRuneInString(p.s[p.i:])
		if r == '\\' {
			if !strings.HasPrefix(p.s[p.i:], "\\u") {
				p.fail(at, "invalid escape in key: only \\uXXXX is allowed")
				return ""
			}
			p.i += 2
			r = p.hex(4)
			if p.err != nil {
				return ""
			}
		} else {
			p.i += n
		}
		ok := isIDPart(r)
		if at == start {
			ok = isIDStart(r)
		}
		if !ok {
			if at == start {
				p.i = at
				p.fail(at, "unexpected %s, expected a key", p.what())
				return ""
			}
			p.i = at
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

func isASCIIIDPart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$'
}

func isIDStart(r rune) bool {
	if r < utf8.RuneSelf {
		return r == '$' || r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
	}
	return r == '$' || r == '_' || unicode.In(r, unicode.Lu, unicode.Ll, unicode.Lt, unicode.Lm, unicode.Lo, unicode.Nl)
}

func isIDPart(r rune) bool {
	if r < utf8.RuneSelf {
		return isASCIIIDPart(byte(r))
	}
	return isIDStart(r) || r == '\u200C' || r == '\u200D' || unicode.In(r, unicode.Mn, unicode.Mc, unicode.Nd, unicode.Pc)
}

// hex reads n hexadecimal digits as a rune.
func (p *parser) hex(n int) rune {
	if p.i+n > len(p.s) {
		p.fail(p.i, "expected %d hexadecimal digits", n)
		return 0
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+n], 16, 32)
	if err != nil || strings.ContainsAny(p.s[p.i:p.i+n], "+-_") {
		p.fail(p.i, "expected %d hexadecimal digits", n)
		return 0
	}
	p.i += n
	return rune(v)
}

// str reads a quoted string. A string without escapes is a substring of
// the source: no copy.
func (p *parser) str() string {
	q := p.s[p.i]
	open := p.i
	p.i++
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == q {
			p.i++
			return p.s[start : p.i-1]
		}
		if c == '\\' || c == '\n' || c == '\r' {
			break
		}
		p.i++
	}
	b := []byte(p.s[start:p.i])
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return string(b)
		case c == '\n' || c == '\r':
			p.fail(p.i, "line break in string (write \\n, or end the line with \\)")
			return ""
		case c == '\\':
			b = p.escape(b)
			if p.err != nil {
				return ""
			}
		default:
			b = append(b, c)
			p.i++
		}
	}
	p.fail(open, "unterminated string")
	return ""
}

func (p *parser) escape(b []byte) []byte {
	at := p.i
	p.i++ // backslash
	if p.i >= len(p.s) {
		p.fail(at, "unterminated string")
		return b
	}
	c := p.s[p.i]
	p.i++
	switch c {
	case 'b':
		return append(b, '\b')
	case 'f':
		return append(b, '\f')
	case 'n':
		return append(b, '\n')
	case 'r':
		return append(b, '\r')
	case 't':
		return append(b, '\t')
	case 'v':
		return append(b, '\v')
	case '0':
		if p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.fail(at, "invalid escape \\0 followed by a digit")
			return b
		}
		return append(b, 0)
	case '1', '2', '3', '4', '5', '6', '7', '8', '9':
		p.fail(at, "invalid escape \\%c", c)
		return b
	case 'x':
		return utf8.AppendRune(b, p.hex(2))
	case 'u':
		r := p.hex(4)
		if utf16.IsSurrogate(r) {
			r2 := rune(-1)
			if strings.HasPrefix(p.s[p.i:], "\\u") {
				save := p.i
				p.i += 2
				r2 = p.hex(4)
				if utf16.DecodeRune(r, r2) == utf8.RuneError {
					p.i, r2 = save, -1
				}
			}
			r = utf16.DecodeRune(r, r2) // U+FFFD for a lone surrogate
		}
		return utf8.AppendRune(b, r)
	case '\n':
		return b // line continuation
	case '\r':
		if p.i < len(p.s) && p.s[p.i] == '\n' {
			p.i++
		}
		return b
	}
	// Any other character stands for itself (JSON5's NonEscapeCharacter),
	// including U+2028 and U+2029, which continue the line.
	p.i--
	r, n := utf8.DecodeRuneInString(p.s[p.i:])
	p.i += n
	if r == '\u2028' || r == '\u2029' {
		return b
	}
	return utf8.AppendRune(b, r)
}

// number reads a JSON5 number: decimal, hexadecimal, Infinity or NaN, with
// an optional sign.
func (p *parser) number() any {
	start := p.i
	neg := false
	if c := p.s[p.i]; c == '+' || c == '-' {
		neg = c == '-'
		p.i++
	}
	digitsFrom := p.i
	switch {
	case strings.HasPrefix(p.s[p.i:], "Infinity"):
		p.i += len("Infinity")
		p.endNumber(start)
		if neg {
			return p.finite(start, math.Inf(-1))
		}
		return p.finite(start, math.Inf(1))
	case strings.HasPrefix(p.s[p.i:], "NaN"):
		p.i += len("NaN")
		p.endNumber(start)
		return p.finite(start, math.NaN())
	case strings.HasPrefix(p.s[p.i:], "0x") || strings.HasPrefix(p.s[p.i:], "0X"):
		p.i += 2
		h := p.i
		for p.i < len(p.s) && isHex(p.s[p.i]) {
			p.i++
		}
		if h == p.i {
			p.fail(h, "expected hexadecimal digits after 0x")
			return nil
		}
		p.endNumber(start)
		if p.err != nil {
			return nil
		}
		return p.finite(start, hexNumber(p.s[h:p.i], neg))
	}
	intDigits := p.digits()
	if intDigits > 1 && p.s[digitsFrom] == '0' {
		p.fail(digitsFrom, "leading zero in a number")
		return nil
	}
	isInt := true
	fracDigits := 0
	if p.i < len(p.s) && p.s[p.i] == '.' {
		isInt = false
		p.i++
		fracDigits = p.digits()
	}
	if intDigits == 0 && fracDigits == 0 {
		p.i = start
		p.fail(start, "unexpected %s, expected a value", p.what())
		return nil
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		isInt = false
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if p.digits() == 0 {
			p.fail(p.i, "expected digits in the exponent")
			return nil
		}
	}
	p.endNumber(start)
	if p.err != nil {
		return nil
	}
	text := p.s[digitsFrom:p.i]
	if isInt {
		if n, err := strconv.ParseInt(text, 10, 64); err == nil {
			if neg && n == 0 {
				return math.Copysign(0, -1)
			}
			if neg {
				return -n
			}
			return n
		}
		if neg && text == "9223372036854775808" {
			return int64(math.MinInt64)
		}
	}
	f, _ := strconv.ParseFloat(text, 64) // out of range gives ±Inf (refused) or 0, as in JavaScript
	if neg {
		f = -f
	}
	return p.finite(start, f)
}

// finite returns v, the number that starts at start, or fails there when
// it is a float that is not finite.
func (p *parser) finite(start int, v any) any {
	if f, ok := v.(float64); ok {
		if msg := values.CheckFloat(f); msg != "" {
			if p.err == nil {
				p.fail(start, "%s", msg)
				p.err.Hint = values.NonFiniteHint
			}
			return nil
		}
	}
	return v
}

func (p *parser) digits() int {
	n := 0
	for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
		p.i++
		n++
	}
	return n
}

// endNumber rejects a number run into letters or digits ("1x", "NaNa").
func (p *parser) endNumber(start int) {
	if p.i < len(p.s) {
		r, _ := utf8.DecodeRuneInString(p.s[p.i:])
		if isIDPart(r) || r == '.' {
			p.fail(start, "malformed number %q", p.s[start:p.i+utf8.RuneLen(r)])
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func hexNumber(h string, neg bool) any {
	if u, err := strconv.ParseUint(h, 16, 64); err == nil && u <= math.MaxInt64 {
		if neg && u == 0 {
			return math.Copysign(0, -1)
		}
		if neg {
			return -int64(u)
		}
		return int64(u)
	}
	f := 0.0
	for i := 0; i < len(h); i++ {
		d, _ := strconv.ParseUint(h[i:i+1], 16, 8)
		f = f*16 + float64(d)
	}
	if neg {
		f = -f
	}
	return f
}
