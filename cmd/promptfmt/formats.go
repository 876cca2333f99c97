package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/dotprompt"
	registry "github.com/promptfmt/promptfmt/formats"
	"github.com/promptfmt/promptfmt/internal/confined"
	"github.com/promptfmt/promptfmt/pdl"
	"github.com/promptfmt/promptfmt/prompty"
)

// formatInfo wires one format package into the command. A format whose
// package is not built yet has nil functions and answers "not implemented
// yet" rather than a wrong result.
type formatInfo struct {
	name  string
	ext   string   // what its files are written with
	exts  []string // every extension it reads
	parse func([]byte) (*promptfmt.Document, error)
	write func(io.Writer, *promptfmt.Document) error
	// load is set for formats whose files are templates: parse and
	// messages load the file (file is its name, "" for stdin; what it
	// names is read from its directory) and render it with the inputs
	// given.
	load func(src []byte, file string) (template, error)
	// parseIn, when set, is parse for a file in directory dir (for a
	// format that reads other files relative to it).
	parseIn func(src []byte, dir string) (*promptfmt.Document, error)
	// check, when set, is what check does beside parse: load the file
	// (without rendering it), for its template's syntax and the files it
	// names, problems that reading its messages does not see.
	check func(src []byte, file string) error
	// isTemplate, when set, says that writing the file back would replace
	// its template by what it renders to: fmt and convert refuse it.
	isTemplate func(src []byte) bool
	// model, when set, is the model's name as a provider knows it, from
	// the file's (Dotprompt's names the Genkit plugin that serves it too).
	model func(ref string) string
}

// template is a loaded template file.
type template interface {
	// Render returns the text the template renders to.
	Render(inputs map[string]any) (string, error)
	// Prepare returns the messages a model receives, and what it warns of
	// (an input it leaves out, say).
	Prepare(inputs map[string]any) ([]promptfmt.Message, []promptfmt.Warning, error)
	// Document returns what the template renders to as a document: its
	// messages, with the file's metadata.
	Document(inputs map[string]any) (*promptfmt.Document, error)
	// Describe returns what parse prints beside the messages, as
	// JSON-like values, after Prepare.
	Describe() map[string]any
	// Warnings are the loaded file's warnings.
	Warnings() []promptfmt.Warning
}

// promptyTemplate is a loaded .prompty file.
type promptyTemplate struct {
	a   *prompty.Agent
	src []byte
}

func loadPrompty(src []byte, file string) (template, error) {
	a, err := prompty.Load(src, promptyOptions(file)...)
	if err != nil {
		return nil, err
	}
	return promptyTemplate{a, src}, nil
}

func promptyOptions(file string) []promptfmt.Option {
	var opts []promptfmt.Option
	if file != "" { // the files it names, from inside its directory only
		opts = append(opts, promptfmt.FS(confined.DirFS(filepath.Dir(file))))
	}
	return opts
}

// checkPrompty loads a .prompty file as check reads it: an ${env:NAME}
// that is not set here is no problem of the file (it is set where the
// prompt runs), so it reads as "".
func checkPrompty(src []byte, file string) error {
	_, err := prompty.Load(src, append(promptyOptions(file), prompty.LookupEnv(func(name string) (string, bool) {
		v, _ := os.LookupEnv(name)
		return v, true
	}))...)
	return err
}

func checkDotprompt(src []byte, file string) error {
	_, err := dotprompt.Check(src, dotpromptOptions(file)...)
	return err
}

// dotpromptModel is the model a provider is asked for: the name in the
// file's Genkit reference, without its plugin.
func dotpromptModel(ref string) string {
	_, name := dotprompt.ModelName(ref)
	return name
}

func dotpromptOptions(file string) []promptfmt.Option {
	var opts []promptfmt.Option
	if file != "" { // partials (_name.prompt), from inside its directory only;
		// its name and variant from the file's name
		opts = append(opts, promptfmt.FS(confined.DirFS(filepath.Dir(file))), promptfmt.File(file))
	}
	return opts
}

// Render shows the template's output for a reader: without strict mode's
// nonces (rich inputs still show as their placeholders).
func (t promptyTemplate) Render(inputs map[string]any) (string, error) {
	return prompty.Render(t.a, inputs)
}

func (t promptyTemplate) Prepare(inputs map[string]any) ([]promptfmt.Message, []promptfmt.Warning, error) {
	var warnings []promptfmt.Warning
	msgs, err := prompty.Prepare(t.a, inputs, promptfmt.OnWarning(func(w promptfmt.Warning) { warnings = append(warnings, w) }))
	return msgs, warnings, err
}

// Document is the prepared messages under the front matter as written.
func (t promptyTemplate) Document(inputs map[string]any) (*promptfmt.Document, error) {
	file, err := prompty.Parse(t.src)
	if err != nil {
		return nil, err
	}
	msgs, warnings, err := t.Prepare(inputs)
	if err != nil {
		return nil, err
	}
	return &promptfmt.Document{Meta: file.Meta, MetaNode: file.MetaNode, Request: file.Request, Messages: msgs, Warnings: warnings}, nil
}

