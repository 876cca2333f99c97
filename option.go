package promptfmt

import (
	"errors"
	"fmt"
	"io/fs"
)

// Option is a setting of a format's Parse, Write or template: every
// format's functions take ...Option, so they sit in one table (Format).
// The options this package makes (File, Limits, FS, OnWarning) are for
// every format; a format package makes its own with NewOption
// (stf.DefaultRole). An option made for another format is an error, so a
// misplaced one is never ignored silently.
type Option struct {
	format string           // "" for every format
	name   string           // for errors: "stf.DefaultRole"
	apply  func(target any) // gets *Settings, or the format's own settings
}

// Settings are what the options of this package set, for every format.
type Settings struct {
	// File names the file read: positioned errors and warnings carry it.
	File string
	// Limits bound the work of rendering a template.
	Limits TemplateLimits
	// FS is where a template reads the files it names (media, includes,
	// ${file:} references); nil for none.
	FS fs.FS
	// OnWarning, when set, is told what a template's rendering leaves out
	// without failing (an input it never places).
	OnWarning func(Warning)
	// Send is set by the option Send.
	Send bool
}

// Send says that Write writes the document to send it to a model, not to
// keep it as a file: a writer of a provider's request body then writes
// what its provider takes in the form it takes it (an image's data and
// media type as one data: URI for OpenAI, a data: URI as data and media
// type for Anthropic), since the model reads the same, where without Send
// it refuses what would not read back as the same document. Use it on
// what [Document.ForModel] returns; formats of files ignore it.
func Send() Option {
	return Option{name: "promptfmt.Send", apply: func(t any) { t.(*Settings).Send = true }}
}

// File names the file read, for the errors and warnings of Parse.
func File(name string) Option {
	return Option{name: "promptfmt.File", apply: func(t any) { t.(*Settings).File = name }}
}

// Limits bounds the work of rendering a template (zero fields take their
// defaults).
func Limits(l TemplateLimits) Option {
	return Option{name: "promptfmt.Limits", apply: func(t any) { t.(*Settings).Limits = l }}
}

// FS is where a template reads the files it names; confinement is the
// file system's (os.DirFS(dir), or an embed.FS).
func FS(fsys fs.FS) Option {
	return Option{name: "promptfmt.FS", apply: func(t any) { t.(*Settings).FS = fsys }}
}

// OnWarning is told what rendering leaves out without failing.
func OnWarning(f func(Warning)) Option {
	return Option{name: "promptfmt.OnWarning", apply: func(t any) { t.(*Settings).OnWarning = f }}
}

// NewOption makes an option of format: name is how errors call it
// ("stf.DefaultRole"), and apply sets it on the target a format's
// ApplyOptions call gives (its own settings).
func NewOption(format, name string, apply func(target any)) Option {
	return Option{format: format, name: name, apply: apply}
}

// ApplyOptions applies opts for format: this package's options to s, the
// format's own to target. An option made for another format is an error
// naming it.
func ApplyOptions(format string, s *Settings, target any, opts []Option) error {
	var errs []error
	for _, o := range opts {
		switch {
		case o.apply == nil:
			errs = append(errs, errors.New("a zero promptfmt.Option"))
		case o.format == "":
			o.apply(s)
		case o.format == format:
			o.apply(target)
		default:
			errs = append(errs, fmt.Errorf("%s is an option of %s, not of %s", o.name, o.format, format))
		}
	}
	return errors.Join(errs...)
}

// Finish puts s.File on every ParseError in err (joined ones too) and on
// doc's warnings: what a format's Parse returns through.
func (s *Settings) Finish(doc *Document, err error) (*Document, error) {
	if s.File == "" {
		return doc, err
	}
	setFile(err, s.File)
	if doc != nil {
		for i := range doc.Warnings {
			if doc.Warnings[i].File == "" {
				doc.Warnings[i].File = s.File
			}
		}
	}
	return doc, err
}

func setFile(err error, file string) {
	for _, e := range leaves(err) {
		var pe *ParseError
		if errors.As(e, &pe) && pe.File == "" {
			pe.File = file
		}
	}
}
