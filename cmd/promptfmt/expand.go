package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// expand replaces each directory among args by the files under it that
// keep accepts, in lexical order. Hidden files and directories (a name
// starting with a dot, such as .git or the prompt store's .next-id) are
// skipped inside a directory; a name given as an argument is always used.
func expand(args []string, keep func(name string) bool) ([]string, error) {
	var files []string
	for _, arg := range args {
		fi, err := os.Stat(arg)
		if arg == "-" || err != nil || !fi.IsDir() {
			files = append(files, arg) // a missing file is reported when read
			continue
		}
		err = filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			hidden := path != arg && strings.HasPrefix(d.Name(), ".")
			switch {
			case d.IsDir() && hidden:
				return filepath.SkipDir
			case !d.IsDir() && !hidden && keep(path):
				files = append(files, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
