package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"iter"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/values"
)

// Decode applies the model's one rule for numbers and nesting
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
			func(b []byte) error { _, err := Decode(b); return err },
			Check,
		} {
			err := f([]byte(tt.in))
			var je *Error
			if !errors.As(err, &je) {
				t.Errorf("%.40q: %v (%T)", tt.in, err, err)
				continue
			}
			if je.Msg != tt.msg || je.Hint != tt.hint || je.Offset != tt.off {
				t.Errorf("%.40q: %d %q %q, want %d %q %q", tt.in, je.Offset, je.Msg, je.Hint, tt.off, tt.msg, tt.hint)
			}
		}
	}
	v, err := Decode([]byte(`{"a": [-0, 0, 7, 1.5, -0.0, 1e-400, "x\"["], "b": {}}`))
	if err != nil {
		t.Fatal(err)
	}
	a := v.(map[string]any)["a"].([]any)
	if a[0] != int64(0) || a[1] != int64(0) || a[2] != int64(7) || a[3] != 1.5 || !math.Signbit(a[4].(float64)) || a[5] != 0.0 || a[6] != `x"[` {
		t.Errorf("got %#v", a)
	}
	if _, err := Decode([]byte(strings.Repeat("[", values.MaxDepth) + strings.Repeat("]", values.MaxDepth))); err != nil {
		t.Errorf("MaxDepth levels: %v", err)
	}
	if err := Check([]byte(`{"a": [1, 2e300]}`)); err != nil {
		t.Error(err)
	}
	if _, err := Decode([]byte(`1 2`)); err == nil || err.Error() != "text after the JSON value" {
		t.Errorf("text after: %v", err)
	}
}

// Write writes what json.Encoder with a two-space indent writes.
func TestWriteJSON(t *testing.T) {
	for _, v := range []any{
		nil, 1, "a\"\\{[,:]}", []any{}, map[string]any{},
		map[string]any{"b": []any{int64(1), "x,y", map[string]any{}, []any{[]any{}}, nil, true}, "a": map[string]any{"c": "<&>"}, "\"k:": 1.5},
		struct {
			Meta     map[string]any `json:"meta"`
			Messages []any          `json:"messages,omitempty"`
		}{map[string]any{"m": []any{"\\\""}}, []any{map[string]any{"role": "user", "content": "hi {x}"}}},
	} {
		var want, got bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if err := Write(&got, v); err != nil {
			t.Fatal(err)
		}
		if got.String() != want.String() {
			t.Errorf("Write(%#v) =\n%s\nwant\n%s", v, got.String(), want.String())
		}
	}
	if err := Write(io.Discard, math.NaN()); err == nil {
		t.Error("NaN encoded")
	}
}

