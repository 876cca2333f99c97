// Package gonja_test checks the patched copy of gonja against gonja
// itself: what a template renders to does not change, only how much work
// it may take.
package gonja_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	upbuiltins "github.com/nikolalohinski/gonja/v2/builtins"
	"github.com/nikolalohinski/gonja/v2/config"
	upexec "github.com/nikolalohinski/gonja/v2/exec"
	"github.com/nikolalohinski/gonja/v2/loaders"
	"github.com/promptfmt/promptfmt/internal/gonja/builtins"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
)

func renderUpstream(t *testing.T, src string, ctx map[string]any) string {
	t.Helper()
	env := &upexec.Environment{
		Context:           upexec.EmptyContext().Update(upbuiltins.GlobalFunctions).Update(upbuiltins.GlobalVariables),
		Filters:           upbuiltins.Filters,
		Tests:             upbuiltins.Tests,
		ControlStructures: upbuiltins.ControlStructures,
		Methods:           upbuiltins.Methods,
	}
	loader, err := loaders.NewMemoryLoader(map[string]string{"/t": src})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := upexec.NewTemplate("/t", config.New(), loader, env)
	if err != nil {
		return "error: " + err.Error()
	}
	out, err := tpl.ExecuteToString(upexec.NewContext(ctx))
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

func renderFork(t *testing.T, src string, ctx map[string]any, budget *exec.Budget) string {
	t.Helper()
	env := &exec.Environment{
		Context:           exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables),
		Filters:           builtins.Filters,
		Tests:             builtins.Tests,
		ControlStructures: builtins.ControlStructures,
		Methods:           builtins.Methods,
		Budget:            budget,
	}
	loader, err := loaders.NewMemoryLoader(map[string]string{"/t": src})
	if err != nil {
		t.Fatal(err)
	}
	tpl, err := exec.NewTemplate("/t", config.New(), loader, env)
	if err != nil {
		return "error: " + err.Error()
	}
	out, err := tpl.ExecuteToString(exec.NewContext(ctx))
	if err != nil {
		return "error: " + err.Error()
	}
	return out
}

// Templates that use every patched path render the same with a budget
// as gonja renders them.
func TestForkRendersAsGonja(t *testing.T) {
	ctx := map[string]any{
		"text":  "one two three four five six seven eight nine ten\n\neleven  twelve\tthirteen",
		"items": []any{"a", "b", "c"},
		"nums":  []any{3, 1, 2},
		"obj":   map[string]any{"k": "v", "n": 1},
		"tree":  []any{map[string]any{"name": "x", "kids": []any{map[string]any{"name": "y", "kids": []any{}}}}},
	}
	templates := []string{
		"{{ 'ab' * 3 }}|{{ 'ab' * 0 }}|{{ 2 * 3 }}|{{ 1.5 * 2 }}",
		"{{ 'a' ~ 'b' ~ 1 }}|{{ 'a' + 'b' }}|{{ items + nums }}|{{ 1 + 2 }}",
		"{% for x in items %}{{ loop.index }}{{ x }}{% else %}none{% endfor %}",
		"{% for x in nums if x > 1 %}{{ x }}{% endfor %}",
		"{% for n in tree recursive %}{{ n.name }}({{ loop(n.kids) }}){% endfor %}",
		"{% macro m(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}{{ m(1) }}{{ m(3, b=4) }}",
		"{% macro r(n) %}{% if n > 0 %}{{ n }}{{ r(n - 1) }}{% endif %}{% endmacro %}{{ r(5) }}",
		"{{ text | wordwrap(10) }}", "{{ text | wordwrap(1) }}", "{{ text | wordwrap(1000) }}",
		"{{ 'x' | center(9) }}|{{ text | indent(2) }}|{{ text | indent('> ', first=true) }}",
		"{{ items | join(', ') }}|{{ items | join }}|{{ 'a-b-c' | replace('-', '--') }}|{{ 'abc' | replace('', '.') }}",
		"{{ '%s=%05d' | format('x', 42) }}",
		"{{ nums | batch(2, 0) }}|{{ nums | slice(2) }}|{{ obj | tojson }}|{{ obj | tojson(indent=2) }}|{{ nums | pprint }}",
		"{{ 'abc' | list }}|{{ items | string }}|{{ items }}|{{ obj }}|{{ [items, [items]] }}",
		"{{ 'x'.center(5, '*') }}|{{ 'x'.ljust(3) }}|{{ 'x'.rjust(3) }}|{{ '7'.zfill(3) }}|{{ 'a\tb'.expandtabs(4) }}",
		"{{ ','.join(items) }}|{{ 'a.b'.replace('.', '::') }}|{{ '{}-{:>4}'.format(1, 2) }}|{{ '{a}'.format_map(obj) }}",
		"{% set l = [1] %}{% do l.append(2) %}{{ l }}|{{ obj.keys() | list }}",
		"{{ lipsum(1, false, 3, 3) | length > 0 }}",
		"{% set s %}block {{ 1 }}{% endset %}{{ s }}{% filter upper %}up{% endfilter %}",
		"{% for i in range(3) %}{{ i }}{% endfor %}",
	}
	for _, src := range templates {
		want := renderUpstream(t, src, ctx)
		for _, budget := range []*exec.Budget{nil, {MaxSteps: 1e7, MaxDepth: 200, MaxBytes: 1 << 28}} {
			if got := renderFork(t, src, ctx, budget); got != want {
				t.Errorf("%s\nfork:  %q\ngonja: %q", src, got, want)
			}
		}
	}
}

// wordwrap is rewritten to be linear: it must still wrap as gonja does.
func TestForkWordwrapAsGonja(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "bb", "ccc", "dddd", "é", "日本", " ", "  ", "\n", "\t", "\n\n"}
	for i := range 500 {
		var b strings.Builder
		for range r.IntN(40) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		ctx := map[string]any{"s": b.String()}
		src := fmt.Sprintf("{{ s | wordwrap(%d) }}", r.IntN(12)-1)
		if got, want := renderFork(t, src, ctx, nil), renderUpstream(t, src, ctx); got != want {
			t.Fatalf("case %d %s on %q:\nfork:  %q\ngonja: %q", i, src, b.String(), got, want)
		}
	}
}
