package promptfile

import (
	"bytes"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Format is the prompt file as a promptfmt.Format, for package formats.
var Format promptfmt.Format = promptfileFormat{}

type promptfileFormat struct{}

func (promptfileFormat) Name() string         { return format }
func (promptfileFormat) Extensions() []string { return []string{".prompt"} }

// Sniff: the file starts with front matter holding one of the format's
// keys (prompt-id, created-at, sha1-hash, or the seed's id). Other .prompt
// files (Dotprompt's, whose front matter names a model) are not taken.
func (promptfileFormat) Sniff(src []byte) bool {
	first := true
	for line := range lines.Head(src) {
		line = bytes.TrimRight(line, " \t\r")
		if first {
			if !bytes.Equal(line, []byte("---")) {
				return false
			}
			first = false
			continue
		}
		if bytes.Equal(line, []byte("---")) {
			return false
		}
		for _, k := range []string{KeyID, KeyCreated, KeyHash, aliasID} {
			if bytes.HasPrefix(line, []byte(k+":")) {
				return true
			}
		}
	}
	return false
}

func (promptfileFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	return Parse(src, opts...)
}

func (promptfileFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return Write(w, doc, opts...)
}
