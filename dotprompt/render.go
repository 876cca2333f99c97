package dotprompt

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"unicode"

	dp "github.com/google/dotprompt/go/dotprompt"
	"github.com/invopop/jsonschema"
	"github.com/mbleigh/raymond/lexer"
	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/picoschema"
	"github.com/promptfmt/promptfmt/internal/values"
)

// Template is a loaded Dotprompt file, rendered by Dotprompt's own Go
// runtime (see the package doc, Rendering).
type Template struct {
	src    []byte // without its byte order mark
	file   string // the File option's
	doc    *promptfmt.Document
	meta   map[string]any // Render's: the front matter, named by the file
	inputs []string
	limits promptfmt.TemplateLimits
	// tags is how many tags the template has, partials expanded where
	// they are named: what a pass of a loop costs (see budget).
	tags int64

	mu    sync.Mutex // the runtime's compiled template is not known to be safe for concurrent use
	fn    dp.PromptFunction
	built *budget // of the helpers json, each, log, section and print, which fn calls
}

// Load reads a Dotprompt file as a template: its syntax is checked as
// Parse checks it (positioned errors), then Dotprompt's runtime compiles
// it. The source is bounded by the Limits option's MaxSource before
// anything reads it.
func Load(src []byte, opts ...promptfmt.Option) (*Template, error) {
	p, err := prepare(src, opts, true)
	if err != nil {
		return nil, err
	}
	built := &budget{}
	fn, err := compile(p.runtimeSrc, p.quiet, built)
	if err != nil {
		return nil, finish(&p.s, renderError("", err))
	}
	tags := expandedTags(string(p.body), p.partials, p.refs)
	return &Template{src: p.body, file: p.s.File, doc: p.doc, meta: named(p.doc.Meta, p.s.File), inputs: declaredInputs(p.doc), limits: p.l, fn: fn, built: built, tags: tags}, nil
}

// Check reads a file as Load does, without making it ready to render,
// and returns the Document Parse returns: the front matter, the
// template's syntax (an error at its place, a partial's in the partial's
// file), the partials it names (from the FS option) and front matter
// Dotprompt's runtime could not read are checked, within Limits.
// Decision: a helper the template calls that is neither Handlebars' nor
// Dotprompt's ({{list items}}) is no problem here: Genkit's code may
// register it (ai.defineHelper); Load refuses it, since this package
// cannot render it. promptfmt check reads a file with Check.
func Check(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	p, err := prepare(src, opts, false)
	if err != nil {
		return nil, err
	}
	// As Parse: the settings move from Meta into the Request.
	kept := takeRequest(p.doc, src, p.yamlStart)
	if l, ok := p.doc.Layout.(*layout); ok {
		l.kept = kept
	}
	return p.doc, nil
}

// prepared is what Load and Check read of a file.
type prepared struct {
	s          promptfmt.Settings
	l          promptfmt.TemplateLimits
	doc        *promptfmt.Document     // Meta whole (Parse moves the settings into the Request)
	yamlStart  int                     // where the front matter's YAML starts in src
	body       []byte                  // the file without its byte order mark
	runtimeSrc string                  // what the runtime is given (see checkSyntax)
	partials   map[string]string       // as read
	refs       map[string][]partialRef // the partials each names ("": the template)
	quiet      map[string]string       // as the runtime is given them
}

