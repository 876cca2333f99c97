package stf

import (
	"errors"
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
	if err := notYet(opts); err != nil {
		return nil, err
	}
	return Parse(src)
}

func (stfFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if err := notYet(opts); err != nil {
		return err
	}
	return Write(w, doc)
}

// notYet refuses options until this package's functions take promptfmt.Option.
func notYet(opts []promptfmt.Option) error {
	if len(opts) > 0 {
		return errors.New("stf: options through Format are not taken yet")
	}
	return nil
}
