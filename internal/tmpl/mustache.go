package tmpl

import (
	"errors"
	"fmt"
	"reflect"
	"strings"

	"github.com/cbroglie/mustache"

	"github.com/promptfmt/promptfmt"
)

// Mustache renders the Mustache template src with the variables of ctx.
// Nothing is HTML-escaped ({{x}} is {{{x}}}); a missing variable renders
// as ""; partials ({{> name}}) are refused. Options.Dir, FS and
// StrictUndefined do not apply; Limits.MaxOutput, MaxSource and MaxSteps do
// (see mustacheWork).
func Mustache(src string, ctx map[string]any, o Options) (_ string, err error) {
	if err := checkInputs(ctx); err != nil {
		return "", err
	}
	defer recoverPanic(&err, nil)
	limits := o.Limits.Effective()
	t, err := parseMustache(src, limits)
	if err != nil {
		return "", err
	}
	if limits.MaxSteps > 0 {
		if tag, over := mustacheWork(t.Tags(), ctx, limits.MaxSteps); over {
			return "", &Error{Line: lineOfTag(src, tag), Msg: fmt.Sprintf("the template may do more than %d steps of work: section %q repeats what it holds once for each item of a list, inside other sections", limits.MaxSteps, tag)}
		}
	}
	// Its work is bounded before it starts, so a canceled rendering is
	// refused at the start only.
	if o.Done != nil {
		select {
		case <-o.Done:
			return "", &Error{Msg: "the rendering was canceled"}
		default:
		}
	}
	out := newLimitWriter(limits.MaxOutput)
	err = t.FRender(out, ctx)
	if out.full { // checked first: the engine ignores some write errors
		return "", out.err()
	}
	if err != nil {
		return "", convertMustache(err)
	}
	return out.b.String(), nil
}

// mustacheWork bounds the work of rendering tags with data, before it is
// rendered: Mustache has no loops, but a section repeats its content once
// for each item of a list, sections nest, and every name is looked up
// through every enclosing section. A section named n is counted as
// repeating as often as the longest list the data holds under the key n
// (or, for ".", the longest list anywhere): an upper bound, since a name
// can only find a value stored under that key. It returns the name of the
// section at which the bound passes limit.
func mustacheWork(tags []mustache.Tag, data any, limit int64) (string, bool) {
	lens := listLengths{byKey: map[string]int{}}
	lens.walk(reflect.ValueOf(data), "", 0)
	var total int64
	var walk func(tags []mustache.Tag, times int64, depth int64) (string, bool)
	walk = func(tags []mustache.Tag, times int64, depth int64) (string, bool) {
		for _, tag := range tags {
			// a lookup goes through every enclosing section's context
			if total += times * (depth + 1); total > limit {
				return tag.Name(), true
			}
			repeat := int64(1)
			switch tag.Type() {
			case mustache.Section:
				repeat = int64(max(lens.of(tag.Name()), 1))
			case mustache.InvertedSection:
			default:
				continue
			}
			if times > limit/repeat {
				return tag.Name(), true
			}
			if name, over := walk(tag.Tags(), times*repeat, depth+1); over {
				if name == "" {
					name = tag.Name()
				}
				return name, true
			}
		}
		return "", false
	}
	return walk(tags, 1, 0)
}

// listLengths is the longest list held under each key of some data, and
// the longest anywhere.
type listLengths struct {
	byKey   map[string]int
	longest int
}

// of is how often a section named name can repeat.
func (l listLengths) of(name string) int {
	if name == "." {
		return l.longest
	}
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	return l.byKey[name]
}

func (l *listLengths) walk(v reflect.Value, key string, depth int) {
	if depth > 10000 { // far past what JSON decoders allow
		return
	}
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		l.longest = max(l.longest, v.Len())
		if key != "" {
			l.byKey[key] = max(l.byKey[key], v.Len())
		}
		for i := range v.Len() {
			l.walk(v.Index(i), "", depth+1)
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			l.walk(it.Value(), fmt.Sprint(it.Key().Interface()), depth+1)
		}
	}
}

// lineOfTag is the line of the first section tag named name in src, or 0.
func lineOfTag(src, name string) int {
	for _, open := range []string{"{{#", "{{^"} {
		for i := 0; ; {
			k := strings.Index(src[i:], open)
			if k < 0 {
				break
			}
			k += i
			rest := strings.TrimLeft(src[k+len(open):], " ")
			if strings.HasPrefix(rest, name) && strings.HasPrefix(strings.TrimLeft(rest[len(name):], " "), "}}") {
				return lineOf(src, k)
			}
			i = k + len(open)
		}
	}
	return 0
}

// CompileMustache reads the Mustache template src without rendering it:
// its syntax errors, with no variables needed.
func CompileMustache(src string, o Options) (err error) {
	if !strings.Contains(src, "{{") && SourceTooLarge(len(src), o.Limits.Effective().MaxSource) == "" {
		return nil // no tag: nothing for the engine to read
	}
	defer recoverPanic(&err, nil)
	_, err = parseMustache(src, o.Limits.Effective())
	return err
}

func parseMustache(src string, limits promptfmt.TemplateLimits) (*mustache.Template, error) {
	if msg := SourceTooLarge(len(src), limits.MaxSource); msg != "" {
		return nil, &Error{Msg: msg}
	}
	t, err := mustache.ParseStringPartialsRaw(src, noPartials{}, true)
	if err != nil {
		return nil, convertMustache(err)
	}
	return t, nil
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
