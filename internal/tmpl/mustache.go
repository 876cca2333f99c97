package tmpl

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cbroglie/mustache"
)

// Mustache renders the Mustache template src with the variables of ctx.
// Nothing is HTML-escaped ({{x}} is {{{x}}}); a missing variable renders
// as ""; partials ({{> name}}) are refused. Options.Dir and
// StrictUndefined do not apply.
func Mustache(src string, ctx map[string]any, o Options) (_ string, err error) {
	defer recoverPanic(&err)
	t, err := mustache.ParseStringPartialsRaw(src, noPartials{}, true)
	if err != nil {
		return "", convertMustache(err)
	}
	out := newLimitWriter(o.MaxOutput)
	err = t.FRender(out, ctx)
	if out.full { // checked first: the engine ignores some write errors
		return "", out.err()
	}
	if err != nil {
		return "", convertMustache(err)
	}
	return out.b.String(), nil
}

func convertMustache(err error) error {
	var pe mustache.ParseError
	if errors.As(err, &pe) {
		return &Error{Line: pe.Line, Msg: strings.TrimPrefix(pe.Error(), fmt.Sprintf("line %d: ", pe.Line))}
	}
	return &Error{Msg: short(err.Error())}
}

// noPartials refuses partials. (cbroglie/mustache would HTML-escape a
// partial's variables whatever the template's setting, so they are not
// offered even with a base directory.)
type noPartials struct{}

func (noPartials) Get(name string) (string, error) {
	return "", fmt.Errorf("partial %q: partials are not supported", name)
}
