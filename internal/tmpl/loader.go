package tmpl

import (
	"fmt"
	"io"
	"strings"

	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/promptfmt/promptfmt/internal/confined"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// maxInclude bounds a template read by include, import or extends.
const maxInclude = 8 << 20

// loader serves the root template from memory and, when a base directory
// is given, other templates from inside it (see confined.ReadFile).
type loader struct {
	rootID, src, dir string
	// escaping: files read are rewritten like the root (see wrapOutputs),
	// or their outputs would escape the escaping.
	escaping bool
}

func (l *loader) Read(name string) (io.Reader, error) {
	if name == l.rootID {
		return strings.NewReader(l.src), nil
	}
	if l.dir == "" {
		return nil, fmt.Errorf("%q: templates may not read files here (no base directory was given)", name)
	}
	b, err := confined.ReadFile(l.dir, name, maxInclude)
	if err != nil {
		return nil, err
	}
	src := string(b)
	if err := Check(src); err != nil {
		return nil, fmt.Errorf("%q: %v", name, err)
	}
	if l.escaping {
		src, _ = wrapOutputs(lines.ToLF(src))
	}
	return strings.NewReader(src), nil
}

// Resolve keeps names as written: every name is relative to the base
// directory, whichever template asks.
func (l *loader) Resolve(name string) (string, error) { return name, nil }

func (l *loader) Inherit(string) (loaders.Loader, error) { return l, nil }