// Describe is the front matter as Load reads it, and the settings as the
// Document holds them.
func (t promptyTemplate) Describe() map[string]any {
	out := map[string]any{"agent": t.a}
	if file, err := prompty.Parse(t.src); err == nil && !file.Request.IsZero() {
		out["request"] = file.Request
	}
	return out
}

func (t promptyTemplate) Warnings() []promptfmt.Warning { return t.a.Warnings }

// pdlTemplate is a .pdl file; the inputs are what ragit calls its context.
type pdlTemplate struct {
	src  []byte
	dir  string
	last *pdl.Prompt // of the last Prepare
}

// besideFS is where a .pdl file's images and includes are read: its
// directory, which no name leaves, through a symbolic link either (as
// os.DirFS would let it).
func besideFS(dir string) promptfmt.Option { return promptfmt.FS(confined.DirFS(dir)) }

func loadPDL(src []byte, file string) (template, error) {
	dir := "." // standard input: images relative to the working directory
	if file != "" {
		dir = filepath.Dir(file)
	}
	return &pdlTemplate{src: src, dir: dir}, nil
}

func (t *pdlTemplate) Render(inputs map[string]any) (string, error) {
	return pdl.Render(t.src, pdl.Inputs(inputs))
}

func (t *pdlTemplate) Prepare(inputs map[string]any) ([]promptfmt.Message, []promptfmt.Warning, error) {
	p, err := pdl.Load(t.src, pdl.Inputs(inputs), besideFS(t.dir))
	if err != nil {
		return nil, nil, err
	}
	t.last = p
	return receivedMessages(p.Document), p.Document.Warnings, nil
}

// receivedMessages is doc.LLMMessages(), or doc.Messages themselves when a
// model receives them all, as it mostly does: a large document's list is
// not copied. The command only reads the list.
func receivedMessages(doc *promptfmt.Document) []promptfmt.Message {
	for i := range doc.Messages {
		if m := &doc.Messages[i]; m.Disabled || m.Hidden() {
			return doc.LLMMessages()
		}
	}
	if doc.Messages == nil {
		return []promptfmt.Message{}
	}
	return doc.Messages
}

// Document is the whole document, hidden reasoning turns and the schema
// (the Request's output, or Meta[pdl.SchemaKey]) included.
func (t *pdlTemplate) Document(inputs map[string]any) (*promptfmt.Document, error) {
	if _, _, err := t.Prepare(inputs); err != nil {
		return nil, err
	}
	return t.last.Document, nil
}

// Describe is the schema (its text, and its canonical form when it
// parsed) and the whole document, hidden reasoning turns included.
func (t *pdlTemplate) Describe() map[string]any {
	out := map[string]any{"document": t.last.Document}
	if t.last.Schema != nil {
		out["schema"] = map[string]any{"text": t.last.SchemaText, "parsed": t.last.Schema.String()}
	}
	return out
}

func (t *pdlTemplate) Warnings() []promptfmt.Warning { return nil }

// dotpromptTemplate is a loaded Dotprompt file; the inputs are
// Dotprompt's data argument ({"input": ..., "messages": ..., "context": ...}),
// so that a file renders as in Genkit.
type dotpromptTemplate struct {
	t    *dotprompt.Template
	last *promptfmt.Document // of the last Document
}

func loadDotprompt(src []byte, file string) (template, error) {
	t, err := dotprompt.Load(src, dotpromptOptions(file)...)
	if err != nil {
		return nil, err
	}
	return &dotpromptTemplate{t: t}, nil
}

// Render is the rendered messages' text, one after the other.
func (t *dotpromptTemplate) Render(inputs map[string]any) (string, error) {
	doc, err := t.Document(inputs)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, m := range doc.Messages {
		b.WriteString(m.Text())
	}
	return b.String(), nil
}

func (t *dotpromptTemplate) Prepare(inputs map[string]any) ([]promptfmt.Message, []promptfmt.Warning, error) {
	doc, err := t.Document(inputs)
	if err != nil {
		return nil, nil, err
	}
	return doc.Messages, doc.Warnings, nil
}

func (t *dotpromptTemplate) Document(inputs map[string]any) (*promptfmt.Document, error) {
	doc, err := t.t.Render(context.Background(), nil, dotprompt.Data(inputs))
	t.last = doc
	return doc, err
}

// Describe is the inputs and the front matter (with the name and variant
// the file's name gives).
func (t *dotpromptTemplate) Describe() map[string]any {
	out := map[string]any{"inputs": t.t.Inputs()}
	if t.last != nil && t.last.Meta != nil {
		out["meta"] = t.last.Meta
	}
	if t.last != nil && !t.last.Request.IsZero() { // the front matter's settings Meta no longer holds
		out["request"] = t.last.Request
	}
	return out
}

func (t *dotpromptTemplate) Warnings() []promptfmt.Warning { return nil }

// formats is package formats' registry, with what the command adds for
// template formats (loading with inputs, reading beside a file).
var formats = commandFormats()

