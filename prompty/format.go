package prompty

import (
	"bytes"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is Prompty as a promptfmt.Format, for package formats. Parse
// reads a file as its role-boundary text; a template is loaded with Load
// or LoadFile and rendered with Prepare.
var Format promptfmt.Format = promptyFormat{}

type promptyFormat struct{}

func (promptyFormat) Name() string         { return format }
func (promptyFormat) Extensions() []string { return []string{".prompty"} }

// Sniff: the file starts with front matter, or some line of its start is
// a role boundary.
func (promptyFormat) Sniff(src []byte) bool {
	for line := range lines.Head(src) {
		if bytes.Equal(bytes.TrimRight(line, " \t\r"), []byte("---")) {
			return true
		}
		if _, ok, _ := parseMarker(string(line)); ok {
			return true
		}
	}
	return false
}

func (promptyFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (promptyFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}
