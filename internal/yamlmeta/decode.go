package yamlmeta

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/promptfmt/promptfmt/internal/values"
	"go.yaml.in/yaml/v3"
)

// NodeError is a problem with the value of a node, at the node's YAML
// line and column.
type NodeError struct {
	Line, Column int
	Msg          string
	Hint         string // how to write it instead, when that helps
}

// Error reads "line N: message".
func (e *NodeError) Error() string { return fmt.Sprintf("line %d: %s", e.Line, e.Msg) }

// DecodeNode decodes front matter into the model's JSON-like values:
// maps with string keys, []any, string, int64, float64, bool and nil.
// Timestamps and binary scalars stay the text they were written as (a
// time.Time or bytes that are not UTF-8 would not survive a round trip).
//
// It walks the node itself rather than calling yaml.v3's Node.Decode,
// whose check for duplicate keys compares every key of a mapping with
// every other: a mapping of 50,000 keys took seconds. Here a duplicate is
// found through a Go map, and each scalar is still resolved by yaml.v3.
// Aliases are followed and merge keys (<<) merged, within a budget of
// expanded nodes proportional to the document, so that an alias bomb
// fails fast instead of filling memory.
//
// The values are JSON values (internal/values): a float that is not finite
// (.nan, .inf, -.Inf, and a plain number too large for a float64, such as
// 1e400, which yaml.v3 would read as a string) is an error at its node,
// and so is a sequence or mapping nested deeper than values.MaxDepth
// (aliases count as the nodes they stand for).
func DecodeNode(root *yaml.Node) (map[string]any, error) { return decodeNode(root, 0) }

// decodeNode is DecodeNode for YAML whose first line is line 1+lineBase of
// its file, so that messages can name other lines as the file numbers them.
func decodeNode(root *yaml.Node, lineBase int) (map[string]any, error) {
	d := &decoder{budget: 10*countNodes(root) + 10_000, lineBase: lineBase}
	v, err := d.value(root)
	if err != nil || v == nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, &NodeError{Line: root.Line, Column: root.Column, Msg: "want a mapping of keys to values"}
	}
	return m, nil
}

func countNodes(n *yaml.Node) int {
	count := 1
	for _, c := range n.Content {
		count += countNodes(c)
	}
	return count
}

type decoder struct {
	budget   int // nodes left to expand
	lineBase int
	depth    int // sequences and mappings open
}

func (d *decoder) value(n *yaml.Node) (any, error) {
	if d.budget--; d.budget < 0 {
		return nil, &NodeError{Line: n.Line, Column: n.Column, Msg: "aliases expand to far more than the document holds"}
	}
	if n.Kind == yaml.SequenceNode || n.Kind == yaml.MappingNode {
		if d.depth++; d.depth > values.MaxDepth {
			return nil, &NodeError{Line: n.Line, Column: n.Column, Msg: values.DepthMessage()}
		}
		defer func() { d.depth-- }()
	}
	switch n.Kind {
	case yaml.DocumentNode:
		if len(n.Content) == 0 {
			return nil, nil
		}
		return d.value(n.Content[0])
	case yaml.AliasNode:
		return d.value(n.Alias)
	case yaml.ScalarNode:
		return scalar(n)
	case yaml.SequenceNode:
		out := make([]any, len(n.Content))
		for i, c := range n.Content {
			v, err := d.value(c)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case yaml.MappingNode:
		return d.mapping(n)
	}
	return nil, &NodeError{Line: n.Line, Column: n.Column, Msg: "unknown YAML node"}
}

func (d *decoder) mapping(n *yaml.Node) (map[string]any, error) {
	out := make(map[string]any, len(n.Content)/2)
	keys := make(map[string]*yaml.Node, len(n.Content)/2)
	var merges []*yaml.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		for k.Kind == yaml.AliasNode {
			k = k.Alias
		}
		if k.Kind == yaml.ScalarNode && k.ShortTag() == "!!merge" {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode || k.ShortTag() != "!!str" {
			return nil, &NodeError{Line: k.Line, Column: k.Column, Msg: "a key that is not a string"}
		}
		if first, dup := keys[k.Value]; dup {
			return nil, &NodeError{Line: n.Content[i].Line, Column: n.Content[i].Column, Msg: fmt.Sprintf("mapping key %q already defined at line %d", k.Value, first.Line+d.lineBase)}
		}
		keys[k.Value] = n.Content[i]
		val, err := d.value(v)
		if err != nil {
			return nil, err
		}
		out[k.Value] = val
	}
	// A merged key never replaces one written in the mapping, nor one
	// merged before it (YAML's merge key rules).
	for _, m := range merges {
		if err := d.merge(out, m); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (d *decoder) merge(out map[string]any, m *yaml.Node) error {
	for m.Kind == yaml.AliasNode {
		m = m.Alias
	}
	switch m.Kind {
	case yaml.MappingNode:
		v, err := d.value(m)
		if err != nil {
			return err
		}
		for k, x := range v.(map[string]any) {
			if _, ok := out[k]; !ok {
				out[k] = x
			}
		}
		return nil
	case yaml.SequenceNode:
		for _, c := range m.Content {
			for c.Kind == yaml.AliasNode {
				c = c.Alias
			}
			if c.Kind != yaml.MappingNode {
				return &NodeError{Line: c.Line, Column: c.Column, Msg: "a merge key (<<) needs a mapping or a list of mappings"}
			}
			if err := d.merge(out, c); err != nil {
				return err
			}
		}
		return nil
	}
	return &NodeError{Line: m.Line, Column: m.Column, Msg: "a merge key (<<) needs a mapping or a list of mappings"}
}

// scalar resolves one scalar as yaml.v3 does, but keeps timestamps and
// binary as text and makes integers int64.
func scalar(n *yaml.Node) (any, error) {
	switch n.ShortTag() {
	case "!!str":
		if n.Style == 0 && floatLike.MatchString(n.Value) {
			// A plain number yaml.v3 read as a string, since it is too
			// large for a float64.
			if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); math.IsInf(f, 0) && err != nil {
				return nil, nonFinite(n, f)
			}
		}
		return n.Value, nil
	case "!!timestamp", "!!binary":
		return n.Value, nil
	case "!!null":
		return nil, nil
	case "!!float":
		if f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); math.IsInf(f, 0) && err != nil {
			return nil, nonFinite(n, f) // !!float 1e400, which yaml.v3 cannot decode
		}
	}
	var v any
	if err := n.Decode(&v); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case int:
		return int64(x), nil
	case float64:
		if values.CheckFloat(x) != "" {
			return nil, nonFinite(n, x)
		}
	}
	return v, nil
}

// floatLike is a plain scalar YAML would read as a float if it fit.
var floatLike = regexp.MustCompile(`^[-+]?(\.[0-9_]+|[0-9][0-9_]*(\.[0-9_]*)?)([eE][-+]?[0-9]+)?$`)

func nonFinite(n *yaml.Node, f float64) *NodeError {
	return &NodeError{Line: n.Line, Column: n.Column, Msg: values.CheckFloat(f), Hint: values.NonFiniteHint}
}
