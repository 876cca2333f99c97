package jsonvalue

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// Appender is a value that writes itself as JSON: Append calls it
// rather than reflecting on it (an object whose members keep their
// order, say).
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// Append appends v to b as compact JSON, as Encode would write it (no
// HTML escapes, map keys sorted, invalid UTF-8 as U+FFFD), without
// reflection for the model's JSON-like values, Appenders and
// json.RawMessage (appended as it is: the caller's text must be compact
// JSON); other types go through Encode. One difference, so that what it
// writes reads back (Decode) as the same values: a float64 that is a
// whole number keeps a fraction, 2.0 rather than Encode's 2, which reads
// back as the int64 2.
func Append(b []byte, v any) ([]byte, error) {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, v), nil
	case string:
		return AppendString(b, v), nil
	case int:
		return strconv.AppendInt(b, int64(v), 10), nil
	case int64:
		return strconv.AppendInt(b, v, 10), nil
	case float64:
		return appendFloat(b, v)
	case Appender:
		return v.AppendJSON(b)
	case json.RawMessage:
		if v == nil {
			return append(b, "null"...), nil
		}
		return append(b, v...), nil
	case []any:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			var err error
			if b, err = Append(b, x); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case []string:
		b = append(b, '[')
		for i, x := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendString(b, x)
		}
		return append(b, ']'), nil
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(AppendString(b, k), ':')
			var err error
			if b, err = Append(b, v[k]); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	out, err := Encode(v)
	if err != nil {
		return nil, err
	}
	return append(b, out...), nil
}

// AppendString appends s as a JSON string, as Encode writes it.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += n
			start = i
			continue
		}
		// U+2028 and U+2029 are escaped, as encoding/json escapes them
		// (JSONP: they end lines in JavaScript).
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += n
			start = i
			continue
		}
		i += n
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendFloat formats f as encoding/json does: like ES6's Number
// toString, the shortest text that reads back as f.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	start := len(b)
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'f' && bytes.IndexByte(b[start:], '.') < 0 {
		b = append(b, ".0"...)
	}
	if format == 'e' {
		// clean up e-09 to e-9
		n := len(b) - start
		if n >= 4 && b[len(b)-4] == 'e' && b[len(b)-3] == '-' && b[len(b)-2] == '0' {
			b[len(b)-2] = b[len(b)-1]
			b = b[:len(b)-1]
		}
	}
	return b, nil
}
