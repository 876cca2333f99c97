package tmpl

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cbroglie/mustache"
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/stretchr/testify/require"
)

var defaults = promptfmt.TemplateLimits{}.Effective()

// Each hostile template stops with a positioned error that names the
// limit it passed; none runs for long, overflows the stack or allocates
// what it asks for.
func TestBudgetStopsRunawayTemplates(t *testing.T) {
	// Loops run with a smaller budget than the default, so that the test
	// is quick under the race detector too; the default is no different
	// in kind (TestBudgetLimitsAreOptions).
	steps := Options{Limits: promptfmt.TemplateLimits{MaxSteps: 1_000_000}}
	for _, tc := range []struct {
		name, src string
		o         Options
		line      int
		want      string
	}{
		{"nested empty loops", "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}", steps, 1, "steps"},
		{"nested loops over one list", "{% set r = range(100000) %}{% for i in r %}{% for j in r %}{% endfor %}{% endfor %}", steps, 1, "steps"},
		{"loop filter that never passes", "{% set r = range(100000) %}{% for i in r %}{% for j in r if false %}{% endfor %}{% endfor %}", steps, 1, "steps"},
		{"macro that calls itself", "{% macro f(n) %}\n{{ f(n + 1) }}{% endmacro %}{{ f(0) }}", Options{}, 2, "calls nest deeper than"},
		{"macros that call each other", "{% macro a() %}{{ b() }}{% endmacro %}{% macro b() %}{{ a() }}{% endmacro %}{{ a() }}", Options{}, 1, "calls nest deeper than"},
		{"recursive loop that does not end", "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}", Options{}, 1, "calls nest deeper than"},
		{"string times a huge number", "line\n{{ 'x' * 4000000000 }}", Options{}, 2, "bytes of strings"},
		{"string times an overflowing number", "{{ 'xx' * 9223372036854775807 }}", Options{}, 1, "bytes of strings"},
		{"doubling a string", "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s ~ ns.s %}{% endfor %}{{ ns.s | length }}", Options{}, 1, "bytes of strings"},
		{"doubling with +", "{% set ns = namespace(s='x') %}{% for i in range(64) %}{% set ns.s = ns.s + ns.s %}{% endfor %}", Options{}, 1, "bytes of strings"},
		{"doubling a list", "{% set ns = namespace(l=[1]) %}{% for i in range(64) %}{% set ns.l = ns.l + ns.l %}{% endfor %}", Options{}, 1, ""},
		{"printing a list that holds itself twice, 40 times over", "{% set ns = namespace(l=['x']) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}{% endfor %}{{ ns.l }}", Options{}, 1, "value's text"},
		{"comparing a list that holds itself twice, 40 times over", "{% set ns = namespace(l=['x'], m=['x']) %}{% for i in range(40) %}{% set ns.l = [ns.l, ns.l] %}{% set ns.m = [ns.m, ns.m] %}{% endfor %}{{ ns.l == ns.m }}", Options{}, 1, "comparison visits more than"},
		{"a swallowed error still ends the rendering", "{{ ('x' * 4000000000) | default('y') }}{{ 'after' }}", Options{}, 1, "bytes of strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			alloc := growth.AllocBytes(func() { _, err = Jinja(tc.src, nil, tc.o) })
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, tc.line, e.Line, "%v", err)
			require.Contains(t, e.Msg, tc.want)
			if tc.o.Limits.MaxSteps == 0 {
				// Refused before it was built: a rendering allocates
				// less than its byte budget and the text of one value.
				require.Less(t, alloc, float64(defaults.MaxBytes+2*exec.MaxValueText), "allocated %.0f bytes", alloc)
			}
		})
	}
}

func TestBudgetLimitsAreOptions(t *testing.T) {
	loop := "{% for i in range(100) %}{{ i }}{% endfor %}"
	_, err := Jinja(loop, nil, Options{Limits: promptfmt.TemplateLimits{MaxSteps: 50}})
	require.ErrorContains(t, err, "more than 50 steps")
	_, err = Jinja(loop, nil, Options{Limits: promptfmt.TemplateLimits{MaxSteps: -1}})
	require.NoError(t, err, "a negative limit is no limit")

	rec := "{% macro f(n) %}{% if n > 0 %}{{ f(n - 1) }}{% endif %}{% endmacro %}{{ f(30) }}"
	_, err = Jinja(rec, nil, Options{Limits: promptfmt.TemplateLimits{MaxDepth: 10}})
	require.ErrorContains(t, err, "deeper than 10")
	_, err = Jinja(rec, nil, Options{})
	require.NoError(t, err, "recursion within the default depth works")

	_, err = Jinja("{{ 'ab' * 100 }}", nil, Options{Limits: promptfmt.TemplateLimits{MaxBytes: 100}})
	require.ErrorContains(t, err, "more than 100 bytes")
	out, err := Jinja("{{ 'ab' * 3 }}{{ 'ab' * -1 }}", nil, Options{Limits: promptfmt.TemplateLimits{MaxBytes: 100}})
	require.NoError(t, err)
	require.Equal(t, "ababab", out, "a negative count repeats nothing, as in Python")

	require.Equal(t, promptfmt.TemplateLimits{MaxOutput: 64 << 20, MaxSource: 8 << 20, MaxSteps: 10_000_000, MaxDepth: 200, MaxBytes: 256 << 20}, Options{}.Limits.Effective(),
		"the defaults are those promptfmt.TemplateLimits documents")
}

