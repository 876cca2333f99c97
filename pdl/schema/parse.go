package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
)

// maxDepth is how deeply groups ({, [ and ( ) may nest in a schema.
const maxDepth = 100

type tokKind uint8

const (
	tIdent  tokKind = iota // [A-Za-z_-]+
	tString                // '...' or "..."
	tNumber                // [0-9][0-9.]* or -[0-9][0-9.]*
	tPunct                 // : or ,
	tOpen                  // { [ (
	tClose                 // } ] )
)

type token struct {
	kind     tokKind
	off, end int    // byte span in the source
	text     string // identifier, string contents or number text
	delim    byte   // the byte of a punctuation, opening or closing token
	match    int    // an opening token's closing token index
	isFloat  bool   // a number that is not an int64
	i        int64
	f        float64
}

func (t *token) String() string {
	switch t.kind {
	case tIdent:
		return "`" + t.text + "`"
	case tString:
		return "string " + strconv.Quote(t.text)
	case tNumber:
		return "number " + t.text
	}
	return "`" + string(t.delim) + "`"
}

// Parse parses a schema. Errors are *promptfmt.ParseError with Format "pdl"
// and the position inside src.
func Parse(b []byte) (*Schema, error) {
	src := string(b)
	toks, err := tokenize(src)
	if err != nil {
		return nil, err
	}
	p := &parser{src: src, toks: toks}
	s, err := p.schema(len(toks))
	if err != nil {
		return nil, err
	}
	if p.pos < len(toks) {
		return nil, p.errTok(p.pos, "unexpected %s after the schema", &toks[p.pos])
	}
	return s, nil
}

func errAt(src string, off int, format string, args ...any) *promptfmt.ParseError {
	return diag.Errorf("pdl", []byte(src), off, format, args...)
}

// tokenize splits src into tokens and matches the groups, iteratively:
// no recursion, one pass.
func tokenize(src string) ([]token, error) {
	var toks []token
	var open []int // indices of the unclosed opening tokens
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == ' ' || c == '\n' || c == '\r' || c == '\t':
			i++
		case c == '{' || c == '[' || c == '(':
			if len(open) == maxDepth {
				return nil, errAt(src, i, "schema nested deeper than %d levels", maxDepth)
			}
			open = append(open, len(toks))
			toks = append(toks, token{kind: tOpen, off: i, end: i + 1, delim: c})
			i++
		case c == '}' || c == ']' || c == ')':
			if len(open) == 0 {
				return nil, errAt(src, i, "unexpected `%c`: nothing to close", c)
			}
			o := &toks[open[len(open)-1]]
			if closer(o.delim) != c {
				return nil, errAt(src, i, "`%c` closed by `%c`", o.delim, c)
			}
			open = open[:len(open)-1]
			o.match = len(toks)
			toks = append(toks, token{kind: tClose, off: i, end: i + 1, delim: c})
			i++
		case c == ':' || c == ',':
			toks = append(toks, token{kind: tPunct, off: i, end: i + 1, delim: c})
			i++
		case c == '"' || c == '\'':
			j := strings.IndexByte(src[i+1:], c)
			if j < 0 {
				return nil, errAt(src, i, "unterminated string")
			}
			text := src[i+1 : i+1+j]
			if !utf8.ValidString(text) {
				bad := i + 1 + invalidUTF8(text)
				return nil, errAt(src, bad, "invalid UTF-8 in string")
			}
			toks = append(toks, token{kind: tString, off: i, end: i + 2 + j, text: text})
			i += j + 2
		case '0' <= c && c <= '9' || c == '-' && i+1 < len(src) && '0' <= src[i+1] && src[i+1] <= '9':
			j := i + 1
			for j < len(src) && ('0' <= src[j] && src[j] <= '9' || src[j] == '.') {
				j++
			}
			t := token{kind: tNumber, off: i, end: j, text: src[i:j]}
			if n, err := strconv.ParseInt(t.text, 10, 64); err == nil {
				t.i, t.f = n, float64(n)
			} else if f, err := strconv.ParseFloat(t.text, 64); err == nil {
				t.f, t.isFloat = f, true
			} else if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return nil, errAt(src, i, "number %s is out of range", t.text)
			} else {
				return nil, errAt(src, i, "invalid number %s", t.text)
			}
			toks = append(toks, t)
			i = j
		case identByte(c):
			j := i + 1
			for j < len(src) && identByte(src[j]) {
				j++
			}
			toks = append(toks, token{kind: tIdent, off: i, end: j, text: src[i:j]})
			i = j
		default:
			r, _ := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError {
				return nil, errAt(src, i, "unexpected byte 0x%02x", c)
			}
			return nil, errAt(src, i, "unexpected character %q", r)
		}
	}
	if len(open) > 0 {
		o := toks[open[len(open)-1]]
		return nil, errAt(src, o.off, "`%c` is never closed", o.delim)
	}
	return toks, nil
}