// prepare reads src for Load and Check; helpers says whether a call of
// a helper that is not Handlebars' nor Dotprompt's is an error.
func prepare(src []byte, opts []promptfmt.Option, helpers bool) (*prepared, error) {
	p := &prepared{}
	s := &p.s
	if err := promptfmt.ApplyOptions(format, s, nil, opts); err != nil {
		return nil, err
	}
	l := s.Limits.Effective()
	p.l = l
	if l.MaxSource > 0 && len(src) > l.MaxSource {
		return nil, finish(s, renderError(fmt.Sprintf("the template is %d bytes, more than the limit MaxSource (%d)", len(src), l.MaxSource), nil))
	}
	doc, yamlStart, err := parse(src)
	doc, err = s.Finish(doc, err)
	if err != nil {
		return nil, err
	}
	p.doc, p.yamlStart = doc, yamlStart
	body := src[lines.SkipBOM(src):]
	p.body = body
	// The runtime on the module proxy predates the licence header that
	// Dotprompt's runtimes allow before the front matter: it is given
	// the file from the front matter on.
	runtimeAt, template := 0, 0 // in body
	if open, _, _, next, _ := frontMatter(body, 0); open >= 0 {
		runtimeAt, template = open, next
	}
	// What the engine reads, its comments quieted (offsets unchanged).
	quietTemplate := quietComments(string(body[template:]))
	partials, quiet, refs, err := readPartials(s.FS, quietTemplate, l.MaxSource)
	if err == nil {
		err = checkPartials(string(body), partials, refs, l)
	}
	if err != nil {
		return nil, finish(s, renderError("", err))
	}
	p.partials, p.refs = partials, refs
	runtimeSrc := string(body[runtimeAt:template]) + quietTemplate
	tmpl, yamlAt, yerr := runtimeTemplate(runtimeSrc)
	if yerr != nil {
		return nil, finish(s, yamlError(src, len(src)-len(body)+runtimeAt, yamlAt, yerr))
	}
	runtimeSrc, quiet, helperErr, perr := checkSyntax(src, len(src)-len(body)+runtimeAt, runtimeSrc, tmpl, quiet, l.MaxDepth, s.File)
	if perr != nil {
		return nil, finish(s, perr)
	}
	p.runtimeSrc, p.quiet = runtimeSrc, quiet
	if s.FS == nil && len(refs[""]) > 0 { // the runtime would fail on it at rendering, with no place
		r := refs[""][0]
		return nil, finish(s, diag.Errorf(format, src, len(src)-len(body)+template+r.at,
			"the partial %s is read beside the file (the FS option), and there is no file system to read it from (a file read from standard input has none)", r.name))
	}
	if helpers && helperErr != nil {
		return nil, finish(s, helperErr)
	}
	return p, nil
}

// named is meta with the name and variant the file's name gives, as
// Dotprompt's directory store reads it, where the front matter has none:
// "greet.formal.prompt" is the prompt greet, variant formal (the text
// after the last dot). A partial's file (_name.prompt), or a name without
// ".prompt", gives none.
func named(meta map[string]any, file string) map[string]any {
	stem, ok := strings.CutSuffix(path.Base(filepath.ToSlash(file)), ".prompt")
	if !ok || stem == "" || strings.HasPrefix(stem, "_") {
		return meta
	}
	name, variant := stem, ""
	if i := strings.LastIndexByte(stem, '.'); i >= 0 {
		name, variant = stem[:i], stem[i+1:]
	}
	var out map[string]any
	for k, v := range map[string]string{"name": name, "variant": variant} {
		if _, written := meta[k]; written || v == "" {
			continue
		}
		if out == nil {
			out = maps.Clone(meta)
			if out == nil {
				out = map[string]any{}
			}
		}
		out[k] = v
	}
	if out == nil {
		return meta
	}
	return out
}

// compile is the runtime's Compile, with the helpers json, each, log,
// section and print of built; the Handlebars engine reports some errors by
// panicking, which become errors here.
func compile(src string, partials map[string]string, built *budget) (fn dp.PromptFunction, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	// The runtime compiles the schemas too, to no use here (Template's
	// InputSchema does, as the spec has it), and fails on a named schema
	// it does not know: any name is an empty schema to it.
	anySchema := func(string) (*jsonschema.Schema, error) { return &jsonschema.Schema{}, nil }
	helpers := map[string]any{"json": built.json, "each": built.each, "log": built.log, // the runtime's and the engine's own yield to them
		sectionHelper: built.section, printHelper: built.print}
	return dp.NewDotprompt(&dp.DotpromptOptions{Partials: partials, SchemaResolver: anySchema, Helpers: helpers}).Compile(src, nil)
}

// Inputs are the properties input.schema declares (a Picoschema key
// without its "?" and "(…)", a JSON Schema's properties), else
// input.default's keys, in the file's order.
func (t *Template) Inputs() []string { return t.inputs }

