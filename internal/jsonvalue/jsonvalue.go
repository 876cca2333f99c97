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
	"iter"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

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
	x := NewIndenter(w)
	x.Write(compact)
	return x.Close()
}

// Indent writes compact, which must be compact JSON as Encode and Append
// write it, to w as Write does: indented by two spaces a level, with a
// final newline.
func Indent(w io.Writer, compact []byte) error {
	x := NewIndenter(w)
	x.Write(compact)
	return x.Close()
}

// WriteList writes what Write writes for shell with list as the value of
// its top-level key (or for list itself, when key is ""), encoding one
// element at a time: the memory it takes is that of shell and of the
// largest element, not of the whole text (a 256 MB conversation is not
// held a second time as JSON). shell must encode as an object whose key
// holds an empty array.
func WriteList[T any](w io.Writer, shell any, key string, list iter.Seq[T]) error {
	if key == "" {
		x := NewIndenter(w)
		x.Write([]byte("["))
		if err := encodeEach(x, list); err != nil {
			return err
		}
		x.Write([]byte("]"))
		return x.Close()
	}
	return WriteLists(w, shell, []string{key}, []iter.Seq[T]{list})
}

// WriteLists is WriteList for several lists: lists[i] goes where shell
// holds an empty array under keys[i], a path of keys separated by dots
// ("document.messages": the key messages of the object under the
// top-level key document).
func WriteLists[T any](w io.Writer, shell any, keys []string, lists []iter.Seq[T]) error {
	compact, err := Encode(shell)
	if err != nil {
		return err
	}
	type splice struct {
		at   int
		list iter.Seq[T]
	}
	splices := make([]splice, len(keys))
	for i, key := range keys {
		at := 0
		for k := range strings.SplitSeq(key, ".") {
			off := topLevelKey(compact[at:], k)
			if off < 0 {
				at = -1
				break
			}
			at += off
		}
		if at < 0 || !bytes.HasPrefix(compact[at:], []byte("[]")) {
			return fmt.Errorf("jsonvalue.WriteLists: no empty array under the key %q", key)
		}
		splices[i] = splice{at + 1, lists[i]}
	}
	slices.SortFunc(splices, func(a, b splice) int { return a.at - b.at })
	x := NewIndenter(w)
	last := 0
	for _, s := range splices {
		x.Write(compact[last:s.at])
		if err := encodeEach(x, s.list); err != nil {
			return err
		}
		last = s.at
	}
	x.Write(compact[last:])
	return x.Close()
}

// Pieces is a value that gives its compact JSON text, as Encode encodes
// it, in pieces: one too large to be held encoded (a message of a
// quarter of a gigabyte). WriteList and WriteLists write an element of
// their lists that is Pieces a piece at a time.
type Pieces interface {
	JSONPieces(yield func(piece []byte)) error
}

// StringPieces gives the compact JSON text of the string s, as Encode
// encodes it, in pieces of about size bytes of s: the pieces are cut
// before a byte that starts a UTF-8 sequence (or is not in one), where
// encoding one piece after another is encoding the whole.
func StringPieces(s string, size int, yield func(piece []byte)) error {
	yield([]byte{'"'})
	for i := 0; i < len(s); {
		j := min(i+size, len(s))
		for j < len(s) && s[j]&0xc0 == 0x80 {
			j++
		}
		enc, err := Encode(s[i:j])
		if err != nil {
			return err
		}
		yield(enc[1 : len(enc)-1])
		i = j
	}
	yield([]byte{'"'})
	return nil
}

// encodeEach writes list's elements to x, separated by commas.
func encodeEach[T any](x *Indenter, list iter.Seq[T]) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	first := true
	for e := range list {
		if p, ok := any(e).(Pieces); ok {
			if !first {
				x.Write([]byte{','})
			}
			first = false
			if err := p.JSONPieces(x.Write); err != nil {
				return err
			}
			continue
		}
		buf.Reset()
		if !first {
			buf.WriteByte(',')
		}
		first = false
		if err := enc.Encode(e); err != nil {
			return err
		}
		x.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	}
	return nil
}

