package prompty

import (
	"errors"
	"fmt"
	"slices"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// This file compiles a Prompty property list (outputs, a function tool's
// parameters) to the JSON Schema the Request holds, and back. The mapping
// is one to one on what it accepts (see "Settings" in the package
// documentation); anything else is an error, so that a value converts
// exactly both ways or not at all.

// kindTypes maps the property kinds that have a JSON Schema type.
var kindTypes = map[string]string{
	KindString: "string", KindInteger: "integer", KindFloat: "number",
	KindBoolean: "boolean", KindArray: "array", KindObject: "object",
}

// typeKinds is kindTypes the other way.
var typeKinds = func() map[string]string {
	m := map[string]string{}
	for k, t := range kindTypes {
		m[t] = k
	}
	return m
}()

// propertiesSchema compiles a property list (a list of named properties,
// or a mapping of names to properties) to an object schema: {"type":
// "object", "properties": {...}, "required": [...]}, required left out
// when no property is required.
func propertiesSchema(v any, depth int) (map[string]any, error) {
	if depth > maxSchemaDepth {
		return nil, errors.New("properties nest too deep")
	}
	props := map[string]any{}
	var required []any
	add := func(name string, m map[string]any) error {
		if _, dup := props[name]; dup {
			return fmt.Errorf("a second property named %q", name)
		}
		s, req, err := propertySchema(m, depth+1)
		if err != nil {
			return fmt.Errorf("property %q: %w", name, err)
		}
		props[name] = s
		if req {
			required = append(required, name)
		}
		return nil
	}
	switch v := v.(type) {
	case []any:
		for i, x := range v {
			m, ok := x.(map[string]any)
			if !ok {
				return nil, fmt.Errorf("item %d: want a property, not %s", i+1, jsonvalue.Describe(x))
			}
			name, ok := m["name"].(string)
			if !ok || name == "" {
				return nil, fmt.Errorf("item %d: a property in a list needs a name", i+1)
			}
			if err := add(name, m); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		for _, name := range jsonvalue.SortedKeys(v) {
			m, ok := v[name].(map[string]any)
			if !ok {
				return nil, fmt.Errorf("property %q: the scalar shorthand (a default, or upstream's example) has no schema", name)
			}
			if _, ok := m["name"]; ok {
				return nil, fmt.Errorf("property %q: a name inside a mapping's entry is ignored by Load", name)
			}
			if name == "" {
				return nil, errors.New("a property needs a name")
			}
			if err := add(name, m); err != nil {
				return nil, err
			}
		}
	default:
		return nil, fmt.Errorf("want a list or a mapping of properties, not %s", jsonvalue.Describe(v))
	}
	s := map[string]any{"type": "object", "properties": props}
	if required != nil {
		s["required"] = required
	}
	return s, nil
}

// maxSchemaDepth bounds the nesting of properties converted (the front
// matter's own bound is values.MaxDepth; a schema is deeper than its
// property list).
const maxSchemaDepth = 250

// propertySchema compiles one property; required is its required flag,
// which goes to the enclosing object's list.
func propertySchema(m map[string]any, depth int) (s map[string]any, required bool, err error) {
	if depth > maxSchemaDepth {
		return nil, false, errors.New("properties nest too deep")
	}
	for _, k := range jsonvalue.SortedKeys(m) {
		switch k {
		case "name", "kind", "description", "required", "nullable", "default", "example", "enumValues", "items", "properties":
		default:
			return nil, false, fmt.Errorf("%s has no place in a JSON Schema read back exactly", k)
		}
	}
	kind := KindString
	if d, ok := m["default"]; ok && d != nil {
		kind = inferKind(d)
	}
	if k, ok := m["kind"]; ok {
		if kind, ok = k.(string); !ok {
			return nil, false, fmt.Errorf("kind: want a string, not %s", jsonvalue.Describe(k))
		}
	}
	t, ok := kindTypes[kind]
	if !ok {
		return nil, false, fmt.Errorf("kind %q has no JSON Schema type", kind)
	}
	s = map[string]any{"type": t}
	if n, ok := m["nullable"]; ok {
		b, isBool := n.(bool)
		if !isBool {
			return nil, false, fmt.Errorf("nullable: want true or false, not %s", jsonvalue.Describe(n))
		}
		if b {
			s["type"] = []any{t, "null"}
		}
	}
	if d, ok := m["description"]; ok {
		if _, isString := d.(string); !isString {
			return nil, false, fmt.Errorf("description: want a string, not %s", jsonvalue.Describe(d))
		}
		if d != "" {
			s["description"] = d
		}
	}
	if r, ok := m["required"]; ok {
		if required, ok = r.(bool); !ok {
			return nil, false, fmt.Errorf("required: want true or false, not %s", jsonvalue.Describe(r))
		}
	}
	if d, ok := m["default"]; ok {
		s["default"] = d
	}
	if e, ok := m["example"]; ok {
		s["examples"] = []any{e}
	}
	if e, ok := m["enumValues"]; ok {
		if _, isList := e.([]any); !isList {
			return nil, false, fmt.Errorf("enumValues: want a list, not %s", jsonvalue.Describe(e))
		}
		s["enum"] = e
	}
	if items, ok := m["items"]; ok {
		im, isMap := items.(map[string]any)
		switch {
		case kind != KindArray:
			return nil, false, fmt.Errorf("items of a %s property", kind)
		case !isMap:
			return nil, false, fmt.Errorf("items: want a property, not %s", jsonvalue.Describe(items))
		}
		if _, named := im["name"]; named {
			return nil, false, errors.New("items: a name has no place in a JSON Schema")
		}
		is, req, err := propertySchema(im, depth+1)
		if err != nil {
			return nil, false, fmt.Errorf("items: %w", err)
		}
		if req {
			return nil, false, errors.New("items: required has no meaning for an array's items")
		}
		s["items"] = is
	}
	if props, ok := m["properties"]; ok {
		if kind != KindObject {
			return nil, false, fmt.Errorf("properties of a %s property", kind)
		}
		ps, err := propertiesSchema(props, depth+1)
		if err != nil {
			return nil, false, err
		}
		s["properties"] = ps["properties"]
		if r, ok := ps["required"]; ok {
			s["required"] = r
		}
	}
	return s, required, nil
}

// propertyList writes an object schema as propertiesSchema reads it, as a
// list of named properties: those required first, in the schema's
// required order (so that the list reads back to the same schema), then
// the rest by name.
func propertyList(s map[string]any, depth int) ([]any, error) {
	if err := keysIn(s, "type", "properties", "required"); err != nil {
		return nil, err
	}
	if s["type"] != "object" {
		return nil, errors.New(`a property list is an object schema ("type": "object")`)
	}
	props, ok := s["properties"].(map[string]any)
	if !ok {
		return nil, errors.New(`a property list's schema has "properties", an object`)
	}
	return namedList(props, s["required"], depth)
}

// namedList writes the properties and required list of an object schema
// as a list of named properties.
func namedList(props map[string]any, req any, depth int) ([]any, error) {
	if depth > maxSchemaDepth {
		return nil, errors.New("the schema nests too deep")
	}
	var required []string
	if req != nil {
		list, ok := req.([]any)
		if !ok || len(list) == 0 {
			return nil, errors.New(`"required" is a list of property names, and not empty`)
		}
		for _, x := range list {
			name, ok := x.(string)
			if _, isProp := props[name]; !ok || !isProp || slices.Contains(required, name) {
				return nil, fmt.Errorf(`"required" names %v, which is not one property`, x)
			}
			required = append(required, name)
		}
	}
	names := append(slices.Clone(required), slices.DeleteFunc(jsonvalue.SortedKeys(props), func(n string) bool { return slices.Contains(required, n) })...)
	out := make([]any, 0, len(names))
	for _, name := range names {
		if name == "" {
			return nil, errors.New("a property without a name")
		}
		ps, ok := props[name].(map[string]any)
		if !ok {
			return nil, fmt.Errorf("property %q: want a schema object, not %s", name, jsonvalue.Describe(props[name]))
		}
		p, err := property(ps, depth+1)
		if err != nil {
			return nil, fmt.Errorf("property %q: %w", name, err)
		}
		p["name"] = name
		if slices.Contains(required, name) {
			p["required"] = true
		}
		out = append(out, p)
	}
	return out, nil
}

// property writes one property's schema as a property.
func property(s map[string]any, depth int) (map[string]any, error) {
	if err := keysIn(s, "type", "description", "enum", "default", "examples", "items", "properties", "required"); err != nil {
		return nil, err
	}
	p := map[string]any{}
	t := s["type"]
	if list, ok := t.([]any); ok && len(list) == 2 && list[1] == "null" {
		t, p["nullable"] = list[0], true
	}
	ts, _ := t.(string)
	kind, ok := typeKinds[ts]
	if !ok {
		return nil, fmt.Errorf(`"type" %v has no property kind (want one of string, integer, number, boolean, array, object, or it and "null")`, summary(s["type"]))
	}
	p["kind"] = kind
	if d, ok := s["description"]; ok {
		ds, isString := d.(string)
		if !isString || ds == "" {
			return nil, errors.New(`"description" is a string, and not empty`)
		}
		p["description"] = ds
	}
	if e, ok := s["enum"]; ok {
		if _, isList := e.([]any); !isList {
			return nil, errors.New(`"enum" is a list`)
		}
		p["enumValues"] = e
	}
	if d, ok := s["default"]; ok {
		p["default"] = d
	}
	if e, ok := s["examples"]; ok {
		list, isList := e.([]any)
		if !isList || len(list) != 1 {
			return nil, errors.New(`"examples" of one example only: a property has one`)
		}
		p["example"] = list[0]
	}
	if items, ok := s["items"]; ok {
		im, isMap := items.(map[string]any)
		if kind != KindArray || !isMap {
			return nil, errors.New(`"items" is an array's, and a schema object`)
		}
		ip, err := property(im, depth+1)
		if err != nil {
			return nil, fmt.Errorf("items: %w", err)
		}
		p["items"] = ip
	}
	props, hasProps := s["properties"]
	if _, hasReq := s["required"]; hasReq && !hasProps {
		return nil, errors.New(`"required" without "properties"`)
	}
	if hasProps {
		pm, isMap := props.(map[string]any)
		if kind != KindObject || !isMap {
			return nil, errors.New(`"properties" is an object's, and an object`)
		}
		list, err := namedList(pm, s["required"], depth)
		if err != nil {
			return nil, err
		}
		p["properties"] = list
	}
	return p, nil
}

// keysIn checks that s has no key but those given.
func keysIn(s map[string]any, known ...string) error {
	for _, k := range jsonvalue.SortedKeys(s) {
		if !slices.Contains(known, k) {
			return fmt.Errorf("%q has no place in a Prompty property", k)
		}
	}
	return nil
}

// summary is v as JSON, for a message.
func summary(v any) string {
	b, err := jsonvalue.Encode(v)
	if err != nil || len(b) > 40 {
		return jsonvalue.Describe(v)
	}
	return string(b)
}