// Render renders the template with inputs (Dotprompt's data.input, over the
// file's input.default) and returns the messages a model receives, under
// the file's front matter (with the name and variant its file name gives,
// when it has none: see the package doc). A canceled ctx is checked before and after the
// rendering (the engine itself cannot be stopped midway).
func (t *Template) Render(ctx context.Context, inputs map[string]any, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	var (
		s promptfmt.Settings
		o renderOptions
	)
	if err := promptfmt.ApplyOptions(format, &s, &o, opts); err != nil {
		return nil, err
	}
	l := t.limits
	if s.Limits != (promptfmt.TemplateLimits{}) {
		l = s.Limits.Effective()
	}
	if err := ctx.Err(); err != nil {
		return nil, finish(&s, renderError("the rendering was canceled", err))
	}
	if o.err != nil {
		return nil, o.err
	}
	history, err := toRuntime(o.history)
	if err != nil {
		return nil, err
	}
	if o.input != nil {
		merged := maps.Clone(o.input)
		maps.Copy(merged, inputs)
		inputs = merged
	}
	if err := checkNesting(inputs, o.context, o.history); err != nil {
		return nil, finish(&s, err)
	}
	out, logs, err := t.exec(&dp.DataArgument{Input: inputs, Messages: history, Context: o.context}, l)
	if errors.Is(err, errSteps) {
		return nil, finish(&s, renderError(fmt.Sprintf("the template would do more than %d steps of work (the limit MaxSteps): each pass of {{#each}} or of a section over a list counts as its %d tags", l.MaxSteps, t.tags), nil))
	}
	if errors.Is(err, errBudget) {
		return nil, finish(&s, renderError(fmt.Sprintf("the template would build more than %d bytes (the limit MaxBytes)", l.MaxBytes), nil))
	}
	if err != nil {
		return nil, finish(&s, renderError("", err))
	}
	if err := ctx.Err(); err != nil {
		return nil, finish(&s, renderError("the rendering was canceled", err))
	}
	msgs, size, warnings := convert(out.Messages)
	for _, m := range logs {
		warnings = append(warnings, promptfmt.Warning{Format: format, Msg: "{{log}}: " + m})
	}
	if l.MaxOutput > 0 && size > l.MaxOutput {
		return nil, finish(&s, renderError(fmt.Sprintf("the rendered text is %d bytes, more than the limit MaxOutput (%d)", size, l.MaxOutput), nil))
	}
	for i := range warnings {
		warnings[i].File = s.File
		if s.OnWarning != nil {
			s.OnWarning(warnings[i])
		}
	}
	rendered := &promptfmt.Document{Meta: t.meta, MetaNode: t.doc.MetaNode, Messages: msgs}
	// The settings, as Parse reads them (its warnings about them are the
	// file's, not the rendering's).
	takeRequest(rendered, nil, 0)
	rendered.Warnings = warnings
	return rendered, nil
}

// checkNesting refuses Go data that nests past values.MaxDepth or
// contains itself (values.Nesting), which the engine would print until
// the Go stack overflows, a crash no recover catches.
func checkNesting(inputs, context map[string]any, history []promptfmt.Message) *promptfmt.ParseError {
	for _, d := range []struct {
		what string
		m    map[string]any
	}{{"input", inputs}, {"context", context}} {
		if k, msg := values.NestingIn(d.m); msg != "" {
			return renderError(fmt.Sprintf("%s %q: %s", d.what, k, msg), nil)
		}
	}
	for i, m := range history {
		if k, msg := values.NestingIn(m.Metadata); msg != "" {
			return renderError(fmt.Sprintf("history message %d, metadata %q: %s", i+1, k, msg), nil)
		}
	}
	return nil
}

// renderError is an error of the template as a whole (the runtime gives
// no positions): at its start, as every template format's errors are
// ParseErrors.
func renderError(msg string, err error) *promptfmt.ParseError {
	if msg == "" && err != nil && !errors.Is(err, fs.ErrNotExist) {
		// raymond's messages go on with a dump of its syntax tree.
		msg, _, _ = strings.Cut(err.Error(), "\n")
		err = nil
	}
	return &promptfmt.ParseError{Format: format, Msg: msg, Err: err}
}

// partialRef is a partial a template names: {{> name ...}}, the name
// the first word of the tag (the runtime's own resolver takes the whole
// tag), at offset at of the template.
type partialRef struct {
	name string
	at   int
}

// partialRefs are the partials src names, in order, where Handlebars
// reads a partial tag: not in a comment, a raw block or escaped text
// ("\{{> name}}" is text). Read by raymond's lexer, so src is given with
// its comments quieted (quietComments: the lexer is quadratic in their
// blanks); a syntax error ends the list (Load reports it).
func partialRefs(src string) []partialRef {
	var refs []partialRef
	lex := lexer.Scan(src)
	for {
		tok := lex.NextToken()
		if tok.Kind == lexer.TokenEOF || tok.Kind == lexer.TokenError {
			return refs // the lexer's goroutine has ended
		}
		if tok.Kind != lexer.TokenOpenPartial {
			continue
		}
		name := lex.NextToken()
		if name.Kind == lexer.TokenEOF || name.Kind == lexer.TokenError {
			return refs
		}
		end := name.Pos
		for end < len(src) && !unicode.IsSpace(rune(src[end])) && src[end] != '}' && src[end] != '~' {
			end++
		}
		if end > name.Pos {
			refs = append(refs, partialRef{src[name.Pos:end], tok.Pos})
		}
	}
}

