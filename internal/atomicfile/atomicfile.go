// Package atomicfile replaces files so that a crash at any moment leaves
// either the old file or the new one, never part of the new one.
package atomicfile

import (
	"os"
	"path/filepath"
	"runtime"
)

// WriteFile writes data to name through a temporary file in the same
// directory: write, fsync, rename over name, then fsync the directory so
// the rename itself survives a power loss. A file already at name keeps
// its permissions; a new one gets perm. The temporary file's name starts
// with a dot and ends in ".tmp" plus digits, so a crash can leave only
// such a file beside name, never a truncated name.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	if fi, err := os.Stat(name); err == nil {
		perm = fi.Mode().Perm()
	}
	dir := filepath.Dir(name)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // fails harmlessly once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), perm); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), name); err != nil {
		return err
	}
	return syncDir(dir)
}

// syncDir makes a rename in dir durable. Windows cannot open a directory
// for syncing, and its renames are journaled by NTFS.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
