// Package jsonvalue holds the JSON-like values of the model (nil, bool,
// string, int64, float64, []any, map[string]any): decoding, encoding,
// checking and comparing them, as every format does.
package jsonvalue

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"

	"github.com/promptfmt/promptfmt/internal/values"
)

// Error is a problem Decode or Check found in JSON text, at
// byte Offset of it, so that a format can position it in its file. Error
// is the message alone.
type Error struct {
	Offset int
	Msg    string
	Hint   string // how to write it instead, when that helps
	Err    error  // encoding/json's error, for a syntax error
}

// Error returns the message, without the position (Offset holds it).
func (e *Error) Error() string { return e.Msg }

// Unwrap returns encoding/json's error, if any.
func (e *Error) Unwrap() error { return e.Err }

// Decode decodes one JSON value into the model's JSON-like values:
// integers that fit become int64 (-0 too, as 0: a PDL schema's integer
// may be written -0), other numbers float64 (plain
// encoding/json would make 30 a float64 and a template print "30.0").
// Text after the value is an error. So is a number too large for a
// float64 (1e400) and nesting deeper than values.MaxDepth: a *Error
// at the number or bracket, with the message and hint of internal/values,
// as every format gives them.
func Decode(data []byte) (any, error) {
	problem := checkValues(data)
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) && (problem == nil || int(se.Offset)-1 <= problem.Offset) {
			return nil, &Error{Offset: max(int(se.Offset)-1, 0), Msg: err.Error(), Err: err}
		}
		if problem != nil {
			return nil, problem
		}
		return nil, err
	}
	if problem != nil && problem.Offset < int(dec.InputOffset()) {
		return nil, problem
	}
	if dec.More() {
		return nil, errors.New("text after the JSON value")
	}
	return numbers(v), nil
}

// Check reports whether data is one JSON value that Decode reads:
// nil, or the error Decode returns.
func Check(data []byte) error {
	if !json.Valid(data) {
		_, err := Decode(data)
		if err == nil { // json.Valid and Decode disagree only on white space after the value
			err = errors.New("not a JSON value")
		}
		return err
	}
	if problem := checkValues(data); problem != nil {
		return problem
	}
	return nil
}

// checkValues finds the first bracket nested deeper than values.MaxDepth
// and the first number that is not finite as a float64, in one pass that
// reads JSON text (valid or not) without decoding it.
func checkValues(data []byte) *Error {
	depth := 0
	for i := 0; i < len(data); {
		switch c := data[i]; {
		case c == '"':
			for i++; i < len(data) && data[i] != '"'; i++ {
				if data[i] == '\\' {
					i++
				}
			}
			i++
		case c == '[' || c == '{':
			if depth++; depth > values.MaxDepth {
				return &Error{Offset: i, Msg: values.DepthMessage()}
			}
			i++
		case c == ']' || c == '}':
			depth--
			i++
		case c == '-' || c >= '0' && c <= '9':
			j, exp := i+1, false
			for ; j < len(data); j++ {
				d := data[j]
				if d == 'e' || d == 'E' {
					exp = true
				} else if d != '+' && d != '-' && d != '.' && (d < '0' || d > '9') {
					break
				}
			}
			// Only an exponent or over 308 digits makes a float64 overflow.
			if exp || j-i > 308 {
				if f, _ := strconv.ParseFloat(string(data[i:j]), 64); values.CheckFloat(f) != "" {
					return &Error{Offset: i, Msg: values.CheckFloat(f), Hint: values.NonFiniteHint}
				}
			}
			i = j
		default:
			i++
		}
	}
	return nil
}

func numbers(v any) any {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		f, _ := v.Float64()
		return f
	case map[string]any:
		for k, x := range v {
			v[k] = numbers(x)
		}
	case []any:
		for i, x := range v {
			v[i] = numbers(x)
		}
	}
	return v
}

// Encode is json.Marshal without HTML escaping: prompts are full of <,
// > and &, and "\u003e" in place of ">" helps nobody reading the output.
func Encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Write writes v to w as Encode encodes it, indented by two
// spaces a level, and a final newline: what json.Encoder with SetIndent
// writes. It streams the indentation rather than building the indented
// text, whose size grows with the square of the nesting depth (a value
// nested 1000 deep is a few kilobytes compact and megabytes indented), so
// that its memory stays linear in the compact size.
func Write(w io.Writer, v any) error {
	compact, err := Encode(v)
	if err != nil {
		return err
	}
	return Indent(w, compact)
}

// Indent writes compact, which must be compact JSON as Encode and Append
// write it, to w as Write does: indented by two spaces a level, with a
// final newline.
func Indent(w io.Writer, compact []byte) error {
	bw := bufio.NewWriter(w)
	depth, inString := 0, false
	newline := func(depth int) {
		bw.WriteByte('\n')
		for n := 2 * depth; n > 0; n -= len(spaces) {
			bw.WriteString(spaces[:min(n, len(spaces))])
		}
	}
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			bw.WriteByte(c)
			switch c {
			case '\\':
				i++
				bw.WriteByte(compact[i]) // Encode's text is valid: an escape has its character
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			bw.WriteByte(c)
		case '{', '[':
			bw.WriteByte(c)
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				i++
				bw.WriteByte(compact[i]) // {} and [] stay on one line
				continue
			}
			depth++
			newline(depth)
		case '}', ']':
			depth--
			newline(depth)
			bw.WriteByte(c)
		case ',':
			bw.WriteByte(c)
			newline(depth)
		case ':':
			bw.WriteString(": ")
		default:
			bw.WriteByte(c)
		}
	}
	bw.WriteByte('\n')
	return bw.Flush()
}

const spaces = "                                                                                                                                "

// Describe names the kind of a JSON-like value for a message: "null",
// "an array", "an object", "a string", "a boolean" or "a number" (any
// other Go type is named as such).
func Describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return "a number"
	}
	return fmt.Sprintf("a value of type %T", v)
}

// Equal reports whether two JSON-like values are equal: integers
// and floats differ, map key order does not matter, a nil map equals an
// empty one, and NaN equals itself (so a document holding NaN has the same
// value after a round trip).
func Equal(x, y any) bool {
	switch x := x.(type) {
	case float64:
		y, ok := y.(float64)
		return ok && (x == y || math.IsNaN(x) && math.IsNaN(y))
	case map[string]any:
		y, ok := y.(map[string]any)
		return ok && y != nil && equalMaps(x, y)
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Equal(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(x, y)
}

// NotJSONLike returns the path (".key[2]") of the first value in v that is
// not one of the model's JSON-like types (string, bool, ints, floats, nil,
// []any, map[string]any), or "" when there is none. Writers use it to
// refuse metadata they could not read back.
func NotJSONLike(v any) string {
	return notJSONLike(v, "")
}

func notJSONLike(v any, path string) string {
	switch v := v.(type) {
	case nil, string, bool, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		return ""
	case map[string]any:
		for _, k := range SortedKeys(v) {
			if p := notJSONLike(v[k], path+"."+k); p != "" {
				return p
			}
		}
		return ""
	case []any:
		for i, x := range v {
			if p := notJSONLike(x, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p
			}
		}
		return ""
	}
	if path == "" {
		return "."
	}
	return path
}

// SortedKeys returns m's keys in order.
func SortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !Equal(x, y) {
			return false
		}
	}
	return true
}
