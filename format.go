package promptfmt

import (
	"context"
	"io"
)

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

// TemplateFormat is a Format whose files are templates (Prompty, PDL):
// besides reading a file as text (Parse), it loads one and renders it
// with inputs into what a model receives.
type TemplateFormat interface {
	Format
	// IsTemplate reports whether src uses template syntax that writing
	// it back (Parse, then Write) would lose.
	IsTemplate(src []byte) bool
	// Load reads a template; the files it names (media, includes) come
	// from the FS option. Syntax errors are ParseErrors.
	Load(src []byte, opts ...Option) (Template, error)
}

// Template is a loaded template file.
type Template interface {
	// Inputs are the names of the inputs the file declares, in order;
	// nil for a format whose files declare none (PDL).
	Inputs() []string
	// Render renders the template with inputs and returns the document a
	// model receives: its messages, and the file's metadata. A canceled
	// ctx stops the rendering (as its limits do) with an error. Inputs
	// are JSON-like values or any Go data the engine reflects over; maps,
	// lists and structs nested more than 1000 levels deep, or a map or
	// list that contains itself (which printing would follow without
	// end), are an error.
	Render(ctx context.Context, inputs map[string]any, opts ...Option) (*Document, error)
}
