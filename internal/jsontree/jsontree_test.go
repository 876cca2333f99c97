package jsontree

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
)

func TestParse(t *testing.T) {
	src := []byte(` {"a": [1, -0, 2.5e1, "x\u00e9\n", true, false, null], "b": {}, "c": []} `)
	v, err := Parse(src)
	if err != nil {
		t.Fatal(err)
	}
	if v.Kind != Object || len(v.Members) != 3 || v.Off != 1 || v.End != len(src)-1 {
		t.Fatalf("root = %+v", v)
	}
	a := v.Get("a")
	if a == nil || a.Kind != Array || len(a.Elems) != 7 {
		t.Fatalf("a = %+v", a)
	}
	if got := string(a.Raw(src)); !strings.HasPrefix(got, "[1,") || !strings.HasSuffix(got, "null]") {
		t.Errorf("Raw = %q", got)
	}
	if e := a.Elems[3]; e.Str != "xé\n" || string(e.Raw(src)) != `"x\u00e9\n"` {
		t.Errorf("string = %q, raw %q", e.Str, e.Raw(src))
	}
	want := map[string]any{"a": []any{int64(1), int64(0), 25.0, "xé\n", true, false, nil}, "b": map[string]any{}, "c": []any{}}
	if got := v.Any(); !jsonvalue.Equal(got, want) {
		t.Errorf("Any = %#v", got)
	}
	if v.Get("nope") != nil {
		t.Error("Get of a missing member")
	}
	if m := v.Members[1]; m.Key != "b" || src[m.KeyOff] != '"' || string(src[m.KeyOff:m.KeyOff+3]) != `"b"` {
		t.Errorf("KeyOff = %d", m.KeyOff)
	}
}

func TestErrors(t *testing.T) {
	for _, c := range []struct {
		src  string
		off  int
		want string
	}{
		{``, 0, "unexpected end"},
		{`{"a":1,}`, 7, "member name"},
		{`[1,]`, 3, "want a value"},
		{`{"a":1,"a":2}`, 7, `"a" is named twice`},
		{`"\x"`, 1, "invalid escape"},
		{"\"a\x01\"", 2, "control character"},
		{"\"a\xff\"", 2, "invalid UTF-8"},
		{`01`, 1, "text after"},
		{`1.`, 0, "no digit after"},
		{`1e400`, 0, values.CheckFloat(math.Inf(1))},
		{`-`, 0, "invalid number"},
		{`tru`, 0, "want true"},
		{`{"a" 1}`, 5, "':'"},
		{`[1 2]`, 3, "',' or ']'"},
		{`"abc`, 0, "never closed"},
		{`"\u12"`, 1, "four hex digits"},
		{"\xff", 0, "invalid UTF-8"},
		{`{} x`, 3, "text after"},
	} {
		_, err := Parse([]byte(c.src))
		var je *jsonvalue.Error
		if !errors.As(err, &je) {
			t.Errorf("%q: error %v, want a *jsonvalue.Error", c.src, err)
			continue
		}
		if je.Offset != c.off || !strings.Contains(je.Msg, c.want) {
			t.Errorf("%q: %d %q, want %d and %q", c.src, je.Offset, je.Msg, c.off, c.want)
		}
	}
}

func TestDepth(t *testing.T) {
	deep := strings.Repeat("[", values.MaxDepth) + strings.Repeat("]", values.MaxDepth)
	if _, err := Parse([]byte(deep)); err != nil {
		t.Errorf("depth %d: %v", values.MaxDepth, err)
	}
	deeper := strings.Repeat(`{"a":`, values.MaxDepth+1) + "1" + strings.Repeat("}", values.MaxDepth+1)
	_, err := Parse([]byte(deeper))
	var je *jsonvalue.Error
	if !errors.As(err, &je) || je.Msg != values.DepthMessage() || je.Offset != 5*values.MaxDepth {
		t.Errorf("depth %d: %v", values.MaxDepth+1, err)
	}
}

