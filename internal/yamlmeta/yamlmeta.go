// Package yamlmeta reads and writes the YAML front matter of the formats
// that have it (Prompty, prompt files) as the model's Meta: JSON-like
// values, with the yaml.Node kept so that a rewrite keeps the author's key
// order, comments and style.
package yamlmeta

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/values"
	"go.yaml.in/yaml/v3"
)

var yamlLine = regexp.MustCompile(`^yaml: (?:unmarshal errors:\n\s*)?(?:line (\d+): )?`)

// Decode decodes the YAML front matter src[start:end] of a file in the
// given format; start is the start of a line. It returns nil for empty
// front matter. Errors are ParseErrors positioned in src.
func Decode(format string, src []byte, start, end int) (*yaml.Node, map[string]any, error) {
	firstLine, _ := lines.Position(src, start)
	fail := func(line, col int, msg string) *promptfmt.ParseError {
		off := start
		if line > 0 {
			off = offset(src, firstLine, line, col)
		}
		return diag.Errorf(format, src, off, "front matter: %s", msg)
	}
	if node, ok := flat(src[start:end]); ok {
		meta, err := decodeNode(node, firstLine-1)
		if err == nil {
			return node, meta, nil
		}
	}
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(src[start:end]))
	err := dec.Decode(&root)
	if err == io.EOF {
		return nil, nil, nil
	}
	if err == nil { // yaml.v3 would silently ignore a second document
		var extra yaml.Node
		if e := dec.Decode(&extra); e == nil {
			return nil, nil, fail(extra.Line, extra.Column, "a second YAML document would be ignored (a '...' or '---' line ended the first)")
		} else if e != io.EOF {
			err = e
		}
	}
	if err != nil {
		line, msg := yamlError(err)
		return nil, nil, fail(line, 1, msg)
	}
	if root.Kind == 0 { // empty front matter
		return nil, nil, nil
	}
	top := root.Content[0]
	if top.Kind != yaml.MappingNode {
		return nil, nil, fail(top.Line, top.Column, "want a mapping of keys to values")
	}
	if k := nonStringKey(top); k != nil {
		if k.Kind != yaml.ScalarNode {
			return nil, nil, fail(k.Line, k.Column, "a key written as a sequence or mapping is not a string")
		}
		return nil, nil, fail(k.Line, k.Column, fmt.Sprintf("key %s is not a string", k.Value))
	}
	meta, err := decodeNode(&root, firstLine-1)
	var ne *NodeError
	if errors.As(err, &ne) {
		e := fail(ne.Line, ne.Column, ne.Msg)
		e.Hint = ne.Hint
		return nil, nil, e
	}
	if err != nil {
		line, msg := yamlError(err)
		if line == 0 {
			return nil, nil, fail(top.Line, top.Column, msg)
		}
		return nil, nil, fail(line, 1, msg)
	}
	return &root, meta, nil
}

// yamlError splits a yaml.v3 error message into its YAML line (0 when it
// names none) and the rest.
func yamlError(err error) (int, string) {
	msg, line := err.Error(), 0
	if m := yamlLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
	}
	return line, msg
}

// nonStringKey finds a mapping key that would not decode to a string (JSON,
// and so Document.Meta, has only string keys).
func nonStringKey(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := n.Content[i]; k.Kind != yaml.ScalarNode || k.Tag != "!!str" && k.Tag != "!!merge" {
				return k
			}
		}
	}
	for _, c := range n.Content {
		if k := nonStringKey(c); k != nil {
			return k
		}
	}
	return nil
}

