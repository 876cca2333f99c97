package main

import (
	"bufio"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"

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
	return c.fileError(name, atomicfile.Write(name, data, atomicfile.Options{Perm: 0o644, Force: force}))
}

// fileError reports err, from writing the file name, as writeFile does.
func (c *cli) fileError(name string, err error) int {
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

// output is where a command streams what it writes: standard output, or a
// file replaced atomically by the policy of writeFile, made at the first
// write (so that a writer that refuses the document, writing nothing,
// leaves the file as it was, and its refusal is reported before a refusal
// of the file). Writes go through a buffer.
type output struct {
	name  string // "" for standard output
	force bool
	mkdir bool // make the file's directory first
	file  *atomicfile.File
	err   error // from making the file
	*bufio.Writer
}

// newOutput returns the output to the file name, or to c.stdout for "".
func (c *cli) newOutput(name string, force bool) *output {
	o := &output{name: name, force: force}
	var w io.Writer = c.stdout
	if name != "" {
		w = (*fileWriter)(o)
	}
	o.Writer = bufio.NewWriterSize(w, 64<<10)
	return o
}

// fileWriter is an output's file, made at its first write.
type fileWriter output

func (f *fileWriter) Write(p []byte) (int, error) {
	if f.file == nil && f.err == nil {
		f.file, f.err = (*output)(f).create()
	}
	if f.err != nil {
		return 0, f.err
	}
	return f.file.Write(p)
}

// finish ends an output that err (the writer's) did not fail: it is
// flushed, and its file made if nothing was written and put in place.
// A failure is reported, as writeFile reports it for a file.
func (c *cli) finish(o *output) int {
	err := o.Flush()
	if o.name == "" {
		if err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	if err == nil && o.file == nil && o.err == nil {
		o.file, err = o.create()
	}
	if err == nil {
		err = o.file.Commit()
	}
	return c.fileError(o.name, err)
}

// create makes o's file (and its directory, with mkdir).
func (o *output) create() (*atomicfile.File, error) {
	if o.mkdir {
		if err := os.MkdirAll(filepath.Dir(o.name), 0o755); err != nil {
			return nil, err
		}
	}
	return atomicfile.Create(o.name, atomicfile.Options{Perm: 0o644, Force: o.force})
}

// discard drops what o's file has of an output a writer failed, leaving
// the file as it was.
func (o *output) discard() {
	if o.file != nil {
		o.file.Close()
	}
}