// Real templates stay far inside the default budget: a loop over 100,000
// messages renders.
func TestBudgetAllowsLargeRealTemplates(t *testing.T) {
	msgs := make([]any, 100000)
	for i := range msgs {
		msgs[i] = map[string]any{"role": "user", "content": "hello"}
	}
	out, err := Jinja("{% for m in messages %}{{ m.role }}:\n{{ m.content }}\n{% endfor %}", map[string]any{"messages": msgs}, Options{})
	require.NoError(t, err)
	require.Equal(t, 100000, strings.Count(out, "user:\n"))
}

func TestSourceLimit(t *testing.T) {
	src := strings.Repeat("x", 1000)
	_, err := Jinja(src, nil, Options{Limits: promptfmt.TemplateLimits{MaxSource: 999}})
	require.ErrorContains(t, err, "the template is 1000 bytes, more than the limit of 999")
	require.ErrorContains(t, CompileJinja(src, Options{Limits: promptfmt.TemplateLimits{MaxSource: 999}}), "more than the limit")
	_, err = Jinja(src, nil, Options{Limits: promptfmt.TemplateLimits{MaxSource: 1000}})
	require.NoError(t, err)

	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "big.txt"), []byte(src), 0o644))
	_, err = Jinja("{% include 'big.txt' %}", nil, Options{Dir: dir, Limits: promptfmt.TemplateLimits{MaxSource: 999}})
	require.ErrorContains(t, err, "larger than 999 bytes")
}

// Templates that read each other forever stop at the depth limit.
func TestBudgetIncludeAndExtendsCycles(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"self.txt":   "x{% include 'self.txt' %}",
		"parent.txt": "{% extends 'child.txt' %}",
		"child.txt":  "{% extends 'parent.txt' %}",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644))
	}
	_, err := Jinja("{% include 'self.txt' %}", nil, Options{Dir: dir})
	require.ErrorContains(t, err, "calls nest deeper than")
	_, err = Jinja("{% extends 'parent.txt' %}", nil, Options{Dir: dir})
	require.ErrorContains(t, err, "calls nest deeper than")
}

// The work of nested loops is counted per iteration, so a budget error
// comes after about MaxSteps iterations whatever the loops hold.
func TestBudgetCountsIterations(t *testing.T) {
	steps := func(src string) int64 {
		for max := int64(1); ; max *= 2 {
			if _, err := Jinja(src, nil, Options{Limits: promptfmt.TemplateLimits{MaxSteps: max}}); err == nil {
				return max
			}
		}
	}
	small := steps("{% for i in range(100) %}{% for j in range(100) %}{% endfor %}{% endfor %}")
	large := steps("{% for i in range(200) %}{% for j in range(200) %}{% endfor %}{% endfor %}")
	require.GreaterOrEqual(t, large, 2*small, "4× the iterations must cost more steps (%d vs %d)", small, large)
}

// Filters, methods and functions whose result can be far larger than
// their input are charged before they run.
func TestBudgetChargesFiltersAndMethods(t *testing.T) {
	many := make([]any, 100000)
	for i := range many {
		many[i] = "a"
	}
	ctx := map[string]any{"many": many, "obj": map[string]any{"k": []any{1, 2, 3}}}
	for _, src := range []string{
		"{{ 'x' | center(4000000000) }}",
		"{{ ('\\n' * 100000) | indent(100000) }}",
		"{{ many | join('x' * 100000) }}",
		"{{ ('x' * 100000) | replace('x', 'x' * 100000) }}",
		"{{ ('x' * 100000) | replace('', 'y' * 100000) }}",
		"{{ '%1000000000d' | format(1) }}",
		"{{ [1] | batch(4000000000, 0) }}",
		"{{ [1] | slice(4000000000) }}",
		"{{ obj | tojson(indent=1000000000) }}",
		"{{ 'x'.center(4000000000) }}",
		"{{ 'x'.ljust(4000000000) }}",
		"{{ 'x'.rjust(4000000000) }}",
		"{{ '1'.zfill(4000000000) }}",
		"{% set s = '\\t' * 100000 %}{{ s.expandtabs('', 100000) }}",
		"{% set s = 'x' * 100000 %}{{ s.join(many) }}",
		"{{ '{:>1000000000}'.format(1) }}",
		"{{ lipsum(1000000000) }}",
		// gonja copies a list at every method call, and the copy is charged
		"{% set l = many %}{% for i in range(10000) %}{% do l.append(1) %}{% endfor %}",
		// text a macro writes is built again at every call
		"{% macro m() %}" + strings.Repeat("x", 100000) + "{% endmacro %}{% for i in range(100000) %}{% set x = m() %}{% endfor %}",
	} {
		t.Run(src[:min(len(src), 60)], func(t *testing.T) {
			var err error
			alloc := growth.AllocBytes(func() { _, err = Jinja(src, ctx, Options{}) })
			var e *Error
			require.ErrorAs(t, err, &e)
			require.Equal(t, 1, e.Line, "%v", err)
			require.Regexp(t, "bytes of strings|steps", e.Msg)
			require.Less(t, alloc, float64(defaults.MaxBytes+2*exec.MaxValueText), "allocated %.0f bytes", alloc)
		})
	}
}

