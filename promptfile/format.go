package promptfile

import (
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/promptkind"
)

// Format is the prompt file as a promptfmt.Format, for package formats.
var Format promptfmt.Format = promptfileFormat{}

type promptfileFormat struct{}

func (promptfileFormat) Name() string         { return format }
func (promptfileFormat) Extensions() []string { return []string{".prompt"} }

// Sniff: the content is a prompt file's, by the rule the two formats of
// .prompt share (internal/promptkind): a PromptCritical key in the front
// matter (prompt-id, created-at, sha1-hash, or the seed's id: P<n>) and no
// key or helper only Dotprompt uses, or no key or helper of either format
// (a bare body, which stays a prompt file). Dotprompt's files (their
// front matter names a model, a config, or their body has role markers)
// are not taken.
func (promptfileFormat) Sniff(src []byte) bool {
	k := promptkind.Of(src)
	return k == promptkind.PromptFile || k == promptkind.Neither
}

func (promptfileFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (promptfileFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}
