package tmpl

import (
	"regexp"
	"strings"
)

// This file writes text so that a template engine renders it as itself:
// what a writer of a template format (PDL, Prompty) puts around text that
// holds template syntax.

// jinjaEndraw is what ends a {% raw %} block in gonja's lexer.
var jinjaEndraw = regexp.MustCompile(`\{%[-+]?\s*endraw`)

// The forms JinjaLiteral writes.
const (
	rawOpen    = "{% raw %}"
	rawClose   = "{% endraw %}"
	openOutput = `{{ "{%" }}` // a "{%" that would end a raw block
)

// HasJinjaTags reports whether Jinja could read anything in s as a tag:
// "{{", "{%" or "{#".
func HasJinjaTags(s string) bool {
	return strings.Contains(s, "{{") || strings.Contains(s, "{%") || strings.Contains(s, "{#")
}

// JinjaLiteral returns s written so that Jinja (gonja, as this package
// renders it) renders it as s: s itself when it holds no tag, else inside
// {% raw %}. A raw block cannot hold its own end tag, so s is cut before
// each "{%" that would end it, and that "{%" is written as an output,
// {{ "{%" }}. There is no empty raw block (gonja refuses one).
func JinjaLiteral(s string) string {
	if !HasJinjaTags(s) {
		return s
	}
	var b strings.Builder
	raw := func(seg string) {
		if seg != "" {
			b.WriteString(rawOpen + seg + rawClose)
		}
	}
	for {
		loc := jinjaEndraw.FindStringIndex(s)
		if loc == nil {
			break
		}
		raw(s[:loc[0]])
		b.WriteString(openOutput)
		s = s[loc[0]+2:]
	}
	raw(s)
	return b.String()
}

// MustacheLiteral returns s written so that Mustache renders it as s: s
// itself without "{{", else between delimiters s does not hold
// ({{=<% %>=}}…<%={{ }}=%>), so that its "{{" is text.
func MustacheLiteral(s string) string {
	if !strings.Contains(s, "{{") {
		return s
	}
	open, close := "<%", "%>"
	for strings.Contains(s, open) || strings.Contains(s, close) {
		open, close = open+"%", "%"+close
	}
	return "{{=" + open + " " + close + "=}}" + s + open + "={{ }}=" + close
}

// OnlyJinjaLiterals reports whether every tag in s (LF line endings) is
// one of the forms JinjaLiteral writes: rendering s then gives the text it
// escapes, and nothing a template author wrote (a comment, a variable, a
// loop) would be lost by reading s as text.
func OnlyJinjaLiterals(s string) bool {
	for {
		i := strings.Index(s, "{")
		if i < 0 || i+1 == len(s) {
			return true
		}
		s = s[i:]
		switch {
		case strings.HasPrefix(s, rawOpen):
			end := jinjaEndraw.FindStringIndex(s[len(rawOpen):])
			if end == nil || !strings.HasPrefix(s[len(rawOpen)+end[0]:], rawClose) {
				return false
			}
			s = s[len(rawOpen)+end[0]+len(rawClose):]
		case strings.HasPrefix(s, openOutput):
			s = s[len(openOutput):]
		case s[1] == '{' || s[1] == '%' || s[1] == '#':
			return false
		default:
			s = s[1:]
		}
	}
}
