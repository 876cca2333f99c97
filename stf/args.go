package stf

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/json5"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// arg is one command argument: a key=value pair, whose value is a string,
// or a member of a JSON5 object, whose value is any JSON-like value.
type arg struct {
	key  string
	str  string // the value of a key=value pair
	val  any    // the value of a JSON5 member
	json bool   // from the JSON5 form
	off  int    // source offset of the key, or of the JSON5 object
}

// text returns the value when it is a string.
func (a arg) text() (string, bool) {
	if !a.json {
		return a.str, true
	}
	s, ok := a.val.(string)
	return s, ok
}

// value returns the value as a JSON-like value.
func (a arg) value() any {
	if !a.json {
		return a.str
	}
	return a.val
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

func isKeyStart(c byte) bool { return c >= 'a' && c <= 'z' }

func isKeyByte(c byte) bool { return isKeyStart(c) || c >= '0' && c <= '9' || c == '_' }

// isKey reports whether k can be written as a key=value key.
func isKey(k string) bool {
	if k == "" || !isKeyStart(k[0]) {
		return false
	}
	for i := 1; i < len(k); i++ {
		if !isKeyByte(k[i]) {
			return false
		}
	}
	return true
}

// parseArgs reads the argument text s of a command line; s starts at byte
// offset off of the source and has no line break.
func (p *parser) parseArgs(s string, off int) ([]arg, error) {
	i := 0
	for i < len(s) && isBlank(s[i]) {
		i++
	}
	if i == len(s) {
		return nil, nil
	}
	if s[i] == '{' || s[i] == '[' {
		return p.jsonArgs(s[i:], off+i)
	}
	args := p.args[:0] // reused: arguments do not outlive their command
	defer func() { p.args = args[:0] }()
	var seen map[string]bool
	for i < len(s) {
		ks := i
		switch c := s[i]; {
		case c == '{':
			return nil, p.errAt(off+i, "cannot mix key=value and JSON5 arguments on one line")
		case c == '=':
			return nil, p.errAt(off+i, "missing argument key before '='")
		case !isKeyStart(c):
			return nil, p.errAt(off+i, "argument key must start with a lowercase letter a-z, not %s", quoteByte(s, i))
		}
		for i < len(s) && isKeyByte(s[i]) {
			i++
		}
		key := s[ks:i]
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		if i == len(s) || s[i] != '=' {
			if i < len(s) && !isBlank(s[i]) && s[i-1] != ' ' && s[i-1] != '\t' {
				return nil, p.errAt(off+i, "argument key %q is followed by %s: keys are [a-z][a-z0-9_]*, then '='", key, quoteByte(s, i))
			}
			return nil, p.errAt(off+ks, "argument %q has no value: write %s=VALUE", key, key)
		}
		i++
		for i < len(s) && isBlank(s[i]) {
			i++
		}
		if i == len(s) {
			return nil, p.errAt(off+ks, "argument %q has an empty value: write %s=\"\" for an empty string", key, key)
		}
		var val string
		if q := s[i]; q == '"' || q == '\'' {
			j := i + 1
			for j < len(s) && s[j] != q {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return nil, p.errAt(off+i, "unterminated quoted value of %q (a quoted value must end on its line)", key)
			}
			v, err := json5.ParseString(s[i : j+1])
			if err != nil {
				return nil, p.jsonErr(err, off+i, "value of "+key)
			}
			val, i = v, j+1
		} else {
			j := i
			for j < len(s) && !isBlank(s[j]) {
				j++
			}
			val = s[i:j]
			if c := val[len(val)-1]; c == '"' || c == '\'' {
				return nil, p.errAt(off+j-1, "unquoted value of %q ends with a quote: quote the whole value", key)
			}
			i = j
		}
		if seen[key] || seen == nil && slices.ContainsFunc(args, func(a arg) bool { return a.key == key }) {
			return nil, p.errAt(off+ks, "duplicate argument %q", key)
		}
		args = append(args, arg{key: key, str: val, off: off + ks})
		if seen != nil {
			seen[key] = true
		} else if len(args) > 8 { // many arguments: a map keeps the check linear
			seen = map[string]bool{}
			for _, a := range args {
				seen[a.key] = true
			}
		}
		for i < len(s) && isBlank(s[i]) {
			i++
		}
	}
	return args, nil
}

// jsonArgs reads the JSON5 form of the arguments: one object literal.
func (p *parser) jsonArgs(s string, off int) ([]arg, error) {
	v, err := json5.Parse(s)
	if err != nil {
		return nil, p.jsonErr(err, off, "JSON5 arguments")
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.errAt(off, "JSON5 arguments must be an object, not %s", jsonvalue.Describe(v))
	}
	args := make([]arg, 0, len(m))
	for k, v := range m {
		args = append(args, arg{key: k, val: v, json: true, off: off})
	}
	slices.SortFunc(args, func(a, b arg) int { return strings.Compare(a.key, b.key) })
	return args, nil
}

// jsonErr positions a JSON5 syntax error found in text starting at off.
func (p *parser) jsonErr(err error, off int, what string) error {
	var se *json5.SyntaxError
	if errors.As(err, &se) {
		return p.hintAt(off+se.Offset, se.Hint, "%s: %s", what, se.Msg)
	}
	return p.errAt(off, "%s: %v", what, err)
}

// quoteByte names the character at s[i] for an error message.
func quoteByte(s string, i int) string {
	if i >= len(s) {
		return "the end of the line"
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return strconv.QuoteRune(r)
}
