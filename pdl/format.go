package pdl

import (
	"context"
	"io"
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is PDL as a promptfmt.Format, for package formats. Parse reads a
// file as text (see Parse); a template is loaded with Load.
var Format promptfmt.TemplateFormat = pdlFormat{}

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
	return Parse(src, opts...)
}

func (pdlFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}

// IsTemplate is the package's IsTemplate.
func (pdlFormat) IsTemplate(src []byte) bool { return IsTemplate(src) }

// Load checks the template's syntax; rendering it needs its inputs.
func (pdlFormat) Load(src []byte, opts ...promptfmt.Option) (promptfmt.Template, error) {
	if _, err := Check(src, opts...); err != nil {
		return nil, err
	}
	return &pdlTemplate{src: src, opts: opts}, nil
}

type pdlTemplate struct {
	src  []byte
	opts []promptfmt.Option
}

func (*pdlTemplate) Inputs() []string { return nil }

// Render is Load with inputs (and opts after Load's): the whole document,
// the schema in Meta, hidden reasoning turns included.
func (t *pdlTemplate) Render(ctx context.Context, inputs map[string]any, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	c, err := newConfig(append(append(slices.Clip(t.opts), Inputs(inputs)), opts...))
	if err != nil {
		return nil, err
	}
	c.done = ctx.Done()
	p, err := c.load(t.src)
	if err != nil {
		return nil, err
	}
	return p.Document, nil
}
