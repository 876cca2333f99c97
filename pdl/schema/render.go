package schema

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Render formats a value Extract returned for printing, as upstream's
// render_pdl_schema: a code or tasklist value is its raw text, a yesno
// value is "yes" or "no", anything else is JSON pretty-printed with a
// 2-space indent, written as serde_json writes it (keys sorted, no HTML
// escaping, floats as "1.0", "1e20" and "1.5e-7"). A nil schema renders
// every value as JSON. Values that are not JSON-like are marshalled with
// encoding/json first; a value it cannot marshal is written as the JSON
// string of its fmt form.
func Render(s *Schema, v any) string {
	if s != nil {
		switch x := v.(type) {
		case string:
			if s.Type == TypeCode || s.Type == TypeTaskList {
				return x
			}
		case bool:
			if s.Type == TypeYesNo {
				if x {
					return "yes"
				}
				return "no"
			}
		}
	}
	var b strings.Builder
	writeJSON(&b, v, 0)
	return b.String()
}

func indent(b *strings.Builder, n int) {
	b.WriteByte('\n')
	for range n {
		b.WriteString("  ")
	}
}

// writeJSON writes v pretty-printed at indent level n.
func writeJSON(b *strings.Builder, v any, n int) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case string:
		writeString(b, v)
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case int:
		b.WriteString(strconv.Itoa(v))
	case float64:
		writeFloat(b, v)
	case []any:
		if len(v) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, x := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(b, n+1)
			writeJSON(b, x, n+1)
		}
		indent(b, n)
		b.WriteByte(']')
	case map[string]any:
		if len(v) == 0 {
			b.WriteString("{}")
			return
		}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			indent(b, n+1)
			writeString(b, k)
			b.WriteString(": ")
			writeJSON(b, v[k], n+1)
		}
		indent(b, n)
		b.WriteByte('}')
	default:
		// jsonvalue.Decode returns JSON-like values only, so this cannot loop.
		if data, err := json.Marshal(v); err == nil {
			if x, err := jsonvalue.Decode(data); err == nil {
				writeJSON(b, x, n)
				return
			}
		}
		writeString(b, fmt.Sprint(v))
	}
}

// writeString writes s as a JSON string the way serde_json does: only ",
// \ and control characters are escaped.
func writeString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString("\ufffd")
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		}
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			if c < 0x20 {
				b.WriteString(`\u00`)
				b.WriteByte(hex[c>>4])
				b.WriteByte(hex[c&0xf])
			} else {
				b.WriteByte(c)
			}
		}
		i++
	}
	b.WriteByte('"')
}

// writeFloat writes f as serde_json does (the ryu crate's format): the
// shortest digits that read back to f, in plain notation with ".0" for
// integral values when the decimal exponent is small, else in exponent
// notation ("1e20", "1.5e-7"). NaN and infinities are null.
func writeFloat(b *strings.Builder, f float64) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		b.WriteString("null")
		return
	}
	if f == 0 {
		if math.Signbit(f) {
			b.WriteByte('-')
		}
		b.WriteString("0.0")
		return
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // "-1.2345e+06"
	if e[0] == '-' {
		b.WriteByte('-')
		e = e[1:]
	}
	at := strings.IndexByte(e, 'e')
	exp, _ := strconv.Atoi(e[at+1:])
	digits := strings.Replace(e[:at], ".", "", 1)
	length := len(digits)
	kk := exp + 1 // 10^(kk-1) <= f < 10^kk
	k := kk - length
	switch {
	case 0 <= k && kk <= 16: // 1234e7 -> 12340000000.0
		b.WriteString(digits)
		b.WriteString(strings.Repeat("0", k))
		b.WriteString(".0")
	case 0 < kk && kk <= 16: // 1234e-2 -> 12.34
		b.WriteString(digits[:kk])
		b.WriteByte('.')
		b.WriteString(digits[kk:])
	case -5 < kk && kk <= 0: // 1234e-6 -> 0.001234
		b.WriteString("0.")
		b.WriteString(strings.Repeat("0", -kk))
		b.WriteString(digits)
	case length == 1: // 1e30
		b.WriteString(digits)
		b.WriteByte('e')
		b.WriteString(strconv.Itoa(kk - 1))
	default: // 1234e30 -> 1.234e33
		b.WriteString(digits[:1])
		b.WriteByte('.')
		b.WriteString(digits[1:])
		b.WriteByte('e')
		b.WriteString(strconv.Itoa(kk - 1))
	}
}
