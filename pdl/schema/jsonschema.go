package schema

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// JSONSchema returns the JSON Schema of the values s accepts, as the
// model's JSON-like values, and true; false when s holds an extraction
// mode (yesno, code, tasklist), which has no JSON Schema. The mapping:
//
//	str { min, max }    {"type": "string", "minLength", "maxLength"}
//	int { min, max }    {"type": "integer", "minimum", "maximum"}
//	float { min, max }  {"type": "number", "minimum", "maximum"}
//	bool                {"type": "boolean"}
//	[T] { min, max }    {"type": "array", "items": T, "minItems", "maxItems"}
//	[]                  {"type": "array"}
//	{ a: T, b: U }      {"type": "object", "properties": {"a": T, "b": U},
//	                     "required": ["a", "b"], "additionalProperties": false}
//
// Bounds are left out when the schema has none. A float bound without a
// fraction is an integer (min: 1 is "minimum": 1, as JSON writes it;
// within ±2^53); an object's fields are all required and no other key is
// allowed, as Extract checks, and "required" keeps their order ("{}" has
// none: no "required"). Two differences stay: str bounds count bytes,
// JSON Schema's characters; and an int takes no float with a zero
// fraction (1.0), which JSON Schema's integer does.
func (s *Schema) JSONSchema() (map[string]any, bool) {
	j := map[string]any{}
	bounds := func(lo, hi string) {
		if s.Min != nil {
			j[lo] = s.bound(s.Min)
		}
		if s.Max != nil {
			j[hi] = s.bound(s.Max)
		}
	}
	switch s.Type {
	case TypeString:
		j["type"] = "string"
		bounds("minLength", "maxLength")
	case TypeInt:
		j["type"] = "integer"
		bounds("minimum", "maximum")
	case TypeFloat:
		j["type"] = "number"
		bounds("minimum", "maximum")
	case TypeBool:
		j["type"] = "boolean"
	case TypeArray:
		j["type"] = "array"
		if s.Elem != nil {
			e, ok := s.Elem.JSONSchema()
			if !ok {
				return nil, false
			}
			j["items"] = e
		}
		bounds("minItems", "maxItems")
	case TypeObject:
		props := map[string]any{}
		var required []any
		for _, f := range s.Fields {
			p, ok := f.Schema.JSONSchema()
			if !ok {
				return nil, false
			}
			props[f.Name] = p
			required = append(required, f.Name)
		}
		j["type"], j["properties"], j["additionalProperties"] = "object", props, false
		if required != nil {
			j["required"] = required
		}
	default:
		return nil, false
	}
	return j, true
}

// bound is a bound as JSON holds it: an int64, or for a float schema a
// float64 unless it has no fraction.
func (s *Schema) bound(b *Bound) any {
	if s.Type != TypeFloat {
		return b.Int
	}
	if f := b.Float; f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
		return int64(f)
	}
	return b.Float
}

// FromJSONSchema is JSONSchema's inverse: the schema whose JSONSchema is
// j, or an error saying what of j a PDL schema cannot say (a "format", a
// field not required, "additionalProperties" allowed, ...).
func FromJSONSchema(j map[string]any) (*Schema, error) {
	s, err := fromJSON(j, 0)
	if err != nil {
		return nil, err
	}
	if err := s.check(0); err != nil {
		return nil, errors.New(strings.TrimPrefix(err.Error(), "pdl/schema: "))
	}
	if back, _ := s.JSONSchema(); !jsonvalue.Equal(back, j) {
		return nil, errors.New("not in the one form a PDL schema is written as JSON Schema (an integer bound as a float, say)")
	}
	return s, nil
}

func fromJSON(j map[string]any, depth int) (*Schema, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	t, _ := j["type"].(string)
	s := &Schema{}
	var lo, hi string // the keys of its bounds
	var known []string
	switch t {
	case "string":
		s.Type, lo, hi = TypeString, "minLength", "maxLength"
	case "integer":
		s.Type, lo, hi = TypeInt, "minimum", "maximum"
	case "number":
		s.Type, lo, hi = TypeFloat, "minimum", "maximum"
	case "boolean":
		s.Type = TypeBool
	case "array":
		s.Type, lo, hi, known = TypeArray, "minItems", "maxItems", []string{"items"}
	case "object":
		s.Type, known = TypeObject, []string{"properties", "required", "additionalProperties"}
	default:
		return nil, fmt.Errorf(`"type" %s is not one of string, integer, number, boolean, array and object`, describe(j["type"]))
	}
	for _, k := range jsonvalue.SortedKeys(j) {
		if k != "type" && !slices.Contains(known, k) && (lo == "" || k != lo && k != hi) {
			return nil, fmt.Errorf("%q has no place in a PDL %s schema", k, s.Type)
		}
	}
	var err error
	if lo != "" {
		if s.Min, err = s.jsonBound(j, lo); err != nil {
			return nil, err
		}
		if s.Max, err = s.jsonBound(j, hi); err != nil {
			return nil, err
		}
	}
	switch s.Type {
	case TypeArray:
		if items, ok := j["items"]; ok {
			im, isMap := items.(map[string]any)
			if !isMap {
				return nil, fmt.Errorf(`"items" is %s, not a schema`, describe(items))
			}
			if s.Elem, err = fromJSON(im, depth+1); err != nil {
				return nil, err
			}
		}
	case TypeObject:
		if j["additionalProperties"] != false {
			return nil, errors.New(`a PDL object takes no other key: "additionalProperties": false`)
		}
		props, ok := j["properties"].(map[string]any)
		if !ok {
			return nil, errors.New(`a PDL object names its fields: "properties", an object`)
		}
		var names []string
		if r, ok := j["required"]; ok {
			list, isList := r.([]any)
			if !isList {
				return nil, fmt.Errorf(`"required" is %s, not a list`, describe(r))
			}
			for _, x := range list {
				name, isString := x.(string)
				if _, isField := props[name]; !isString || !isField || slices.Contains(names, name) {
					return nil, fmt.Errorf(`"required" names %s, which is not one field`, describe(x))
				}
				names = append(names, name)
			}
		}
		if len(names) != len(props) {
			return nil, errors.New("every field of a PDL object is required")
		}
		for _, name := range names {
			if strings.Contains(name, `"`) && strings.Contains(name, "'") {
				return nil, fmt.Errorf("the field name %q holds both quotes, which a PDL schema cannot write", name)
			}
			ps, isMap := props[name].(map[string]any)
			if !isMap {
				return nil, fmt.Errorf("field %q is %s, not a schema", name, describe(props[name]))
			}
			f, err := fromJSON(ps, depth+1)
			if err != nil {
				return nil, fmt.Errorf("field %q: %w", name, err)
			}
			s.Fields = append(s.Fields, Field{Name: name, Schema: f})
		}
	}
	return s, nil
}

// jsonBound reads bound key of j, when there.
func (s *Schema) jsonBound(j map[string]any, key string) (*Bound, error) {
	v, ok := j[key]
	if !ok {
		return nil, nil
	}
	switch n := v.(type) {
	case int64:
		if s.Type == TypeFloat {
			return FloatBound(float64(n)), nil
		}
		return IntBound(n), nil
	case float64:
		if s.Type == TypeFloat {
			return FloatBound(n), nil
		}
	}
	return nil, fmt.Errorf("%q is %s, not an integer", key, describe(v))
}

func describe(v any) string {
	b, err := jsonvalue.Encode(v)
	if err != nil || len(b) > 40 {
		return jsonvalue.Describe(v)
	}
	return string(b)
}
