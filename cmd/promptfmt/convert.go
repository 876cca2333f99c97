package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/promptfmt/promptfmt"
)

// write renders in's document in format f, or prints why it cannot. With
// lossy, what f cannot express is changed first (promptfmt.Adapt) and each
// change printed.
func (c *cli) write(in *input, f *formatInfo, lossy bool) ([]byte, int) {
	if f.write == nil {
		return nil, c.fail(f.notBuilt())
	}
	if !in.rendered && in.format.isTemplate != nil && in.format.isTemplate(in.src) {
		hint := ""
		if in.format.load != nil {
			hint = "; give --inputs (or --context) to convert what it renders to"
		}
		c.emit(in, diagnostic{Severity: "error", Format: in.format.name, Message: fmt.Sprintf(
			"a %s template (comments, variables or loops): writing it would replace them by what they render to; 'promptfmt %s render' shows that%s",
			in.format.name, in.format.name, hint)})
		return nil, exitInvalid
	}
	doc := in.doc
	if lossy {
		adapted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return f.write(io.Discard, d) })
		if err != nil {
			c.report(in, err)
			return nil, exitInvalid
		}
		c.changes(in, changes)
		doc = adapted
	}
	var out bytes.Buffer
	if err := f.write(&out, doc); err != nil {
		promptfmt.Locate(doc, err) // the line in the file, not the message's
		c.report(in, err)
		return nil, exitInvalid
	}
	return out.Bytes(), exitOK
}

// changes prints what promptfmt.Adapt changed, one line each.
func (c *cli) changes(in *input, changes []promptfmt.Change) {
	for _, ch := range changes {
		msg := fmt.Sprintf("%s (%s: %s)", ch.Done, ch.Format, ch.What)
		if ch.Line == 0 && ch.Message >= 0 {
			msg = fmt.Sprintf("message %d: %s", ch.Message+1, msg)
		}
		c.emit(in, diagnostic{Line: ch.Line, Severity: "change", Format: ch.Format, Message: msg})
	}
}

func (c *cli) runConvert(args []string) int {
	fs := c.flags("convert", "-t FORMAT [-f FORMAT] [--lossy] [--inputs F] [-o OUT] [FILE|DIR|-]...",
		"promptfmt convert -t stf testdata/examples/support.prompty\n"+
			"  promptfmt convert -t prompty --lossy testdata/examples/review.md\n"+
			"  promptfmt convert -t stf -o out/ prompts/\n\n"+
			"What the target cannot express stops the conversion, each thing named with\n"+
			"its line; --lossy converts anyway and prints each change on stderr. A\n"+
			"template (.pdl, .prompty) given --inputs/--context is rendered first, and\n"+
			"what it renders to is converted. Several files or a directory need -o DIR:\n"+
			"each file is written under it, at the same relative path, with the\n"+
			"target's extension.")
	to := fs.String("t", "", "output format ("+formatNames()+"); required")
	from := fs.String("f", "", "input format; default: from the extension")
	outPath := fs.String("o", "", "output file (a directory for several inputs); default: standard output")
	lossy := fs.Bool("lossy", false, "change what the target cannot express, printing each change, instead of failing")
	inputsFile := inputsFlag(fs)
	asJSON := jsonFlag(fs)
	force := forceFlag(fs)
	args, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	c.setJSON(*asJSON, false)
	if *to == "" {
		return c.fail(&usageError{"convert needs -t FORMAT"})
	}
	if *force && *outPath == "" {
		return c.fail(&usageError{"--force applies with -o"})
	}
	target, err := lookupFormat(*to, "")
	if err != nil {
		return c.fail(err)
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	conv := func(c *cli, name string) ([]byte, *input, int) {
		in, status := c.loadForConvert(name, *from, *inputsFile)
		if in == nil {
			return nil, nil, status
		}
		out, status := c.write(in, target, *lossy)
		return out, in, status
	}
	if !manyFiles(args) {
		out, _, status := conv(c, args[0])
		if out == nil {
			return status
		}
		if *outPath != "" {
			return c.writeFile(*outPath, out, *force)
		}
		if _, err = c.stdout.Write(out); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	if *outPath == "" {
		return c.fail(&usageError{"converting several files needs -o DIR"})
	}
	files, outs, err := outputNames(args, *from, *outPath, target.ext)
	if err != nil {
		return c.fail(err)
	}
	var t tally
	worst := c.parallel(len(files), 0, func(fc *cli, i int) int {
		out, _, status := conv(fc, files[i])
		if out == nil {
			return t.add(status)
		}
		if err := os.MkdirAll(filepath.Dir(outs[i]), 0o755); err != nil {
			return t.add(fc.fail(err))
		}
		return t.add(fc.writeFile(outs[i], out, *force))
	})
	t.summary(c, "converted", "failed")
	return worst
}

// loadForConvert loads one file; a template given inputs is rendered, and
// its document is what it renders to.
func (c *cli) loadForConvert(name, format, inputsFile string) (*input, int) {
	f, err := lookupFormat(format, name)
	if err != nil {
		return nil, c.fail(err)
	}
	if inputsFile == "" || f.load == nil {
		if inputsFile != "" {
			return nil, c.fail(&usageError{"--inputs applies to template formats only (prompty, pdl)"})
		}
		in, status := c.load(name, format)
		if in != nil {
			c.warn(in, "warning")
		}
		return in, status
	}
	in, status := c.readAs(name, format)
	if in == nil {
		return nil, status
	}
	t, inputs, status := c.loadTemplate(in, inputsFile)
	if t == nil {
		return nil, status
	}
	doc, err := t.Document(inputs)
	if err != nil {
		c.report(in, err)
		return nil, exitInvalid
	}
	in.doc, in.rendered = doc, true
	return in, exitOK
}

// manyFiles reports whether args name more than one file: several of
// them, or a directory.
func manyFiles(args []string) bool {
	if len(args) > 1 {
		return true
	}
	fi, err := os.Stat(args[0])
	return args[0] != "-" && err == nil && fi.IsDir()
}

// outputNames lists the files args stand for and, for each, its name under
// dir: its path relative to the directory given (its base name for a file
// given), with extension ext.
func outputNames(args []string, format, dir, ext string) (files, outs []string, err error) {
	seen := map[string]string{}
	for _, arg := range args {
		if arg == "-" {
			return nil, nil, &usageError{"standard input cannot be one of several files to convert"}
		}
		found, err := expand([]string{arg}, func(name string) bool {
			f, err := lookupFormat("", name)
			return err == nil && (format == "" || f.name == format)
		})
		if err != nil {
			return nil, nil, err
		}
		for _, f := range found {
			rel := filepath.Base(f)
			if f != arg {
				if rel, err = filepath.Rel(arg, f); err != nil {
					return nil, nil, err
				}
			}
			out := filepath.Join(dir, strings.TrimSuffix(rel, filepath.Ext(rel))+ext)
			if prev, dup := seen[out]; dup {
				return nil, nil, &usageError{fmt.Sprintf("%s and %s would both be written to %s: convert one of them on its own", prev, f, out)}
			}
			seen[out] = f
			files, outs = append(files, f), append(outs, out)
		}
	}
	return files, outs, nil
}
