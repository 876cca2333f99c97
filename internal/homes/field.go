package homes

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Value returns field of r in the Request's JSON shape (the json tags of
// request.go) as the model's JSON-like values: a string for model, a
// float64 or int64 for the numbers, []any of strings for stop, []any of
// {name, description?, parameters?, strict?} objects for tools, a {mode,
// tool?} object for toolChoice and a {name?, description?, schema?,
// strict?} object for output, empty members left out as the JSON leaves
// them. ok is false when r does not set the field. Schemas are r's own
// maps, not copies.
func Value(r *promptfmt.Request, field string) (v any, ok bool) {
	switch field {
	case promptfmt.FieldModel:
		return r.Model, r.Model != ""
	case promptfmt.FieldTemperature:
		return deref(r.Temperature)
	case promptfmt.FieldTopP:
		return deref(r.TopP)
	case promptfmt.FieldTopK:
		return deref(r.TopK)
	case promptfmt.FieldMaxTokens:
		return deref(r.MaxTokens)
	case promptfmt.FieldSeed:
		return deref(r.Seed)
	case promptfmt.FieldFrequencyPenalty:
		return deref(r.FrequencyPenalty)
	case promptfmt.FieldPresencePenalty:
		return deref(r.PresencePenalty)
	case promptfmt.FieldStop:
		if r.Stop == nil {
			return nil, false
		}
		out := make([]any, len(r.Stop))
		for i, s := range r.Stop {
			out[i] = s
		}
		return out, true
	case promptfmt.FieldTools:
		if r.Tools == nil {
			return nil, false
		}
		out := make([]any, len(r.Tools))
		for i, t := range r.Tools {
			out[i] = ToolValue(t)
		}
		return out, true
	case promptfmt.FieldToolChoice:
		if r.ToolChoice == nil {
			return nil, false
		}
		m := map[string]any{"mode": r.ToolChoice.Mode}
		putString(m, "tool", r.ToolChoice.Tool)
		return m, true
	case promptfmt.FieldOutput:
		if r.Output == nil {
			return nil, false
		}
		m := map[string]any{}
		putString(m, "name", r.Output.Name)
		putString(m, "description", r.Output.Description)
		if r.Output.Schema != nil {
			m["schema"] = r.Output.Schema
		}
		if r.Output.Strict {
			m["strict"] = true
		}
		return m, true
	}
	return nil, false
}

// ToolValue is one tool as Value gives it.
func ToolValue(t promptfmt.Tool) map[string]any {
	m := map[string]any{"name": t.Name}
	putString(m, "description", t.Description)
	if t.Parameters != nil {
		m["parameters"] = t.Parameters
	}
	if t.Strict {
		m["strict"] = true
	}
	return m
}

func deref[T any](p *T) (any, bool) {
	if p == nil {
		return nil, false
	}
	return *p, true
}

func putString(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

// Set sets field of r to v, given in the shape Value returns, or says why
// r cannot hold v exactly and leaves r alone: a value of the wrong type, an
// object key the field has no member for, an empty model (Model "" is no
// model), a tool choice mode other than auto, none and required. Numbers
// convert where no value changes: an integer where a float is wanted (as
// long as the float holds it exactly, |n| ≤ 2^53), a float without a
// fraction where an integer is wanted (|f| ≤ 2^53). A false strict and an
// empty description read as left out, as the JSON leaves them out.
func Set(r *promptfmt.Request, field string, v any) error {
	switch field {
	case promptfmt.FieldModel:
		s, ok := v.(string)
		switch {
		case !ok:
			return fmt.Errorf("want a string, not %s", jsonvalue.Describe(v))
		case s == "":
			return errors.New("an empty string names no model")
		}
		r.Model = s
	case promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldFrequencyPenalty, promptfmt.FieldPresencePenalty:
		f, err := Float(v)
		if err != nil {
			return err
		}
		switch field {
		case promptfmt.FieldTemperature:
			r.Temperature = &f
		case promptfmt.FieldTopP:
			r.TopP = &f
		case promptfmt.FieldFrequencyPenalty:
			r.FrequencyPenalty = &f
		default:
			r.PresencePenalty = &f
		}
	case promptfmt.FieldTopK, promptfmt.FieldMaxTokens, promptfmt.FieldSeed:
		n, err := Int(v)
		if err != nil {
			return err
		}
		switch field {
		case promptfmt.FieldTopK:
			r.TopK = &n
		case promptfmt.FieldMaxTokens:
			r.MaxTokens = &n
		default:
			r.Seed = &n
		}
	case promptfmt.FieldStop:
		list, err := Strings(v)
		if err != nil {
			return err
		}
		r.Stop = list
	case promptfmt.FieldTools:
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("want a list of tools, not %s", jsonvalue.Describe(v))
		}
		tools := make([]promptfmt.Tool, len(list))
		for i, x := range list {
			t, err := tool(x)
			if err != nil {
				return fmt.Errorf("tool %d: %w", i+1, err)
			}
			tools[i] = t
		}
		r.Tools = tools
	case promptfmt.FieldToolChoice:
		c, err := toolChoice(v)
		if err != nil {
			return err
		}
		r.ToolChoice = c
	case promptfmt.FieldOutput:
		o, err := output(v)
		if err != nil {
			return err
		}
		r.Output = o
	default:
		return fmt.Errorf("the request has no field %q", field)
	}
	return nil
}

