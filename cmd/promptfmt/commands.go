package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"iter"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	registry "github.com/promptfmt/promptfmt/formats"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/provider"
)

// flags makes a subcommand's flag set, whose -h shows the example.
func (c *cli) flags(name, synopsis, example string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(c.stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: promptfmt %s %s\n\nExample:\n  %s\n\nFlags:\n", name, synopsis, example)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses flags anywhere among the arguments (promptfmt messages
// x.prompty -f prompty works) and returns the others. ok is false when the
// caller should return status.
func (c *cli) parseFlags(fs *flag.FlagSet, args []string) (files []string, status int, ok bool) {
	for _, a := range args {
		switch a {
		case "-h", "-help", "--h", "--help":
			fs.SetOutput(c.stdout) // asked-for help goes to stdout; usage after a mistake to stderr
		}
	}
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, exitOK, false
			}
			return nil, exitUsage, false
		}
		if fs.NArg() == 0 {
			return files, 0, true
		}
		files = append(files, fs.Arg(0))
		args = fs.Args()[1:]
	}
}

// input is one file read and parsed.
type input struct {
	name   string // as given; "-" is standard input
	src    []byte
	format *formatInfo
	doc    *promptfmt.Document
	// rendered says doc is what a template renders to, not the file.
	rendered bool
	// base is the line of the file before src's first: a dataset's
	// record is its line alone.
	base int
}

// file is the input's file name, "" for standard input: what a format
// that reads files beside it (partials, ${file:}) is given.
func (in *input) file() string {
	if in.name == "-" {
		return ""
	}
	return in.name
}

func (in *input) display() string {
	if in.name == "-" {
		return "<stdin>"
	}
	return in.name
}

// readAs reads one file of the named format (from its extension when
// formatName is ""), without parsing it.
func (c *cli) readAs(name, formatName string) (*input, int) { return c.readSrc(name, formatName, nil) }

// readSrc is readAs of a file whose content src may already be read (nil
// when it is not).
func (c *cli) readSrc(name, formatName string, src []byte) (*input, int) {
	in := &input{name: name}
	f, src, err := lookupFormatSrc(formatName, name, src)
	if err != nil {
		return nil, c.fail(err)
	}
	in.format = f
	if f.parse == nil {
		return nil, c.fail(f.notBuilt())
	}
	if in.src = src; in.src == nil {
		if in.src, err = c.read(name); err != nil {
			return nil, c.fail(err)
		}
	}
	return in, exitOK
}

// load reads and parses one file. Parse errors are printed; the status
// says how the command should end.
func (c *cli) load(name, formatName string) (*input, int) { return c.loadSrc(name, formatName, nil) }

// loadSrc is load of a file whose content src may already be read.
func (c *cli) loadSrc(name, formatName string, src []byte) (*input, int) {
	in, status := c.readSrc(name, formatName, src)
	if in == nil {
		return nil, status
	}
	var err error
	if in.format.parseIn != nil {
		dir := "."
		if name != "-" {
			dir = filepath.Dir(name)
		}
		in.doc, err = in.format.parseIn(in.src, dir)
	} else {
		in.doc, err = in.format.parse(in.src)
	}
	if err != nil {
		c.report(in, err)
		return nil, exitInvalid
	}
	return in, exitOK
}

// read reads the named file, or standard input for "-".
func (c *cli) read(name string) ([]byte, error) {
	var src []byte
	var err error
	if name == "-" {
		src, err = io.ReadAll(c.stdin)
	} else {
		src, err = readFile(name)
	}
	noteInput(len(src))
	return src, err
}

