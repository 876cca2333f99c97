package dotprompt

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	dp "github.com/google/dotprompt/go/dotprompt"
	"github.com/invopop/jsonschema"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// handedData is what FuzzHanded renders with: lists (of lists, of maps,
// empty), a map, values of each kind. Maps hold one key, so that {{#each}}
// over one is in one order.
func handedData() map[string]any {
	return map[string]any{
		"xs": []any{"a", "b", "c"}, "e": []any{}, "nested": []any{[]any{"x", "y"}, []any{"z"}, "w"},
		"objs": []any{map[string]any{"a": 1}, map[string]any{"a": "two"}}, "m": map[string]any{"k": []any{1, 2.5, true}},
		"t": true, "f": false, "s": "str", "n": 3, "z": 0, "nil": nil, "typed": []string{"p", "q"},
	}
}

var handedSeeds = []string{
	"{{#xs}}[{{this}}{{@index}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}}]{{/xs}}",
	"{{#xs as |x i|}}{{i}}{{x}}{{/xs}} {{#objs}}{{a}}{{/objs}} {{#m}}{{k}}{{/m}}",
	"{{#e}}x{{else}}empty{{/e}} {{#f}}x{{else if t}}t{{else}}y{{/f}} {{#nil}}x{{else s}}{{this}}{{/nil}}",
	"{{#t}}{{s}}{{/t}}{{#s}}{{this}}{{/s}}{{#n}}{{this}}{{/n}}{{#z}}zero{{else}}nz{{/z}}",
	"{{xs}} {{nested}} {{objs}} {{m}} {{e}} {{t}} {{n}} {{nil}} {{s}} {{typed}} {{{xs}}} {{&nested}}",
	"{{#nested}}({{this}}|{{#this}}<{{.}}>{{/this}}){{/nested}} {{#@root.xs}}{{../s}}{{/@root.xs}}",
	"{{~#xs~}} {{this}} {{~/xs~}}\n{{#xs}}\n{{this}}\n{{/xs}}\n{{^xs}}none{{/xs}}{{^e}}none{{/e}}",
	"{{#each objs}}{{#../xs}}{{this}}{{/../xs}}{{/each}} {{#with m}}{{k}}{{#k}}{{this}}{{/k}}{{/with}}",
	"{{#'xs'}}lit{{/'xs'}} {{#typed}}{{this}}{{/typed}} {{#xs}}{{#../nested}}{{this}}{{/../nested}}{{/xs}}",
	"{{role \"system\"}}{{#xs}}{{this}}{{/xs}}{{role \"user\"}}{{xs}}",
	"{{lookup @root 'xs'}} {{~lookup nested 0~}} {{{lookup m 'k'}}} {{media url=s contentType='image/png'}} {{#each xs}}{{lookup ../objs @index}}{{/each}}",
	"{{role s}}{{json xs}} {{log s}}{{lookup (lookup @root 'm') 'k'}} {{#xs}}{{lookup @root this}}{{/xs}}",
	"---\n---\n{{#xs}}\t{{this}} {{/xs}}\t{{nested}}", "---\n: [\n---\n{{#xs}}{{this}}{{/xs}}",
}

// Handed to section and print, a template renders exactly as the engine
// renders it alone.
func FuzzHanded(f *testing.F) {
	for _, s := range handedSeeds {
		f.Add(s)
	}
	anySchema := func(string) (*jsonschema.Schema, error) { return &jsonschema.Schema{}, nil }
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 500 {
			return
		}
		ours, err := Load([]byte(src), promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 100_000}))
		if err != nil {
			return
		}
		fn, err := func() (fn dp.PromptFunction, err error) {
			defer func() {
				if recover() != nil {
					err = errPanicked
				}
			}()
			// The runtime is given the file from its front matter on, as
			// Load gives it (see Load).
			orig := src[lines.SkipBOM([]byte(src)):]
			if open, _, _, _, _ := frontMatter([]byte(orig), 0); open >= 0 {
				orig = orig[open:]
			}
			return dp.NewDotprompt(&dp.DotpromptOptions{SchemaResolver: anySchema}).Compile(orig, nil)
		}()
		if err != nil {
			return
		}
		data := &dp.DataArgument{Input: handedData()}
		want, werr := func() (out dp.RenderedPrompt, err error) {
			defer func() {
				if r := recover(); r != nil {
					err = errPanicked
				}
			}()
			return fn(data, nil)
		}()
		got, _, gerr := ours.exec(&dp.DataArgument{Input: handedData()}, promptfmt.TemplateLimits{}.Effective())
		if (werr != nil) != (gerr != nil) {
			t.Fatalf("%q: the engine: %v; handed: %v", src, werr, gerr)
		}
		if werr == nil && !reflect.DeepEqual(got.Messages, want.Messages) {
			t.Fatalf("%q:\nthe engine: %+v\nhanded:     %+v", src, want.Messages, got.Messages)
		}
	})
}

