// Package picoschema compiles Picoschema, Dotprompt's compact schema
// language for a prompt's input and output, into JSON Schema, as
// Dotprompt's spec suite (spec/picoschema.yaml of google/dotprompt) and
// its JS and Python runtimes have it. (Its Go runtime differs in seven of
// the spec's cases: it loses additionalProperties: false, makes "any"
// true and optional fields anyOf; this package follows the spec.)
//
// A schema is a string or a mapping:
//
//   - "type" or "type, description": a type is string, number, integer,
//     boolean, null or any; the description is what follows the first
//     comma, spaces after it skipped. A type gives {"type": type} (any
//     gives {}), with "description" when there is one.
//   - Any other name is a named schema, which the Named function given
//     resolves to a JSON Schema, its description replaced by the one
//     written ("Address, where to ship"). A name it does not know is an
//     *Error naming it.
//   - A mapping is an object: {"type": "object", "properties": {...},
//     "required": [...], "additionalProperties": false}. Each key is a
//     property, required unless its name ends in "?", which makes an
//     optional property nullable as well: a type T becomes [T, "null"],
//     an enum gets null among its values. A key may carry a modifier in
//     parentheses, with a description after a comma: name(array): items'
//     schema; name(object): a mapping; name(enum): a list of values (an
//     enum has no type). The key "(*)" is the wildcard: its schema is
//     additionalProperties, in place of false. "required" is left out
//     when no property is required.
//   - At the top only, a mapping that is JSON Schema already is returned
//     as it is: its "type" is one of the types above, object or array;
//     or it has "properties" (a mapping), and then "type": "object" is
//     added.
//
// Decisions, where the spec says nothing and the runtimes disagree or
// make what is not JSON Schema: "any" is {} at the top as well (the
// runtimes give {"type": "any"} there); a value that is neither a string
// nor a mapping (null, a number, a list outside an enum) is an error
// (the JS runtime makes null an empty object); a key with "(" and no
// closing ")", or no property name, is an error; an enum's values must
// be a list. As the runtimes read it, a description cannot span lines:
// "string, line one\nline two" is a name, unknown.
//
// Compiling is bounded: mappings nest at most values.MaxDepth levels (a
// value built in Go may even hold itself), a schema holds at most
// MaxValues strings and mappings (one built in Go may name a mapping
// many times), and the result shares named schemas rather than copying
// them. Decision: a modifier's description may hold parentheses
// ("tags(array, labels (short))"; the runtimes cut it at the second "(").
package picoschema

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt/internal/values"
)

// Named resolves a named schema: a bare name that is not a type. ok is
// false for a name it does not know.
type Named func(name string) (schema map[string]any, ok bool)

// Error is a schema the compiler refuses.
type Error struct {
	Path []string   // the keys from the top to the problem
	Node *yaml.Node // where it is written, when compiled with a node; else nil
	Msg  string
	// Name is the named schema not found, when that is the problem.
	Name string
}

// Error reads "a.b: message", the path first.
func (e *Error) Error() string {
	if len(e.Path) == 0 {
		return e.Msg
	}
	return strings.Join(e.Path, ".") + ": " + e.Msg
}

// types are Picoschema's scalar types.
var types = map[string]bool{"any": true, "boolean": true, "integer": true, "null": true, "number": true, "string": true}

// wildcard is the key of additionalProperties' schema.
const wildcard = "(*)"

