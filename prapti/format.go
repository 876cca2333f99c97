package prapti

import (
	"errors"
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
	if err := notYet(opts); err != nil {
		return nil, err
	}
	return Parse(src)
}

func (praptiFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if err := notYet(opts); err != nil {
		return err
	}
	return Write(w, doc)
}

// notYet refuses options until this package's functions take promptfmt.Option.
func notYet(opts []promptfmt.Option) error {
	if len(opts) > 0 {
		return errors.New("prapti: options through Format are not taken yet")
	}
	return nil
}
