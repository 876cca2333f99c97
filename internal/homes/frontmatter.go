package homes

import (
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// TakeFrontMatter is Take for a YAML front matter: doc.Meta's settings
// move into doc.Request, each at the line of its key in root (the front
// matter's mapping, which starts at yamlStart in src); a value the Request
// cannot hold stays in Meta, with a warning of format at its key. With no
// src (a rendered document), nothing is positioned.
func TakeFrontMatter(format string, doc *promptfmt.Document, src []byte, root *yaml.Node, yamlStart int, hs []Home) *Kept {
	if len(doc.Meta) == 0 {
		return nil
	}
	offset := func(path []string) (int, bool) {
		if n := yamlmeta.KeyNode(root, path); n != nil && src != nil {
			return yamlmeta.Offset(src, yamlStart, n), true
		}
		return yamlStart, false
	}
	rest, kept, problems := Take(doc.Meta, hs, &doc.Request, func(path []string) int {
		if off, ok := offset(path); ok {
			line, _ := lines.Position(src, off)
			return line
		}
		return 0
	})
	doc.Meta = rest
	for _, p := range problems {
		off, _ := offset(p.Path)
		doc.Warnings = append(doc.Warnings, diag.Warnf(format, src, off, "front matter: %s is not read as the request's %s: %v (it stays in the front matter)",
			strings.Join(p.Path, "."), p.Field, p.Err))
	}
	return kept
}
