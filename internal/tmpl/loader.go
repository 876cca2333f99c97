package tmpl

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"strings"

	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/promptfmt/promptfmt/internal/confined"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// loader serves the root template from memory and, when a base directory
// is given, other templates from inside it (see confined.ReadFile).
type loader struct {
	rootID, src, dir string
	fsys             fs.FS // in place of dir, names relative to base in it
	base             string
	// escaping: files read are rewritten like the root (see wrapOutputs),
	// or their outputs would escape the escaping.
	escaping bool
	// maxSource bounds each file read; budget is charged a step for each
	// byte read (gonja parses a file again at each include) and a level
	// for each template in a chain of extends.
	maxSource int
	budget    *exec.Budget
}

// Enter and Leave bound a chain of templates that extend each other:
// gonja reads and parses a parent while it parses the child.
func (l *loader) Enter() error { return l.budget.Enter(nil) }
func (l *loader) Leave()       { l.budget.Leave() }

func (l *loader) Read(name string) (io.Reader, error) {
	if name == l.rootID {
		return strings.NewReader(l.src), nil
	}
	if l.dir == "" && l.fsys == nil {
		return nil, fmt.Errorf("%q: templates may not read files here (no base directory was given)", name)
	}
	limit := int64(l.maxSource)
	if limit <= 0 {
		limit = math.MaxInt64 - 1
	}
	var b []byte
	var err error
	if l.fsys != nil {
		b, err = confined.ReadFS(l.fsys, l.base, name, limit)
	} else {
		b, err = confined.ReadFile(l.dir, name, limit)
	}
	if err != nil {
		return nil, err
	}
	if err := l.budget.StepN(nil, int64(len(b))); err != nil {
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