// wordwrap copied and recounted its line at every word; it is linear now.
func TestWordwrapIsLinear(t *testing.T) {
	growth.Linear(t, "wordwrap of one long paragraph", 20000, func(n int) float64 {
		ctx := map[string]any{"s": strings.Repeat("ab ", n)}
		return growth.AllocBytes(func() {
			if _, err := Jinja("{{ s | wordwrap(1000000000) }}", ctx, Options{}); err != nil {
				t.Fatal(err)
			}
		})
	})
}

func TestMustacheWorkIsBounded(t *testing.T) {
	list := make([]any, 1000)
	for i := range list {
		list[i] = map[string]any{"n": i}
	}
	ctx := map[string]any{"items": list, "one": []any{1}}
	_, err := Mustache("a\n{{#items}}{{#items}}{{#items}}{{n}}{{/items}}{{/items}}{{/items}}", ctx, Options{})
	var e *Error
	require.ErrorAs(t, err, &e)
	require.Equal(t, 2, e.Line)
	require.Contains(t, e.Msg, `section "items"`)
	require.Contains(t, e.Msg, "steps")

	// Ten thousand nested sections and a million names looked up
	// through all of them.
	deep := strings.Repeat("{{#one}}", 10000) + strings.Repeat("{{x}}", 1000000) + strings.Repeat("{{/one}}", 10000)
	_, err = Mustache(deep, ctx, Options{Limits: promptfmt.TemplateLimits{MaxSource: -1}})
	require.ErrorContains(t, err, "steps")

	out, err := Mustache("{{#items}}{{n}},{{/items}}", ctx, Options{})
	require.NoError(t, err, "one list of a thousand is fine")
	require.Equal(t, 1000, strings.Count(out, ","))
	_, err = Mustache("{{#items}}{{#items}}{{n}}{{/items}}{{/items}}", ctx, Options{Limits: promptfmt.TemplateLimits{MaxSteps: -1}})
	require.NoError(t, err, "no limit")
}

// The bound is an upper bound: for random templates and data, the times
// a rendering prints {{z}} (which only the root holds) never outnumber it.
func TestMustacheWorkBoundIsSound(t *testing.T) {
	r := newRand(t)
	names := []string{"a", "b", "c", "."}
	var value func(depth int) any
	value = func(depth int) any {
		switch r.IntN(4) {
		case 0:
			if depth < 3 {
				l := make([]any, r.IntN(4))
				for i := range l {
					l[i] = value(depth + 1)
				}
				return l
			}
		case 1:
			if depth < 3 {
				m := map[string]any{}
				for _, n := range names[:3] {
					if r.IntN(2) == 0 {
						m[n] = value(depth + 1)
					}
				}
				return m
			}
		case 2:
			return false
		}
		return true
	}
	for range 3000 {
		var b strings.Builder
		var open []string
		for range r.IntN(14) {
			n := names[r.IntN(len(names))]
			switch r.IntN(4) {
			case 0, 1:
				b.WriteString("{{#" + n + "}}")
				open = append(open, n)
			case 2:
				if len(open) > 0 {
					b.WriteString("{{/" + open[len(open)-1] + "}}")
					open = open[:len(open)-1]
				}
			case 3:
				b.WriteString("{{z}}")
			}
		}
		for len(open) > 0 {
			b.WriteString("{{/" + open[len(open)-1] + "}}")
			open = open[:len(open)-1]
		}
		src := b.String()
		data := map[string]any{"z": "|"}
		for _, n := range names[:3] {
			data[n] = value(1)
		}
		out, err := Mustache(src, data, Options{Limits: promptfmt.TemplateLimits{MaxSteps: -1}})
		require.NoError(t, err, src)
		printed := int64(strings.Count(out, "|"))
		tags := mustacheTags(t, src)
		// the bound: the least limit that the work does not pass
		lo, hi := int64(0), int64(1)
		for ; ; hi *= 2 {
			if _, over := mustacheWork(tags, data, hi); !over {
				break
			}
		}
		for lo+1 < hi {
			if mid := (lo + hi) / 2; func() bool { _, over := mustacheWork(tags, data, mid); return over }() {
				lo = mid
			} else {
				hi = mid
			}
		}
		require.LessOrEqual(t, printed, hi, "%s with %v printed {{z}} %d times, bound %d", src, data, printed, hi)
	}
}

func mustacheTags(t *testing.T, src string) []mustache.Tag {
	tpl, err := mustache.ParseStringRaw(src, true)
	require.NoError(t, err)
	return tpl.Tags()
}

func newRand(t *testing.T) *rand.Rand {
	t.Helper()
	return rand.New(rand.NewPCG(7, 11))
}
