// Package tmpl renders the templates of the formats whose files are
// templates: Jinja2 (Prompty, PDL) with github.com/nikolalohinski/gonja/v2
// and Mustache (Prompty) with github.com/cbroglie/mustache, made safe for
// files from elsewhere:
//
//   - no file system: include, import and extends fail unless Options.FS
//     or Options.Dir gives one, and then cannot leave it; Mustache partials
//     are refused;
//   - no stack overflow: gonja's parser and evaluator recurse once per
//     bracket, operator and nested block, and a Go stack overflow kills the
//     process, so a template nested deeper than the limits of Check is
//     refused before gonja sees it (cbroglie/mustache has its own limit);
//   - bounded output: rendering stops with an error past Limits.MaxOutput;
//   - bounded work: one budget per rendering (Limits.MaxSteps, MaxDepth,
//     MaxBytes) counts every node rendered, expression evaluated, loop
//     iteration and item a loop reads, bounds nested calls (macros,
//     includes, recursive loops, so a macro that calls itself stops
//     instead of overflowing the Go stack), and charges every string and
//     list the template builds before it is built ("x" * 4000000000 is
//     refused, not allocated). The budget is gonja's own Environment.Budget:
//     gonja has no way to bound work, so the module carries a patched copy
//     of its exec and builtins packages in internal/gonja (see its
//     README). A Mustache template's work is bounded before rendering
//     from its nested sections and the data's list lengths;
//   - bounded source: a template longer than Limits.MaxSource is refused
//     before it is read, as is every file an include reads;
//   - errors with the template's line and column, never the whole source
//     (gonja puts the template text into its parse errors).
//
// HTML is never escaped: prompts are not HTML.
package tmpl

import (
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"strconv"
	"strings"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/splice"
	"github.com/promptfmt/promptfmt/internal/values"
)

// Options configures Jinja and Mustache.
type Options struct {
	// Dir is the directory that include, import and extends read from.
	// Empty means templates cannot read files.
	Dir string
	// FS, when set, is where include, import and extends read from in
	// place of Dir: names relative to the directory Base of FS, never
	// leaving FS (see confined.ReadFS).
	FS   fs.FS
	Base string
	// StrictUndefined makes an undefined variable an error; by default it
	// renders as "" and is false in a condition, as in Jinja2.
	StrictUndefined bool
	// Escape, when set, is applied to the printed text of every {{ }}
	// whose value is not marked safe (| safe), whatever its type: Tera's
	// autoescape with a custom function. Literal template text and
	// {% raw %} are never escaped.
	Escape func(string) string
	// LenientIf keeps an undefined name false in if and elif conditions
	// when StrictUndefined is set, as Tera does; gonja has one rule for
	// both.
	LenientIf bool
	// Limits bound the work of a rendering (see the package doc).
	Limits promptfmt.TemplateLimits
	// Done, when set, stops a rendering once it is closed (a context's
	// Done), with an error at the template's line.
	Done <-chan struct{}
}

// budget is a new work budget with o's limits.
func (o Options) budget() *exec.Budget {
	l := o.Limits.Effective()
	return &exec.Budget{MaxSteps: l.MaxSteps, MaxDepth: l.MaxDepth, MaxBytes: l.MaxBytes, Done: o.Done}
}

// Error is a template problem at a line and column (1-based; 0 when the
// engine does not say) of the template.
type Error struct {
	Line, Col int
	Msg       string
}

