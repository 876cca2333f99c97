package promptfmt

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// DecodeJSON decodes one JSON value into the model's JSON-like values:
// integers that fit become int64, other numbers float64 (plain
// encoding/json would make 30 a float64 and a template print "30.0").
// Text after the value is an error.
func DecodeJSON(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, errors.New("text after the JSON value")
	}
	return numbers(v), nil
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

// EncodeJSON is json.Marshal without HTML escaping: prompts are full of <,
// > and &, and "\u003e" in place of ">" helps nobody reading the output.
func EncodeJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// DescribeValue names the kind of a JSON-like value for a message: "null",
// "an array", "an object", "a string", "a boolean" or "a number" (any
// other Go type is named as such).
func DescribeValue(v any) string {
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
