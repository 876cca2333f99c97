package dotprompt

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
)

// knownHelpers are the helpers a template may call: Handlebars' own (as
// the engine, raymond, has them: equal is its addition) and Dotprompt's.
var knownHelpers = map[string]bool{
	"if": true, "unless": true, "with": true, "each": true, "log": true, "lookup": true, "equal": true,
	"json": true, "role": true, "history": true, "section": true, "media": true, "ifEquals": true, "unlessEquals": true,
}

// helperCall is a call of a helper the engine does not have.
type helperCall struct {
	at   int    // offset of its tag in the source
	tag  string // the tag
	name string
}

// unknownHelper finds the first call, in src, of a helper the engine does
// not have: a tag or sub-expression that gives a name arguments ({{list
// items}}, {{#if (eq a b)}}). Genkit's code registers such helpers
// (ai.defineHelper); the engine, not knowing them, would render each as
// an empty value, which handlebars.js refuses ("Missing helper"). A tag
// without arguments ({{today}}) reads as a value and is not a call. ok is
// false when there is none (or src does not scan: the engine says why).
func unknownHelper(src string) (call helperCall, ok bool) {
	b := []byte(src)
	for from := 0; ; {
		t, err := nextTag(b, src, from)
		if err != nil || t.start < 0 {
			return helperCall{}, false
		}
		from = t.end
		if t.raw {
			continue
		}
		inner := strings.TrimSuffix(strings.TrimPrefix(src[t.start+2:t.end-2], "{"), "}")
		inner = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(inner, "~"), "~"))
		switch {
		case inner == "" || strings.ContainsAny(inner[:1], "/>!*"):
			continue // a block's end, a partial, a comment, a decorator
		case strings.ContainsAny(inner[:1], "#^&"):
			inner = strings.TrimSpace(inner[1:])
		}
		if rest, ok := strings.CutPrefix(inner, "else"); ok && (rest == "" || isBlank(rest[0])) {
			inner = strings.TrimSpace(rest) // {{else if x}}
		}
		if name, ok := unknownCall(inner); ok {
			return helperCall{at: t.start, tag: src[t.start:t.end], name: name}, true
		}
	}
}

// unknownCall reports the first helper that expression e, or a
// sub-expression in it, calls with arguments and that is not known.
func unknownCall(e string) (string, bool) {
	if name, args := splitCall(e); args && !knownHelpers[name] && isName(name) {
		return name, true
	}
	var quote byte
	for i := 0; i < len(e); i++ {
		switch c := e[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '(':
			if name, args := splitCall(strings.TrimSpace(e[i+1:])); args && !knownHelpers[name] && isName(name) {
				return name, true
			}
		}
	}
	return "", false
}

// splitCall is the name an expression starts with, and whether arguments
// follow it.
func splitCall(e string) (name string, args bool) {
	end := strings.IndexAny(e, " \t\r\n()")
	if end < 0 {
		return e, false
	}
	rest := strings.TrimLeft(e[end:], " \t\r\n")
	return e[:end], rest != "" && rest[0] != ')'
}

// isName: a helper's name (not a literal, a data variable or a path).
func isName(s string) bool {
	if s == "" || s == "this" || s == "true" || s == "false" || s == "null" || s == "undefined" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && (c >= '0' && c <= '9' || c == '-')) {
			return false
		}
	}
	return true
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

// checkHelpers refuses a template (src from offset template on) or
// partial that calls a helper the engine does not have, at its place.
func checkHelpers(src []byte, template int, partials map[string]string) *promptfmt.ParseError {
	const why = "neither Handlebars' helper nor Dotprompt's: Genkit's code registers such a helper (ai.defineHelper), and without it the template cannot render"
	if c, ok := unknownHelper(string(src[template:])); ok {
		e := diag.Errorf(format, src, template+c.at, "%s calls %s, %s", c.tag, c.name, why)
		e.Hint = "promptfmt renders with Dotprompt's helpers only"
		return e
	}
	for _, name := range slices.Sorted(maps.Keys(partials)) {
		if c, ok := unknownHelper(partials[name]); ok {
			return renderError(fmt.Sprintf("partial %s: %s calls %s, %s", name, c.tag, c.name, why), nil)
		}
	}
	return nil
}
