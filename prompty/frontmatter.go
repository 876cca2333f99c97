package prompty

import (
	"bytes"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
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
			node, meta, err := yamlmeta.Decode(format, src, yamlStart, s)
			return node, meta, next, err
		}
	}
}
