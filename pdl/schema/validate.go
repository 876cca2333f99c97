package schema

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// check reports a hand-built schema that breaks the rules Parse enforces.
func (s *Schema) check(depth int) error {
	if s == nil {
		return errors.New("pdl/schema: nil schema")
	}
	if depth > maxDepth {
		return fmt.Errorf("pdl/schema: schema nested deeper than %d levels", maxDepth)
	}
	if s.Type < TypeString || s.Type > TypeObject {
		return fmt.Errorf("pdl/schema: invalid schema type %d", s.Type)
	}
	ok, count := s.Type.constrained()
	switch {
	case !ok && (s.Min != nil || s.Max != nil):
		return fmt.Errorf("pdl/schema: type `%s` cannot have a constraint", s.Type)
	case s.Type == TypeFloat && (s.Min != nil && !finite(s.Min.Float) || s.Max != nil && !finite(s.Max.Float)):
		return fmt.Errorf("pdl/schema: bound not a finite number in %s", s)
	case s.Type == TypeFloat && s.Min != nil && s.Max != nil && s.Min.Float > s.Max.Float,
		s.Type != TypeFloat && s.Min != nil && s.Max != nil && s.Min.Int > s.Max.Int:
		return fmt.Errorf("pdl/schema: `min` is greater than `max` in %s", s)
	case count && (s.Min != nil && s.Min.Int < 0 || s.Max != nil && s.Max.Int < 0):
		return fmt.Errorf("pdl/schema: negative bound in %s", s)
	case s.Type != TypeObject && len(s.Fields) > 0 || s.Type != TypeArray && s.Elem != nil:
		return fmt.Errorf("pdl/schema: fields or element schema on type `%s`", s.Type)
	}
	if s.Elem != nil {
		if err := s.Elem.check(depth + 1); err != nil {
			return err
		}
	}
	for i, f := range s.Fields {
		for _, g := range s.Fields[:i] {
			if g.Name == f.Name {
				return fmt.Errorf("pdl/schema: duplicate field %q", f.Name)
			}
		}
		if err := f.Schema.check(depth + 1); err != nil {
			return err
		}
	}
	return nil
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// problem is upstream's SchemaError: why a value does not fit.
type problem struct {
	kind           problemKind
	s1, s2, s3, s4 string // range: too {s1}, {s2} {s3}, currently {s4}
	expected, got  string // type
	keys           []string
	key            string   // in object
	index          int      // in array
	inner          *problem // in object, in array
}

type problemKind uint8

const (
	pRange problemKind = iota
	pType
	pMissing
	pUnnecessary
	pInObject
	pInArray
)

// typeOf is the schema type name of a decoded JSON value.
func typeOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case int64:
		return "integer"
	case float64:
		return "float"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// validate checks a decoded value against s, at every level, in upstream's
// order: an array's elements before its length, an object's fields in
// schema order, then missing keys, then unnecessary keys.
func (s *Schema) validate(v any) *problem {
	wrong := func() *problem { return &problem{kind: pType, expected: s.Type.String(), got: typeOf(v)} }
	switch s.Type {
	case TypeInt:
		n, ok := v.(int64)
		if !ok {
			if _, f := v.(float64); f {
				return &problem{kind: pType, expected: "integer", got: "float"}
			}
			return wrong()
		}
		switch {
		case s.Min != nil && n < s.Min.Int:
			return &problem{kind: pRange, s1: "small", s2: "is at least", s3: strconv.FormatInt(s.Min.Int, 10)}
		case s.Max != nil && n > s.Max.Int:
			return &problem{kind: pRange, s1: "big", s2: "is at most", s3: strconv.FormatInt(s.Max.Int, 10)}
		}
	case TypeFloat:
		var f float64
		switch x := v.(type) {
		case int64:
			f = float64(x)
		case float64:
			f = x
		default:
			return wrong()
		}
		switch {
		case s.Min != nil && f < s.Min.Float:
			return &problem{kind: pRange, s1: "small", s2: "is at least", s3: rustDisplay(s.Min.Float)}
		case s.Max != nil && f > s.Max.Float:
			return &problem{kind: pRange, s1: "big", s2: "is at most", s3: rustDisplay(s.Max.Float)}
		}
	case TypeString, TypeCode, TypeTaskList:
		str, ok := v.(string)
		if !ok {
			return wrong()
		}
		n := len(str)
		if s.Type == TypeTaskList {
			n = countTasks(str)
		}
		return s.count(n, "characters")
	case TypeArray:
		a, ok := v.([]any)
		if !ok {
			return wrong()
		}
		if s.Elem != nil {
			for i, x := range a {
				if p := s.Elem.validate(x); p != nil {
					return &problem{kind: pInArray, index: i, inner: p}
				}
			}
		}
		return s.count(len(a), "elements")
	case TypeObject:
		m, ok := v.(map[string]any)
		if !ok {
			return wrong()
		}
		var missing []string
		for _, f := range s.Fields {
			x, ok := m[f.Name]
			if !ok {
				missing = append(missing, f.Name)
				continue
			}
			if p := f.Schema.validate(x); p != nil {
				return &problem{kind: pInObject, key: f.Name, inner: p}
			}
		}
		if missing != nil {
			return &problem{kind: pMissing, keys: missing}
		}
		if len(m) > len(s.Fields) { // every field is present, so some keys are not fields
			var extra []string
			for k := range m {
				if !slices.ContainsFunc(s.Fields, func(f Field) bool { return f.Name == k }) {
					extra = append(extra, k)
				}
			}
			slices.Sort(extra) // serde_json's map iterates in key order
			return &problem{kind: pUnnecessary, keys: extra}
		}
	case TypeBool, TypeYesNo:
		if _, ok := v.(bool); !ok {
			return wrong()
		}
	}
	return nil
}

// count checks a length against s's bounds.
func (s *Schema) count(n int, unit string) *problem {
	now := strconv.Itoa(n) + " " + unit
	switch {
	case s.Min != nil && int64(n) < s.Min.Int:
		return &problem{kind: pRange, s1: "short", s2: "has at least", s3: strconv.FormatInt(s.Min.Int, 10) + " " + unit, s4: now}
	case s.Max != nil && int64(n) > s.Max.Int:
		return &problem{kind: pRange, s1: "long", s2: "has at most", s3: strconv.FormatInt(s.Max.Int, 10) + " " + unit, s4: now}
	}
	return nil
}

func (p *problem) currently() string {
	if p.s4 == "" {
		return ""
	}
	return " Currently, it has " + p.s4 + "."
}

// ordinal is upstream's spelling of the n-th (0-based) element.
func ordinal(i int) string {
	switch i {
	case 0:
		return "first"
	case 1:
		return "second"
	case 2:
		return "third"
	case 3:
		return "forth"
	case 4:
		return "fifth"
	}
	return strconv.Itoa(i+1) + "th"
}

const msgGeneric = "Please make sure that your output has a correct schema."

// message is upstream's SchemaError::prettify: the text for the model. s is
// the top-level schema.
func (p *problem) message(s *Schema) string {
	switch p.kind {
	case pRange:
		return "Your output is too " + p.s1 + ". Make sure that the output " + p.s2 + " " + p.s3 + "." + p.currently()
	case pType:
		return "Your output has a wrong type. It has to be `" + p.expected + "`, not `" + p.got + "`."
	case pMissing:
		a := "fields "
		if len(p.keys) == 1 {
			a = "a field"
		}
		names := fieldNames(s)
		return fmt.Sprintf("Your output is missing %s: %s. Make sure that your output contains %d key%s: %s",
			a, strings.Join(p.keys, ", "), len(names), plural(len(names) != 1), strings.Join(names, ", "))
	case pUnnecessary:
		an, a := "", ""
		if len(p.keys) == 1 {
			an = "an "
		}
		names := fieldNames(s)
		if len(names) == 1 {
			a = "a "
		}
		return fmt.Sprintf("Your output has %sunnecessary key%s: %s. Make sure that the output contains %skey%s: %s",
			an, plural(len(p.keys) != 1), strings.Join(p.keys, ", "), a, plural(len(names) != 1), strings.Join(names, ", "))
	case pInObject:
		switch q := p.inner; q.kind {
		case pRange:
			return "Field `" + p.key + "` of your output is too " + q.s1 + ". Make sure that the field " + q.s2 + " " + q.s3 + "." + q.currently()
		case pType:
			return "Field `" + p.key + "` of your output has a wrong type. Make sure that the field is `" + q.expected + "`, not `" + q.got + "`."
		}
	case pInArray:
		switch q := p.inner; q.kind {
		case pRange:
			return "The " + ordinal(p.index) + " value of your output is too " + q.s1 + ". Make sure that the value " + q.s2 + " " + q.s3 + "." + q.currently()
		case pType:
			return "The " + ordinal(p.index) + " value of your output has a wrong type. Make sure all the elements are `" + q.expected + "`, not `" + q.got + "`."
		}
	}
	return msgGeneric
}

func plural(many bool) string {
	if many {
		return "s"
	}
	return ""
}

func fieldNames(s *Schema) []string {
	names := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		names[i] = f.Name
	}
	return names
}
