package homes

import (
	"errors"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func ptr[T any](v T) *T { return &v }

// Value and Set are each other's inverse on every field, hostile values
// included (Set takes what Value gives, and gives it back).
func TestValueSet(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	fields := 0
	for range 500 {
		req := formattest.Request(r, 1)
		for _, f := range req.Fields() {
			v, ok := Value(&req, f)
			require.True(t, ok, f)
			var back promptfmt.Request
			if err := Set(&back, f, v); err != nil {
				// Only what the Request's own rules refuse: no model,
				// a tool choice mode that is none of the three.
				require.True(t, f == promptfmt.FieldToolChoice, "%s: %v", f, err)
				continue
			}
			require.True(t, SameField(&req, &back, f), "%s: %v", f, v)
			fields++
		}
	}
	require.Greater(t, fields, 1000)
}

func TestSetCoercesOnlyExactly(t *testing.T) {
	var r promptfmt.Request
	require.NoError(t, Set(&r, promptfmt.FieldTemperature, int64(1)))
	assert.Equal(t, 1.0, *r.Temperature, "an integer is its float")
	require.NoError(t, Set(&r, promptfmt.FieldTopK, 40.0))
	assert.Equal(t, int64(40), *r.TopK, "a float without a fraction is its integer")
	for field, v := range map[string]any{
		promptfmt.FieldTemperature: int64(1<<53 + 1), // no float holds it
		promptfmt.FieldTopK:        40.5,
		promptfmt.FieldSeed:        1e300,
		promptfmt.FieldMaxTokens:   "512",
		promptfmt.FieldModel:       "",
		promptfmt.FieldStop:        []any{"a", int64(1)},
		promptfmt.FieldTools:       []any{map[string]any{"name": "f", "kind": "function"}},
		promptfmt.FieldToolChoice:  map[string]any{"mode": "auto", "tool": "f"},
		promptfmt.FieldOutput:      map[string]any{"schema": "int"},
	} {
		var r promptfmt.Request
		assert.Error(t, Set(&r, field, v), "%s = %v", field, v)
		assert.True(t, r.IsZero(), "a refused value sets nothing")
	}
	require.NoError(t, Set(&r, promptfmt.FieldTools, []any{map[string]any{"name": "f", "strict": false, "description": ""}}))
	assert.Equal(t, []promptfmt.Tool{{Name: "f"}}, r.Tools, "false and empty are left out, as the JSON leaves them")
}

var testHomes = []Home{
	{Field: promptfmt.FieldModel, Path: []string{"model"}, Read: func(v any) (any, error) {
		if _, ok := v.(map[string]any); ok {
			return nil, ErrSkip
		}
		return v, nil
	}},
	{Field: promptfmt.FieldModel, Path: []string{"model", "id"}},
	{Field: promptfmt.FieldTemperature, Path: []string{"model", "options", "temperature"}},
	{Field: promptfmt.FieldStop, Path: []string{"stop"}, Read: func(v any) (any, error) {
		if s, ok := v.(string); ok {
			return []any{s}, nil // a string is a list of one
		}
		return v, nil
	}},
}

func TestTake(t *testing.T) {
	meta := map[string]any{
		"name":  "x",
		"model": map[string]any{"id": "gpt-4o", "provider": "openai", "options": map[string]any{"temperature": int64(1)}},
		"stop":  true,
	}
	orig := jsonvalue.Encode
	before, _ := orig(meta)
	var r promptfmt.Request
	rest, kept, problems := Take(meta, testHomes, &r, func(path []string) int { return len(path) })
	after, _ := orig(meta)
	assert.Equal(t, string(before), string(after), "Take leaves meta alone")
	assert.Equal(t, promptfmt.Request{Model: "gpt-4o", Temperature: ptr(1.0), Lines: map[string]int{"model": 2, "temperature": 3}}, r)
	assert.Equal(t, map[string]any{"name": "x", "stop": true, "model": map[string]any{"provider": "openai"}}, rest,
		"what the Request holds is gone, and the options it emptied")
	assert.Equal(t, []string{"model", "id"}, kept.Path(promptfmt.FieldModel))
	require.Len(t, problems, 1)
	assert.Equal(t, promptfmt.FieldStop, problems[0].Field)
	assert.EqualError(t, problems[0].Err, "want a list of strings, not a boolean")

	// An empty container that was there stays; Meta left empty is nil.
	rest, _, _ = Take(map[string]any{"model": "m", "o": map[string]any{}}, testHomes, &promptfmt.Request{}, nil)
	assert.Equal(t, map[string]any{"o": map[string]any{}}, rest)
	rest, _, _ = Take(map[string]any{"model": "m"}, testHomes, &promptfmt.Request{}, nil)
	assert.Nil(t, rest)

	// A value that would not be written back the same is no setting.
	lossy := []Home{{Field: promptfmt.FieldModel, Path: []string{"m"}, Read: func(v any) (any, error) { return v, nil },
		Write: func(v any) (any, error) { return "other", nil }}}
	r = promptfmt.Request{}
	rest, _, problems = Take(map[string]any{"m": "x"}, lossy, &r, nil)
	assert.Equal(t, map[string]any{"m": "x"}, rest)
	assert.True(t, r.IsZero())
	require.Len(t, problems, 1)
	assert.Contains(t, problems[0].Err.Error(), "would not be written back as the same value")
}

func TestPut(t *testing.T) {
	meta := map[string]any{"model": map[string]any{"id": "gpt-4o", "options": map[string]any{"temperature": int64(1)}}, "name": "x"}
	var r promptfmt.Request
	rest, kept, _ := Take(meta, testHomes, &r, nil)

	// Unchanged: exactly what was read, the integer 1 included.
	out, errs := Put("f", rest, &r, testHomes, kept)
	require.Empty(t, errs)
	assert.True(t, jsonvalue.Equal(meta, out), "%v", out)

	// Changed in place: the new value (Take kept a copy of the old).
	th := append(testHomes, Home{Field: promptfmt.FieldTools, Path: []string{"tools"}, Read: func(v any) (any, error) { return clone(v), nil }})
	var rt promptfmt.Request
	rest2, kept2, _ := Take(map[string]any{"tools": []any{map[string]any{"name": "f", "parameters": map[string]any{"type": "object"}}}}, th, &rt, nil)
	rt.Tools[0].Parameters["type"] = "array"
	out, errs = Put("f", rest2, &rt, th, kept2)
	require.Empty(t, errs)
	assert.Equal(t, "array", out["tools"].([]any)[0].(map[string]any)["parameters"].(map[string]any)["type"])

	// Changed: the new value, as the Request holds it.
	r.Temperature = ptr(0.5)
	out, errs = Put("f", rest, &r, testHomes, kept)
	require.Empty(t, errs)
	assert.Equal(t, 0.5, out["model"].(map[string]any)["options"].(map[string]any)["temperature"])

	// Fresh: the first free home (model: ID), unless another field goes
	// under it.
	out, errs = Put("f", nil, &promptfmt.Request{Model: "m"}, testHomes, nil)
	require.Empty(t, errs)
	assert.Equal(t, map[string]any{"model": "m"}, out)
	out, errs = Put("f", nil, &promptfmt.Request{Model: "m", Temperature: ptr(0.0)}, testHomes, nil)
	require.Empty(t, errs)
	assert.Equal(t, map[string]any{"model": map[string]any{"id": "m", "options": map[string]any{"temperature": 0.0}}}, out)
	// A kept model: m moves to model.id when a temperature comes.
	var r2 promptfmt.Request
	rest, kept, _ = Take(map[string]any{"model": "m"}, testHomes, &r2, nil)
	r2.Temperature = ptr(1.0)
	out, errs = Put("f", rest, &r2, testHomes, kept)
	require.Empty(t, errs)
	assert.Equal(t, "m", out["model"].(map[string]any)["id"])
}

func TestPutRefuses(t *testing.T) {
	refusals := func(errs []error) map[string]promptfmt.Thing {
		out := map[string]promptfmt.Thing{}
		for _, e := range errs {
			var ue *promptfmt.UnsupportedError
			require.True(t, errors.As(e, &ue), "%v", e)
			out[ue.Key] = ue.Thing
		}
		return out
	}
	// No home; a value no file holds; a Meta value in the way; a Meta
	// value that would read as a setting.
	_, errs := Put("f", map[string]any{"model": int64(5)}, &promptfmt.Request{Model: "m", TopK: ptr(int64(1)), Temperature: ptr(math.NaN())}, testHomes, nil)
	assert.Equal(t, map[string]promptfmt.Thing{"topK": promptfmt.ThingRequest, "temperature": promptfmt.ThingRequest, "model": promptfmt.ThingMeta}, refusals(errs))
	_, errs = Put("f", nil, &promptfmt.Request{ToolChoice: &promptfmt.ToolChoice{Mode: "any"}},
		[]Home{{Field: promptfmt.FieldToolChoice, Path: []string{"c"}}}, nil)
	require.Len(t, errs, 1)
	assert.EqualError(t, errs[0], `f: document: the request's toolChoice: mode "any" is not a tool choice (auto, none or required)`)
	_, errs = Put("f", map[string]any{"stop": "END"}, &promptfmt.Request{}, testHomes, nil)
	assert.Equal(t, map[string]promptfmt.Thing{"stop": promptfmt.ThingMeta}, refusals(errs))
	// A Meta value that is no setting passes, and stays.
	out, errs := Put("f", map[string]any{"stop": true}, &promptfmt.Request{}, testHomes, nil)
	require.Empty(t, errs)
	assert.Equal(t, map[string]any{"stop": true}, out)

	// A home's refusal with the nearest value, or about one tool.
	near := []Home{{Field: promptfmt.FieldOutput, Path: []string{"o"}, Write: func(v any) (any, error) {
		return nil, &NearestError{Value: map[string]any{"schema": map[string]any{}}, Err: errors.New("no name")}
	}}, {Field: promptfmt.FieldTools, Path: []string{"t"}, Write: func(v any) (any, error) {
		return nil, &ToolError{Index: 1, Err: errors.New("no name")}
	}}}
	_, errs = Put("f", nil, &promptfmt.Request{Output: &promptfmt.Output{Name: "n", Schema: map[string]any{}}, Tools: []promptfmt.Tool{{Name: "a"}, {}}}, near, nil)
	require.Len(t, errs, 2)
	var ue *promptfmt.UnsupportedError
	require.ErrorAs(t, errs[0], &ue)
	assert.Equal(t, promptfmt.FieldTools, ue.Key)
	assert.Equal(t, 1, ue.Part)
	require.ErrorAs(t, errs[1], &ue)
	assert.Equal(t, &promptfmt.Request{Output: &promptfmt.Output{Schema: map[string]any{}}}, ue.NearestRequest)
}

func TestCheck(t *testing.T) {
	deep := any("x")
	for range values.MaxDepth + 1 {
		deep = []any{deep}
	}
	for _, v := range []any{math.Inf(1), "\xff", map[string]any{"\xff": true}, []any{1}, deep, []string{"a"}} {
		assert.Error(t, Check(v, 0), "%#v", v)
	}
	assert.NoError(t, Check(map[string]any{"a": []any{int64(1), 0.5, nil, true, "s"}}, 0))
}
