package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/promptfile"
)

// write renders in's document in format f, or prints why it cannot. With
// lossy, what f cannot express is changed first (promptfmt.Adapt) and each
// change printed.
func (c *cli) write(in *input, f *formatInfo, lossy bool) ([]byte, int) {
	doc, status := c.prepare(in, f, lossy)
	if doc == nil {
		return nil, status
	}
	var out bytes.Buffer
	if err := f.write(&out, doc); err != nil {
		promptfmt.Locate(doc, err) // the line in the file, not the message's
		c.report(in, err)
		return nil, exitInvalid
	}
	return out.Bytes(), exitOK
}

// writeOut writes in's document in format f to o as write renders it,
// streaming what the writer writes; a failure is printed, and o's file,
// if made, left as it was.
func (c *cli) writeOut(in *input, f *formatInfo, lossy bool, o *output) int {
	doc, status := c.prepare(in, f, lossy)
	if doc == nil {
		return status
	}
	if err := f.write(o, doc); err != nil {
		o.discard()
		if o.err != nil && errors.Is(err, o.err) { // the file could not be made
			return c.fileError(o.name, o.err)
		}
		promptfmt.Locate(doc, err) // the line in the file, not the message's
		c.report(in, err)
		return exitInvalid
	}
	return c.finish(o)
}

// prepare returns in's document ready for format f to write: adapted
// first with lossy, or nil once it has printed why it cannot be.
func (c *cli) prepare(in *input, f *formatInfo, lossy bool) (*promptfmt.Document, int) {
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
	return doc, exitOK
}

// changes prints what promptfmt.Adapt changed, one line each.
func (c *cli) changes(in *input, changes []promptfmt.Change) {
	for _, ch := range changes {
		msg := fmt.Sprintf("%s (%s: %s)", ch.Done, ch.Format, ch.What)
		if ch.Line == 0 && ch.Index >= 0 {
			msg = fmt.Sprintf("message %d: %s", ch.Index+1, msg)
		}
		c.emit(in, diagnostic{Line: ch.Line, Severity: "change", Format: ch.Format, Message: msg})
	}
}

func (c *cli) runConvert(args []string) int {
	fs := c.flags("convert", "-t FORMAT [-f FORMAT] [--lossy] [--keep-going] [--inputs F] [-o OUT] [FILE|DIR|-]...",
		"promptfmt convert -t stf testdata/examples/support.prompty\n"+
			"  promptfmt convert -t prompty --lossy testdata/examples/review.md\n"+
			"  promptfmt convert -f prompty -t stf -o out/ testdata/examples\n"+
			"  promptfmt convert -t stf -o out/ testdata/examples/fine-tuning.jsonl\n"+
			"  promptfmt convert -t openai-jsonl --lossy -o data.jsonl testdata/examples/support.stf testdata/examples/weather.json\n\n"+
			"What the target cannot express stops the conversion, each thing named with\n"+
			"its line; --lossy converts anyway and prints each change on stderr. A\n"+
			"template (.pdl, .prompty) given --inputs/--context is rendered first, and\n"+
			"what it renders to is converted. Several files or a directory need -o DIR:\n"+
			"each file is written under it, at the same relative path, with the\n"+
			"target's extension. In a directory, -f picks the files of that format.\n\n"+
			"A dataset (.jsonl, a conversation a line: "+datasetNames()+") is\n"+
			"read and written as a stream, in memory that does not grow with it. From\n"+
			"one, -o DIR gets a file a record, named by its custom_id (bytes other than\n"+
			"letters, digits, - _ . written %XX) or its line (line-000042.stf). Into one\n"+
			"(-t DATASET), the files given (a directory's in lexical order) and the\n"+
			"records of datasets given (with -f DATASET, a directory's datasets) are\n"+
			"written a record each, to -o FILE (replaced atomically once all are\n"+
			"written) or to standard output; a batch request's custom_id is its\n"+
			"file's path without extension, its url /v1/responses for a Responses\n"+
			"body (openai-responses), else /v1/chat/completions. A record that does not read or convert\n"+
			"stops the run, named FILE:LINE:COL; --keep-going reports it, skips it and\n"+
			"goes on (exit status 1 either way). A progress bar shows on a terminal.\n"+
			"See promptfmt help openai-jsonl, help openai-batch.\n\n"+
			"Into prompt files (-t promptfile), -o DIR is a prompt store, made if\n"+
			"missing: each file converted becomes a new prompt in it, named P<n>.prompt\n"+
			"by an ID the store draws (never one a .prompt file there holds, never one\n"+
			"handed out before), with prompt-id, created-at (the time now, or the\n"+
			"source's own when well formed) and sha1-hash written, and its line\n"+
			"SOURCE<tab>NEW-PATH printed on stdout. A prompt-id, id or sha1-hash the\n"+
			"source had is replaced, and the change printed. To standard output, give\n"+
			"-dir STORE to draw the ID from (it is spent there; the file is not\n"+
			"written there): a prompt file has no ID outside a store.")
	to := fs.String("t", "", "output format ("+formatNames()+", or a dataset: "+datasetNames()+"); required")
	from := fs.String("f", "", "input format; default: from the extension")
	outPath := fs.String("o", "", "output file (a directory for several inputs); default: standard output")
	lossy := fs.Bool("lossy", false, "change what the target cannot express, printing each change, instead of failing")
	inputsFile := inputsFlag(fs)
	asJSON := jsonFlag(fs)
	force := forceFlag(fs)
	storeDir := fs.String("dir", "", "-t promptfile to standard output: the prompt store the ID is drawn from")
	keepGoing := fs.Bool("keep-going", false, "datasets: skip a record that does not convert, report it and go on (default: stop at the first)")
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
	if len(args) == 0 {
		args = []string{"-"}
	}
	if status, ok := c.convertDataset(datasetJob{to: *to, from: *from, out: *outPath, inputs: *inputsFile,
		lossy: *lossy, force: *force, keepGoing: *keepGoing, args: args}); ok {
		return status
	}
	target, err := lookupFormat(*to, "")
	if err != nil {
		return c.fail(err)
	}
	if target.name == "promptfile" {
		return c.convertToStore(target, args, *from, *inputsFile, *outPath, *storeDir, *lossy, *force)
	}
	if *storeDir != "" {
		return c.fail(&usageError{"-dir applies with -t promptfile"})
	}
	// The output is streamed to its file or standard output: a large
	// file's is never held whole by the command.
	conv := func(c *cli, name, out string, mkdir bool) int {
		in, status := c.loadForConvert(name, *from, *inputsFile)
		if in == nil {
			return status
		}
		o := c.newOutput(out, *force)
		o.mkdir = mkdir
		return c.writeOut(in, target, *lossy, o)
	}
	if !manyFiles(args) {
		return conv(c, args[0], *outPath, false)
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
		return t.add(conv(fc, files[i], outs[i], true))
	})
	t.summary(c, "converted", "failed")
	return worst
}

