package tmpl

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

func TestJinja(t *testing.T) {
	for _, tc := range []struct{ name, src, want string }{
		{"variable", "Hello {{ name }}!", "Hello World!"},
		{"undefined is empty", "Hello {{ nobody }}!", "Hello !"},
		{"undefined is false", "{% if nobody %}y{% else %}n{% endif %}", "n"},
		{"no html escaping", "{{ html }}", "<b>&amp;</b>"},
		{"loop", "{% for x in items %}{{ loop.index }}{{ x }} {% endfor %}", "1a 2b "},
		{"filters", "{{ items | join(', ') | upper }} {{ items | length }}", "A, B 2"},
		{"numbers", "{{ n }} {{ f }}", "30 1.5"},
		{"comment and trim", "a {#- gone -#} b\n{%- if true %} c{% endif %}", "ab c"},
		{"raw", "{% raw %}{{ x }}{% endraw %}", "{{ x }}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := map[string]any{"name": "World", "html": "<b>&amp;</b>", "items": []any{"a", "b"}, "n": int64(30), "f": 1.5}
			got, err := Jinja(tc.src, ctx, Options{})
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestRenderStrictUndefined(t *testing.T) {
	_, err := Jinja("line one\n{{ missing }}", nil, Options{StrictUndefined: true})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, 2, e.Line)
	require.Contains(t, e.Msg, "missing")
}

func TestSyntaxErrorPositionWithoutSource(t *testing.T) {
	src := "first line\nsecret text " + strings.Repeat("x", 50) + "\n{{ 1 + }}"
	_, err := Jinja(src, nil, Options{})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, 3, e.Line)
	require.Positive(t, e.Col)
	require.NotContains(t, err.Error(), "secret text", "the template must not be quoted whole")

	_, err = Jinja(src[:len(src)-9]+"{% if %}", nil, Options{})
	require.ErrorContains(t, err, `controlStructure "if"`)
	require.NotContains(t, err.Error(), "secret text")
}

func TestNoFileSystem(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "part.txt"), []byte("included {{ x }}"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.txt"), []byte("secret"), 0o644))

	for _, src := range []string{
		`{% include "part.txt" %}`,
		`{% include "` + filepath.Join(dir, "part.txt") + `" %}`,
		`{% include "/etc/passwd" %}`,
	} {
		_, err := Jinja(src, nil, Options{})
		require.ErrorContains(t, err, "may not read files", src)
	}

	got, err := Jinja(`{% include "part.txt" %}`, map[string]any{"x": 1}, Options{Dir: dir})
	require.NoError(t, err)
	require.Equal(t, "included 1", got)
	for _, src := range []string{`{% include "../outside.txt" %}`, `{% include "/etc/passwd" %}`} {
		_, err := Jinja(src, nil, Options{Dir: dir})
		require.Error(t, err, src)
		require.NotContains(t, err.Error(), "secret")
	}
	require.NoError(t, os.Symlink(filepath.Join(filepath.Dir(dir), "outside.txt"), filepath.Join(dir, "link.txt")))
	_, err = Jinja(`{% include "link.txt" %}`, nil, Options{Dir: dir})
	require.Error(t, err, "a symbolic link may not lead out")
}

// With an FS, names are relative to Base in it and may climb to its
// root, not above.
func TestIncludeFS(t *testing.T) {
	fsys := fstest.MapFS{
		"prompts/main.txt":  {Data: []byte("x")},
		"prompts/part.txt":  {Data: []byte("part {{ x }}")},
		"shared/common.txt": {Data: []byte("common")},
	}
	o := Options{FS: fsys, Base: "prompts"}
	got, err := Jinja(`{% include "part.txt" %} {% include "../shared/common.txt" %}`, map[string]any{"x": 1}, o)
	require.NoError(t, err)
	require.Equal(t, "part 1 common", got)
	for _, src := range []string{`{% include "../../x.txt" %}`, `{% include "/prompts/part.txt" %}`} {
		_, err := Jinja(src, nil, o)
		require.ErrorContains(t, err, "outside", src)
	}
	_, err = Jinja(`{% include "nope.txt" %}`, nil, o)
	require.ErrorContains(t, err, "not exist")
}

func TestOutputLimit(t *testing.T) {
	_, err := Jinja("{% for i in range(100000) %}xxxxxxxxxx{% endfor %}", nil, Options{Limits: promptfmt.TemplateLimits{MaxOutput: 1000}})
	require.ErrorContains(t, err, "passes 1000 bytes")
}

// TestDeepNesting would kill the test binary with a stack overflow if Check
// let these through to gonja; each must fail fast instead.
func TestDeepNesting(t *testing.T) {
	const n = 200000
	for name, src := range map[string]string{
		"parentheses": "{{ " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + " }}",
		"lists":       "{{ " + strings.Repeat("[", n) + strings.Repeat("]", n) + " }}",
		"blocks":      strings.Repeat("{% if true %}", n) + strings.Repeat("{% endif %}", n),
		"loops":       strings.Repeat("{% for a in b %}", n) + strings.Repeat("{% endfor %}", n),
		"sums":        "{{ 1" + strings.Repeat(" + 1", n) + " }}",
		"attributes":  "{{ a" + strings.Repeat(".b", n) + " }}",
		"filters":     "{{ a" + strings.Repeat("|upper", n) + " }}",
		"set blocks":  strings.Repeat("{% set x %}", n),
	} {
		t.Run(name, func(t *testing.T) {
			_, err := Jinja(src, nil, Options{})
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Regexp(t, "nest deeper|operators in one tag", e.Msg)
		})
	}
	// At the limits, templates still render.
	ok := strings.Repeat("{% if true %}", MaxBlockDepth) + "x" + strings.Repeat("{% endif %}", MaxBlockDepth)
	got, err := Jinja(ok, nil, Options{})
	require.NoError(t, err)
	require.Equal(t, "x", got)
	ok = "{{ " + strings.Repeat("(", MaxBracketDepth) + "1" + strings.Repeat(")", MaxBracketDepth) + " }}"
	got, err = Jinja(ok, nil, Options{})
	require.NoError(t, err)
	require.Equal(t, "1", got)
	// Sequences are not nesting: many tags and blocks in a row are fine.
	many := strings.Repeat("{% if true %}a{% endif %}{{ 'x' | upper }}", 10000)
	got, err = Jinja(many, nil, Options{})
	require.NoError(t, err)
	require.Len(t, got, 20000)
}

func TestCheckSkipsStringsAndComments(t *testing.T) {
	brackets := strings.Repeat("(", 5000)
	require.NoError(t, Check(`{{ "`+brackets+`" }}{# `+brackets+` #}{% raw %}{{ `+brackets+`{% endraw %}`))
}

func TestMustache(t *testing.T) {
	ctx := map[string]any{"name": "<World>", "show": true, "items": []any{"a", "b"}, "n": int64(30)}
	for src, want := range map[string]string{
		"Hello {{name}}!":            "Hello <World>!",
		"{{#show}}yes{{/show}}":      "yes",
		"{{^show}}no{{/show}}":       "",
		"{{#items}}{{.}} {{/items}}": "a b ",
		"{{missing}}|{{n}}":          "|30",
		"{{! comment }}x":            "x",
	} {
		got, err := Mustache(src, ctx, Options{})
		require.NoError(t, err, src)
		require.Equal(t, want, got, src)
	}
	_, err := Mustache("a\n{{#open}}", nil, Options{})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, 2, e.Line)

	_, err = Mustache("{{> p}}", ctx, Options{Dir: t.TempDir()})
	require.ErrorContains(t, err, "partials are not supported")

	_, err = Mustache("{{#items}}{{name}}{{/items}}", map[string]any{"name": strings.Repeat("x", 600), "items": []any{1, 2}}, Options{Limits: promptfmt.TemplateLimits{MaxOutput: 1000}})
	require.ErrorContains(t, err, "passes 1000 bytes")
	_, err = Mustache(strings.Repeat("{{#a}}", 20000), nil, Options{})
	require.Error(t, err)
}

