package jsonvalue

import (
	"bytes"
	"encoding/json"
	"math"
	"strconv"
	"testing"
	"unicode/utf8"
)

type ordered struct{}

func (ordered) AppendJSON(b []byte) ([]byte, error) { return append(b, `{"z":1,"a":2}`...), nil }

func TestAppend(t *testing.T) {
	v := map[string]any{
		"s": "a\"b\\c\n\r\t\b\f\x01\u2028\u2029<>&é\xff", "i": int64(-3), "n": 7, "f": 0.1, "big": 1e21, "small": 1e-7,
		"neg": -2.5e-9, "zero": 0.0, "t": true, "nil": nil, "arr": []any{1.5, "x", []string{"a"}},
		"raw": json.RawMessage(`{"k":[1,2]}`), "obj": ordered{}, "other": struct {
			A int `json:"a"`
		}{4},
	}
	got, err := Append(nil, v)
	if err != nil {
		t.Fatal(err)
	}
	want, err := Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	// Encode reflects ordered{} as {}; a whole float keeps its fraction.
	want = bytes.Replace(want, []byte(`"obj":{}`), []byte(`"obj":{"z":1,"a":2}`), 1)
	want = bytes.Replace(want, []byte(`"zero":0`), []byte(`"zero":0.0`), 1)
	if !bytes.Equal(got, want) {
		t.Errorf("Append:\n%s\nEncode:\n%s", got, want)
	}
	if _, err := Append(nil, math.NaN()); err == nil {
		t.Error("NaN appended")
	}
}

// FuzzAppend holds Append to encoding/json for strings and numbers.
func FuzzAppend(f *testing.F) {
	f.Add("a\x00\u2028<\xff", 1.5)
	f.Add("", 1e21)
	f.Add("\x7f\u0080", -1e-7)
	f.Fuzz(func(t *testing.T, s string, x float64) {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return
		}
		for _, v := range []any{s, x, []any{s, x}} {
			got, err := Append(nil, v)
			if err != nil {
				t.Fatal(err)
			}
			want, err := Encode(v)
			if err != nil {
				t.Fatal(err)
			}
			if _, isString := v.(string); !isString && x == math.Trunc(x) && math.Abs(x) < 1e21 { // a whole float keeps ".0"
				f := strconv.FormatFloat(x, 'f', -1, 64)
				want = bytes.Replace(want, []byte(","+f+"]"), []byte(","+f+".0]"), 1)
				if !bytes.HasPrefix(want, []byte("[")) {
					want = []byte(f + ".0")
				}
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("%#v: Append %s, Encode %s", v, got, want)
			}
			// What Append writes reads back as the same values.
			if back, err := Decode(got); utf8.ValidString(s) && (err != nil || !Equal(back, v)) {
				t.Fatalf("%s reads back as %#v (%v)", got, back, err)
			}
		}
	})
}
