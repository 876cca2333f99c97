package dotprompt

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mbleigh/raymond"
)

// json is Dotprompt's json helper ({{json value indent=2}}) as its Go
// runtime has it (json.Marshal; with indent, MarshalIndent with that many
// spaces, none when it is negative; "" for a value that does not
// marshal; an indent that is not an integer fails the rendering), with
// two bounds the runtime's lacks. Each json of a json doubles its
// backslashes, so {{json (json (json ... x))}} writes 2^n bytes from a
// template of 7n, and an indent of a billion writes a billion spaces for
// each line (and the runtime builds the indent a space at a time): every
// output, those passed on to another helper included, counts against the
// rendering's MaxBytes (the bytes a template builds), reckoned before it
// is made.
func (b *budget) json(v any, options *raymond.Options) raymond.SafeString {
	limit := b.limit()
	// A string, what a json of a json is given, is reckoned before it is
	// marshalled (which would take twice its size again).
	if s, ok := v.(raymond.SafeString); ok {
		v = string(s)
	}
	if s, ok := v.(string); ok && jsonStringSize(s) > limit {
		panic(errBudget)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	size := int64(len(out))
	indent := options.HashProp("indent")
	if indent != nil {
		n, ok := indent.(int)
		if !ok {
			panic(fmt.Errorf("json: indent=%v is not an integer", indent))
		}
		size = indentedSize(out, max(n, 0), limit)
		if size <= limit {
			out, _ = json.MarshalIndent(v, "", strings.Repeat(" ", max(n, 0)))
		}
	}
	b.charge(size)
	return raymond.SafeString(out)
}

// indentedSize is the length of json.Indent(compact, "", indent spaces),
// worked out as encoding/json's indenter lays the text out, without
// making it; past limit it returns as soon as it knows.
func indentedSize(compact []byte, indent int, limit int64) int64 {
	n := int64(len(compact))
	depth := 0
	newline := func() {
		switch {
		case n > limit:
		case indent > 0 && int64(depth) > (limit-n)/int64(indent):
			n = limit + 1 // over, and depth*indent may overflow
		default:
			n += 1 + int64(depth)*int64(indent)
		}
	}
	open, inString, escaped := false, false, false
	for _, c := range compact {
		if n > limit {
			return n
		}
		if inString {
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if open && c != '}' && c != ']' {
			open = false
			depth++
			newline()
		}
		switch c {
		case '"':
			inString = true
		case '{', '[':
			open = true
		case ',':
			newline()
		case ':':
			n++
		case '}', ']':
			if open {
				open = false
			} else {
				depth--
				newline()
			}
		}
	}
	return n
}

// jsonStringSize is the length of json.Marshal(s): the quotes, and each
// byte as encoding/json escapes it (HTML's <, > and & too, as Marshal
// does; an invalid byte as \ufffd).
func jsonStringSize(s string) int64 {
	n := int64(2)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '\\' || c == '"' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
				n += 2
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				n += 6
			default:
				n++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += int64(size)
		}
		i += size
	}
	return n
}