// Compile compiles the schema v (a string, or a map[string]any as Meta
// holds it) into JSON Schema; nil or "" is no schema (nil). node, when not nil, is v's YAML as written:
// it gives the order of the keys (required lists them in that order; else
// keys are sorted) and the place of an Error. named resolves named
// schemas (nil: none is known). props are the top-level property names of
// an object schema, in order (the wildcard is none).
func Compile(v any, node *yaml.Node, named Named) (schema map[string]any, props []string, err error) {
	c := &compiler{named: named}
	node = deref(node)
	switch s := v.(type) {
	case nil:
		return nil, nil, nil
	case string:
		if s == "" {
			return nil, nil, nil // as the runtimes' !schema
		}
		out, err := c.scalar(s, node, nil)
		return out, nil, err
	case map[string]any:
		if t, ok := s["type"].(string); ok && (types[t] || t == "object" || t == "array") {
			return s, jsonProps(s, node), nil // JSON Schema already
		}
		if _, ok := s["properties"].(map[string]any); ok {
			out := maps.Clone(s)
			out["type"] = "object"
			return out, jsonProps(s, node), nil
		}
		return c.object(s, node, nil, 1)
	}
	return nil, nil, &Error{Node: node, Msg: fmt.Sprintf("a schema is a string or a mapping, not %s", kind(v))}
}

// MaxValues bounds the strings and mappings one schema may hold: a value
// built in Go may name one mapping many times, each time compiled anew.
const MaxValues = 100_000

type compiler struct {
	named Named
	count int // strings and mappings compiled
}

// value compiles a schema inside an object.
func (c *compiler) value(v any, n *yaml.Node, path []string, depth int) (map[string]any, error) {
	if c.count++; c.count > MaxValues {
		return nil, &Error{Path: path, Node: n, Msg: fmt.Sprintf("Picoschema of more than %d values", MaxValues)}
	}
	switch s := v.(type) {
	case string:
		return c.scalar(s, n, path)
	case map[string]any:
		out, _, err := c.object(s, n, path, depth+1)
		return out, err
	}
	return nil, &Error{Path: path, Node: n, Msg: fmt.Sprintf("Picoschema is made of strings and mappings, not %s", kind(v))}
}

// scalar compiles "type[, description]" or a named schema.
func (c *compiler) scalar(s string, n *yaml.Node, path []string) (map[string]any, error) {
	typ, desc := description(s)
	if !types[typ] {
		var schema map[string]any
		ok := false
		if c.named != nil {
			schema, ok = c.named(typ)
		}
		if !ok {
			e := &Error{Path: path, Node: n, Name: typ, Msg: fmt.Sprintf("%q is not a type (string, number, integer, boolean, null, any) nor a named schema known here", typ)}
			if strings.ContainsAny(s, "\n\r") && strings.Contains(s, ",") {
				e.Msg += " (a description cannot span lines: Dotprompt's runtimes read it all as a name)"
			}
			return nil, e
		}
		out := maps.Clone(schema)
		if out == nil {
			out = map[string]any{}
		}
		if desc != "" {
			out["description"] = desc
		}
		return out, nil
	}
	out := map[string]any{}
	if typ != "any" {
		out["type"] = typ
	}
	if desc != "" {
		out["description"] = desc
	}
	return out, nil
}