func FuzzWriteJSON(f *testing.F) {
	f.Add([]byte(`{"a": [1, {}, [], "x\"\\", {"b": null}], "c": "\u2028<>"}`))
	f.Add([]byte(`[{"role": "user", "content": [{"kind": "text", "value": "a\\b\"c"}]}, [], {}, "\\"]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := Decode(data)
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
		if err := Write(&got, v); err != nil || got.String() != want.String() {
			t.Fatalf("Write(%q) = %q, %v; want %q", data, got.String(), err, want.String())
		}
		// In pieces of any size, the Indenter writes the same.
		compact, _ := Encode(v)
		for _, size := range []int{1, 2, 3, len(data)%7 + 1} {
			if got := indentPieces(compact, size); got != want.String() {
				t.Fatalf("pieces of %d of %q: %q; want %q", size, compact, got, want.String())
			}
		}
		// A list under a key, element by element, is the whole written.
		if list, ok := v.([]any); ok {
			got.Reset()
			if err := WriteList(&got, nil, "", slices.Values(list)); err != nil || got.String() != want.String() {
				t.Fatalf("WriteList(%q) = %q, %v; want %q", data, got.String(), err, want.String())
			}
			shell := map[string]any{"z": []any{}, "a": list, "m": map[string]any{"z": list}}
			whole := map[string]any{"z": list, "a": list, "m": map[string]any{"z": list}}
			want.Reset()
			got.Reset()
			if err := Write(&want, whole); err != nil {
				t.Fatal(err)
			}
			if err := WriteList(&got, shell, "z", slices.Values(list)); err != nil || got.String() != want.String() {
				t.Fatalf("WriteList under a key (%q) = %q, %v; want %q", data, got.String(), err, want.String())
			}
		}
	})
}

// indentPieces indents compact text given to an Indenter in pieces of
// size bytes.
func indentPieces(compact []byte, size int) string {
	var b bytes.Buffer
	x := NewIndenter(&b)
	for len(compact) > 0 {
		n := min(size, len(compact))
		x.Write(compact[:n])
		compact = compact[n:]
	}
	x.Close()
	return b.String()
}

// WriteList finds its key at the top level only, not in a nested object
// or a string, and refuses a shell without the empty array.
func TestWriteList(t *testing.T) {
	list := []string{"a", `"z":[]`}
	shell := map[string]any{"a": map[string]any{"z": []any{}}, "b": `,"z":[]`, "z": []any{}}
	var got, want bytes.Buffer
	if err := WriteList(&got, shell, "z", slices.Values(list)); err != nil {
		t.Fatal(err)
	}
	if err := Write(&want, map[string]any{"a": map[string]any{"z": []any{}}, "b": `,"z":[]`, "z": list}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteList = %s\nwant %s", got.String(), want.String())
	}
	// Two lists, one in a nested object, the other at the top level
	// after it: each goes where its path says, not under a later key of
	// the same name.
	shell2 := map[string]any{"d": map[string]any{"m": []any{}, "n": 1}, "e": map[string]any{"m": "x"}, "m": []any{}}
	got.Reset()
	want.Reset()
	if err := WriteLists(&got, shell2, []string{"m", "d.m"}, []iter.Seq[string]{slices.Values(list), slices.Values(list[:1])}); err != nil {
		t.Fatal(err)
	}
	if err := Write(&want, map[string]any{"d": map[string]any{"m": list[:1], "n": 1}, "e": map[string]any{"m": "x"}, "m": list}); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("WriteLists = %s\nwant %s", got.String(), want.String())
	}
	if err := WriteLists(io.Discard, shell2, []string{"e.m"}, []iter.Seq[string]{slices.Values(list)}); err == nil {
		t.Error("WriteLists took a string for an empty array")
	}
	if err := WriteLists(io.Discard, map[string]any{"d": map[string]any{}, "e": map[string]any{"m": []any{}}}, []string{"d.m"}, []iter.Seq[string]{slices.Values(list)}); err == nil {
		t.Error("WriteLists found d.m in a later object")
	}
	for _, bad := range []any{map[string]any{"y": []any{}}, map[string]any{"z": []any{1}}, map[string]any{"a": map[string]any{"z": []any{}}}} {
		if err := WriteList(io.Discard, bad, "z", slices.Values(list)); err == nil {
			t.Errorf("WriteList(%v) took a shell without an empty top-level array", bad)
		}
	}
}

func TestNotJSONLike(t *testing.T) {
	ok := map[string]any{"a": []any{1, int64(2), 1.5, "s", true, nil, map[string]any{"b": uint8(1)}}}
	if p := NotJSONLike(ok); p != "" {
		t.Errorf("NotJSONLike(ok) = %q", p)
	}
	bad := map[string]any{"a": []any{1, map[string]any{"z": 1, "b": struct{}{}}}}
	if p := NotJSONLike(bad); p != ".a[1].b" {
		t.Errorf("NotJSONLike(bad) = %q", p)
	}
	if p := NotJSONLike(func() {}); p != "." {
		t.Errorf("NotJSONLike(func) = %q", p)
	}
}

// StringPieces, joined, is Encode of the whole string, whatever the cuts:
// escapes, multi-byte characters and invalid UTF-8 across them.
func TestStringPieces(t *testing.T) {
	for _, s := range []string{"", "plain", "a\"b\\c\n\x00\u2028<>&", "héllo wörld 日本語 🙂", "bad \xff\xe2\x82 x \xe2\x82\xac", strings.Repeat("ü\"\x01", 1000)} {
		want, err := Encode(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range []int{1, 2, 3, 7, 64, 1 << 16} {
			var got []byte
			if err := StringPieces(s, size, func(p []byte) { got = append(got, p...) }); err != nil || string(got) != string(want) {
				t.Fatalf("StringPieces(%q, %d) = %s, %v; want %s", s, size, got, err, want)
			}
		}
	}
}

type piecesOf []byte

func (p piecesOf) JSONPieces(yield func([]byte)) error {
	for i := range p {
		yield(p[i : i+1])
	}
	return nil
}

// An element that is Pieces is written a piece at a time, indented as if
// it were encoded whole.
func TestWriteListPieces(t *testing.T) {
	var got, want bytes.Buffer
	list := []piecesOf{piecesOf(`{"a":[1,{"b":"x]\"y"}],"c":{}}`), piecesOf(`"s"`)}
	if err := WriteList(&got, nil, "", slices.Values(list)); err != nil {
		t.Fatal(err)
	}
	if err := WriteList(&want, nil, "", slices.Values([]json.RawMessage{json.RawMessage(list[0]), json.RawMessage(list[1])})); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Fatalf("got\n%s\nwant\n%s", got.String(), want.String())
	}
}
