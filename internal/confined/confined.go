// Package confined reads files named by untrusted text (a template's
// include, a ${file:...} reference, a media input) without leaving a base
// directory.
package confined

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
)

// ErrOutside is why a name that leads out of the base directory is refused.
var ErrOutside = errors.New("path is outside allowed roots (the base directory)")

// ReadFile reads name, a slash-separated path relative to dir, without
// leaving dir: absolute names, ".." that climbs out and symbolic links that
// lead out are refused with ErrOutside (os.Root checks every step). A file
// larger than limit bytes is an error.
func ReadFile(dir, name string, limit int64) ([]byte, error) {
	clean := path.Clean(name)
	if name == "" || path.IsAbs(name) || strings.HasPrefix(name, `\`) || !fs.ValidPath(clean) {
		return nil, fmt.Errorf("%s: %w", name, ErrOutside)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	f, err := root.Open(clean)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, fmt.Errorf("%s: %w", name, ErrOutside)
		}
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name, limit)
}

// ReadFileAnywhere reads the file at path, wherever it is, with the same
// size limit: for a caller that chose to trust the names it reads.
func ReadFileAnywhere(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, limit)
}

// readLimited reads a regular file of at most limit bytes.
func readLimited(f fs.File, name string, limit int64) ([]byte, error) {
	if fi, err := f.Stat(); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", name)
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s: larger than %d bytes", name, limit)
	}
	return data, nil
}
