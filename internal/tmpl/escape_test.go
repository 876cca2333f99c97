package tmpl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// pdlEscape stands in for a format's escape function.
var pdlEscape = strings.NewReplacer("&", "&amp;", "|>", "|&gt;", "<|", "&lt;|").Replace

func TestEscapeEveryOutput(t *testing.T) {
	ctx := map[string]any{
		"s":    "<|user|> & |>",
		"list": []any{"<|user|>", int64(1)},
		"obj":  map[string]any{"k": "<|schema|>"},
		"n":    int64(3),
		"html": `<a href="x">'</a>`,
		"none": nil,
	}
	for _, tc := range []struct{ name, src, want string }{
		{"string", "{{ s }}", "&lt;|user|&gt; &amp; |&gt;"},
		{"safe", "{{ s | safe }}", "<|user|> & |>"},
		{"safe after filters", "{{ s | upper | safe }}", "<|USER|> & |>"},
		{"safe with whitespace control", "{{- s|safe -}}", "<|user|> & |>"},
		{"list", "{{ list }}", "['&lt;|user|&gt;', 1]"},
		{"concatenation", `{{ "<" ~ "|x|" ~ ">" }}`, "&lt;|x|&gt;"},
		{"conditional expression", `{{ s if n else "no" }}`, "&lt;|user|&gt; &amp; |&gt;"},
		{"dict item", "{{ obj.k }}", "&lt;|schema|&gt;"},
		{"number", "{{ n * 2 }}", "6"},
		{"no html escaping", "{{ html }}", `<a href="x">'</a>`},
		{"null", "[{{ none }}]", "[]"},
		{"template text untouched", "<|user|>\n{{ n }}", "<|user|>\n3"},
		{"raw untouched", "{% raw %}{{ s }}<|x|>{% endraw %}", "{{ s }}<|x|>"},
		{"whitespace control", "a\n{{- n -}}\nb", "a3b"},
		{"string literal holding braces", `{{ "}}" ~ s }}`, "}}&lt;|user|&gt; &amp; |&gt;"},
		{"loop", "{% for x in list %}{{ x }};{% endfor %}", "&lt;|user|&gt;;1;"},
		{"set then print", "{% set v = s %}{{ v }}", "&lt;|user|&gt; &amp; |&gt;"},
		{"macro output is escaped (Tera trusts only a final | safe)", "{% macro m() %}<|user|>{% endmacro %}{{ m() }}", "&lt;|user|&gt;"},
		{"macro output with safe", "{% macro m() %}<|user|>{% endmacro %}{{ m() | safe }}", "<|user|>"},
		{"safe not last", "{{ s | safe | upper }}", "&lt;|USER|&gt; &amp; |&gt;"},
		{"filters that mark safe do not count", "{{ s | e }}", "&amp;lt;|user|&amp;gt; &amp;amp; |&amp;gt;"},
		{"safe in one branch", `{{ s | safe if n else s }}{{ s if n else s | safe }}`, "<|user|> & |>&lt;|user|&gt; &amp; |&gt;"},
		{"safe inside brackets does not count", "{{ [s | safe] }}", "['&lt;|user|&gt; &amp; |&gt;']"},
		{"macro argument is escaped once with a safe call", "{% macro m(a) %}{{ a }}{% endmacro %}{{ m(s) | safe }}", "&lt;|user|&gt; &amp; |&gt;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Jinja(tc.src, ctx, Options{Escape: pdlEscape})
			require.NoError(t, err)
			require.Equal(t, tc.want, got)
		})
	}
}

func TestLenientIf(t *testing.T) {
	o := Options{StrictUndefined: true, LenientIf: true}
	got, err := Jinja("{% if nobody %}a{% elif yes %}c{% else %}d{% endif %}", map[string]any{"yes": true}, o)
	require.NoError(t, err)
	require.Equal(t, "c", got)
	got, err = Jinja("{% if nobody %}a{% else %}d{% endif %}", nil, o)
	require.NoError(t, err)
	require.Equal(t, "d", got)
	_, err = Jinja("{% if true %}{{ nobody }}{% endif %}", nil, o)
	require.ErrorContains(t, err, "nobody", "output stays strict inside an if")
	_, err = Jinja("{% if nobody %}a{% endif %}", nil, Options{StrictUndefined: true})
	require.Error(t, err, "without LenientIf gonja's rule holds")
}

func TestEscapeErrorColumns(t *testing.T) {
	// The rewrite adds text before the error on the same line; the column
	// reported is the author's.
	src := "ab {{ x }} {{ y }} {{ 1 + }}"
	_, err := Jinja(src, nil, Options{})
	var plain *Error
	require.ErrorAs(t, err, &plain)
	_, err = Jinja(src, nil, Options{Escape: pdlEscape})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, plain.Line, e.Line)
	require.Equal(t, plain.Col, e.Col)
}

func TestErrorInsideFilters(t *testing.T) {
	// gonja flattens an error inside a filter into a dump of the call; the
	// message keeps the cause only (and never names the escape filter).
	_, err := Jinja("a\n{{ docs | length }}", nil, Options{StrictUndefined: true, Escape: pdlEscape})
	require.EqualError(t, err, `template line 2: Unable to evaluate name "docs"`)
}