var errPanicked = errors.New("the engine panicked")

// Each seed is handed something (the fuzz target compares renderings).
func TestHanded(t *testing.T) {
	for _, src := range handedSeeds {
		if edits, _, err := checkGrammar(src, 0); err != nil || len(edits) == 0 {
			t.Errorf("%q: %d edits, %v", src, len(edits), err)
		}
	}
}

// A section over a list and a list printed whole: the engine copies all
// the text before each item again (10,000 items of a kilobyte took 20 s
// each way); handed, they are linear, and charged to MaxBytes.
func TestHandedLinear(t *testing.T) {
	xs := make([]any, 20_000)
	for i := range xs {
		xs[i] = strings.Repeat("x", 1000)
	}
	for _, src := range []string{"{{#xs}}{{this}}{{/xs}}", "{{xs}}", "{{#t}}{{#xs}}{{.}}{{/xs}}{{/t}}"} {
		tpl, err := Load([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		doc, err := tpl.Render(context.Background(), map[string]any{"xs": xs, "t": true})
		if err != nil || len(doc.Messages[0].Text()) != 20_000_000 {
			t.Fatalf("%s: %v", src, err)
		}
		t.Logf("%s: 20,000 items of a kilobyte in %v", src, time.Since(start))
		_, err = tpl.Render(context.Background(), map[string]any{"xs": xs, "t": true}, promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 1 << 20}))
		if err == nil || !strings.Contains(err.Error(), "MaxBytes") {
			t.Errorf("%s: 20 MB under MaxBytes of 1 MiB: %v", src, err)
		}
	}
}

// A value printed by many tags counts each time against MaxBytes: 3,000
// tags of a 10 KB value are 30 MB.
func TestHandedManyTags(t *testing.T) {
	tpl, err := Load([]byte(strings.Repeat("{{doc}}", 3_000)))
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string]any{"doc": strings.Repeat("x", 10_000)}
	_, err = tpl.Render(context.Background(), doc, promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 10 << 20}))
	if err == nil || !strings.Contains(err.Error(), "MaxBytes") {
		t.Errorf("30 MB of one value under MaxBytes of 10 MiB: %v", err)
	}
	if _, err := tpl.Render(context.Background(), doc); err != nil {
		t.Error(err)
	}
}

// Where the runtime takes the template otherwise than as the body (an
// empty front matter: it drops tabs), it is handed the edited template
// alone: sections are still handed, and counted against MaxSteps.
func TestHandedEmptyFrontMatter(t *testing.T) {
	tpl, err := Load([]byte("---\n---\n{{#xs}}\t{{#../xs}}{{#../../xs}}x{{/../../xs}}{{/../xs}}{{/xs}}"))
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]any, 20)
	for i := range xs {
		xs[i] = i
	}
	few := promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 1000})
	if _, err := tpl.Render(context.Background(), map[string]any{"xs": xs}, few); err == nil || !strings.Contains(err.Error(), "MaxSteps") {
		t.Errorf("8,000 passes under MaxSteps of 1,000: %v", err)
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"xs": xs[:2]})
	if err != nil || doc.Messages[0].Text() != "xxxxxxxx" {
		t.Errorf("%v %v", doc, err)
	}
}
