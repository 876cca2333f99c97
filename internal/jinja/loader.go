package jinja

import (
	"fmt"
	"io"
	"os"
	"path"
	"strings"

	"github.com/nikolalohinski/gonja/v2/loaders"
)

// maxInclude bounds a template read by include, import or extends.
const maxInclude = 8 << 20

// loader serves the root template from memory and, when a base directory
// is given, other templates from inside it: os.Root refuses "..", absolute
// paths and symbolic links that lead out.
type loader struct {
	rootID, src, dir string
}

func newLoader(rootID, src, dir string) (loaders.Loader, error) {
	return &loader{rootID: rootID, src: src, dir: dir}, nil
}

func (l *loader) Read(name string) (io.Reader, error) {
	if name == l.rootID {
		return strings.NewReader(l.src), nil
	}
	if l.dir == "" {
		return nil, fmt.Errorf("%q: templates may not read files here (no base directory was given)", name)
	}
	root, err := os.OpenRoot(l.dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(path.Clean(name))
	if err != nil {
		return nil, fmt.Errorf("%q: %v", name, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxInclude+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxInclude {
		return nil, fmt.Errorf("%q is larger than %d bytes", name, maxInclude)
	}
	if err := Check(string(b)); err != nil {
		return nil, fmt.Errorf("%q: %v", name, err)
	}
	return strings.NewReader(string(b)), nil
}

// Resolve keeps names as written: every name is relative to the base
// directory, whichever template asks.
func (l *loader) Resolve(name string) (string, error) { return name, nil }

func (l *loader) Inherit(string) (loaders.Loader, error) { return l, nil }
