package dotprompt

import (
	"context"
	"errors"
	"runtime"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mbleigh/raymond/parser"

	"github.com/promptfmt/promptfmt"
)

// Templates the engine's parser refuses: each is refused at Load, at its
// line and column, in the file or the partial it is in.
var refused = []struct{ src, partial, at string }{
	{"---\nmodel: m\n---\nhi {{(a)}}", "", "x.prompt:4:6"},
	{"hi\n{{a.[b}}", "", "x.prompt:2:5"},
	{"{{else}}", "", "x.prompt:1:1"},
	{"{{#if a}}x{{/each}}", "", "x.prompt:1:11"},
	{"{{a/../b}}", "", "x.prompt:1:5"},
	{"{{#each xs as ||}}{{/each}}", "", "x.prompt:1:16"},
	{"{{json 1.2.3}}", "", "x.prompt:1:11"},
	{"{{> p}}", "ok\n{{x =}}", "_p.prompt:2:5"},
}

func TestGrammarRefused(t *testing.T) {
	for _, c := range refused {
		fsys := fstest.MapFS{"_p.prompt": {Data: []byte(c.partial)}}
		_, err := Load([]byte(c.src), promptfmt.FS(fsys), promptfmt.File("x.prompt"))
		var pe *promptfmt.ParseError
		if !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), c.at+": ") {
			t.Errorf("%q: %v, want an error at %s", c.src, err, c.at)
		}
		if _, err := parser.Parse(c.src); c.partial == "" && err == nil {
			t.Errorf("%q: the engine's parser takes it", c.src)
		}
	}
}

// A template the engine's parser refuses leaves no goroutine behind (its
// parser's lexer stays blocked, holding the source, when it is the one to
// refuse), neither does a partial it would refuse at each rendering.
func TestGrammarNoLeak(t *testing.T) {
	before := runtime.NumGoroutine()
	for range 20 {
		for _, c := range refused {
			fsys := fstest.MapFS{"_p.prompt": {Data: []byte(c.partial)}}
			if _, err := Load([]byte(c.src), promptfmt.FS(fsys)); err == nil {
				t.Fatalf("%q loads", c.src)
			}
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines before, %d after %d refused templates", before, n, 20*len(refused))
	}
}

// Blocks, {{else if}} chains and sub-expressions nest at most MaxDepth
// deep: the engine's parser and renderer recurse on each.
func TestGrammarDepth(t *testing.T) {
	for name, nest := range map[string]func(n int) string{
		"blocks": func(n int) string { return strings.Repeat("{{#if a}}", n) + strings.Repeat("{{/if}}", n) },
		"chain":  func(n int) string { return "{{#if a}}" + strings.Repeat("{{else if a}}", n) + "{{/if}}" },
		"sexprs": func(n int) string {
			return "{{json " + strings.Repeat("(json ", n) + "1" + strings.Repeat(")", n) + "}}"
		},
	} {
		if _, err := Load([]byte(nest(150))); err != nil {
			t.Errorf("%s 150 deep: %v", name, err)
		}
		_, err := Load([]byte(nest(10_000)))
		if err == nil || !strings.Contains(err.Error(), "MaxDepth") {
			t.Errorf("%s 10,000 deep: %v", name, err)
		}
		if _, err := Load([]byte(nest(150)), promptfmt.Limits(promptfmt.TemplateLimits{MaxDepth: 100})); err == nil {
			t.Errorf("%s 150 deep under MaxDepth 100: no error", name)
		}
	}
	tpl, err := Load([]byte("{{#if a}}" + strings.Repeat("{{else if a}}", 150) + "{{else}}z{{/if}}"))
	if err != nil {
		t.Fatal(err)
	}
	if doc, err := tpl.Render(context.Background(), nil); err != nil || doc.Messages[0].Text() != "z" {
		t.Errorf("a chain of 150: %v %v", doc, err)
	}
}

// checkGrammar refuses what the engine's parser refuses, and takes what
// it takes (where no limit of depth applies). The parser leaks a goroutine
// for each input it refuses; past a few thousand in one process that
// side is no longer asked.
func FuzzGrammar(f *testing.F) {
	for _, c := range refused {
		f.Add(c.src)
	}
	for _, s := range []string{"", "a {{b}} {{{c}}} {{&d}}", "{{#each xs as |x i|}}{{x}}{{else}}none{{/each}}", "{{^a}}x{{else}}y{{/a}}",
		"{{#if a}}1{{else if b}}2{{else}}3{{/if}}", "{{{{raw}}}} {{x}} {{{{/raw}}}}", "{{> (p) a=1 b='x'}}", "{{!-- c --}}{{! d }}",
		"{{@root.x}} {{../a}} {{this.b}} {{[a b].c}} {{a.[0]}}", `{{json x indent=2}} {{f "s\"q" 'x' -1.5 true false}}`, "\\{{x}} {{~a~}}",
		"{{#a}}{{/a}}", "{{#'a'}}{{/a}}", "{{#1}}{{/1.0}}", "{{#true}}{{/true}}", "{{#a.b}}{{/a/b}}"} {
		f.Add(s)
	}
	refusedAsked := 0
	f.Fuzz(func(t *testing.T, src string) {
		_, _, err := checkGrammar(src, 0)
		if err == nil {
			if _, perr := parser.Parse(src); perr != nil {
				t.Fatalf("checkGrammar takes %q, which the engine's parser refuses: %v", src, perr)
			}
			return
		}
		if err.at < 0 || err.at > len(src) {
			t.Fatalf("%q: an error at %d, outside the source", src, err.at)
		}
		if refusedAsked < 5000 && !err.ours {
			refusedAsked++
			if _, perr := parser.Parse(src); perr == nil {
				t.Fatalf("checkGrammar refuses %q (%s), which the engine's parser takes", src, err.msg)
			}
		}
	})
}

// A block helper called out of a block is refused at its place: the
// engine renders the block around it in its place, which calls it again,
// until the Go stack overflows (a fatal error, not a panic).
func TestBlockHelperOutOfBlock(t *testing.T) {
	for src, at := range map[string]string{
		"{{#if t}}F{{if t}}L{{/if}}":              "x.prompt:1:13",
		"{{#each xs}}{{json (each xs)}}{{/each}}": "x.prompt:1:21",
		"{{#xs}}{{~with x~}}{{/xs}}":              "x.prompt:1:11",
		"{{> p (unless t)}}":                      "x.prompt:1:8",
		"{{ifEquals a b}}":                        "x.prompt:1:3",
	} {
		_, err := Load([]byte(src), promptfmt.File("x.prompt"))
		if err == nil || !strings.HasPrefix(err.Error(), at+": ") || !strings.Contains(err.Error(), "renders a block") {
			t.Errorf("%s: %v, want an error at %s", src, err, at)
		}
	}
}