// readPartials reads the partials the template names, and theirs, from
// fsys: the partial "dir/name" is the file dir/_name.prompt, as
// Dotprompt's directory store names it. quiet is the template with its
// comments quieted. Each file is bounded by maxSource. It returns them by
// name, as read and quieted, and the partials each text names (refs[""]
// the template's); without fsys none is read.
func readPartials(fsys fs.FS, quiet string, maxSource int) (partials, quieted map[string]string, refs map[string][]partialRef, err error) {
	refs = map[string][]partialRef{"": partialRefs(quiet)}
	partials, quieted = map[string]string{}, map[string]string{}
	if fsys == nil {
		return partials, quieted, refs, nil
	}
	todo := []string{""}
	for len(todo) > 0 {
		from := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		for _, r := range refs[from] {
			name := r.name
			if _, seen := partials[name]; seen {
				continue
			}
			file := partialFile(name)
			if fi, err := fs.Stat(fsys, file); err == nil && maxSource > 0 && fi.Size() > int64(maxSource) {
				return nil, nil, nil, fmt.Errorf("partial %s: %s is %d bytes, more than the limit MaxSource (%d)", name, file, fi.Size(), maxSource)
			}
			b, err := fs.ReadFile(fsys, file)
			if err != nil {
				return nil, nil, nil, fmt.Errorf("partial %s: %w", name, err)
			}
			partials[name] = string(b)
			quieted[name] = quietComments(partials[name])
			refs[name] = partialRefs(quieted[name])
			todo = append(todo, name)
		}
	}
	return partials, quieted, refs, nil
}

// finish puts the File option's name on err.
func finish(s *promptfmt.Settings, err *promptfmt.ParseError) error {
	_, e := s.Finish(nil, err)
	return e
}

// renderOptions are the options of Render this package makes.
type renderOptions struct {
	history []promptfmt.Message
	input   map[string]any // Data's input, under Render's inputs
	context map[string]any
	err     error // of Data
}

// History gives Render the conversation's earlier messages (Dotprompt's
// data.messages): placed at {{history}}, each with metadata purpose
// "history", else before the last user message, as the runtime does.
func History(msgs []promptfmt.Message) promptfmt.Option {
	return promptfmt.NewOption(format, "dotprompt.History", func(t any) { t.(*renderOptions).history = msgs })
}

// toRuntime turns history messages into the runtime's: text and media
// parts only; "assistant" is "model".
func toRuntime(msgs []promptfmt.Message) ([]dp.Message, error) {
	var out []dp.Message
	for _, m := range msgs {
		role := m.Role
		if role == "assistant" {
			role = "model"
		}
		rm := dp.Message{Role: dp.Role(role)}
		if len(m.Metadata) > 0 {
			rm.Metadata = dp.Metadata(m.Metadata)
		}
		for _, p := range m.Content {
			switch p.Kind {
			case promptfmt.KindText:
				rm.Content = append(rm.Content, &dp.TextPart{Text: p.Value})
			case promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile:
				rm.Content = append(rm.Content, &dp.MediaPart{Media: dp.Media{URL: p.Value, ContentType: p.MediaType}})
			default:
				return nil, fmt.Errorf("dotprompt: a history message's %s part: Dotprompt's history holds text and media only", p.Kind)
			}
		}
		out = append(out, rm)
	}
	return out, nil
}

// exec renders data, and returns what {{log}} was given.
func (t *Template) exec(data *dp.DataArgument, l promptfmt.TemplateLimits) (out dp.RenderedPrompt, logs []string, err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.built.reset(l, t.tags)
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	out, err = t.fn(data, nil)
	return out, t.built.logs, err
}

