package tmpl

import (
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
)

var fuzzContext = map[string]any{"name": "World", "items": []any{"a", int64(2), 3.5, nil}, "user": map[string]any{"name": "J", "tags": []any{"x"}}, "yes": true}

// fuzzLimits keep each input quick: the budget is what bounds a
// template's work, loops and recursion included, so nothing is skipped.
var fuzzLimits = promptfmt.TemplateLimits{MaxOutput: 1 << 16, MaxSteps: 100_000, MaxBytes: 1 << 22}

// FuzzJinja: any template renders or fails with an Error; none crashes
// the process (a stack overflow would) or panics.
func FuzzJinja(f *testing.F) {
	for _, s := range []string{
		"Hello {{ name }}!", "{% for x in items %}{{ loop.index }}{{ x }}{% endfor %}", "{{ user.name | upper }} {{ items | length }}",
		"{% if yes %}a{% elif name %}b{% else %}c{% endif %}", "{% raw %}{{ x }}{% endraw %}", "{# c #}{%- set a = 1 -%}{{ a + 2 * 3 }}",
		"{{ (((1))) }}", "{{ [1, [2, {'a': 3}]] }}", "{% macro m(x) %}{{ x }}{% endmacro %}{{ m(1) }}", "{{ name[0:2] ~ 'x' }}",
		"{% for i in range(9) %}{% for j in range(9) %}{{ i * j }}{% endfor %}{% endfor %}", "{% macro f(n) %}{{ f(n) }}{% endmacro %}{{ f(1) }}", "{{ 'ab' * 3 | center(9) }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Jinja(src, fuzzContext, Options{Limits: fuzzLimits})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
		}
	})
}

// FuzzMustache: likewise.
func FuzzMustache(f *testing.F) {
	for _, s := range []string{"Hello {{name}}!", "{{#items}}{{.}} {{/items}}", "{{^yes}}no{{/yes}}", "{{user.name}}{{{name}}}{{&name}}", "{{=<% %>=}}<% name %>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := Mustache(src, fuzzContext, Options{Limits: fuzzLimits})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
		}
	})
}

// FuzzJinjaEscape: with Options.Escape, no context text reaches the output
// except through a final | safe. The escape function here drops all text,
// the context holds the marker "QZJX", and a template that could spell it
// (or says safe) is skipped.
func FuzzJinjaEscape(f *testing.F) {
	for _, s := range []string{
		"{{ m }}", "{{ l }}{{ d }}", "{% for x in l %}{{ x }}{% endfor %}", "{{ m if m else l }}", "{{ m | upper | e }}",
		"{% set a = m %}{{ a }}", "{% macro k(a) %}{{ a }}{% endmacro %}{{ k(m) }}", "{{ d.k ~ m }}", "{{ l | pprint }}{{ m | tojson }}",
	} {
		f.Add(s)
	}
	ctx := map[string]any{"m": "QZJX", "l": []any{"QZJX", "b"}, "d": map[string]any{"k": "QZJX"}}
	drop := func(string) string { return "" }
	f.Fuzz(func(t *testing.T, src string) {
		if strings.ContainsAny(src, "QZJXqzjx") || strings.Contains(src, "safe") || strings.Contains(src, "range") {
			return
		}
		out, err := Jinja(src, ctx, Options{Escape: drop, StrictUndefined: true, LenientIf: true, Limits: promptfmt.TemplateLimits{MaxOutput: 1 << 16}})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		if strings.Contains(out, "QZJX") {
			t.Fatalf("context text escaped the escaping: %q", out)
		}
	})
}
