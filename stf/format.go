package stf

import (
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is STF as a promptfmt.Format, for package formats.
var Format promptfmt.Format = stfFormat{}

type stfFormat struct{}

func (stfFormat) Name() string         { return format }
func (stfFormat) Extensions() []string { return []string{".stf"} }

// Sniff: the first line that is not blank is a command or a comment.
func (stfFormat) Sniff(src []byte) bool {
	for line := range lines.Head(src) {
		return line[0] == ';' && (len(line) == 1 || line[1] != ';')
	}
	return false
}

func (stfFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (stfFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}
