package pdl

import (
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is PDL as a promptfmt.Format, for package formats. Parse reads a
// file as text (see Parse); a template is loaded with Load.
var Format promptfmt.Format = pdlFormat{}

type pdlFormat struct{}

func (pdlFormat) Name() string         { return "pdl" }
func (pdlFormat) Extensions() []string { return []string{".pdl"} }

// Sniff: some line of the file's start is a turn separator.
func (pdlFormat) Sniff(src []byte) bool {
	for line := range lines.Head(src) {
		if role, _, _ := separator(string(line)); role != "" {
			return true
		}
	}
	return false
}

func (pdlFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (pdlFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}
