package prapti

import (
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is Prapti markdown as a promptfmt.Format, for package formats.
var Format promptfmt.Format = praptiFormat{}

type praptiFormat struct{}

func (praptiFormat) Name() string         { return format }
func (praptiFormat) Extensions() []string { return []string{".md"} }

// Sniff: some line of the file's start is a role heading or a
// configuration line.
func (praptiFormat) Sniff(src []byte) bool {
	for line := range lines.Head(src) {
		if _, _, _, ok := matchHeading(string(line)); ok {
			return true
		}
		if _, _, _, ok := matchConfig(string(line)); ok {
			return true
		}
	}
	return false
}

func (praptiFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (praptiFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}