// object compiles a mapping: an object's properties.
func (c *compiler) object(m map[string]any, n *yaml.Node, path []string, depth int) (map[string]any, []string, error) {
	if depth > values.MaxDepth {
		return nil, nil, &Error{Path: path, Node: n, Msg: "Picoschema " + values.DepthMessage()}
	}
	props := map[string]any{}
	schema := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
	var required []any
	var order []string
	for _, k := range keys(m, n) {
		kn, vn := child(n, k)
		at := append(slices.Clip(path), k)
		if k == wildcard {
			ap, err := c.value(m[k], vn, at, depth)
			if err != nil {
				return nil, nil, err
			}
			schema["additionalProperties"] = ap
			continue
		}
		name, mod, hasMod := strings.Cut(k, "(")
		optional := strings.HasSuffix(name, "?")
		name = strings.TrimSuffix(name, "?")
		switch {
		case hasMod && !strings.HasSuffix(mod, ")"):
			return nil, nil, &Error{Path: at, Node: kn, Msg: fmt.Sprintf("the key %q opens a ( it does not close", k)}
		case name == "":
			return nil, nil, &Error{Path: at, Node: kn, Msg: fmt.Sprintf("the key %q names no property", k)}
		}
		if !optional {
			required = append(required, name)
		}
		order = append(order, name)
		if !hasMod {
			p, err := c.value(m[k], vn, at, depth)
			if err != nil {
				return nil, nil, err
			}
			if t, ok := p["type"].(string); ok && optional {
				p["type"] = []any{t, "null"}
			}
			props[name] = p
			continue
		}
		typ, desc := description(strings.TrimSuffix(mod, ")"))
		var p map[string]any
		switch typ {
		case "array":
			items, err := c.value(m[k], vn, at, depth)
			if err != nil {
				return nil, nil, err
			}
			p = map[string]any{"type": "array", "items": items}
			if optional {
				p["type"] = []any{"array", "null"}
			}
		case "object":
			var err error
			if p, err = c.value(m[k], vn, at, depth); err != nil {
				return nil, nil, err
			}
			if t, ok := p["type"].(string); ok && optional {
				p["type"] = []any{t, "null"}
			}
		case "enum":
			list, ok := m[k].([]any)
			if !ok {
				return nil, nil, &Error{Path: at, Node: vn, Msg: fmt.Sprintf("an enum's values are a list, not %s", kind(m[k]))}
			}
			list = slices.Clone(list)
			if optional && !slices.Contains(list, nil) {
				list = append(list, nil)
			}
			p = map[string]any{"enum": list}
		default:
			return nil, nil, &Error{Path: at, Node: kn, Msg: fmt.Sprintf("%q is not a modifier (want array, object or enum)", typ)}
		}
		if desc != "" {
			p["description"] = desc
		}
		props[name] = p
	}
	if len(required) > 0 {
		schema["required"] = required
	}
	return schema, order, nil
}

// description splits "type, description" at its first comma, skipping
// the spaces after it, as the runtimes' /(.*?), *(.*)$/ does: that
// pattern's "." matches no line break, so a string with one after its
// first comma is all type (a name).
func description(s string) (typ, desc string) {
	typ, desc, ok := strings.Cut(s, ",")
	if !ok || strings.ContainsAny(s, "\n\r\u2028\u2029") {
		return s, ""
	}
	return typ, strings.TrimLeft(desc, " ")
}

// jsonProps are the property names of a JSON Schema, in order.
func jsonProps(s map[string]any, n *yaml.Node) []string {
	p, ok := s["properties"].(map[string]any)
	if !ok {
		return nil
	}
	_, pn := child(n, "properties")
	return keys(p, pn)
}

// keys are m's keys in the order node has them (a key only a merge gives
// comes after, sorted), or sorted without a node.
func keys(m map[string]any, n *yaml.Node) []string {
	out := make([]string, 0, len(m))
	seen := make(map[string]bool, len(m))
	if n != nil && n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			if _, ok := m[k]; ok && !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	rest := make([]string, 0, len(m)-len(out))
	for k := range m {
		if !seen[k] {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

// child is the key and value nodes of key k in mapping node n (the last,
// as a decoder keeps it), or nils.
func child(n *yaml.Node, k string) (key, value *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := len(n.Content) - 2; i >= 0; i -= 2 {
		if n.Content[i].Value == k {
			return n.Content[i], deref(n.Content[i+1])
		}
	}
	return nil, nil
}

// deref looks through document and alias nodes.
func deref(n *yaml.Node) *yaml.Node {
	for range values.MaxDepth {
		switch {
		case n != nil && n.Kind == yaml.DocumentNode && len(n.Content) == 1:
			n = n.Content[0]
		case n != nil && n.Kind == yaml.AliasNode:
			n = n.Alias
		default:
			return n
		}
	}
	return nil
}

// kind names v's JSON kind for a message.
func kind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	case string:
		return "a string"
	case int, int64, float64:
		return "a number"
	}
	return fmt.Sprintf("a %T", v)
}
