package schema

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// FuzzParse: no panic; errors are positioned ParseErrors inside the input;
// a schema that parses prints canonically, and the canonical text parses
// to an equal schema that prints the same.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"str", "int { min: -3, max: 5 }", "float { min: 0.5 }", "[int { min: 1 }] { len_max: 3 }",
		`{ name: str, "first name": str, 'a"b': [[bool]], x: { y: yesno } {} }`, "code { max: 10 }",
		"tasklist {min:1,}", "[] { max: 5 }", "{ a: int, a: str }", "int int", "(", "[[[", "'", "-3", "int { min: 1.2.3 }",
		"float { max: 99999999999999999999 }", "{ -: int }",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		s, err := Parse([]byte(src))
		if err != nil {
			var pe *promptfmt.ParseError
			if !errors.As(err, &pe) || pe.Format != "pdl" || pe.Offset < 0 || pe.Offset > len(src) || pe.Line < 1 || pe.Col < 1 {
				t.Fatalf("bad error %#v", err)
			}
			return
		}
		text := s.String()
		again, err := Parse([]byte(text))
		if err != nil {
			t.Fatalf("%q printed as %q, which does not parse: %v", src, text, err)
		}
		if !s.Equal(again) || again.String() != text {
			t.Fatalf("%q printed as %q, which parses as %q", src, text, again)
		}
	})
}

// fuzzSchemas are the schemas FuzzExtract runs every output against.
var fuzzSchemas = []string{
	"str { max: 50 }", "int { min: -5, max: 5 }", "float { max: 0.5 }", "bool", "yesno", "code { max: 20 }",
	"tasklist { min: 1, max: 3 }", "[]", "[int] { max: 3 }", "[[str { min: 1 }]]",
	"{ name: str, age: int { min: 0 }, tags: [str] }", "[{ a: float, b: yesno }]",
}

// FuzzExtract: no panic for any output; a failure is a *ValueError with a
// message; a value is JSON-like, valid against the schema again, and
// renders.
func FuzzExtract(f *testing.F) {
	for _, s := range []string{
		"", "true", "yes", "The answer is 7.", "gpt-4o answer: 3", "[1, 2] [1, 2]", `{"name": "x", "age": 3, "tags": []}`,
		"```\ncode\n```", "- [ ] a\n- [x] b", "[[\"a\"]] then {", "[1} [2]", `["\"]"]`, "-.5 5. 1.2.3",
		"[" + strings.Repeat("[", 200), "\xff[\"\xfe\"]", "* [ ] x\n  y\n* [ ] z\n\nw\n- [ ] v",
	} {
		f.Add(s)
	}
	schemas := make([]*Schema, len(fuzzSchemas))
	for i, src := range fuzzSchemas {
		s, err := Parse([]byte(src))
		require.NoError(f, err)
		schemas[i] = s
	}
	f.Fuzz(func(t *testing.T, output string) {
		for _, s := range schemas {
			v, err := s.Extract(output)
			if err != nil {
				var ve *ValueError
				if !errors.As(err, &ve) || ve.Msg == "" || v != nil {
					t.Fatalf("%s: bad error %#v", s, err)
				}
				continue
			}
			if p := jsonvalue.NotJSONLike(v); p != "" {
				t.Fatalf("%s: not JSON-like at %s: %#v", s, p, v)
			}
			if p := s.validate(v); p != nil {
				t.Fatalf("%s: extracted %#v does not validate: %s", s, v, p.message(s))
			}
			_ = Render(s, v)
		}
	})
}

// TestStringRoundTrip is the property behind FuzzParse on random schemas:
// String re-parses to an equal schema.
func TestStringRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 3000; i++ {
		s := randomSchema(r, 0)
		text := s.String()
		again, err := Parse([]byte(text))
		require.NoError(t, err, text)
		require.True(t, s.Equal(again), "%s re-parsed as %s", text, again)
		require.Equal(t, text, again.String())
	}
}

func randomSchema(r *rand.Rand, depth int) *Schema {
	types := []Type{TypeString, TypeInt, TypeFloat, TypeBool, TypeYesNo, TypeCode, TypeTaskList, TypeArray, TypeObject}
	if depth > 4 {
		types = types[:7]
	}
	s := &Schema{Type: types[r.IntN(len(types))]}
	switch s.Type {
	case TypeArray:
		if r.IntN(4) > 0 {
			s.Elem = randomSchema(r, depth+1)
		}
	case TypeObject:
		names := []string{"a", "b_c", "-", "first name", "", `say "hi"`, "it's", "x1", "str", "日本"}
		r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
		for _, n := range names[:r.IntN(4)] {
			s.Fields = append(s.Fields, Field{Name: n, Schema: randomSchema(r, depth+1)})
		}
	}
	ok, count := s.Type.constrained()
	if !ok {
		return s
	}
	var lo, hi *Bound
	switch {
	case s.Type == TypeFloat:
		a := []float64{0, -1.5, 0.1, 1e20, 5e-324, math.MaxFloat64, -math.MaxFloat64, 3}[r.IntN(8)]
		b := []float64{0, 2.5, 1e21, math.MaxFloat64, 7}[r.IntN(5)]
		lo, hi = FloatBound(min(a, b)), FloatBound(max(a, b))
	default:
		a := []int64{0, 1, 5, math.MaxInt64, -3, math.MinInt64}[r.IntN(6)]
		b := []int64{0, 2, 100, math.MaxInt64, -1}[r.IntN(5)]
		if count {
			a, b = max(a, 0), max(b, 0)
		}
		lo, hi = IntBound(min(a, b)), IntBound(max(a, b))
	}
	switch r.IntN(4) {
	case 1:
		s.Min = lo
	case 2:
		s.Max = hi
	case 3:
		s.Min, s.Max = lo, hi
	}
	return s
}
