package schema

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestRender(t *testing.T) {
	mustParse := func(src string) *Schema {
		s, err := Parse([]byte(src))
		require.NoError(t, err)
		return s
	}
	code, tasks, yesno, obj := mustParse("code"), mustParse("tasklist"), mustParse("yesno"), mustParse("{ b: int, a: str }")
	tests := []struct {
		name string
		s    *Schema
		v    any
		want string
	}{
		{"code is raw", code, "fn main() {\n    \"x\"\n}", "fn main() {\n    \"x\"\n}"},
		{"tasklist is raw", tasks, "- [ ] a\n- [x] b", "- [ ] a\n- [x] b"},
		{"yes", yesno, true, "yes"},
		{"no", yesno, false, "no"},
		{"str is JSON", mustParse("str"), "a \"q\"\n<b>&", `"a \"q\"\n<b>&"`},
		{"bool is JSON", mustParse("bool"), true, "true"},
		{"null default", code, nil, "null"},
		{"yesno default of another type", yesno, "maybe", `"maybe"`},
		{"int", mustParse("int"), int64(-42), "-42"},
		{"object sorted, indented", obj, map[string]any{"b": int64(1), "a": "x"}, "{\n  \"a\": \"x\",\n  \"b\": 1\n}"},
		{"nested", nil, []any{map[string]any{"k": []any{}}, map[string]any{}, []any{1.5, nil}},
			"[\n  {\n    \"k\": []\n  },\n  {},\n  [\n    1.5,\n    null\n  ]\n]"},
		{"empty array", mustParse("[]"), []any{}, "[]"},
		{"controls", nil, "\x00\x01\b\f\t\r\x1f\x7f\u2028é\\", `"\u0000\u0001\b\f\t\r\u001f` + "\x7f\u2028é" + `\\"`},
		{"invalid UTF-8", nil, "a\xffb", "\"a\ufffdb\""},
		{"not JSON-like", nil, []string{"x", "y"}, "[\n  \"x\",\n  \"y\"\n]"},
		{"struct", nil, struct {
			B int `json:"b"`
			A any `json:"a"`
		}{B: 2}, "{\n  \"a\": null,\n  \"b\": 2\n}"},
		{"Go int", nil, 7, "7"},
		{"cannot marshal", nil, make(chan int), ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Render(tc.s, tc.v)
			if tc.name == "cannot marshal" {
				require.Regexp(t, `^"0x[0-9a-f]+"$`, got)
				return
			}
			require.Equal(t, tc.want, got)
			if tc.s == nil || tc.v == nil || tc.s.Type != TypeCode && tc.s.Type != TypeTaskList && tc.s.Type != TypeYesNo {
				var x any
				require.NoError(t, json.Unmarshal([]byte(got), &x), "not JSON: %s", got)
			}
		})
	}
}

// TestRenderFloat: floats print as serde_json (ryu) prints them.
func TestRenderFloat(t *testing.T) {
	for f, want := range map[float64]string{
		0:                    "0.0",
		math.Copysign(0, -1): "-0.0",
		1:                    "1.0",
		-2:                   "-2.0",
		1.5:                  "1.5",
		0.1:                  "0.1",
		100:                  "100.0",
		1234.5678:            "1234.5678",
		1e15:                 "1000000000000000.0",
		1e16:                 "1e16",
		1.5e16:               "1.5e16",
		1.2345e20:            "1.2345e20",
		123456789012345.6:    "123456789012345.6",
		0.001234:             "0.001234",
		1e-5:                 "0.00001",
		1e-6:                 "1e-6",
		1.5e-7:               "1.5e-7",
		-2.5e-300:            "-2.5e-300",
		math.MaxFloat64:      "1.7976931348623157e308",
		5e-324:               "5e-324",
		math.Inf(1):          "null",
		math.NaN():           "null",
	} {
		require.Equal(t, want, Render(nil, f), "%v", f)
	}
}
