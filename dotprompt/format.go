package dotprompt

import (
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/promptkind"
)

// Format is Dotprompt as a promptfmt.Format, for package formats.
var Format promptfmt.TemplateFormat = dotpromptFormat{}

type dotpromptFormat struct{}

func (dotpromptFormat) Name() string         { return format }
func (dotpromptFormat) Extensions() []string { return []string{".prompt"} }

// Sniff: the content is Dotprompt's by the rule the two formats of .prompt
// share (internal/promptkind): a key or helper of Dotprompt's and no
// PromptCritical key. A bare body is a promptfile's.
func (dotpromptFormat) Sniff(src []byte) bool { return promptkind.Of(src) == promptkind.Dotprompt }

func (dotpromptFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (dotpromptFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}

// IsTemplate: a Dotprompt file is always a template, but Parse keeps its
// source (see Write), so writing it back loses nothing.
func (dotpromptFormat) IsTemplate(src []byte) bool { return false }

// Load is the package's Load.
func (dotpromptFormat) Load(src []byte, opts ...promptfmt.Option) (promptfmt.Template, error) {
	t, err := Load(src, opts...)
	if err != nil {
		return nil, err
	}
	return t, nil
}
