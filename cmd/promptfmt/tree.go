package main

import (
	"bytes"
	"flag"
	"fmt"
	"sync/atomic"
)

// jsonFlag adds --json, for diagnostics as JSON lines; after parsing,
// setJSON applies it.
func jsonFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("json", false, "print diagnostics as JSON lines: {file, line, col, severity, format, message, hint}")
}

// setJSON turns JSON diagnostics on: on stdout when toStdout (check, whose
// stdout is otherwise empty), else on stderr.
func (c *cli) setJSON(on, toStdout bool) {
	c.jsonDiag, c.diagStdout = on, on && toStdout
}

// tally counts how the files of a tree ended, for its summary line.
type tally struct{ files, failed, changed atomic.Int64 }

// add counts one file's status and returns it.
func (t *tally) add(status int) int {
	t.files.Add(1)
	if status != exitOK {
		t.failed.Add(1)
	}
	return status
}

// summary prints one line on stderr after a tree of files: "promptfmt:
// checked 12 files, 2 with problems".
func (t *tally) summary(c *cli, verb, failed string) {
	n := t.files.Load()
	line := fmt.Sprintf("promptfmt: %s %d %s", verb, n, plural(n, "file"))
	if k := t.changed.Load(); k > 0 {
		line += fmt.Sprintf(", %d changed", k)
	}
	if k := t.failed.Load(); k > 0 {
		line += fmt.Sprintf(", %d %s", k, failed)
	}
	fmt.Fprintln(c.stderr, line)
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// each loads every file (a directory stands for the files under it in
// the format, or in any format when none is given) and hands it to do, on
// all cores, going on after a failure; output comes in the order of the
// files. It returns the worst status. After several files it prints a
// summary line.
func (c *cli) each(args []string, format, verb, failed string, do func(fc *cli, in *input) int) int {
	// The walk looks at names only: a file whose extension several formats
	// read is told by its content in its job, on all cores, and read once.
	files, err := expand(args, func(name string) bool {
		for _, i := range extensionOwners(name) {
			if format == "" || formats[i].name == format {
				return true
			}
		}
		return false
	})
	if err != nil {
		return c.fail(err)
	}
	named := map[string]bool{}
	for _, a := range args {
		named[a] = true
	}
	var t tally
	worst := c.parallel(len(files), 0, func(fc *cli, i int) int {
		var src []byte
		if name := files[i]; !named[name] && len(extensionOwners(name)) > 1 {
			// Found in a directory: a file whose content tells no format,
			// or another than -f, is not one of the tree's files.
			f, read, err := lookupFormatSrc("", name, nil)
			if err != nil || format != "" && f.name != format {
				return exitSkipped
			}
			src = read
		}
		in, status := fc.loadSrc(files[i], format, src)
		if in == nil {
			return t.add(status)
		}
		status = do(fc, in)
		if status == exitChanged {
			t.changed.Add(1)
			status = exitOK
		}
		return t.add(status)
	})
	if manyFiles(args) {
		t.summary(c, verb, failed)
	}
	return worst
}

// exitChanged is what a job of each returns when it rewrote its file;
// exitSkipped, for a file that is not one of the tree's after all.
const (
	exitChanged = -1
	exitSkipped = -2
)

func (c *cli) runCheck(args []string) int {
	fs := c.flags("check", "[-f FORMAT] [--json] [FILE|DIR|-]...", "promptfmt check testdata/examples\n\n"+
		"Reads every file (a directory: every file under it in a known format, on all\n"+
		"cores) and prints each problem as FILE:LINE:COL: message, with the line and a\n"+
		"caret; warnings count as problems. Exit status 1 when there is any. A template\n"+
		"(Prompty, Dotprompt) is also loaded as messages loads it, not rendered. A dataset\n"+
		"(.jsonl, a conversation a line) is read record by record, each problem at\n"+
		"its FILE:LINE:COL, and a line says how many records had problems.")
	format := fs.String("f", "", "input format; default: from each file's extension")
	asJSON := jsonFlag(fs)
	files, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	c.setJSON(*asJSON, true)
	if len(files) == 0 {
		files = []string{"-"}
	}
	files, worst, ok := c.checkDatasets(files, *format)
	if !ok || len(files) == 0 {
		return worst
	}
	return max(worst, c.each(files, *format, "checked", "with problems", func(c *cli, in *input) int {
		if in.format.check != nil {
			if err := in.format.check(in.src, in.file()); err != nil {
				c.report(in, err)
				return exitInvalid
			}
		}
		if len(in.doc.Warnings) > 0 {
			c.warn(in, "error")
			return exitInvalid
		}
		return exitOK
	}))
}

func (c *cli) runFmt(args []string) int {
	fs := c.flags("fmt", "[-w [--force]] [-f FORMAT] [--json] [FILE|DIR|-]...", "promptfmt fmt -w testdata/examples\n\n"+
		"Prints each file in its format's canonical form, or with -w rewrites the\n"+
		"files that are not (atomically). A template (.pdl with tags) has no canonical\n"+
		"form: named alone it is refused, in a directory it is left as it is.\n"+
		"A symbolic link is written through: its target is rewritten and the link\n"+
		"kept. A read-only file is refused unless --force; a rewritten file keeps\n"+
		"its mode.")
	write := fs.Bool("w", false, "write the result back to each file instead of standard output")
	force := forceFlag(fs)
	format := fs.String("f", "", "input format; default: from each file's extension")
	asJSON := jsonFlag(fs)
	files, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	c.setJSON(*asJSON, false)
	if *force && !*write {
		return c.fail(&usageError{"--force applies with -w"})
	}
	if len(files) == 0 {
		if *write {
			return c.fail(&usageError{"fmt -w needs files"})
		}
		files = []string{"-"}
	}
	tree := manyFiles(files)
	return c.each(files, *format, "formatted", "failed", func(c *cli, in *input) int {
		c.warn(in, "warning")
		if tree && in.format.isTemplate != nil && in.format.isTemplate(in.src) {
			// A template has no canonical form to write: in a tree it is
			// left alone; named on its own, it is refused (c.write).
			c.emit(in, diagnostic{Severity: "warning", Format: in.format.name, Message: "left as it is: a template (fmt would replace it by what it renders to)"})
			return exitOK
		}
		out, status := c.write(in, in.format, false)
		if out == nil {
			return status
		}
		switch {
		case !*write || in.name == "-":
			if _, err := c.stdout.Write(out); err != nil {
				return c.fail(err)
			}
		case !bytes.Equal(out, in.src):
			if status := c.writeFile(in.name, out, *force); status != exitOK {
				return status
			}
			return exitChanged
		}
		return exitOK
	})
}
