package confined

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// ReadFS reads name, a slash-separated path relative to the directory
// base of fsys, without leaving fsys: an absolute name, or one whose ".."
// climbs above fsys's root, is refused with ErrOutside (".." that stays
// inside fsys is followed, so a file may name a sibling directory's).
// Symbolic links are the file system's to confine (see DirFS). A file
// larger than limit bytes is an error.
func ReadFS(fsys fs.FS, base, name string, limit int64) ([]byte, error) {
	if name == "" || path.IsAbs(name) || strings.HasPrefix(name, `\`) {
		return nil, fmt.Errorf("%s: %w", name, ErrOutside)
	}
	full := path.Join(base, name)
	if !fs.ValidPath(full) {
		return nil, fmt.Errorf("%s: %w", name, ErrOutside)
	}
	f, err := fsys.Open(full)
	if err != nil {
		if errors.Is(err, ErrOutside) {
			return nil, fmt.Errorf("%s: %w", name, ErrOutside)
		}
		return nil, err
	}
	defer f.Close()
	return readLimited(f, name, limit)
}

// DirFS is the tree of files in dir as an fs.FS that no name leaves:
// unlike os.DirFS, a symbolic link that leads out of dir is refused with
// ErrOutside (each Open goes through an os.Root). Nothing stays open
// between calls.
func DirFS(dir string) fs.FS { return dirFS(dir) }

type dirFS string

func (d dirFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	root, err := os.OpenRoot(string(d))
	if err != nil {
		return nil, err
	}
	defer root.Close() // files opened stay open
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