func closer(open byte) byte {
	switch open {
	case '{':
		return '}'
	case '[':
		return ']'
	}
	return ')'
}

// invalidUTF8 returns the offset of the first invalid byte of s.
func invalidUTF8(s string) int {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return len(s)
}

type parser struct {
	src  string
	toks []token
	pos  int
}

func (p *parser) errTok(i int, format string, args ...any) error {
	off := len(p.src)
	if i < len(p.toks) {
		off = p.toks[i].off
	}
	return errAt(p.src, off, format, args...)
}

// errEnd reports that the group (or the schema) ended at token index end
// where more was needed.
func (p *parser) errEnd(end int, want string) error {
	if end < len(p.toks) {
		return p.errTok(end, "unexpected `%c`: want %s", p.toks[end].delim, want)
	}
	return p.errTok(end, "unexpected end of schema: want %s", want)
}

const wantType = "a type (str, int, float, bool, yesno, code, tasklist, {...} or [...])"

// schema parses a type and its optional constraint from p.pos; end is the
// index of the token that closes the enclosing group (len(p.toks) at the
// top). Recursion is bounded by the group depth, which tokenize limits.
func (p *parser) schema(end int) (*Schema, error) {
	if p.pos >= end {
		return nil, p.errEnd(end, wantType)
	}
	t := &p.toks[p.pos]
	s := &Schema{}
	switch {
	case t.kind == tIdent:
		switch t.text {
		case "str", "string":
			s.Type = TypeString
		case "int", "integer":
			s.Type = TypeInt
		case "float", "number":
			s.Type = TypeFloat
		case "bool", "boolean":
			s.Type = TypeBool
		case "yesno":
			s.Type = TypeYesNo
		case "code":
			s.Type = TypeCode
		case "tasklist":
			s.Type = TypeTaskList
		default:
			return nil, p.errTok(p.pos, "unknown type %s: want %s", t, wantType)
		}
		p.pos++
	case t.kind == tOpen && t.delim == '{':
		if err := p.object(s); err != nil {
			return nil, err
		}
	case t.kind == tOpen && t.delim == '[':
		if err := p.array(s); err != nil {
			return nil, err
		}
	default:
		return nil, p.errTok(p.pos, "unexpected %s: want %s", t, wantType)
	}
	if p.pos < end && p.toks[p.pos].kind == tOpen && p.toks[p.pos].delim == '{' {
		if err := p.constraint(s); err != nil {
			return nil, err
		}
	}
	return s, nil
}

