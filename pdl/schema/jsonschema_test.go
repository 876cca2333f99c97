package schema

import (
	"math/rand/v2"
	"testing"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONSchema(t *testing.T) {
	obj := func(kv ...any) map[string]any {
		m := map[string]any{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	for _, tc := range []struct {
		pdl  string
		json map[string]any
	}{
		{"str { min: 1, max: 10 }", obj("type", "string", "minLength", int64(1), "maxLength", int64(10))},
		{"string", obj("type", "string")},
		{"int { min: -3 }", obj("type", "integer", "minimum", int64(-3))},
		{"float { min: 0.5, max: 2 }", obj("type", "number", "minimum", 0.5, "maximum", int64(2))},
		{"bool", obj("type", "boolean")},
		{"[]", obj("type", "array")},
		{"[int] { len_max: 3 }", obj("type", "array", "items", obj("type", "integer"), "maxItems", int64(3))},
		{"{}", obj("type", "object", "properties", obj(), "additionalProperties", false)},
		{`{ b: str, "a b": [bool] }`, obj("type", "object", "required", []any{"b", "a b"}, "additionalProperties", false,
			"properties", obj("b", obj("type", "string"), "a b", obj("type", "array", "items", obj("type", "boolean"))))},
	} {
		s, err := Parse([]byte(tc.pdl))
		require.NoError(t, err)
		j, ok := s.JSONSchema()
		require.True(t, ok, tc.pdl)
		assert.Equal(t, tc.json, j, tc.pdl)
		back, err := FromJSONSchema(j)
		require.NoError(t, err, tc.pdl)
		assert.True(t, s.Equal(back), "%s came back as %s", tc.pdl, back)
	}
	for _, pdl := range []string{"yesno", "code { max: 3 }", "tasklist", "[yesno]", "{ a: { b: code } }"} {
		s, err := Parse([]byte(pdl))
		require.NoError(t, err)
		_, ok := s.JSONSchema()
		assert.False(t, ok, "%s is an extraction mode", pdl)
	}
}

func TestFromJSONSchemaRefuses(t *testing.T) {
	for _, tc := range []struct {
		json map[string]any
		err  string
	}{
		{map[string]any{"type": "null"}, `"type" "null" is not one of string`},
		{map[string]any{"type": []any{"string", "null"}}, `"type" ["string","null"] is not one of`},
		{map[string]any{"type": "string", "format": "date"}, `"format" has no place in a PDL string schema`},
		{map[string]any{"type": "object", "properties": map[string]any{}}, `a PDL object takes no other key: "additionalProperties": false`},
		{map[string]any{"type": "object", "properties": map[string]any{"a": map[string]any{"type": "string"}}, "additionalProperties": false},
			"every field of a PDL object is required"},
		{map[string]any{"type": "integer", "minimum": 1.5}, `"minimum" is 1.5, not an integer`},
		{map[string]any{"type": "number", "minimum": 1.0}, "not in the one form"},
		{map[string]any{"type": "string", "minLength": int64(-1)}, "negative bound"},
		{map[string]any{"type": "integer", "minimum": int64(5), "maximum": int64(1)}, "`min` is greater than `max`"},
		{map[string]any{"type": "object", "properties": map[string]any{`a"b'c`: map[string]any{"type": "string"}},
			"required": []any{`a"b'c`}, "additionalProperties": false}, "holds both quotes"},
	} {
		_, err := FromJSONSchema(tc.json)
		assert.ErrorContains(t, err, tc.err, "%v", tc.json)
	}
}

// Every schema without an extraction mode converts to JSON Schema and
// back to an equal schema; the JSON Schema is the model's JSON values.
func TestJSONSchemaRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	converted := 0
	for range 3000 {
		s := randomSchema(r, 0)
		j, ok := s.JSONSchema()
		if !ok {
			continue
		}
		converted++
		require.Empty(t, jsonvalue.NotJSONLike(j))
		back, err := FromJSONSchema(j)
		require.NoError(t, err, s.String())
		require.True(t, s.Equal(back), "%s came back as %s", s, back)
	}
	require.Greater(t, converted, 300)
}

// FuzzFromJSONSchema: no JSON value panics FromJSONSchema, and one it
// takes is exactly JSONSchema of the schema it gives.
func FuzzFromJSONSchema(f *testing.F) {
	for _, s := range []string{`{"type":"integer","minimum":1}`, `{"type":"array","items":{"type":"string","maxLength":3},"maxItems":2}`,
		`{"type":"object","properties":{"a":{"type":"number","maximum":0.5}},"required":["a"],"additionalProperties":false}`,
		`{"type":"object","properties":{},"additionalProperties":false}`, `{"type":"number","minimum":1.0}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		v, err := jsonvalue.Decode(src)
		j, ok := v.(map[string]any)
		if err != nil || !ok {
			return
		}
		s, err := FromJSONSchema(j)
		if err != nil {
			return
		}
		back, ok := s.JSONSchema()
		if !ok || !jsonvalue.Equal(back, j) {
			t.Fatalf("%s came back as %v", src, back)
		}
		if _, err := Parse([]byte(s.String())); err != nil {
			t.Fatalf("%s: %q does not parse: %v", src, s.String(), err)
		}
	})
}
