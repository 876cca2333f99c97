package dotprompt

import (
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
)

// knownHelpers are the helpers a template may call: Handlebars' own (as
// the engine, raymond, has them: equal is its addition) and Dotprompt's.
var knownHelpers = map[string]bool{
	"if": true, "unless": true, "with": true, "each": true, "log": true, "lookup": true, "equal": true,
	"json": true, "role": true, "history": true, "section": true, "media": true, "ifEquals": true, "unlessEquals": true,
}

// helperCall is the first call, in a template, of a helper the engine
// does not have: a tag or sub-expression that gives a name arguments
// ({{list items}}, {{#if (eq a b)}}), as the grammar reader (checkGrammar)
// reads it, so that a call in a comment, a raw block or escaped text is
// none. Genkit's code registers such helpers (ai.defineHelper); the
// engine, not knowing them, would render each as an empty value, which
// handlebars.js refuses ("Missing helper"). A tag without arguments
// ({{today}}) reads as a value and is not a call.
type helperCall struct {
	at   int // offset of its tag in the template read
	name string
}

// error is Load's error for the call in tmpl, the template read, placed
// at offset off of src.
func (c *helperCall) error(tmpl string, src []byte, off int) *promptfmt.ParseError {
	const why = "neither Handlebars' helper nor Dotprompt's: Genkit's code registers such a helper (ai.defineHelper), and without it the template cannot render"
	tag := tmpl[c.at:]
	if t, err := nextTag([]byte(tmpl), tmpl, c.at); err == nil && t.start == c.at {
		tag = tmpl[t.start:t.end]
	}
	e := diag.Errorf(format, src, off, "%s calls %s, %s", tag, c.name, why)
	e.Hint = "promptfmt renders with Dotprompt's helpers only"
	return e
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