// Error reads "template line L, column C: message", as far as the position
// is known.
func (e *Error) Error() string {
	if e.Line == 0 {
		return "template: " + e.Msg
	}
	if e.Col > 0 {
		return fmt.Sprintf("template line %d, column %d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("template line %d: %s", e.Line, e.Msg)
}

const rootID = "template"

// Jinja renders the Jinja2 template src with the variables of ctx. Values
// are JSON-like (strings, numbers, bools, nil, []any, map[string]any) or any
// Go value gonja reflects over.
func Jinja(src string, ctx map[string]any, o Options) (_ string, err error) {
	if err := checkInputs(ctx); err != nil {
		return "", err
	}
	budget := o.budget()
	defer recoverPanic(&err, budget)
	c, err := compile(src, o, budget)
	if err != nil {
		return "", err
	}
	out := newLimitWriter(o.Limits.Effective().MaxOutput)
	err = c.tpl.Execute(out, exec.NewContext(ctx))
	// The budget and the output limit are checked first: a filter or test
	// may have swallowed the error that they caused.
	switch {
	case budget.Err() != nil:
		return "", c.unshift(convert(budget.Err()))
	case out.full:
		return "", out.err()
	case err != nil:
		return "", c.unshift(convert(err))
	}
	return out.b.String(), nil
}

// CompileJinja reads the Jinja2 template src without rendering it: its
// syntax errors, with no variables needed.
func CompileJinja(src string, o Options) (err error) {
	if !HasJinjaTags(src) && SourceTooLarge(len(src), o.Limits.Effective().MaxSource) == "" {
		return nil // nothing for the engine to read (its lexer alone costs ~30 µs)
	}
	budget := o.budget()
	defer recoverPanic(&err, budget)
	_, err = compile(src, o, budget)
	return err
}

// compiled is a parsed template and how its text was rewritten.
type compiled struct {
	tpl  *exec.Template
	orig string        // the template before wrapOutputs
	ins  []splice.Edit // what wrapOutputs inserted
}

func compile(src string, o Options, budget *exec.Budget) (*compiled, error) {
	limits := o.Limits.Effective()
	if msg := SourceTooLarge(len(src), limits.MaxSource); msg != "" {
		return nil, &Error{Msg: msg}
	}
	if err := Check(src); err != nil {
		return nil, err
	}
	cfg := config.New()
	cfg.StrictUndefined = o.StrictUndefined
	env := o.environment(budget)
	c := &compiled{}
	if o.Escape != nil {
		c.orig = lines.ToLF(src) // as gonja's lexer does, so offsets agree
		src, c.ins = wrapOutputs(c.orig)
	}
	ld := &loader{rootID: rootID, src: src, dir: o.Dir, fsys: o.FS, base: o.Base, escaping: o.Escape != nil, maxSource: limits.MaxSource, budget: budget}
	tpl, err := exec.NewTemplate(rootID, cfg, ld, env)
	if budget.Err() != nil { // a chain of extends too long; gonja flattens the error
		return nil, convert(budget.Err())
	}
	if err != nil {
		return nil, c.unshift(convert(err))
	}
	c.tpl = tpl
	return c, nil
}

// unshift maps an error's column back to the template the author wrote.
func (c *compiled) unshift(err error) error {
	var e *Error
	if len(c.ins) > 0 && errors.As(err, &e) && e.Line > 0 {
		e.Col = originalColumn(c.orig, c.ins, e.Line, e.Col)
	}
	return err
}

// environment is the package's environment with the options' escaping
// filter and if rule, and the rendering's budget.
func (o Options) environment(budget *exec.Budget) *exec.Environment {
	env := *environment
	env.Budget = budget
	if o.Escape != nil {
		env.Filters = exec.NewFilterSet(map[string]exec.FilterFunction{escapeFilter: escapingFilter(o.Escape)}).Update(environment.Filters)
	}
	if o.LenientIf {
		env.ControlStructures = lenientControls
	}
	return &env
}

// limitWriter collects output up to a limit.
type limitWriter struct {
	b     strings.Builder
	limit int
	full  bool
}

func newLimitWriter(limit int) *limitWriter {
	return &limitWriter{limit: limit}
}

func (w *limitWriter) Write(p []byte) (int, error) {
	if w.full || w.limit > 0 && w.b.Len()+len(p) > w.limit {
		w.full = true
		return 0, w.err()
	}
	return w.b.Write(p)
}

func (w *limitWriter) err() *Error {
	return &Error{Msg: fmt.Sprintf("the rendered text passes %d bytes", w.limit)}
}

var atLine = regexp.MustCompile(`at line (\d+)`)

// filterLayers is how gonja flattens an error inside a filter call into
// the message: a dump of the call's token, then the filter's name.
var filterLayers = regexp.MustCompile(`unable to evaluate filter &\{<Token\[[^\]]*\][^>]*>[^}]*\}: invalid call to filter '[^']*': `)

// convert turns a gonja error into an Error. Gonja wraps a syntax error in
// a message quoting the whole template, and a render error in layers of
// "Unable to ... at line N: ..."; the line comes from the outermost layer
// and the message from the innermost cause.
func convert(err error) error {
	var le *Error
	if errors.As(err, &le) {
		return le
	}
	var be *exec.LimitError
	if errors.As(err, &be) {
		return &Error{Line: be.Line, Col: be.Col, Msg: be.Error()}
	}
	var chain []error
	for e := err; e != nil; e = errors.Unwrap(e) {
		chain = append(chain, e)
	}
	var se *parser.SyntaxError
	if errors.As(err, &se) {
		if se.Line > 0 {
			msg := se.Message
			if se.Raw != "" {
				msg += fmt.Sprintf(" (near %q)", se.Raw)
			}
			return &Error{Line: se.Line, Col: se.Column, Msg: msg}
		}
		// No position: keep gonja's context ("Unable to parse
		// controlStructure "if": ...") from under the layer that quotes
		// the source.
		if len(chain) > 1 {
			return &Error{Msg: short(chain[1].Error())}
		}
		return &Error{Msg: short(se.Message)}
	}
	line := 0
	if m := atLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
	}
	return &Error{Line: line, Msg: short(filterLayers.ReplaceAllString(chain[len(chain)-1].Error(), ""))}
}

// recoverPanic turns a panic of the engine (a bug there, on some odd
// template) into an error, so that one bad file cannot stop a program.
func recoverPanic(err *error, budget *exec.Budget) {
	r := recover()
	if r == nil {
		return
	}
	if be, ok := r.(*exec.LimitError); ok { // a value's text too long to print
		*err = convert(budget.Stop(be.Limit, be.Max))
		return
	}
	*err = &Error{Msg: short(fmt.Sprintf("the template engine failed: %v", r))}
}

func short(s string) string {
	if len(s) > 300 {
		return s[:300] + "…"
	}
	return s
}

// lineOf returns the 1-based line of offset off in src.
func lineOf(src string, off int) int {
	return 1 + strings.Count(src[:off], "\n")
}

// SourceTooLarge is the error message for a template of n bytes over
// the limit max (Limits.MaxSource; none when max is 0 or less), or "".
func SourceTooLarge(n, max int) string {
	if max > 0 && n > max {
		return fmt.Sprintf("the template is %d bytes, more than the limit of %d", n, max)
	}
	return ""
}

// checkInputs refuses Go data that nests past values.MaxDepth or contains
// itself (values.Nesting): the engines print it until the Go stack
// overflows, or as "{}" when their JSON encoder gives up.
func checkInputs(ctx map[string]any) *Error {
	if k, msg := values.NestingIn(ctx); msg != "" {
		return &Error{Msg: fmt.Sprintf("input %q: %s", k, msg)}
	}
	return nil
}