// fail prints a non-input error and returns its exit status.
func (c *cli) fail(err error) int {
	fmt.Fprintf(c.stderr, "promptfmt: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitInvalid
}

func oneFile(files []string) (string, error) {
	switch len(files) {
	case 0:
		return "-", nil
	case 1:
		return files[0], nil
	}
	return "", &usageError{"give one file (or - for standard input)"}
}

// printJSON prints v indented, in memory linear in its size however
// deeply it nests (jsonvalue.Write). A document's messages, and a list of
// messages, are encoded one message at a time (jsonvalue.WriteList): the
// output is never held whole, and a large file costs its document only.
func (c *cli) printJSON(v any) int {
	switch v := v.(type) {
	case *promptfmt.Document:
		shell := *v
		shell.Messages = nil // encoded as [], where the messages go
		return c.printList(shell, "messages", slices.Values(v.Messages))
	case []promptfmt.Message:
		return c.printList(nil, "", slices.Values(v))
	case iter.Seq[promptfmt.Message]:
		return c.printList(nil, "", v)
	}
	if err := jsonvalue.Write(c.stdout, v); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// printBytes prints what a writer wrote.
func (c *cli) printBytes(b []byte) int {
	if _, err := c.stdout.Write(b); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// printList prints shell with msgs as the value of its key (msgs alone
// when key is ""), one message encoded at a time.
func (c *cli) printList(shell any, key string, msgs iter.Seq[promptfmt.Message]) int {
	pieces := func(yield func(messagePieces) bool) {
		for m := range msgs {
			if !yield(messagePieces{m}) {
				return
			}
		}
	}
	if err := jsonvalue.WriteList(c.stdout, shell, key, pieces); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// loadOne loads the one file the arguments name (standard input when none)
// and prints its warnings.
func (c *cli) loadOne(files []string, format string) (*input, int) {
	file, err := oneFile(files)
	if err != nil {
		return nil, c.fail(err)
	}
	in, status := c.load(file, format)
	if in != nil {
		c.warn(in, "warning")
	}
	return in, status
}

// show is parse and messages: one file in, JSON out. A template (a
// .prompty file) is rendered with --inputs first; whole says to print the
// loaded template beside its messages.
func (c *cli) show(args []string, name, example string, whole bool, what func(*promptfmt.Document) any) int {
	synopsis := "[-f FORMAT] [--inputs inputs.json] [FILE|-]"
	if !whole {
		synopsis = "[-f FORMAT] [--inputs inputs.json] [--as PROVIDER] [FILE|-]"
	}
	fs := c.flags(name, synopsis, example)
	format := fs.String("f", "", "input format ("+formatNames()+"); default: from the extension")
	inputsFile := inputsFlag(fs)
	as, lossy := new(string), new(bool)
	if !whole {
		as = fs.String("as", "", "print the messages as a provider's request body expects them: "+strings.Join(providerNames(), ", "))
		lossy = fs.Bool("lossy", false, "with --as: change what the provider cannot take, printing each change, instead of failing")
	}
	files, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	file, err := oneFile(files)
	if err != nil {
		return c.fail(err)
	}
	if d, err := datasetOf(*format, file); err != nil || d != nil {
		switch {
		case err != nil:
			return c.fail(err)
		case whole || *as != "" || *inputsFile != "":
			return c.fail(datasetUsage(file + " (" + d.Name() + ")"))
		}
		return c.messagesDataset(d, file)
	}
	if *as != "" && !slices.Contains(providerNames(), *as) {
		return c.fail(&usageError{fmt.Sprintf("unknown provider %q (want %s)", *as, strings.Join(providerNames(), ", "))})
	}
	if *lossy && *as == "" {
		return c.fail(&usageError{"--lossy applies with --as"})
	}
	c.lossy = *lossy
	if f, err := lookupFormat(*format, file); err == nil && f.load != nil {
		in, status := c.readAs(file, *format)
		if in == nil {
			return status
		}
		return c.runTemplate(in, *inputsFile, whole, *as)
	}
	if *inputsFile != "" {
		return c.fail(&usageError{"--inputs applies to template formats only (prompty, pdl, dotprompt)"})
	}
	in, status := c.loadOne(files, *format)
	if in == nil {
		return status
	}
	if *as != "" {
		return c.export(in, *as, in.doc.LLMMessages())
	}
	return c.printJSON(what(in.doc))
}

// export prints msgs as provider as expects them, or why it cannot; with
// --lossy, what the provider cannot take is changed first.
func (c *cli) export(in *input, as string, msgs []promptfmt.Message) int {
	return c.send(in, as, (&promptfmt.Document{Messages: msgs}).ForModel())
}

// send prints doc (what a model receives: Document.ForModel's) as the
// body provider as takes, or why it cannot; with --lossy, what the
// provider cannot take is changed first, each change printed.
func (c *cli) send(in *input, as string, doc *promptfmt.Document) int {
	f := providerNamed(as)
	if c.lossy {
		fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return f.Write(io.Discard, d, promptfmt.Send()) })
		if err != nil {
			c.report(in, err)
			return exitInvalid
		}
		c.changes(in, changes)
		doc = fitted
	}
	var out bytes.Buffer
	if err := f.Write(&out, doc, promptfmt.Send()); err != nil {
		c.report(in, err)
		return exitInvalid
	}
	return c.printBytes(out.Bytes())
}

// runRequest is "promptfmt request": a file as a whole request body.
func (c *cli) runRequest(args []string) int {
	fs := c.flags("request", "--as PROVIDER [-f FORMAT] [--inputs F] [--model M] [--max-tokens N] [--lossy] [FILE|-]",
		"promptfmt request --as openai testdata/examples/weather.json\n"+
			"  promptfmt request --as anthropic --max-tokens 1024 --lossy testdata/examples/weather.json\n\n"+
			"Prints the whole request body a provider takes for the file: the messages a\n"+
			"model receives, the model, the settings under the provider's own names\n"+
			"(max_completion_tokens, max_tokens, generationConfig.maxOutputTokens...),\n"+
			"the tools, the tool choice and the output schema in the provider's\n"+
			"structured-output form. --model and --max-tokens set what the file does not\n"+
			"say (or say otherwise); an openai or anthropic request without a model, or\n"+
			"an anthropic one without max_tokens, is refused. What the provider cannot\n"+
			"take stops it, each thing named with its line; --lossy changes it instead\n"+
			"and prints each change. A template is rendered with --inputs (or its\n"+
			"defaults) first; a Dotprompt model names its Genkit plugin\n"+
			"(googleai/gemini-2.0-flash), and the provider is asked for the rest.\n"+
			"Providers: "+strings.Join(providerNames(), ", ")+".")
	format := fs.String("f", "", "input format ("+formatNames()+"); default: from the extension")
	as := fs.String("as", "", "the provider whose body to print: "+strings.Join(providerNames(), ", ")+"; required")
	inputsFile := inputsFlag(fs)
	model := fs.String("model", "", "the model, in place of the file's")
	maxTokens := fs.Int64("max-tokens", 0, "the most tokens the answer may have, in place of the file's")
	lossy := fs.Bool("lossy", false, "change what the provider cannot take, printing each change, instead of failing")
	files, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	if *as == "" {
		return c.fail(&usageError{"request needs --as PROVIDER (" + strings.Join(providerNames(), ", ") + ")"})
	}
	if !slices.Contains(providerNames(), *as) {
		return c.fail(&usageError{fmt.Sprintf("unknown provider %q (want %s)", *as, strings.Join(providerNames(), ", "))})
	}
	if *maxTokens < 0 {
		return c.fail(&usageError{"--max-tokens takes a positive number"})
	}
	file, err := oneFile(files)
	if err != nil {
		return c.fail(err)
	}
	c.lossy = *lossy
	var in *input
	var doc *promptfmt.Document
	if f, err := lookupFormat(*format, file); err == nil && f.load != nil {
		if in, status = c.readAs(file, *format); in == nil {
			return status
		}
		t, inputs, status := c.loadTemplate(in, *inputsFile)
		if t == nil {
			return status
		}
		if doc, err = t.Document(inputs); err != nil {
			c.report(in, err)
			return exitInvalid
		}
		in.doc = doc
		c.warn(in, "warning")
	} else {
		if *inputsFile != "" {
			return c.fail(&usageError{"--inputs applies to template formats only (prompty, pdl, dotprompt)"})
		}
		if in, status = c.loadOne(files, *format); in == nil {
			return status
		}
		doc = in.doc
	}
	sent := doc.ForModel()
	if isProvider(in.format.name) {
		// A body's other members are the request's too: the target writes
		// those its provider takes and refuses (or, --lossy, drops) the rest.
		sent.Meta, sent.KeyLines = doc.Meta, doc.KeyLines
		if in.format.name == *as {
			sent.Layout = doc.Layout // spellings kept, members it read written back
		}
	}
	if *model != "" {
		sent.Request.Model = *model
	} else if in.format.model != nil && sent.Request.Model != "" {
		sent.Request.Model = in.format.model(sent.Request.Model)
	}
	if *maxTokens > 0 {
		sent.Request.MaxTokens = maxTokens
	}
	// What the API requires of a request and the file does not say.
	if missing := provider.Missing(providerNamed(*as), sent.Request); len(missing) > 0 {
		flag := map[string]string{"model": "--model M", "max_tokens": "--max-tokens N"}
		for _, m := range missing {
			c.emit(in, diagnostic{Severity: "error", Format: *as,
				Message: fmt.Sprintf("the %s API needs %s in a request, which the file does not set: give %s", *as, m, flag[m])})
		}
		return exitInvalid
	}
	return c.send(in, *as, sent)
}

// providerNames are the names --as takes.
func providerNames() []string {
	var names []string
	for _, f := range registry.Providers() {
		names = append(names, f.Name())
	}
	return names
}

// isProvider reports whether format is a provider's request body.
func isProvider(format string) bool { return slices.Contains(providerNames(), format) }

// providerNamed is the provider format called name (one of providerNames).
func providerNamed(name string) promptfmt.Format {
	for _, f := range registry.Providers() {
		if f.Name() == name {
			return f
		}
	}
	panic("no provider " + name)
}

func (c *cli) runParse(args []string) int {
	return c.show(args, "parse", "promptfmt parse testdata/examples/review.md\n\n"+
		"A .prompty file is a template: parse prints {\"agent\": its front matter, \"messages\":\n"+
		"what it renders to with --inputs}.", true,
		func(d *promptfmt.Document) any { return d })
}

func (c *cli) runMessages(args []string) int {
	return c.show(args, "messages", "promptfmt messages --inputs testdata/examples/inputs.json testdata/examples/chat.prompty\n"+
		"  promptfmt messages --as anthropic --lossy testdata/examples/support.stf\n\n"+
		"--as prints what goes under a provider's request body: OpenAI's {\"messages\"},\n"+
		"Anthropic's {\"system\", \"messages\"}, Gemini's {\"system_instruction\", \"contents\"}.\n"+
		"What the provider cannot take stops it, each thing named with its line\n"+
		"(Anthropic has no message names: without --lossy the example fails on\n"+
		"\"Ross\"); --lossy changes it instead and prints each change on stderr.\n"+
		"A .prompty file is a template: it is rendered with --inputs (or its defaults),\n"+
		"in strict mode unless it says strict: false, and split into messages.\n"+
		"A dataset (.jsonl, a conversation a line) prints an array holding each\n"+
		"record's messages; a record that does not read stops it, the array left\n"+
		"open, so that what was printed does not parse as the whole.", false,
		func(d *promptfmt.Document) any { return d.Sent() })
}
