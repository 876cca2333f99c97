package schema

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
	ilines "github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/require"
)

func TestParseCanonical(t *testing.T) {
	tests := []struct{ src, want string }{
		{"str", "str"},
		{"string", "str"},
		{"int", "int"},
		{"integer", "int"},
		{"float", "float"},
		{"number", "float"},
		{"bool", "bool"},
		{"boolean", "bool"},
		{"yesno", "yesno"},
		{"code", "code"},
		{"tasklist", "tasklist"},
		{"  \t\r\nint\n", "int"},
		{"[]", "[]"},
		{"[ ]", "[]"},
		{"[int]", "[int]"},
		{"[[int]]", "[[int]]"},
		{"{}", "{}"},
		{"{ name: str, age: int }", "{ name: str, age: int }"},
		{"{name:str,age:int,}", "{ name: str, age: int }"},
		{"{ b: int, a: int }", "{ b: int, a: int }"}, // order kept
		{`{ "first name": str, 'say "hi"': str, "": int }`, `{ "first name": str, 'say "hi"': str, "": int }`},
		{`{ "plain": str, 'x_y-z': int }`, "{ plain: str, x_y-z: int }"},
		{"{ str: int, int: str }", "{ str: int, int: str }"}, // keywords as names
		{"{ -: int }", "{ -: int }"},
		{"{ a: { b: [str] } }", "{ a: { b: [str] } }"},
		{"int {}", "int"},
		{"int { min: 0, max: 100 }", "int { min: 0, max: 100 }"},
		{"int { max: 100, min: 0 }", "int { min: 0, max: 100 }"},
		{"int { len_min: 1, len_max: 2, }", "int { min: 1, max: 2 }"},
		{"int {'min': 1}", "int { min: 1 }"},
		{"int { min: -3 }", "int { min: -3 }"}, // deviation: negatives
		{"int { min: -3, max: -1 }", "int { min: -3, max: -1 }"},
		{"int { min: 007 }", "int { min: 7 }"},
		{"int { max: 9223372036854775807 }", "int { max: 9223372036854775807 }"},
		{"float { min: 0 }", "float { min: 0 }"},
		{"float { max: 0.0 }", "float { max: 0 }"},
		{"float { min: -1.5, max: 2.25 }", "float { min: -1.5, max: 2.25 }"},
		{"float { max: 1. }", "float { max: 1 }"},
		{"float { max: 99999999999999999999 }", "float { max: 100000000000000000000 }"},
		{"str { min: 100 }", "str { min: 100 }"},
		{"code { max: 10 }", "code { max: 10 }"},
		{"tasklist { min: 1, max: 3 }", "tasklist { min: 1, max: 3 }"},
		{"[] { max: 5 }", "[] { max: 5 }"},
		{"[int] {max : 5}", "[int] { max: 5 }"},
		{"[int { min: 1, max: 9 }] { len_max: 3 }", "[int { min: 1, max: 9 }] { max: 3 }"},
		{"[{ name: string, age: integer }]{ min: 1, max: 2 }", "[{ name: str, age: int }] { min: 1, max: 2 }"},
		{"{ title: str, summary: str { len_min: 10, len_max: 20 } }", "{ title: str, summary: str { min: 10, max: 20 } }"},
		{"{ a: int }{}", "{ a: int }"},
		{"bool {}", "bool"},
		{"yesno { }", "yesno"},
		{"[float { max: 0.0 }]", "[float { max: 0 }]"},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			s, err := Parse([]byte(tc.src))
			require.NoError(t, err)
			require.Equal(t, tc.want, s.String())
			again, err := Parse([]byte(s.String()))
			require.NoError(t, err)
			require.True(t, s.Equal(again), "%s re-parsed as %s", s, again)
		})
	}
}

