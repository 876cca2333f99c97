package promptfmt

import "io"

// Format is the face every format package shows the same way, so that
// the formats are one table: its name, the file extensions it reads, a
// test of content for extensions several formats share, and Parse and
// Write over this package's model. Each format package exports one as
// its Format variable; package formats lists them and finds one by name
// or by file. Parse and Write take the format's options and this
// package's (File, Limits, FS, OnWarning); another format's option is an
// error.
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
	Parse(src []byte, opts ...Option) (*Document, error)
	Write(w io.Writer, doc *Document, opts ...Option) error
}