func (p *parser) object(s *Schema) error {
	s.Type = TypeObject
	end := p.toks[p.pos].match
	p.pos++
	var seen map[string]bool
	for p.pos < end {
		k := &p.toks[p.pos]
		if k.kind != tIdent && k.kind != tString {
			return p.errTok(p.pos, "unexpected %s: want a field name", k)
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		if seen[k.text] {
			return p.errTok(p.pos, "duplicate field %q", k.text)
		}
		seen[k.text] = true
		p.pos++
		if err := p.punct(':', end); err != nil {
			return err
		}
		f, err := p.schema(end)
		if err != nil {
			return err
		}
		s.Fields = append(s.Fields, Field{Name: k.text, Schema: f})
		if p.pos < end {
			if err := p.punct(',', end); err != nil {
				return err
			}
		}
	}
	p.pos = end + 1
	return nil
}

func (p *parser) array(s *Schema) error {
	s.Type = TypeArray
	end := p.toks[p.pos].match
	p.pos++
	if p.pos < end {
		e, err := p.schema(end)
		if err != nil {
			return err
		}
		if p.pos < end {
			return p.errTok(p.pos, "unexpected %s: an array holds one element schema", &p.toks[p.pos])
		}
		s.Elem = e
	}
	p.pos = end + 1
	return nil
}

// punct consumes the punctuation c.
func (p *parser) punct(c byte, end int) error {
	if p.pos >= end {
		return p.errEnd(end, "`"+string(c)+"`")
	}
	if t := &p.toks[p.pos]; t.kind != tPunct || t.delim != c {
		return p.errTok(p.pos, "unexpected %s: want `%c`", t, c)
	}
	p.pos++
	return nil
}

// constraint parses "{ min: N, max: N }" after s's type and checks it
// against the type, at every nesting level.
func (p *parser) constraint(s *Schema) error {
	brace := p.pos
	end := p.toks[p.pos].match
	p.pos++
	var minTok, maxTok *token
	var minKey, maxKey int
	for p.pos < end {
		k := &p.toks[p.pos]
		if k.kind != tIdent && k.kind != tString {
			return p.errTok(p.pos, "unexpected %s: want `min` or `max`", k)
		}
		keyAt := p.pos
		p.pos++
		if err := p.punct(':', end); err != nil {
			return err
		}
		var slot **token
		switch k.text {
		case "min", "len_min":
			slot = &minTok
		case "max", "len_max":
			slot = &maxTok
		default:
			return p.errTok(keyAt, "`%s` is not a valid constraint", k.text)
		}
		if p.pos >= end {
			return p.errEnd(end, "a number")
		}
		v := &p.toks[p.pos]
		if v.kind != tNumber {
			return p.errTok(p.pos, "unexpected %s: want a number", v)
		}
		if *slot != nil {
			return p.errTok(keyAt, "A constraint `%s` appears more than once.", k.text)
		}
		*slot = v
		if slot == &minTok {
			minKey = keyAt
		} else {
			maxKey = keyAt
		}
		p.pos++
		if p.pos < end {
			if err := p.punct(',', end); err != nil {
				return err
			}
		}
	}
	p.pos = end + 1
	if ok, _ := s.Type.constrained(); !ok {
		switch {
		case minTok != nil:
			return p.errTok(minKey, "Type `%s` cannot have constraint `min`", s.Type)
		case maxTok != nil:
			return p.errTok(maxKey, "Type `%s` cannot have constraint `max`", s.Type)
		}
		return nil
	}
	return p.bounds(s, brace, minTok, maxTok)
}

// bounds turns the constraint's number tokens into s.Min and s.Max, with
// upstream's checks and messages.
func (p *parser) bounds(s *Schema, brace int, minTok, maxTok *token) error {
	if s.Type == TypeFloat {
		if minTok != nil {
			s.Min = &Bound{Float: minTok.f}
		}
		if maxTok != nil {
			s.Max = &Bound{Float: maxTok.f}
		}
		if s.Min != nil && s.Max != nil && s.Min.Float > s.Max.Float {
			return p.errTok(brace, "`min` (%s) is greater than `max` (%s).", rustDisplay(s.Min.Float), rustDisplay(s.Max.Float))
		}
		return nil
	}
	for _, t := range []*token{minTok, maxTok} {
		if t != nil && t.isFloat {
			return errAt(p.src, t.off, "%q is not a valid integer.", rustDebug(t.f))
		}
	}
	if minTok != nil {
		s.Min = &Bound{Int: minTok.i}
	}
	if maxTok != nil {
		s.Max = &Bound{Int: maxTok.i}
	}
	if s.Min != nil && s.Max != nil && s.Min.Int > s.Max.Int {
		return p.errTok(brace, "`min` (%d) is greater than `max` (%d).", s.Min.Int, s.Max.Int)
	}
	if _, count := s.Type.constrained(); count {
		if s.Min != nil && s.Min.Int < 0 {
			return errAt(p.src, minTok.off, "`min` is supposed to be a positive integer, but is %d", s.Min.Int)
		}
		if s.Max != nil && s.Max.Int < 0 {
			return errAt(p.src, maxTok.off, "`max` is supposed to be a positive integer, but is %d", s.Max.Int)
		}
	}
	return nil
}

// rustDisplay formats f as Rust's Display does: never an exponent.
func rustDisplay(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// rustDebug formats f as Rust's Debug does: "0.5", "5.0", "1e20", "1e-7".
func rustDebug(f float64) string {
	if a := math.Abs(f); a == 0 || a >= 1e-4 && a < 1e16 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsAny(s, ".") {
			s += ".0"
		}
		return s
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // "1.5e+20", "1e-07"
	i := strings.IndexByte(s, 'e')
	exp, _ := strconv.Atoi(s[i+1:])
	return fmt.Sprintf("%se%d", s[:i], exp)
}