func TestSurrogates(t *testing.T) {
	for src, want := range map[string]string{
		`"\ud83d\ude00"`: "😀",
		`"\ud83d"`:       "\ufffd",
		`"\ud83dx"`:      "\ufffdx",
		`"\ude00\ud83d"`: "\ufffd\ufffd",
	} {
		v, err := Parse([]byte(src))
		if err != nil || v.Str != want {
			t.Errorf("%s = %q, %v; want %q", src, v.Str, err, want)
		}
		var std string
		if json.Unmarshal([]byte(src), &std) != nil || std != want {
			t.Errorf("%s: encoding/json reads %q", src, std)
		}
	}
}

// FuzzParse holds Parse to encoding/json: the same texts accepted (but
// for the decisions: duplicate names, depth, non-finite numbers), the same
// values read, and every offset within the text.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`{"a":[1,2,{"b":null}]}`, `"\ud83d\ude00"`, `[1e5, -0.5, 0]`, `{"a":1,"a":2}`, `1e999`, ` [ ] `, `"\u00e9"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, err := Parse(src)
		valid := json.Valid(src)
		if err == nil {
			if !valid {
				t.Fatalf("Parse took %q, encoding/json does not", src)
			}
			checkOffsets(t, src, v)
			var std any
			dec := json.NewDecoder(bytes.NewReader(src))
			dec.UseNumber()
			if err := dec.Decode(&std); err != nil {
				t.Fatal(err)
			}
			if got, want := jsonvalue.Encode(v.Any()); want != nil {
				t.Fatal(want)
			} else if w, _ := jsonvalue.Decode(src); !jsonvalue.Equal(v.Any(), w) {
				t.Fatalf("%q: Parse reads %s, jsonvalue %v", src, got, w)
			}
			return
		}
		var je *jsonvalue.Error
		if !errors.As(err, &je) || je.Offset < 0 || je.Offset > len(src) {
			t.Fatalf("%q: error %v", src, err)
		}
		if valid && utf8.Valid(src) && !strings.Contains(je.Msg, "twice") && je.Msg != values.DepthMessage() && je.Hint != values.NonFiniteHint {
			t.Fatalf("Parse refused %q, which encoding/json takes: %v", src, err)
		}
	})
}

func checkOffsets(t *testing.T, src []byte, v *Value) {
	if v.Off < 0 || v.End > len(src) || v.Off >= v.End {
		t.Fatalf("value at %d..%d of %d bytes", v.Off, v.End, len(src))
	}
	if !json.Valid(v.Raw(src)) {
		t.Fatalf("Raw %q is not a JSON value", v.Raw(src))
	}
	for i := range v.Elems {
		checkOffsets(t, src, &v.Elems[i])
	}
	for i := range v.Members {
		if src[v.Members[i].KeyOff] != '"' {
			t.Fatalf("KeyOff %d is not a quote", v.Members[i].KeyOff)
		}
		checkOffsets(t, src, &v.Members[i].Value)
	}
}

func BenchmarkParse(b *testing.B) {
	src := benchBody()
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

// benchBody is a Chat Completions body of 2,000 user messages, ~420 KB.
func benchBody() []byte {
	var sb strings.Builder
	sb.WriteString(`{"model":"gpt-4o","messages":[`)
	for i := range 2000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"role":"user","content":[{"type":"text","text":"Hello there, how are you doing today? I would like to ask about my order \u00e9."},{"type":"image_url","image_url":{"url":"https://example.com/a.png","detail":"low"}}]}`)
	}
	sb.WriteString(`],"temperature":0.2}`)
	return []byte(sb.String())
}

// BenchmarkStructBaseline is encoding/json decoding the same text into a
// struct of its shape: the speed a request body's reader is held to.
func BenchmarkStructBaseline(b *testing.B) {
	src := benchBody()
	type part struct {
		Type     string `json:"type"`
		Text     string `json:"text"`
		ImageURL *struct {
			URL    string `json:"url"`
			Detail string `json:"detail"`
		} `json:"image_url"`
	}
	type body struct {
		Model    string `json:"model"`
		Messages []struct {
			Role    string `json:"role"`
			Content []part `json:"content"`
		} `json:"messages"`
		Temperature float64 `json:"temperature"`
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var v body
		if err := json.Unmarshal(src, &v); err != nil {
			b.Fatal(err)
		}
	}
}
