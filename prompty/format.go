package prompty

import (
	"bytes"
	"context"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is Prompty as a promptfmt.Format, for package formats. Parse
// reads a file as its role-boundary text; a template is loaded with Load
// or LoadFile and rendered with Prepare.
var Format promptfmt.TemplateFormat = promptyFormat{}

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

// IsTemplate: every Prompty file is a template; its text is kept as
// written by Parse and Write (see Write), so writing it back loses
// nothing.
func (promptyFormat) IsTemplate(src []byte) bool { return false }

// Load is the package's Load.
func (promptyFormat) Load(src []byte, opts ...promptfmt.Option) (promptfmt.Template, error) {
	a, err := Load(src, opts...)
	if err != nil {
		return nil, err
	}
	return &promptyTemplate{a: a, src: src}, nil
}

type promptyTemplate struct {
	a   *Agent
	src []byte
}

func (t *promptyTemplate) Inputs() []string {
	var names []string
	for _, p := range t.a.Inputs {
		names = append(names, p.Name)
	}
	return names
}

// Render is Prepare, under the file's front matter as written.
func (t *promptyTemplate) Render(ctx context.Context, inputs map[string]any, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	c, err := newConfig(opts, "Prepare")
	if err != nil {
		return nil, err
	}
	c.done = ctx.Done()
	msgs, err := prepare(t.a, inputs, &c)
	if err != nil {
		return nil, err
	}
	file, err := Parse(t.src)
	if err != nil {
		return nil, err
	}
	return &promptfmt.Document{Meta: file.Meta, MetaNode: file.MetaNode, Request: file.Request, Messages: msgs}, nil
}
