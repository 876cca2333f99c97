package json5

import (
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// same compares JSON-like values as the model does (NaN equals NaN).
func same(a, b any) bool {
	return promptfmt.Equal(&promptfmt.Document{Meta: map[string]any{"v": a}}, &promptfmt.Document{Meta: map[string]any{"v": b}})
}

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want any
	}{
		{`null`, nil},
		{`true`, true},
		{` false `, false},
		{`1`, int64(1)},
		{`-7`, int64(-7)},
		{`+7`, int64(7)},
		{`-0`, math.Copysign(0, -1)},
		{`-0x0`, math.Copysign(0, -1)},
		{`0`, int64(0)},
		{`+0`, int64(0)},
		{`9223372036854775807`, int64(math.MaxInt64)},
		{`-9223372036854775808`, int64(math.MinInt64)},
		{`9223372036854775808`, 9223372036854775808.0},
		{`1.5`, 1.5},
		{`.5`, 0.5},
		{`5.`, 5.0},
		{`1e3`, 1000.0},
		{`1E-2`, 0.01},
		{`1e-400`, 0.0},
		{`0x1F`, int64(31)},
		{`-0XfF`, int64(-255)},
		{`0xFFFFFFFFFFFFFFFFF`, 295147905179352825856.0},
		{`'a"b'`, `a"b`},
		{`"a'b"`, `a'b`},
		{`'\x41\0\v\t\b\f\n\r\'\"\\\/\q'`, "A\x00\v\t\b\f\n\r'\"\\/q"},
		{`'\u00e9\uD83D\uDE00'`, "é😀"},
		{`'\uD83D'`, "\uFFFD"},
		{"'a\\\nb'", "ab"},
		{"'a\\\r\nb'", "ab"},
		{"'a\\\u2028b'", "ab"},
		{"'tab\there'", "tab\there"},
		{"'line\u2028sep'", "line\u2028sep"},
		{`[]`, []any{}},
		{`[1, 'x', [null],]`, []any{int64(1), "x", []any{nil}}},
		{`{}`, map[string]any{}},
		{`{a: 1, 'b c': 2, "d": 3,}`, map[string]any{"a": int64(1), "b c": int64(2), "d": int64(3)}},
		{`{$a_1: 1, ü: 2, \u0061b: 3, a\u200Cb: 4}`, map[string]any{"$a_1": int64(1), "ü": int64(2), "ab": int64(3), "a\u200Cb": int64(4)}},
		{"// c\n{/* x */a /* y */: // z\n 1}\r\n", map[string]any{"a": int64(1)}},
		{"\ufeff\u00a0{a:\u20031}\u2028", map[string]any{"a": int64(1)}},
		{`{null: 1, true: 2, Infinity: 3}`, map[string]any{"null": int64(1), "true": int64(2), "Infinity": int64(3)}},
	}
	for _, tt := range tests {
		got, err := Parse(tt.in)
		require.NoError(t, err, "%q", tt.in)
		assert.True(t, same(tt.want, got), "%q: got %#v, want %#v", tt.in, got, tt.want)
		if f, ok := tt.want.(float64); ok {
			g, _ := got.(float64)
			assert.Equal(t, math.Signbit(f), math.Signbit(g), "%q: the sign of zero", tt.in)
		}
	}
}

// One rule for the model's numbers (internal/values): a number that is not
// finite is refused where it starts, with its hint; so is nesting deeper
// than values.MaxDepth, at the bracket that goes too deep.
func TestParseRefusesNonFinite(t *testing.T) {
	for _, tt := range []struct {
		in  string
		off int
		msg string
	}{
		{`NaN`, 0, values.CheckFloat(math.NaN())},
		{`{a: 1, b: -NaN}`, 10, values.CheckFloat(math.NaN())},
		{`[Infinity]`, 1, values.CheckFloat(math.Inf(1))},
		{`{x: +Infinity}`, 4, values.CheckFloat(math.Inf(1))},
		{`[1, -Infinity]`, 4, values.CheckFloat(math.Inf(-1))},
		{`{n: 1e400}`, 4, values.CheckFloat(math.Inf(1))},
		{`-1e400`, 0, values.CheckFloat(math.Inf(-1))},
		{`1` + strings.Repeat("0", 400), 0, values.CheckFloat(math.Inf(1))},
		{`0x` + strings.Repeat("F", 300), 0, values.CheckFloat(math.Inf(1))},
	} {
		_, err := Parse(tt.in)
		var se *SyntaxError
		require.ErrorAs(t, err, &se, "%q", tt.in)
		assert.Equal(t, tt.off, se.Offset, "%.40q", tt.in)
		assert.Equal(t, tt.msg, se.Msg, "%.40q", tt.in)
		assert.Equal(t, values.NonFiniteHint, se.Hint, "%.40q", tt.in)
	}
	_, err := Parse(`{a: [` + strings.Repeat("{b:", MaxDepth) + `1` + strings.Repeat("}", MaxDepth) + `]}`)
	var se *SyntaxError
	require.ErrorAs(t, err, &se)
	assert.Equal(t, values.DepthMessage(), se.Msg)
	assert.Equal(t, 5+3*(MaxDepth-2), se.Offset, "at the brace that goes too deep")
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in  string
		off int
		msg string
	}{
		{``, 0, "unexpected end of input"},
		{`{a:1} x`, 6, "after the value"},
		{`{a:1, a:2}`, 6, `duplicate key "a"`},
		{`{a:1,,}`, 5, "expected a key"},
		{`[1,,]`, 3, "expected a value"},
		{`{a 1}`, 3, "expected ':'"},
		{`{a:1 b:2}`, 5, "expected ',' or '}'"},
		{`[1 2]`, 3, "expected ',' or ']'"},
		{`{a:1`, 0, "unterminated object"},
		{`[1`, 0, "unterminated array"},
		{`'abc`, 0, "unterminated string"},
		{"'a\nb'", 2, "line break in string"},
		{`'\1'`, 1, `invalid escape \1`},
		{`'\01'`, 1, `\0 followed by a digit`},
		{`'\x4'`, 3, "hexadecimal digits"},
		{`'\u12'`, 3, "hexadecimal digits"},
		{`01`, 0, "leading zero"},
		{`1x`, 0, "malformed number"},
		{`1.2.3`, 0, "malformed number"},
		{`NaNa`, 0, "malformed number"},
		{`0x`, 2, "hexadecimal digits"},
		{`1e`, 2, "exponent"},
		{`.`, 0, "expected a value"},
		{`tru`, 0, "expected a value"},
		{`undefined`, 0, "expected a value"},
		{`/* x`, 0, "unterminated /* comment"},
		{`{1: 2}`, 1, "expected a key"},
		{`{a\x: 2}`, 2, `only \uXXXX`},
		{strings.Repeat("[", MaxDepth+1), MaxDepth, "nested deeper"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		var se *SyntaxError
		require.ErrorAs(t, err, &se, "%q", tt.in)
		assert.Equal(t, tt.off, se.Offset, "%q: %v", tt.in, err)
		assert.Contains(t, se.Msg, tt.msg, "%q", tt.in)
	}
}

