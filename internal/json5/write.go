package json5

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/values"
)

// Append appends v to dst as JSON5 in the style of JavaScript's
// JSON5.stringify(v, null, 2): two-space indents, identifier keys unquoted,
// strings in single quotes unless they hold more of those than of double
// quotes, a comma after every member. Object keys are sorted, so the output
// is deterministic. An int64 is written as an integer and a float64 always
// with a '.' or an exponent (2.0, 1e+21, -0.0), so that Parse gives back
// the same Go types; NaN and ±Inf are errors, as Parse refuses them. Other Go integers and floats are accepted;
// anything else, and strings that are not UTF-8, are errors.
func Append(dst []byte, v any) ([]byte, error) {
	return appendValue(dst, v, 0)
}

// AppendIndent is Append for a value nested depth levels deep: its inner
// lines are indented depth levels more.
func AppendIndent(dst []byte, v any, depth int) ([]byte, error) {
	return appendValue(dst, v, depth)
}

func appendValue(dst []byte, v any, depth int) ([]byte, error) {
	if depth > MaxDepth {
		return dst, errors.New(values.DepthMessage())
	}
	switch v := v.(type) {
	case nil:
		return append(dst, "null"...), nil
	case bool:
		return strconv.AppendBool(dst, v), nil
	case string:
		if !utf8.ValidString(v) {
			return dst, fmt.Errorf("string %q is not valid UTF-8", v)
		}
		return AppendString(dst, v), nil
	case int64:
		return strconv.AppendInt(dst, v, 10), nil
	case int:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int8:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int16:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case int32:
		return strconv.AppendInt(dst, int64(v), 10), nil
	case uint:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint8:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint16:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint32:
		return strconv.AppendUint(dst, uint64(v), 10), nil
	case uint64:
		return strconv.AppendUint(dst, v, 10), nil
	case float32:
		return appendValue(dst, float64(v), depth)
	case float64:
		if msg := values.CheckFloat(v); msg != "" {
			return dst, errors.New(msg) // Parse would refuse it
		}
		return AppendFloat(dst, v), nil
	case []any:
		if len(v) == 0 {
			return append(dst, "[]"...), nil
		}
		dst = append(dst, "[\n"...)
		for _, x := range v {
			dst = indent(dst, depth+1)
			var err error
			if dst, err = appendValue(dst, x, depth+1); err != nil {
				return dst, err
			}
			dst = append(dst, ",\n"...)
		}
		return append(indent(dst, depth), ']'), nil
	case map[string]any:
		if len(v) == 0 {
			return append(dst, "{}"...), nil
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		dst = append(dst, "{\n"...)
		for _, k := range keys {
			if !utf8.ValidString(k) {
				return dst, fmt.Errorf("key %q is not valid UTF-8", k)
			}
			dst = AppendKey(indent(dst, depth+1), k)
			dst = append(dst, ": "...)
			var err error
			if dst, err = appendValue(dst, v[k], depth+1); err != nil {
				return dst, err
			}
			dst = append(dst, ",\n"...)
		}
		return append(indent(dst, depth), '}'), nil
	}
	return dst, fmt.Errorf("a %T is not a JSON-like value", v)
}

func indent(dst []byte, depth int) []byte {
	for range depth {
		dst = append(dst, "  "...)
	}
	return dst
}

// AppendKey appends k as an object key: bare when it is an identifier.
func AppendKey(dst []byte, k string) []byte {
	if IsIdentifier(k) {
		return append(dst, k...)
	}
	return AppendString(dst, k)
}

// IsIdentifier reports whether s can be written as an unquoted key.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		if i == 0 && !isIDStart(r) || !isIDPart(r) {
			return false
		}
	}
	switch s { // reserved words are keys only when quoted, for old parsers
	case "true", "false", "null", "Infinity", "NaN":
		return false
	}
	return true
}

// AppendFloat appends f so that it reads back as a float64: with a '.' or
// an exponent, or as NaN, Infinity or -Infinity.
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	start := len(dst)
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		dst = strconv.AppendFloat(dst, f, 'e', -1, 64)
	} else {
		dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	}
	for _, c := range dst[start:] {
		if c == '.' || c == 'e' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

// AppendString appends s as a JSON5 string literal, quoted as
// JSON5.stringify does.
func AppendString(dst []byte, s string) []byte {
	singles, doubles := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\'':
			singles++
		case '"':
			doubles++
		}
	}
	if singles > doubles {
		return appendQuoted(dst, s, '"', true)
	}
	return appendQuoted(dst, s, '\'', true)
}

// AppendJSONString appends s as JSON.stringify writes it: double quotes,
// JSON escapes only (also valid JSON5).
func AppendJSONString(dst []byte, s string) []byte {
	return appendQuoted(dst, s, '"', false)
}

func appendQuoted(dst []byte, s string, q byte, json5 bool) []byte {
	dst = append(dst, q)
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var esc string
		switch {
		case c == q:
			esc = `\` + string(q)
		case c == '\\':
			esc = `\\`
		case c == '\n':
			esc = `\n`
		case c == '\r':
			esc = `\r`
		case c == '\t':
			esc = `\t`
		case c == '\b':
			esc = `\b`
		case c == '\f':
			esc = `\f`
		case c < 0x20 && json5:
			switch {
			case c == '\v':
				esc = `\v`
			case c == 0 && (i+1 == len(s) || s[i+1] < '0' || s[i+1] > '9'):
				esc = `\0`
			default:
				esc = fmt.Sprintf(`\x%02x`, c)
			}
		case c < 0x20:
			esc = fmt.Sprintf(`\u%04x`, c)
		case c == 0xE2 && json5 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9):
			// U+2028 and U+2029 end lines in JavaScript source.
			esc = fmt.Sprintf(`\u%04x`, 0x2000|rune(s[i+2]-0x80))
			dst = append(append(dst, s[start:i]...), esc...)
			i += 2
			start = i + 1
			continue
		default:
			continue
		}
		dst = append(append(dst, s[start:i]...), esc...)
		start = i + 1
	}
	return append(append(dst, s[start:]...), q)
}
