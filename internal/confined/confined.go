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

// Dir is the files inside dir as an fs.FS that, unlike os.DirFS, never
// leads out of dir: a symbolic link that leads out is refused with
// ErrOutside (os.Root checks every step). It holds no file open between
// calls, so a program may make one per file it reads.
func Dir(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrOutside}
	}
	root, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer root.Close() // the files it opened stay open
	f, err := root.Open(name)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && strings.Contains(pe.Err.Error(), "escapes") {
			return nil, &fs.PathError{Op: "open", Path: name, Err: ErrOutside}
		}
		return nil, err
	}
	return f, nil
}

// ReadFS reads name, a slash-separated path relative to the directory dir
// of fsys ("." for its top), without leaving fsys: absolute names and ".."
// that climbs out of fsys are refused with ErrOutside; where symbolic
// links may lead is fsys's business (Dir refuses those that lead out). A
// file larger than limit bytes is an error.
func ReadFS(fsys fs.FS, dir, name string, limit int64) ([]byte, error) {
	full := path.Join(dir, name)
	if name == "" || path.IsAbs(name) || strings.HasPrefix(name, `\`) || !fs.ValidPath(full) {
		return nil, fmt.Errorf("%s: %w", name, ErrOutside)
	}
	f, err := fsys.Open(full)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name, limit)
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