func TestParseString(t *testing.T) {
	s, err := ParseString(`"a\tb"`)
	require.NoError(t, err)
	assert.Equal(t, "a\tb", s)
	for _, bad := range []string{``, `x`, `"a"b`, `"a`} {
		_, err := ParseString(bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestDeepNestingIsLinear(t *testing.T) {
	_, err := Parse(strings.Repeat("[", 10_000_000))
	assert.ErrorContains(t, err, "nested deeper")
	_, err = Parse(strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth))
	assert.NoError(t, err)
}

func TestAppend(t *testing.T) {
	tests := []struct {
		in   any
		want string
	}{
		{nil, `null`},
		{true, `true`},
		{int64(-3), `-3`},
		{2.0, `2.0`},
		{0.7, `0.7`},
		{math.Copysign(0, -1), `-0.0`},
		{1e21, `1e+21`},
		{1e-7, `1e-07`},
		{"it's", `"it's"`},
		{`say "hi"`, `'say "hi"'`},
		{"a\x00b\x001\v\x01\u2028", `'a\0b\x001\v\x01\u2028'`},
		{[]any{}, `[]`},
		{map[string]any{}, `{}`},
		{map[string]any{"b": []any{int64(1), "x"}, "a b": map[string]any{"c": nil}, "null": int64(1)},
			"{\n  'a b': {\n    c: null,\n  },\n  b: [\n    1,\n    'x',\n  ],\n  'null': 1,\n}"},
	}
	for _, tt := range tests {
		got, err := Append(nil, tt.in)
		require.NoError(t, err)
		assert.Equal(t, tt.want, string(got))
		back, err := Parse(string(got))
		require.NoError(t, err, "%s", got)
		if _, isInt := tt.in.(int); !isInt {
			assert.True(t, same(tt.in, back), "%s read back as %#v", got, back)
		}
	}
	for _, bad := range []any{struct{}{}, "\xff", map[string]any{"\xff": 1}, []any{make(chan int)}, math.NaN(), []any{math.Inf(1)}, float32(math.Inf(-1))} {
		_, err := Append(nil, bad)
		assert.Error(t, err, "%#v", bad)
	}
}

func TestAppendJSONString(t *testing.T) {
	assert.Equal(t, `"tab\there \"q\" \\ \u0001 it's"`, string(AppendJSONString(nil, "tab\there \"q\" \\ \x01 it's")))
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{`{a: [1, 'x', {b: null}], "c": 0x1F, d: .5e3, e: -Infinity,}`, `'\x41\u00e9\
'`, "// c\n[NaN /* x */]", `"\uD83D\uDE00"`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v, err := Parse(src)
		if err != nil {
			var se *SyntaxError
			if !assert.ErrorAs(t, err, &se) || se.Offset < 0 || se.Offset > len(src) {
				t.Fatalf("bad error %v for %q", err, src)
			}
			return
		}
		out, err := Append(nil, v)
		if !utf8.ValidString(src) {
			return // strings may hold bad UTF-8, which Append refuses
		}
		if err != nil {
			t.Fatalf("Append(%#v): %v", v, err)
		}
		back, err := Parse(string(out))
		if err != nil || !same(v, back) {
			t.Fatalf("%q → %#v → %s → %#v, %v", src, v, out, back, err)
		}
	})
}