// exact is the largest magnitude below which every integer is a float64.
const exact = 1 << 53

// Float reads a number as a float64: a float, or an integer a float64
// holds exactly.
func Float(v any) (float64, error) {
	switch v := v.(type) {
	case float64:
		return v, nil
	case int64:
		if v < -exact || v > exact {
			return 0, fmt.Errorf("the integer %d has no exact float value", v)
		}
		return float64(v), nil
	}
	return 0, fmt.Errorf("want a number, not %s", jsonvalue.Describe(v))
}

// Int reads a number as an int64: an integer, or a float with no
// fraction within ±2^53.
func Int(v any) (int64, error) {
	switch v := v.(type) {
	case int64:
		return v, nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) <= exact {
			return int64(v), nil
		}
		return 0, fmt.Errorf("want an integer, not %v", v)
	}
	return 0, fmt.Errorf("want an integer, not %s", jsonvalue.Describe(v))
}

// Strings reads a list of strings.
func Strings(v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of strings, not %s", jsonvalue.Describe(v))
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, ok := x.(string)
		if !ok {
			return nil, fmt.Errorf("item %d: want a string, not %s", i+1, jsonvalue.Describe(x))
		}
		out[i] = s
	}
	return out, nil
}

// object reads v as an object whose keys are all among known.
func object(v any, what string, known ...string) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want %s object, not %s", what, jsonvalue.Describe(v))
	}
	for _, k := range jsonvalue.SortedKeys(m) {
		if !slices.Contains(known, k) {
			return nil, fmt.Errorf("%s has no member %q", what, k)
		}
	}
	return m, nil
}

// member reads m[k] as a T, zero when absent.
func member[T any](m map[string]any, k string, want string) (T, error) {
	var zero T
	x, ok := m[k]
	if !ok {
		return zero, nil
	}
	t, ok := x.(T)
	if !ok {
		return zero, fmt.Errorf("%s: want %s, not %s", k, want, jsonvalue.Describe(x))
	}
	return t, nil
}

func tool(v any) (promptfmt.Tool, error) {
	var t promptfmt.Tool
	m, err := object(v, "a tool", "name", "description", "parameters", "strict")
	if err != nil {
		return t, err
	}
	if _, ok := m["name"]; !ok {
		return t, errors.New("a tool needs a name")
	}
	if t.Name, err = member[string](m, "name", "a string"); err != nil {
		return t, err
	}
	if t.Description, err = member[string](m, "description", "a string"); err != nil {
		return t, err
	}
	if t.Parameters, err = member[map[string]any](m, "parameters", "a JSON Schema object"); err != nil {
		return t, err
	}
	t.Strict, err = member[bool](m, "strict", "true or false")
	return t, err
}

func toolChoice(v any) (*promptfmt.ToolChoice, error) {
	m, err := object(v, "a tool choice", "mode", "tool")
	if err != nil {
		return nil, err
	}
	var c promptfmt.ToolChoice
	if c.Mode, err = member[string](m, "mode", "a string"); err != nil {
		return nil, err
	}
	if c.Tool, err = member[string](m, "tool", "a string"); err != nil {
		return nil, err
	}
	switch {
	case c.Mode != promptfmt.ToolChoiceAuto && c.Mode != promptfmt.ToolChoiceNone && c.Mode != promptfmt.ToolChoiceRequired:
		return nil, fmt.Errorf("mode %q is not a tool choice (auto, none or required)", c.Mode)
	case c.Tool != "" && c.Mode != promptfmt.ToolChoiceRequired:
		return nil, fmt.Errorf("a tool is named with mode required only, not %s", c.Mode)
	}
	return &c, nil
}

func output(v any) (*promptfmt.Output, error) {
	m, err := object(v, "an output", "name", "description", "schema", "strict")
	if err != nil {
		return nil, err
	}
	var o promptfmt.Output
	if o.Name, err = member[string](m, "name", "a string"); err != nil {
		return nil, err
	}
	if o.Description, err = member[string](m, "description", "a string"); err != nil {
		return nil, err
	}
	if o.Schema, err = member[map[string]any](m, "schema", "a JSON Schema object"); err != nil {
		return nil, err
	}
	if o.Strict, err = member[bool](m, "strict", "true or false"); err != nil {
		return nil, err
	}
	return &o, nil
}

// Only returns a request that sets field as r does and nothing else
// (sharing r's values).
func Only(r *promptfmt.Request, field string) promptfmt.Request {
	o := *r
	o.Lines = nil
	for _, f := range o.Fields() {
		if f != field {
			o.Clear(f)
		}
	}
	return o
}

// SameField reports whether a and b hold the same value of field.
func SameField(a, b *promptfmt.Request, field string) bool {
	return promptfmt.EqualRequests(Only(a, field), Only(b, field))
}
