package pdl

import (
	"errors"
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
	if err := notYet(opts); err != nil {
		return nil, err
	}
	return Parse(src)
}

func (pdlFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if err := notYet(opts); err != nil {
		return err
	}
	return Write(w, doc)
}

// notYet refuses options until this package's functions take promptfmt.Option.
func notYet(opts []promptfmt.Option) error {
	if len(opts) > 0 {
		return errors.New("pdl: options through Format are not taken yet")
	}
	return nil
}
