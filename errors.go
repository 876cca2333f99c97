package promptfmt

import (
	"fmt"

	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// ParseError is the one positioned error of every format in this module.
// Line and Col are 1-based (Col counts bytes, as Go's own tools do); Offset
// is the 0-based byte offset into the source. Use errors.As to get it.
type ParseError struct {
	Format string // format name: "prompty", "stf", ...
	// File is the name of the file read, when the caller sets it (a
	// parser sees bytes, not files): Error then starts with it, as Go's
	// own tools print a position.
	File   string
	Line   int
	Col    int
	Offset int
	Msg    string
	Err    error // underlying cause, if any
	// Hint, when set, says how to fix the input ("a text line starting
	// with ';' is written ';;'"); Error leaves it out.
	Hint string
}

// Error reads "file:line:col: message" when File is set
// ("chat.stf:12:3: block comment /* is never closed"), else with the
// format's name in the file's place ("stf:12:3: ...").
func (e *ParseError) Error() string {
	where := e.Format
	if e.File != "" {
		where = e.File
	}
	msg := e.Message()
	if e.Line == 0 {
		return where + ": " + msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", where, e.Line, e.Col, msg)
}

// Message returns the message without the position: Msg, then the cause.
func (e *ParseError) Message() string {
	switch {
	case e.Err == nil:
		return e.Msg
	case e.Msg == "":
		return e.Err.Error()
	}
	return e.Msg + ": " + e.Err.Error()
}

// Unwrap returns the underlying cause.
func (e *ParseError) Unwrap() error { return e.Err }

// Warning is a non-fatal finding of a parser, positioned like a ParseError.
// Libraries return warnings on the Document; they never print them.
type Warning struct {
	Format string `json:"format"`
	File   string `json:"file,omitempty"` // as ParseError's File
	Line   int    `json:"line"`
	Col    int    `json:"col"`
	Offset int    `json:"offset"`
	Msg    string `json:"message"`
	Hint   string `json:"hint,omitempty"` // how to fix it, when that helps
}

// String reads like a ParseError: "file:line:col: message", or with the
// format's name when File is not set.
func (w Warning) String() string {
	return (&ParseError{Format: w.Format, File: w.File, Line: w.Line, Col: w.Col, Msg: w.Msg}).Error()
}

// UnsupportedError is what a writer returns for something its format cannot
// express; it never drops such a thing silently. Several are joined with
// errors.Join, one for each thing.
type UnsupportedError struct {
	Format string
	Index  int // 0-based index of the message, -1 for the document itself
	Line   int // the message's source line, 0 when unknown
	What   string
	// Thing, Part and Key say exactly what cannot be expressed, so that a
	// program can change that and nothing else ([Adapt] does).
	Thing Thing
	Part  int    // index of the content part, for ThingPart; of the comment, for ThingComment
	Key   string // the metadata key, for ThingMeta and ThingMetadata ("" for all of it); the field, for ThingRequest
	// TextLine is, for ThingText, the 1-based line of the message's text
	// the error is about; 0 for the whole text.
	TextLine int
	// Nearest is, for ThingText, the text nearest the message's that the
	// format can hold, when the writer knows it (a prompt file's body with
	// a line break added at its end); nil otherwise.
	Nearest *string
	// NearestRequest is, for ThingRequest, a request whose field Key is
	// the value nearest the document's that the format can hold, when the
	// writer knows one better than dropping the field (an output schema
	// given the name a provider needs); nil otherwise.
	NearestRequest *Request
	// NearestPart is, for ThingPart, the part nearest the refused one that
	// the format holds exactly, when the writer knows it (an image's data
	// and media type as one data: URI); nil otherwise.
	NearestPart *ContentPart
}

// Error reads "prompty: message 2 (line 14): an image part cannot be expressed".
func (e *UnsupportedError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Format, e.where(), e.What)
}

func (e *UnsupportedError) where() string {
	if e.Index < 0 {
		return "document"
	}
	where := fmt.Sprintf("message %d", e.Index+1)
	if e.Line > 0 {
		where += fmt.Sprintf(" (line %d)", e.Line)
	}
	return where
}

// Thing is what of a document an UnsupportedError is about.
type Thing int

// The things a format may be unable to express.
const (
	ThingOther    Thing = iota // anything else: nothing a program can change
	ThingMeta                  // the document's metadata (Key, or all of it)
	ThingMessages              // how many messages there are, or their order
	ThingRole                  // the message's role
	ThingName                  // the message's name
	ThingMetadata              // the message's metadata (Key, or all of it)
	ThingDisabled              // the message is disabled
	ThingPart                  // content part Part
	ThingText                  // the text: its parts, white space at its ends or line breaks
	ThingComment               // comment Part of the document's Comments
	// ThingRequest is a field of the document's Request: Key names it
	// (FieldTemperature, ...); for FieldTools, Part is the tool's index,
	// or -1 for all of them.
	ThingRequest
)

// CommentErrors returns an UnsupportedError (ThingComment) for each of
// doc's comments not written in format's syntax: a writer of a format that
// cannot hold them joins these to its errors, so no comment is dropped
// silently.
func CommentErrors(doc *Document, format string) []error {
	var errs []error
	for i, c := range doc.Comments {
		if c.Format == format {
			continue
		}
		text, cut := abbrev.Cut(lines.First(c.Text), 40)
		if cut {
			text += "…"
		}
		errs = append(errs, &UnsupportedError{Format: format, Index: -1, Line: c.Line, Thing: ThingComment, Part: i,
			What: fmt.Sprintf("the %s comment %q (%s files hold no comments of another format)", c.Format, text, format)})
	}
	return errs
}

// leaves returns the errors err joins (errors.Join, however nested), or
// err itself: each a writer's or parser's one problem.
func leaves(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, leaves(e)...)
	}
	return out
}