func commandFormats() []formatInfo {
	templates := map[string]formatInfo{
		"pdl": {
			parseIn:    func(b []byte, dir string) (*promptfmt.Document, error) { return pdl.Check(b, besideFS(dir)) },
			load:       loadPDL,
			isTemplate: pdl.IsTemplate,
		},
		"prompty":   {load: loadPrompty, check: checkPrompty},
		"dotprompt": {load: loadDotprompt, check: checkDotprompt, model: dotpromptModel},
	}
	var out []formatInfo
	for _, f := range registry.All() {
		info := templates[f.Name()]
		info.name, info.exts, info.ext = f.Name(), f.Extensions(), f.Extensions()[0]
		info.parse = func(src []byte) (*promptfmt.Document, error) { return f.Parse(src) }
		info.write = func(w io.Writer, d *promptfmt.Document) error { return f.Write(w, d) }
		out = append(out, info)
	}
	return out
}

func formatNames() string {
	var names []string
	for _, f := range formats {
		names = append(names, f.name)
	}
	return strings.Join(names, ", ")
}

// usageError is a mistake in how the command was called: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// inTree reports whether a file met in a directory is one to handle: of
// a known format (of format, when one is given). Decision: a file whose
// extension only request-body formats read (.json) is one only when its
// content reads as a body: most JSON files (package.json, a template's
// inputs) are not prompts, and checking them would report them all.
func inTree(name, format string) bool {
	f, err := lookupFormat("", name)
	if err != nil || format != "" && f.name != format {
		return false
	}
	ext := strings.ToLower(filepath.Ext(name))
	var owners []promptfmt.Format
	for _, g := range registry.All() {
		if slices.Contains(g.Extensions(), ext) {
			owners = append(owners, g)
		}
	}
	for _, g := range owners {
		if !slices.ContainsFunc(registry.Providers(), func(p promptfmt.Format) bool { return p.Name() == g.Name() }) {
			return true
		}
	}
	src, err := os.ReadFile(name)
	if err != nil {
		return true // reported when read
	}
	for _, g := range owners {
		if g.Sniff(src) && (format == "" || g.Name() == format) {
			return true
		}
	}
	return false
}

// lookupFormat finds the format named by -f, or else by file's extension.
func lookupFormat(name, file string) (*formatInfo, error) {
	f, _, err := lookupFormatSrc(name, file, nil)
	return f, err
}

// extensionOwners returns the indexes of the formats that read file's
// extension.
func extensionOwners(file string) []int {
	ext := strings.ToLower(filepath.Ext(file))
	var owners []int
	for i := range formats {
		if slices.Contains(formats[i].exts, ext) {
			owners = append(owners, i)
		}
	}
	return owners
}

// lookupFormatSrc is lookupFormat for a file whose content may be known:
// when several formats read its extension, the content tells (src, or
// the file read, which it returns so that it is not read twice).
func lookupFormatSrc(name, file string, src []byte) (*formatInfo, []byte, error) {
	if datasetNamed(name) != nil || name == "" && isDatasetFile(file) {
		what := name
		if what == "" {
			what = file
		}
		return nil, nil, datasetUsage(what)
	}
	if name == "" {
		owners := extensionOwners(file)
		switch {
		case len(owners) == 1:
			return &formats[owners[0]], src, nil
		case len(owners) > 1:
			return byContent(file, src)
		}
		if file == "-" {
			return nil, nil, &usageError{"cannot tell the format of standard input: give -f FORMAT (" + formatNames() + ")"}
		}
		// A file that is not there, or is a directory, is the mistake to
		// name: no format would read it.
		if fi, err := os.Stat(file); err != nil {
			return nil, nil, err
		} else if fi.IsDir() {
			return nil, nil, &usageError{fmt.Sprintf("%s is a directory: give a file", file)}
		}
		return nil, nil, &usageError{fmt.Sprintf("cannot tell the format of %s from its extension: give -f FORMAT (%s)", file, formatNames())}
	}
	for i := range formats {
		if formats[i].name == name {
			return &formats[i], src, nil
		}
	}
	return nil, nil, &usageError{fmt.Sprintf("unknown format %q (want %s)", name, formatNames())}
}

// byContent finds the format of a file whose extension several formats
// read (.prompt: promptfile or Dotprompt) by its content, through the
// registry's Detect; when the content points both ways it asks for -f.
// It reads the file unless src holds it, and returns what it read.
func byContent(file string, src []byte) (*formatInfo, []byte, error) {
	if src == nil {
		var err error
		if src, err = readFile(file); err != nil {
			return nil, nil, err
		}
		noteInput(len(src))
	}
	f, err := registry.Detect(file, src)
	if err != nil {
		return nil, src, &usageError{err.Error() + ": give -f FORMAT"}
	}
	info, _, err := lookupFormatSrc(f.Name(), "", nil)
	return info, src, err
}

func (f *formatInfo) notBuilt() error {
	return &usageError{fmt.Sprintf("format %s: not implemented yet", f.name)}
}