func TestParseTree(t *testing.T) {
	s, err := Parse([]byte("[{ name: str { max: 9 }, score: float { min: -0.5 } }] { min: 1 }"))
	require.NoError(t, err)
	want := &Schema{
		Type: TypeArray,
		Min:  IntBound(1),
		Elem: &Schema{Type: TypeObject, Fields: []Field{
			{Name: "name", Schema: &Schema{Type: TypeString, Max: IntBound(9)}},
			{Name: "score", Schema: &Schema{Type: TypeFloat, Min: FloatBound(-0.5)}},
		}},
	}
	require.Equal(t, want, s)
	require.True(t, want.Equal(s))
	require.False(t, want.Equal(&Schema{Type: TypeArray, Min: IntBound(1)}))
	require.False(t, want.Elem.Equal(&Schema{Type: TypeObject}))
	require.False(t, (&Schema{Type: TypeInt, Max: IntBound(1)}).Equal(&Schema{Type: TypeInt, Max: IntBound(2)}))
	require.False(t, (&Schema{Type: TypeInt}).Equal(nil))
	require.True(t, (*Schema)(nil).Equal(nil))
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		src  string
		msg  string
		line int
		col  int
	}{
		// Tokens.
		{"", "unexpected end of schema: want a type", 1, 1},
		{"   ", "unexpected end of schema", 1, 4},
		{"int $", "unexpected character '$'", 1, 5},
		{"int\n  é", "unexpected character 'é'", 2, 3},
		{"\xff", "unexpected byte 0xff", 1, 1},
		{`{ "a`, "unterminated string", 1, 3},
		{`{ 'a": int }`, "unterminated string", 1, 3},
		{"{ \"a\xffb\": int }", "invalid UTF-8 in string", 1, 5},
		{"[int", "`[` is never closed", 1, 1},
		{"{ a: [int }", "`[` closed by `}`", 1, 11},
		{"int }", "unexpected `}`: nothing to close", 1, 5},
		{"int { min: 1.2.3 }", "invalid number 1.2.3", 1, 12},
		{"float { max: " + strings.Repeat("9", 400) + " }", "out of range", 1, 14},
		// Grammar.
		{"Int", "unknown type `Int`", 1, 1},
		{"null", "unknown type `null`", 1, 1},
		{"(int)", "unexpected `(`", 1, 1},
		{"'str'", `unexpected string "str"`, 1, 1},
		{"3", "unexpected number 3", 1, 1},
		{"int int", "unexpected `int` after the schema", 1, 5},
		{"int8", "unexpected number 8 after the schema", 1, 4},
		{"int { min: 1 } { max: 2 }", "unexpected `{` after the schema", 1, 16},
		{"[int, str]", "an array holds one element schema", 1, 5},
		{"[int str]", "unexpected `str`", 1, 6},
		{"[int {min: 1} str]", "unexpected `str`", 1, 15},
		{"{ a int }", "unexpected `int`: want `:`", 1, 5},
		{"{ a }", "unexpected `}`: want `:`", 1, 5},
		{"{ a: }", "unexpected `}`: want a type", 1, 6},
		{"{ a: int b: int }", "unexpected `b`: want `,`", 1, 10},
		{"{ , }", "unexpected `,`: want a field name", 1, 3},
		{"{ 1: int }", "unexpected number 1: want a field name", 1, 3},
		{"{ a: int, a: str }", `duplicate field "a"`, 1, 11},
		{"{ a: (int) }", "unexpected `(`", 1, 6},
		// Constraints, with upstream's messages.
		{"int { min: 0.5 }", `"0.5" is not a valid integer.`, 1, 12},
		{"int { max: 5.0 }", `"5.0" is not a valid integer.`, 1, 12},
		{"int { max: 99999999999999999999 }", `"1e20" is not a valid integer.`, 1, 12},
		{"[] { min: 0.5 }", `"0.5" is not a valid integer.`, 1, 11},
		{"str { min: 0.5 }", `"0.5" is not a valid integer.`, 1, 12},
		{"int { min: 5, max: 2}", "`min` (5) is greater than `max` (2).", 1, 5},
		{"int { max: 2, min: 5}", "`min` (5) is greater than `max` (2).", 1, 5},
		{"float { min: 1.5, max: 0.5 }", "`min` (1.5) is greater than `max` (0.5).", 1, 7},
		{"[] { min: -3 }", "`min` is supposed to be a positive integer, but is -3", 1, 11},
		{"str { min: -3 }", "`min` is supposed to be a positive integer, but is -3", 1, 12},
		{"str { max: -1 }", "`max` is supposed to be a positive integer, but is -1", 1, 12},
		{"code { max: -1 }", "`max` is supposed to be a positive integer, but is -1", 1, 13},
		{"tasklist { min: -1 }", "`min` is supposed to be a positive integer, but is -1", 1, 17},
		{"str { min: -3, max: -5 }", "`min` (-3) is greater than `max` (-5).", 1, 5},
		{"bool { min: 1 }", "Type `boolean` cannot have constraint `min`", 1, 8},
		{"bool { max: 1, min: 0 }", "Type `boolean` cannot have constraint `min`", 1, 16},
		{"yesno { max: 1 }", "Type `yes or no` cannot have constraint `max`", 1, 9},
		{"{ a: int } { min: 1 }", "Type `object` cannot have constraint `min`", 1, 14},
		{"int { min: 1, min: 2 }", "A constraint `min` appears more than once.", 1, 15},
		{"int { min: 1, len_min: 2 }", "A constraint `len_min` appears more than once.", 1, 15},
		{"int { foo: 1 }", "`foo` is not a valid constraint", 1, 7},
		{"int { foo }", "unexpected `}`: want `:`", 1, 11},
		{"int { min: }", "unexpected `}`: want a number", 1, 12},
		{"int { min: x }", "unexpected `x`: want a number", 1, 12},
		{"int { min: 1 max: 2 }", "unexpected `max`: want `,`", 1, 14},
		{"int { 1: 2 }", "unexpected number 1: want `min` or `max`", 1, 7},
		// Nested constraints are checked too (upstream: top level only).
		{"[int { min: 0.5 }]", `"0.5" is not a valid integer.`, 1, 13},
		{"{ a: bool { min: 1 } }", "Type `boolean` cannot have constraint `min`", 1, 13},
		{"{ a: [str { max: -1 }] }", "`max` is supposed to be a positive integer, but is -1", 1, 18},
		{"[[{ x: { y: int { min: 3, max: 1 } } }]]", "`min` (3) is greater than `max` (1).", 1, 17},
	}
	for _, tc := range tests {
		t.Run(tc.src, func(t *testing.T) {
			s, err := Parse([]byte(tc.src))
			require.Error(t, err, "parsed as %v", s)
			var pe *promptfmt.ParseError
			require.True(t, errors.As(err, &pe), "%T", err)
			require.Equal(t, "pdl", pe.Format)
			require.Contains(t, pe.Msg, tc.msg)
			require.Equal(t, []int{tc.line, tc.col}, []int{pe.Line, pe.Col}, "%v", err)
			line, col := ilines.Position([]byte(tc.src), pe.Offset)
			require.Equal(t, []int{pe.Line, pe.Col}, []int{line, col})
		})
	}
}

