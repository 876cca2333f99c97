package dotprompt

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
)

// {{#each}} renders as the engine's: block parameters, @index, @key,
// @first, @last, {{else}}, maps and structs.
func TestEach(t *testing.T) {
	type pair struct {
		A, B   string
		hidden string
	}
	for _, c := range []struct {
		src    string
		inputs map[string]any
		want   string
	}{
		{"{{#each xs as |x i|}}{{i}}={{x}}{{#if @first}}F{{/if}}{{#if @last}}L{{/if}};{{/each}}", map[string]any{"xs": []any{"a", "b", "c"}}, "0=aF;1=b;2=cL;"},
		{"{{#each xs}}{{@index}}{{this}}{{@key}}{{/each}}", map[string]any{"xs": []string{"p", "q"}}, "0p1q"},
		{"{{#each m as |v k|}}{{k}}={{v}} {{@key}}{{/each}}", map[string]any{"m": map[string]any{"k": "v"}}, "k=v k"},
		{"{{#each p}}{{@key}}:{{this}},{{/each}}", map[string]any{"p": pair{A: "1", B: "2", hidden: "3"}}, "A:1,B:2,"},
		{"{{#each xs}}x{{else}}none{{/each}}", map[string]any{"xs": []any{}}, "none"},
		{"{{#each xs}}{{#each ../ys}}{{this}}{{/each}}|{{/each}}", map[string]any{"xs": []any{1, 2}, "ys": []any{"a", "b"}}, "ab|ab|"},
	} {
		tpl, err := Load([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := tpl.Render(context.Background(), c.inputs)
		if err != nil || doc.Messages[0].Text() != c.want {
			t.Errorf("%s = %v %v, want %q", c.src, doc, err, c.want)
		}
	}
}

// The engine's each copies all its text at each pass: n passes of k
// bytes, n²k/2 bytes copied (8,000 of a kilobyte took 16 s). This one is
// linear, and what it builds counts against MaxBytes.
func TestEachLinear(t *testing.T) {
	tpl, err := Load([]byte("{{#each xs}}{{this}}{{/each}}"))
	if err != nil {
		t.Fatal(err)
	}
	xs := make([]any, 20_000)
	for i := range xs {
		xs[i] = strings.Repeat("x", 1000)
	}
	start := time.Now()
	doc, err := tpl.Render(context.Background(), map[string]any{"xs": xs})
	if err != nil || len(doc.Messages[0].Text()) != 20_000_000 {
		t.Fatalf("%v", err)
	}
	t.Logf("20,000 passes of a kilobyte in %v", time.Since(start))
	_, err = tpl.Render(context.Background(), map[string]any{"xs": xs}, promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 1 << 20}))
	if err == nil || !strings.Contains(err.Error(), "MaxBytes") {
		t.Errorf("20 MB of passes under MaxBytes of 1 MiB: %v", err)
	}
}
