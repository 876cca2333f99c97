package promptfmt

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/values"
)

// DecodeJSON applies the model's one rule for numbers and nesting
// (internal/values), at the number or bracket, as every format does.
func TestDecodeJSONRefuses(t *testing.T) {
	deep := strings.Repeat("[", values.MaxDepth+1) + strings.Repeat("]", values.MaxDepth+1)
	for _, tt := range []struct {
		in, msg, hint string
		off           int
	}{
		{`{"a": 1e400}`, values.CheckFloat(math.Inf(1)), values.NonFiniteHint, 6},
		{`[1, "1e400", -2.5E+999]`, values.CheckFloat(math.Inf(-1)), values.NonFiniteHint, 13},
		{"1" + strings.Repeat("0", 400), values.CheckFloat(math.Inf(1)), values.NonFiniteHint, 0},
		{`{"x": ` + deep + `}`, values.DepthMessage(), "", 6 + values.MaxDepth - 1},
		{strings.Repeat(`{"a":`, 20000), values.DepthMessage(), "", 5 * values.MaxDepth},
		{`{"a": NaN}`, "invalid character 'N' looking for beginning of value", "", 6},
		{`[1, 1e400 x]`, values.CheckFloat(math.Inf(1)), values.NonFiniteHint, 4},
		{`[1, x, 1e400]`, "invalid character 'x' looking for beginning of value", "", 4},
	} {
		for _, f := range []func([]byte) error{
			func(b []byte) error { _, err := DecodeJSON(b); return err },
			CheckJSON,
		} {
			err := f([]byte(tt.in))
			var je *JSONError
			if !errors.As(err, &je) {
				t.Errorf("%.40q: %v (%T)", tt.in, err, err)
				continue
			}
			if je.Msg != tt.msg || je.Hint != tt.hint || je.Offset != tt.off {
				t.Errorf("%.40q: %d %q %q, want %d %q %q", tt.in, je.Offset, je.Msg, je.Hint, tt.off, tt.msg, tt.hint)
			}
		}
	}
	v, err := DecodeJSON([]byte(`{"a": [-0, 0, 7, 1.5, -0.0, 1e-400, "x\"["], "b": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := v.(map[string]any)["a"].([]any)
	if a[0] != int64(0) || a[1] != int64(0) || a[2] != int64(7) || a[3] != 1.5 || !math.Signbit(a[4].(float64)) || a[5] != 0.0 || a[6] != `x"[` {
		t.Errorf("got %#v", a)
	}
	if _, err := DecodeJSON([]byte(strings.Repeat("[", values.MaxDepth) + strings.Repeat("]", values.MaxDepth))); err != nil {
		t.Errorf("MaxDepth levels: %v", err)
	}
	if err := CheckJSON([]byte(`{"a": [1, 2e300]}`)); err != nil {
		t.Error(err)
	}
	if _, err := DecodeJSON([]byte(`1 2`)); err == nil || err.Error() != "text after the JSON value" {
		t.Errorf("text after: %v", err)
	}
}

// WriteJSON writes what json.Encoder with a two-space indent writes.
func TestWriteJSON(t *testing.T) {
	for _, v := range []any{
		nil, 1, "a\"\\{[,:]}", []any{}, map[string]any{},
		map[string]any{"b": []any{int64(1), "x,y", map[string]any{}, []any{[]any{}}, nil, true}, "a": map[string]any{"c": "<&>"}, "\"k:": 1.5},
		&Document{Meta: map[string]any{"m": []any{"\\\""}}, Messages: []Message{{Role: "user", Content: []ContentPart{Text("hi {x}")}}}},
	} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&got, v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("WriteJSON(%#v) =\n%s\nwant\n%s", v, got.String(), want.String())
		}
	}
	if err := WriteJSON(io.Discard, math.NaN()); err == nil {
		t.Error("NaN encoded")
	}
}

func FuzzWriteJSON(f *testing.F) {
	f.Add([]byte(`{"a": [1, {}, [], "x\"\\", {"b": null}], "c": "\u2028<>"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := DecodeJSON(data)
		if err != nil {
			return
		}
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if err := WriteJSON(&got, v); err != nil || got.String() != want.String() {
			t.Fatalf("WriteJSON(%q) = %q, %v; want %q", data, got.String(), err, want.String())
		}
	})
}
