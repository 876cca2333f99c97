package main

import (
	"errors"
	"flag"

	"github.com/promptfmt/promptfmt/internal/atomicfile"
)

// forceFlag adds --force to a command that rewrites files.
func forceFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("force", false, "rewrite a read-only file, or one with other hard links, instead of refusing it")
}

// writeFile writes data to name by the one policy every command that
// writes follows (internal/atomicfile: through symbolic links to their
// targets, refusing read-only files unless forced, atomically), and reports
// a failure as an error about name, the user's file. It returns exitOK or
// exitInvalid.
func (c *cli) writeFile(name string, data []byte, force bool) int {
	err := atomicfile.Write(name, data, atomicfile.Options{Perm: 0o644, Force: force})
	if err == nil {
		return exitOK
	}
	var we *atomicfile.Error
	if !errors.As(err, &we) {
		return c.fail(err)
	}
	msg := we.Reason()
	if we.Forcible() {
		msg += " (use --force)"
	}
	c.emit(&input{name: name}, diagnostic{Severity: "error", Message: msg})
	return exitInvalid
}
