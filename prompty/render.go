package prompty

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/tmpl"
)

// nonces is what one rendering made up: the strict-mode nonce and the
// placeholders standing for rich-kind inputs, which prepare needs to parse
// the rendered text.
type nonces struct {
	// render is the nonce written into every role boundary of the template
	// ("" when strict mode is off).
	render string
	// rich maps each placeholder, "__PROMPTY_THREAD_<16 hex>_<name>__", to
	// the input it stands for.
	rich map[string]richInput
}

// richInput is a thread, image, file or audio input kept out of the
// template.
type richInput struct {
	name  string
	kind  string
	value any // nil when the input was optional and not given
}

// validateInputs returns inputs completed as the agent declares them: a
// missing input takes its default (never its example); a missing required
// input without a default is an error naming it; a missing optional input
// stays missing. Inputs the agent does not declare pass through.
func validateInputs(a *Agent, inputs map[string]any) (map[string]any, error) {
	out := make(map[string]any, len(inputs)+len(a.Inputs))
	maps.Copy(out, inputs)
	var missing []string
	for i := range a.Inputs {
		p := &a.Inputs[i]
		if _, ok := out[p.Name]; ok {
			continue
		}
		switch {
		case p.HasDefault:
			out[p.Name] = p.Default
		case p.Required:
			missing = append(missing, p.Name)
		}
	}
	if len(missing) > 0 {
		return nil, a.errorf(0, 0, "Missing required input: %s", strings.Join(missing, ", "))
	}
	return out, nil
}

// Render returns the text the agent's template renders to with inputs,
// for a reader: what Prepare would split into messages, but without
// strict mode's nonces and sentinels, and with each input of a rich kind
// (thread, image, file, audio) shown as its placeholder,
// "__PROMPTY_THREAD_<16 hex>_<name>__". It is not meant to be parsed: a
// program wanting messages calls Prepare, which renders in strict mode.
// Inputs are completed as Prepare does: defaults filled in (never
// examples); a missing required input is an error naming it. The
// template is rendered by the engine its format names: jinja2 (gonja; no
// file access, undefined variables render as "", HTML is not escaped) or
// mustache (cbroglie/mustache; no partials, no HTML escaping either:
// prompts are not HTML). promptfmt.Limits bounds the rendering (defaults
// without it). Errors are ParseErrors at the line of the file.
func Render(a *Agent, inputs map[string]any, opts ...promptfmt.Option) (string, error) {
	c, err := newConfig(opts, "Render")
	if err != nil {
		return "", err
	}
	out, _, err := renderAgent(a, inputs, &c, false)
	return out, err
}

// renderAgent renders the agent's template with inputs (section 5 of the
// specification): inputs are validated (validateInputs); every declared
// input of a rich kind is replaced by a fresh placeholder from
// crypto/rand, so its value never reaches the template; when strict is
// set, every role boundary of the template first gets the render nonce
// (PreRender).
func renderAgent(a *Agent, inputs map[string]any, c *config, strict bool) (string, *nonces, error) {
	ctx, err := validateInputs(a, inputs)
	if err != nil {
		return "", nil, err
	}
	n := &nonces{}
	for i := range a.Inputs {
		p := &a.Inputs[i]
		if !isRich(p.Kind) {
			continue
		}
		if n.rich == nil {
			n.rich = map[string]richInput{}
		}
		ph := threadPlaceholder(p.Name)
		n.rich[ph] = richInput{name: p.Name, kind: p.Kind, value: ctx[p.Name]}
		ctx[p.Name] = ph
	}
	tpl := a.Instructions
	// The engine refuses a template over MaxSource; PreRender only
	// lengthens it, so one over the limit now is refused here, before
	// the copies strict mode makes of it (a 256 MB file took 1.3 GB).
	if msg := tmpl.SourceTooLarge(len(tpl), c.Limits.Effective().MaxSource); msg != "" {
		return "", nil, a.errorf(0, 0, "%s", msg)
	}
	if strict {
		n.render = NewNonce()
		tpl = PreRender(tpl, n.render)
	}
	e, err := a.templateEngine()
	if err != nil {
		return "", nil, err
	}
	out, err := e.render(tpl, ctx, tmpl.Options{Limits: c.Limits, Done: c.done})
	if err != nil {
		return "", nil, a.templateError(err)
	}
	return out, n, nil
}

// templateEngine is the template engine Template.Format names.
type templateEngine struct {
	render  func(src string, ctx map[string]any, o tmpl.Options) (string, error)
	compile func(src string, o tmpl.Options) error
}

func (a *Agent) templateEngine() (templateEngine, error) {
	switch a.Template.Format {
	case "jinja2", "jinja", "":
		return templateEngine{tmpl.Jinja, tmpl.CompileJinja}, nil
	case "mustache":
		return templateEngine{tmpl.Mustache, tmpl.CompileMustache}, nil
	}
	return templateEngine{}, a.errorf(0, 0, "unknown template format %q (want jinja2 or mustache)", a.Template.Format)
}

// checkTemplate reads the template as its engine will, without inputs,
// so that Load reports its syntax errors, at their place.
func (a *Agent) checkTemplate(c *config) error {
	e, err := a.templateEngine()
	if err != nil {
		return err
	}
	if err := e.compile(a.Instructions, tmpl.Options{Limits: c.Limits}); err != nil {
		return a.templateError(err)
	}
	return nil
}

// templateError is an engine's error in the agent's file.
func (a *Agent) templateError(err error) error {
	var te *tmpl.Error
	if errors.As(err, &te) {
		return a.errorf(te.Line, te.Col, "%s", te.Msg)
	}
	return a.errorf(0, 0, "%v", err)
}

// errorf is an error in the agent's file at line (1-based) of the
// instructions and column col (0 when unknown), or about the file as a
// whole when line is 0.
func (a Agent) errorf(line, col int, msg string, args ...any) error {
	e := &promptfmt.ParseError{Format: format, File: a.File, Msg: fmt.Sprintf(msg, args...)}
	if line > 0 {
		e.Line, e.Col = max(a.InstructionsLine, 1)+line-1, max(col, 1)
		off := 0 // the line's offset in the instructions
		for i := 1; i < line && off < len(a.Instructions); i++ {
			j := strings.IndexByte(a.Instructions[off:], '\n')
			if j < 0 {
				break
			}
			off += j + 1
		}
		// In strict mode a role marker line was rewritten (PreRender) before
		// rendering, so a column on it may lie past the line as written:
		// the error is then put at the end of the line, where the marker's
		// attributes are.
		lineLen := strings.IndexByte(a.Instructions[off:], '\n')
		if lineLen < 0 {
			lineLen = len(a.Instructions) - off
		}
		if lineLen > 0 && a.Instructions[off+lineLen-1] == '\r' {
			lineLen--
		}
		e.Col = min(e.Col, lineLen+1)
		e.Offset = a.instructionsOffset + off + e.Col - 1
	}
	return e
}