// offset is the offset of line and col (1-based, col in characters) of
// YAML whose line 1 is the line firstLine of src.
func offset(src []byte, firstLine, line, col int) int {
	off := lineStartOffset(src, firstLine+line-1)
	for ; col > 1 && off < len(src) && src[off] != '\n'; col-- {
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	return off
}

// lineStartOffset returns the offset of the 1-based line n of src.
func lineStartOffset(src []byte, n int) int {
	sc := lines.NewScanner(src)
	s := 0
	for i := 1; i <= n; i++ {
		var ok bool
		if s, _, _, ok = sc.Next(); !ok {
			return len(src)
		}
	}
	return s
}

// Encode returns meta as YAML. It is the author's node (kept, a
// Document's MetaNode: a *yaml.Node, else nothing) when that still holds
// the same values (keeping order and comments), else a fresh mapping with
// sorted keys. Values that are not JSON-like are an error.
func Encode(meta map[string]any, kept any) (string, error) {
	node, _ := kept.(*yaml.Node)
	if p := jsonvalue.NotJSONLike(meta); p != "" {
		return "", fmt.Errorf("value at %s is not JSON-like data", p)
	}
	if p, msg := nonFiniteAt(meta, ""); p != "" {
		return "", fmt.Errorf("value at %s: %s", p, msg) // Decode would refuse it
	}
	if out, ok := authorYAML(meta, node); ok {
		return out, nil
	}
	out, err := encode(Node(meta))
	if err != nil {
		return "", err
	}
	var back yaml.Node
	if err := yaml.Unmarshal([]byte(out), &back); err != nil {
		return "", fmt.Errorf("the YAML written does not read back: %v", err)
	}
	if m, err := DecodeNode(&back); err != nil || !promptfmt.Equal(&promptfmt.Document{Meta: m}, &promptfmt.Document{Meta: meta}) {
		return "", fmt.Errorf("the YAML written does not read back as the same values")
	}
	return out, nil
}

// authorYAML encodes node when it still decodes to meta, its
// encoding reads back as doc.Meta, and that encoding is a fixed point.
// yaml.v3 does not always re-encode what it read faithfully: `{A}` (A is
// null) comes out as `{A: ”}`, and a comment after an empty value gains a
// blank line each time. A value must never change, and canonical output
// must not drift from one Write to the next; the fresh mapping keeps both.
func authorYAML(meta map[string]any, node *yaml.Node) (string, bool) {
	same := func(n *yaml.Node) bool {
		m, err := DecodeNode(n)
		return err == nil && promptfmt.Equal(&promptfmt.Document{Meta: m}, &promptfmt.Document{Meta: meta})
	}
	if node == nil || !same(node) {
		return "", false // none, or stale: Meta was changed after parsing
	}
	out, err := encode(node)
	if err != nil {
		return "", false
	}
	var again yaml.Node
	if yaml.Unmarshal([]byte(out), &again) != nil || !same(&again) {
		return "", false
	}
	if out2, err := encode(&again); err != nil || out2 != out {
		return "", false
	}
	return out, true
}

func encode(node *yaml.Node) (string, error) {
	var out strings.Builder
	enc := yaml.NewEncoder(&out)
	enc.SetIndent(2)
	err := enc.Encode(node)
	return out.String(), err
}

// Node builds the YAML of a JSON-like value with keys sorted. It spells
// numbers itself so that each reads back as the type it was: a whole float
// keeps a ".0" (YAML would otherwise read 8 back as an integer).
func Node(v any) *yaml.Node {
	scalar := func(tag, value string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: value}
	}
	switch v := v.(type) {
	case nil:
		return scalar("!!null", "null")
	case string:
		n := scalar("!!str", v)
		if strings.TrimSpace(v) != v || strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }) {
			n.Style = yaml.DoubleQuotedStyle // yaml.v3 writes some such plain or block scalars it cannot read back
		}
		return n
	case bool:
		return scalar("!!bool", strconv.FormatBool(v))
	case float32:
		return Node(float64(v))
	case float64:
		switch {
		case math.IsNaN(v):
			return scalar("!!float", ".nan")
		case math.IsInf(v, 1):
			return scalar("!!float", ".inf")
		case math.IsInf(v, -1):
			return scalar("!!float", "-.inf")
		}
		return scalar("!!float", FloatText(v))
	case map[string]any:
		n := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			n.Content = append(n.Content, scalar("!!str", k), Node(v[k]))
		}
		return n
	case []any:
		n := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
		for _, x := range v {
			n.Content = append(n.Content, Node(x))
		}
		return n
	}
	return scalar("!!int", fmt.Sprint(v)) // the integer types NotJSONLike lets through
}

// nonFiniteAt returns the path and message of the first float in v that is
// not finite, or "".
func nonFiniteAt(v any, path string) (string, string) {
	switch v := v.(type) {
	case float32:
		return nonFiniteAt(float64(v), path)
	case float64:
		if msg := values.CheckFloat(v); msg != "" {
			return cmp.Or(path, "."), msg
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if p, msg := nonFiniteAt(v[k], path+"."+k); p != "" {
				return p, msg
			}
		}
	case []any:
		for i, x := range v {
			if p, msg := nonFiniteAt(x, fmt.Sprintf("%s[%d]", path, i)); p != "" {
				return p, msg
			}
		}
	}
	return "", ""
}

// FloatText spells a finite float so that it reads back as a float.
func FloatText(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// Offset returns the offset in src of node n of the front matter that
// Decode read from src[start:]: its line and column, which yaml.v3 counts
// in characters.
func Offset(src []byte, start int, n *yaml.Node) int {
	return LineColOffset(src, start, n.Line, n.Column)
}

// LineColOffset returns the offset in src of the 1-based line and column
// (in characters) of front matter that starts at src[start:], as a YAML
// reader reports them.
func LineColOffset(src []byte, start, line, col int) int {
	firstLine, _ := lines.Position(src, start)
	return offset(src, firstLine, line, col)
}

// KeyNode is the key node of path in the mapping n (a document node is
// looked into, aliases followed), or the deepest key found on the way;
// nil when not even the first is there (a key a merge brought in): where
// a front matter's setting was written, for its line.
func KeyNode(n *yaml.Node, path []string) *yaml.Node {
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	var key *yaml.Node
	for _, k := range path {
		for n != nil && n.Kind == yaml.AliasNode {
			n = n.Alias
		}
		if n == nil || n.Kind != yaml.MappingNode {
			return key
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				key, next = n.Content[i], n.Content[i+1]
			}
		}
		if next == nil {
			return key
		}
		n = next
	}
	return key
}
