package prompty

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"go.yaml.in/yaml/v3"
)

// isDelimiter reports whether a line opens or closes front matter: "---" or
// "+++" with trailing blanks allowed (the spec allows either, unmatched).
func isDelimiter(line []byte) bool {
	line = bytes.TrimRight(line, " \t\f\v")
	return string(line) == "---" || string(line) == "+++"
}

// splitFrontMatter finds front matter at the top of src (after blank lines
// only) and decodes it. It returns nil and 0 when there is none, else the
// mapping and the offset of the body.
func splitFrontMatter(src []byte) (*yaml.Node, map[string]any, int, error) {
	sc := lines.NewScanner(src)
	open, yamlStart := -1, 0
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			if open >= 0 {
				return nil, nil, 0, promptfmt.Errorf(format, src, open, "front matter opened here is never closed (want a --- line)")
			}
			return nil, nil, 0, nil
		}
		if open < 0 {
			if len(bytes.TrimSpace(src[s:e])) == 0 {
				continue
			}
			if !isDelimiter(src[s:e]) {
				return nil, nil, 0, nil
			}
			open, yamlStart = s, next
			continue
		}
		if isDelimiter(src[s:e]) {
			node, meta, err := decodeFrontMatter(src, open, src[yamlStart:s])
			return node, meta, next, err
		}
	}
}

var yamlLine = regexp.MustCompile(`^yaml: (?:line (\d+): )?`)

// decodeFrontMatter decodes the YAML between the delimiters; open is the
// offset of the opening delimiter, so YAML line n is file line open+n.
func decodeFrontMatter(src []byte, open int, y []byte) (*yaml.Node, map[string]any, error) {
	openLine, _ := promptfmt.Position(src, open)
	fail := func(line, col int, msg string) error {
		off := 0
		if line > 0 {
			off = lineStartOffset(src, openLine+line) + col - 1
		}
		return promptfmt.Errorf(format, src, off, "front matter: %s", msg)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(y, &root); err != nil {
		msg, line := err.Error(), 0
		if m := yamlLine.FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = msg[len(m[0]):]
		}
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
		return nil, nil, fail(k.Line, k.Column, fmt.Sprintf("key %s is not a string", k.Value))
	}
	meta, err := decodeMeta(&root)
	if err != nil {
		return nil, nil, fail(top.Line, top.Column, err.Error())
	}
	return &root, meta, nil
}

// decodeMeta decodes front matter into the model's JSON-like values,
// leaving the node as it was.
func decodeMeta(root *yaml.Node) (map[string]any, error) {
	retagged := keepAsWritten(root, nil)
	defer func() {
		for _, r := range retagged {
			r.node.Tag = r.tag
		}
	}()
	var meta map[string]any
	if err := root.Decode(&meta); err != nil {
		return nil, err
	}
	if meta == nil {
		return nil, nil
	}
	return normalize(meta).(map[string]any), nil
}

type retag struct {
	node *yaml.Node
	tag  string
}

// keepAsWritten makes timestamps and binary scalars decode as the text they
// were written as (Meta is JSON-like, and neither a time.Time nor bytes
// that are not UTF-8 would survive a round trip). It returns what it
// changed, for the caller to restore.
func keepAsWritten(n *yaml.Node, changed []retag) []retag {
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!timestamp" || n.Tag == "!!binary") {
		changed = append(changed, retag{n, n.Tag})
		n.Tag = "!!str"
	}
	for _, c := range n.Content {
		changed = keepAsWritten(c, changed)
	}
	return changed
}

// normalize gives decoded YAML the model's JSON-like types: int becomes
// int64.
func normalize(v any) any {
	switch v := v.(type) {
	case int:
		return int64(v)
	case map[string]any:
		for k, x := range v {
			v[k] = normalize(x)
		}
	case []any:
		for i, x := range v {
			v[i] = normalize(x)
		}
	}
	return v
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