func TestRange(t *testing.T) {
	for src, want := range map[string]string{
		"{% for i in range(3) %}{{ i }}{% endfor %}":          "012",
		"{% for i in range(2, 5) %}{{ i }}{% endfor %}":       "234",
		"{% for i in range(10, 0, -3) %}{{ i }},{% endfor %}": "10,7,4,1,",
		"{% for i in range(5, 5) %}x{% endfor %}":             "",
		"{{ range(3) | length }}":                             "3",
	} {
		got, err := Jinja(src, nil, Options{})
		require.NoError(t, err, src)
		require.Equal(t, want, got, src)
	}
	// gonja's own range() drains into a list first: range(10**12) would
	// take all memory. Ours refuses at once.
	for _, src := range []string{"{{ range(100001) }}", "{% for i in range(1000000000000) %}{% endfor %}", "{{ range(0, 3, 0) }}", "{{ range('a') }}", "{{ range() }}"} {
		_, err := Jinja(src, nil, Options{})
		require.Error(t, err, src)
	}
}

// A template whose lexing fails (an unclosed comment, block or output)
// is a positioned syntax error, not a recovered crash of the engine.
func TestLexErrorIsNoCrash(t *testing.T) {
	for _, src := range []string{"{# Which d", "x {{ a", "{% if", "a\n{#"} {
		_, err := Jinja(src, nil, Options{})
		require.Error(t, err, src)
		require.NotContains(t, err.Error(), "engine failed", src)
	}
}

// Go inputs that contain themselves are refused: the engines printed them
// as "{}" (gonja, its JSON encoder giving up) or recursed.
func TestInputsContainingThemselves(t *testing.T) {
	self := map[string]any{"a": "x"}
	self["self"] = self
	list := []any{"x", nil}
	list[1] = list
	for _, in := range []map[string]any{{"self": self}, {"self": list}} {
		for name, render := range map[string]func(string, map[string]any, Options) (string, error){"jinja": Jinja, "mustache": Mustache} {
			out, err := render("{{self}}", in, Options{})
			require.ErrorContains(t, err, `input "self": a `, "%s rendered %q", name, out)
			require.ErrorContains(t, err, "contains itself")
		}
	}
}

// CompileJinja and CompileMustache skip the engine on a template without a
// tag: the engines, given one, find nothing to refuse either.
func TestCompileWithoutTags(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	alphabet := []string{"{", "}", "%", "#", "=", "-", "+", "~", "\r", "\n", "'", "\"", "x", " ", "{{", "}}", "é", "\\", "<", ">"}
	checked := 0
	for range 20000 {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		src := b.String()
		if !HasJinjaTags(src) {
			checked++
			budget := Options{}.budget()
			if _, err := compile(src, Options{}, budget); err != nil {
				t.Fatalf("%q: gonja refuses it: %v", src, err)
			}
		}
		if !strings.Contains(src, "{{") {
			if _, err := parseMustache(src, promptfmt.TemplateLimits{}); err != nil {
				t.Fatalf("%q: mustache refuses it: %v", src, err)
			}
		}
	}
	require.Greater(t, checked, 1000)
	// Over the source limit, a template without tags is refused too.
	o := Options{Limits: promptfmt.TemplateLimits{MaxSource: 4}}
	require.Error(t, CompileJinja("hello", o))
	require.Error(t, CompileMustache("hello", o))
}