// convert turns the runtime's messages into this package's model: "model"
// is "assistant"; media parts take their kind from the content type. It
// returns the bytes of text and URLs, for MaxOutput, and warnings for what
// the model has no place for (a section's pending part) and for a media
// part with no url (kept, as the runtime makes it).
func convert(in []dp.Message) ([]promptfmt.Message, int, []promptfmt.Warning) {
	var (
		msgs     []promptfmt.Message
		size     int
		warnings []promptfmt.Warning
	)
	for _, m := range in {
		role := string(m.Role)
		if role == "model" {
			role = "assistant"
		}
		msg := promptfmt.Message{Role: role}
		if len(m.Metadata) > 0 {
			msg.Metadata = map[string]any(m.Metadata)
		}
		for _, p := range m.Content {
			switch p := p.(type) {
			case *dp.TextPart:
				size += len(p.Text)
				msg.Content = append(msg.Content, promptfmt.Text(p.Text))
			case *dp.MediaPart:
				size += len(p.Media.URL)
				if p.Media.URL == "" {
					warnings = append(warnings, promptfmt.Warning{Format: format, Msg: fmt.Sprintf("message %d (%s): a {{media}} part with no url (an input missing?)", len(msgs)+1, role)})
				}
				msg.Content = append(msg.Content, promptfmt.ContentPart{Kind: mediaKind(p.Media.URL, p.Media.ContentType), Value: p.Media.URL, MediaType: p.Media.ContentType})
			case *dp.PendingPart:
				warnings = append(warnings, promptfmt.Warning{Format: format, Msg: fmt.Sprintf("message %d (%s): the part of {{section %q}} (pending: a place Genkit fills, no content) has no place in a message here: left out", len(msgs)+1, role, fmt.Sprint(p.GetMetadata()["purpose"]))})
			default:
				warnings = append(warnings, promptfmt.Warning{Format: format, Msg: fmt.Sprintf("message %d (%s): a part %T %v has no place in a message here: left out", len(msgs)+1, role, p, p.GetMetadata())})
			}
		}
		msgs = append(msgs, msg)
	}
	return msgs, size, warnings
}

// declaredInputs are the properties input.schema declares (compiled, any
// name standing for a named schema), else input.default's keys, in the
// file's order.
func declaredInputs(doc *promptfmt.Document) []string {
	v, node := schemaOf(doc, "input")
	if _, props, err := picoschema.Compile(v, node, anyName); err == nil && props != nil {
		return props
	}
	root, _ := doc.MetaNode.(*yaml.Node)
	if def := mapValue(mapValue(root, "input"), "default"); def != nil && def.Kind == yaml.MappingNode {
		var out []string
		for i := 0; i+1 < len(def.Content); i += 2 {
			out = append(out, def.Content[i].Value)
		}
		return out
	}
	return nil
}

// mapValue is the value of key in mapping node m (a document node is
// looked through), or nil.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m != nil && m.Kind == yaml.DocumentNode && len(m.Content) == 1 {
		m = m.Content[0]
	}
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// checkPartials refuses partials that would make rendering run away
// before any is rendered: a partial that includes itself (through others
// or not), which the engine would follow until the Go stack overflows;
// partials nested deeper than l.MaxDepth; and partials that, expanded
// where they are named, come to more than l.MaxOutput bytes of template
// (a partial naming another twice, k deep, is 2^k copies).
func checkPartials(src string, partials map[string]string, refs map[string][]partialRef, l promptfmt.TemplateLimits) error {
	size := map[string]int64{} // expanded size, once known
	state := map[string]int{}  // 1: being expanded, 2: done
	var expand func(name, text string, path []string) (int64, error)
	expand = func(name, text string, path []string) (int64, error) {
		if l.MaxDepth > 0 && len(path) > l.MaxDepth {
			return 0, fmt.Errorf("partials nest deeper than %d (%s ...)", l.MaxDepth, strings.Join(path[:min(3, len(path))], " > "))
		}
		total := int64(len(text))
		for _, r := range refs[name] {
			child := r.name
			body, ok := partials[child]
			if !ok {
				continue // not found: rendering names it
			}
			switch state[child] {
			case 1:
				return 0, fmt.Errorf("partial %s includes itself (%s)", child, strings.Join(append(path, child), " > "))
			case 0:
				state[child] = 1
				n, err := expand(child, body, append(path, child))
				if err != nil {
					return 0, err
				}
				size[child], state[child] = n, 2
			}
			total += size[child]
			if l.MaxOutput > 0 && total > int64(l.MaxOutput) {
				return 0, fmt.Errorf("the template with its partials expanded comes to more than %d bytes (the limit MaxOutput)", l.MaxOutput)
			}
		}
		return total, nil
	}
	_, err := expand("", src, []string{"the template"})
	return err
}

// expandedTags is how many tags src holds, each partial it names
// expanded there (partials are known not to include themselves:
// checkPartials).
func expandedTags(src string, partials map[string]string, refs map[string][]partialRef) int64 {
	memo := map[string]int64{}
	var walk func(name, text string) int64
	walk = func(name, text string) int64 {
		n := int64(strings.Count(text, "{{"))
		for _, r := range refs[name] {
			body, ok := partials[r.name]
			if !ok {
				continue
			}
			p, done := memo[r.name]
			if !done {
				p = walk(r.name, body)
				memo[r.name] = p
			}
			n += p
		}
		return n
	}
	return walk("", src)
}
