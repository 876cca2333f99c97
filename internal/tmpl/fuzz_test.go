package tmpl

import (
	"strings"
	"testing"
)

var fuzzContext = map[string]any{"name": "World", "items": []any{"a", int64(2), 3.5, nil}, "user": map[string]any{"name": "J", "tags": []any{"x"}}, "yes": true}

// FuzzJinja: any template renders or fails with an Error; none crashes
// the process (a stack overflow would) or panics.
func FuzzJinja(f *testing.F) {
	for _, s := range []string{
		"Hello {{ name }}!", "{% for x in items %}{{ loop.index }}{{ x }}{% endfor %}", "{{ user.name | upper }} {{ items | length }}",
		"{% if yes %}a{% elif name %}b{% else %}c{% endif %}", "{% raw %}{{ x }}{% endraw %}", "{# c #}{%- set a = 1 -%}{{ a + 2 * 3 }}",
		"{{ (((1))) }}", "{{ [1, [2, {'a': 3}]] }}", "{% macro m(x) %}{{ x }}{% endmacro %}{{ m(1) }}", "{{ name[0:2] ~ 'x' }}",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if strings.Contains(src, "range") { // unbounded loops are the author's: not fuzzed
			return
		}
		_, err := Jinja(src, fuzzContext, Options{MaxOutput: 1 << 16})
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
		_, err := Mustache(src, fuzzContext, Options{MaxOutput: 1 << 16})
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
		}
	})
}