// clock is the time a converted prompt file is created at; tests set it.
var clock = time.Now

// convertToStore converts files into prompt files that are new prompts in
// a store: with -o, the store the files are written into, each named by
// its ID; without, the file goes to standard output and its ID comes from
// the store -dir names. The files are converted one after another, so IDs
// follow their order.
func (c *cli) convertToStore(target *formatInfo, args []string, from, inputsFile, outPath, storeDir string, lossy, force bool) int {
	switch {
	case outPath == "" && storeDir == "":
		return c.fail(&usageError{"convert -t promptfile needs -o STORE, the prompt store to write the files into (or, to standard output, -dir STORE to draw the ID from): a prompt file's ID comes from its store"})
	case outPath != "" && storeDir != "":
		return c.fail(&usageError{"-o STORE is where the ID comes from: -dir applies to standard output only"})
	case force:
		return c.fail(&usageError{"--force does not apply to -t promptfile: every file written is new"})
	case outPath == "" && manyFiles(args):
		return c.fail(&usageError{"converting several files needs -o STORE"})
	}
	if outPath != "" {
		if fi, err := os.Stat(outPath); err == nil && !fi.IsDir() {
			return c.fail(&usageError{fmt.Sprintf("-o %s: with -t promptfile, -o names the prompt store, a directory; each file in it is named by its ID", outPath)})
		} else if err != nil && isPromptFile(outPath) {
			return c.fail(&usageError{fmt.Sprintf("-o %s: with -t promptfile, -o names the prompt store, a directory, not the file: each file in it is named by its ID", outPath)})
		}
		if err := os.MkdirAll(outPath, 0o755); err != nil {
			return c.fail(err)
		}
		storeDir = outPath
	}
	store, err := promptfile.OpenStore(storeDir)
	if err != nil {
		return c.fail(err)
	}
	files := args
	if manyFiles(args) {
		if slices.Contains(args, "-") {
			return c.fail(&usageError{"standard input cannot be one of several files to convert"})
		}
		if files, err = expand(args, func(name string) bool { return inTree(name, from) }); err != nil {
			return c.fail(err)
		}
	}
	var t tally
	worst := c.parallel(len(files), 1, func(c *cli, i int) int {
		in, status := c.loadForConvert(files[i], from, inputsFile)
		if in == nil {
			return t.add(status)
		}
		doc, status := c.prepare(in, target, lossy)
		if doc == nil {
			return t.add(status)
		}
		if outPath == "" {
			out, _, changes, err := store.Issue(doc, clock())
			if err != nil {
				promptfmt.Locate(doc, err)
				c.report(in, err)
				return t.add(exitInvalid)
			}
			c.changes(in, changes)
			if _, err := c.stdout.Write(out); err != nil {
				return t.add(c.fail(err))
			}
			return t.add(exitOK)
		}
		path, changes, err := store.Add(doc, clock())
		if err != nil {
			promptfmt.Locate(doc, err)
			c.report(in, err)
			return t.add(exitInvalid)
		}
		c.changes(in, changes)
		fmt.Fprintf(c.stdout, "%s\t%s\n", in.display(), path)
		return t.add(exitOK)
	})
	if manyFiles(args) {
		t.summary(c, "converted", "failed")
	}
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
			return nil, c.fail(&usageError{"--inputs applies to template formats only (prompty, pdl, dotprompt)"})
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
	c.warn(in, "warning") // what rendering warned of
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
		found, err := expand([]string{arg}, func(name string) bool { return inTree(name, format) })
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