// topLevelKey returns the offset of the value of key in the compact JSON
// object text that compact starts with, or -1 when the object has no such
// key: a key of a nested object, or text inside a string, does not count.
func topLevelKey(compact []byte, key string) int {
	quoted, err := Encode(key)
	if err != nil {
		return -1
	}
	depth := 0
	for i := 0; i < len(compact); i++ {
		switch c := compact[i]; c {
		case '"':
			if depth == 1 && (compact[i-1] == '{' || compact[i-1] == ',') && bytes.HasPrefix(compact[i:], quoted) &&
				len(compact) > i+len(quoted) && compact[i+len(quoted)] == ':' {
				return i + len(quoted) + 1
			}
			for i++; i < len(compact) && compact[i] != '"'; i++ {
				if compact[i] == '\\' {
					i++
				}
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return -1 // the end of the object
			}
		}
	}
	return -1
}

// Indenter indents compact JSON text (Encode's) given to it in pieces, as
// Write does, so that a large value can be encoded and printed a part at
// a time. Close ends the text.
type Indenter struct {
	bw       *bufio.Writer
	depth    int
	inString bool
	escape   bool // the last piece ended with the '\\' of an escape
	open     byte // the last piece ended with this '{' or '[' (0: it did not)
}

// NewIndenter returns an Indenter writing to w.
func NewIndenter(w io.Writer) *Indenter { return &Indenter{bw: bufio.NewWriter(w)} }

func (x *Indenter) newline() {
	x.bw.WriteByte('\n')
	for n := 2 * x.depth; n > 0; n -= len(spaces) {
		x.bw.WriteString(spaces[:min(n, len(spaces))])
	}
}

// Write indents the next piece of compact text. Errors of the writer
// are returned by Close.
func (x *Indenter) Write(compact []byte) {
	i := 0
	if x.open != 0 && len(compact) > 0 {
		if c := compact[0]; c == '}' || c == ']' {
			x.bw.WriteByte(c) // {} and [] stay on one line
			i++
		} else {
			x.depth++
			x.newline()
		}
		x.open = 0
	}
	if x.escape && len(compact) > 0 {
		x.bw.WriteByte(compact[0])
		x.escape = false
		i++
	}
	for ; i < len(compact); i++ {
		c := compact[i]
		if x.inString {
			// Copy up to the next quote or escape in one go: most of the
			// text is string contents.
			j := i
			for j < len(compact) && compact[j] != '"' && compact[j] != '\\' {
				j++
			}
			x.bw.Write(compact[i:j])
			if i = j; i == len(compact) {
				break
			}
			c = compact[i]
			x.bw.WriteByte(c)
			if c == '"' {
				x.inString = false
			} else if i+1 < len(compact) {
				i++
				x.bw.WriteByte(compact[i]) // Encode's text is valid: an escape has its character
			} else {
				x.escape = true
			}
			continue
		}
		switch c {
		case '"':
			x.inString = true
			x.bw.WriteByte(c)
		case '{', '[':
			x.bw.WriteByte(c)
			if i+1 == len(compact) {
				x.open = c
				continue
			}
			if compact[i+1] == '}' || compact[i+1] == ']' {
				i++
				x.bw.WriteByte(compact[i]) // {} and [] stay on one line
				continue
			}
			x.depth++
			x.newline()
		case '}', ']':
			x.depth--
			x.newline()
			x.bw.WriteByte(c)
		case ',':
			x.bw.WriteByte(c)
			x.newline()
		case ':':
			x.bw.WriteString(": ")
		default:
			x.bw.WriteByte(c)
		}
	}
}

// Close ends the text with a newline and flushes it.
func (x *Indenter) Close() error {
	if x.open != 0 { // a piece ended with an opening bracket nothing followed
		x.depth++
		x.newline()
		x.open = 0
	}
	x.bw.WriteByte('\n')
	return x.bw.Flush()
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
