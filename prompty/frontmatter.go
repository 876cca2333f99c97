package prompty

import (
	"bytes"

	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
	"go.yaml.in/yaml/v3"
)

// isDelimiter reports whether a line opens or closes front matter: "---" or
// "+++" with trailing blanks allowed (the spec allows either, unmatched).
// The opening line may also be indented (section 2.2's fourth vector); a
// closing one may not, as "  ---" can be a line of a YAML block scalar.
func isDelimiter(line []byte, opening bool) bool {
	if opening {
		line = bytes.TrimLeft(line, " \t\f\v")
	}
	line = bytes.TrimRight(line, " \t\f\v")
	return string(line) == "---" || string(line) == "+++"
}

// frontMatter is the front matter at the top of a file, decoded.
type frontMatter struct {
	node      *yaml.Node     // nil when empty or absent
	meta      map[string]any // nil when empty or absent
	yamlStart int            // offset of the YAML text
	body      int            // offset of the line after the closing delimiter
}

// splitFrontMatter finds front matter at the top of src[from:] (after
// blank lines only) and decodes it. Without front matter, the body is all
// of src[from:]. Offsets are src's, so that positions count from the start
// of the file even when from skips a byte order mark.
func splitFrontMatter(src []byte, from int) (frontMatter, error) {
	sc := lines.NewScanner(src[from:])
	open, yamlStart := -1, 0
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			if open >= 0 {
				return frontMatter{}, diag.Errorf(format, src, open, "front matter opened here is never closed (want a --- line)")
			}
			return frontMatter{body: from}, nil
		}
		s, e, next = s+from, e+from, next+from
		if open < 0 {
			if len(bytes.TrimSpace(src[s:e])) == 0 {
				continue
			}
			if !isDelimiter(src[s:e], true) {
				return frontMatter{body: from}, nil
			}
			open, yamlStart = s, next
			continue
		}
		if isDelimiter(src[s:e], false) {
			node, meta, err := yamlmeta.Decode(format, src, yamlStart, s)
			if err != nil {
				return frontMatter{}, err
			}
			if n := tooDeep(node, 0); n != nil {
				return frontMatter{}, diag.Errorf(format, src, yamlmeta.Offset(src, yamlStart, n), "front matter: %s", values.DepthMessage())
			}
			return frontMatter{node: node, meta: meta, yamlStart: yamlStart, body: next}, nil
		}
	}
}

// tooDeep returns the first mapping or sequence of n (aliases followed, as
// the decoder follows them) nested deeper than values.MaxDepth, when
// depth containers enclose n, or nil. It stops there, so its own stack is
// bounded.
func tooDeep(n *yaml.Node, depth int) *yaml.Node {
	if n == nil {
		return nil
	}
	for n.Kind == yaml.AliasNode && n.Alias != nil {
		n = n.Alias
	}
	if n.Kind == yaml.MappingNode || n.Kind == yaml.SequenceNode {
		if depth++; depth > values.MaxDepth {
			return n
		}
	}
	for _, c := range n.Content {
		if d := tooDeep(c, depth); d != nil {
			return d
		}
	}
	return nil
}