func TestRustDebug(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 0.5: "0.5", 5: "5.0", 1e20: "1e20", 1.5e16: "1.5e16", 1e15: "1000000000000000.0",
		1e-4: "0.0001", 1.5e-5: "1.5e-5", -2.5: "-2.5", math.Copysign(0, -1): "-0.0",
	} {
		require.Equal(t, want, rustDebug(f), "%v", f)
	}
}

// TestParseDeep: deep nesting is an error, quickly, never a stack overflow.
func TestParseDeep(t *testing.T) {
	ok := strings.Repeat("[", maxDepth) + "int" + strings.Repeat("]", maxDepth)
	s, err := Parse([]byte(ok))
	require.NoError(t, err)
	again, err := Parse([]byte(s.String()))
	require.NoError(t, err)
	require.True(t, s.Equal(again))

	for name, src := range map[string]string{
		"one too deep":    "[" + ok + "]",
		"100,000 [":       strings.Repeat("[", 100_000),
		"100,000 [ and ]": strings.Repeat("[", 100_000) + "int" + strings.Repeat("]", 100_000),
		"1 MB of {":       strings.Repeat("{", 1<<20),
		"1 MB of {a:":     strings.Repeat("{a:", 1<<20/3),
		"1 MB of (":       strings.Repeat("(", 1<<20),
	} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			_, err := Parse([]byte(src))
			require.Error(t, err)
			require.Contains(t, err.Error(), "nested deeper than 100 levels")
			require.Less(t, time.Since(start), 2*time.Second)
		})
	}
	// Long but flat input is linear too: 50,000 fields, names in letters.
	fields := make([]string, 50_000)
	for i := range fields {
		name := ""
		for n := i; ; n /= 26 {
			name += string(rune('a' + n%26))
			if n < 26 {
				break
			}
		}
		fields[i] = "'" + name + "': [int]"
	}
	start := time.Now()
	s, err = Parse([]byte("{" + strings.Join(fields, ",") + "}"))
	require.NoError(t, err)
	require.Len(t, s.Fields, 50_000)
	require.Less(t, time.Since(start), 5*time.Second)
}
