package promptfmt

import "io"

// Format is the face every format package shows the same way, so that
// the formats are one table: its name, the file extensions it reads, a
// test of content for extensions several formats share, and Parse and
// Write over this package's model. Each format package exports one as
// its Format variable; package formats lists them and finds one by name
// or by file. A format's own settings (stf.DefaultRole, a template's
// inputs) stay in its package's functions, which Parse and Write call
// with their defaults.
type Format interface {
	// Name is the format's name, as -f takes it: "stf", "prapti", ...
	Name() string
	// Extensions are the file extensions the format reads, lower case,
	// with the dot; the first is the one its files are written with.
	Extensions() []string
	// Sniff reports whether src reads as a file of this format and of no
	// other that shares one of its extensions: a quick look at the start
	// of src, not a parse.
	Sniff(src []byte) bool
	Parse(src []byte) (*Document, error)
	Write(w io.Writer, doc *Document) error
}
