package dotprompt

import (
	"context"
	"errors"
	"fmt"
	dp "github.com/google/dotprompt/go/dotprompt"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/promptfmt/promptfmt"
)

func TestInputs(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string
	}{
		{"---\ninput:\n  schema:\n    subject: string, what\n    style?(enum, how): [a, b]\n    tags(array): string\n    (*): any\n  default:\n    other: 1\n---\nx", []string{"subject", "style", "tags"}},
		{"---\ninput:\n  schema:\n    type: object\n    properties:\n      b: {type: string}\n      a: {type: string}\n---\nx", []string{"b", "a"}},
		{"---\ninput:\n  default:\n    z: 1\n    y: 2\n---\nx", []string{"z", "y"}},
		{"no front matter", nil},
	} {
		tpl, err := Load([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		if got := tpl.Inputs(); !slices.Equal(got, c.want) {
			t.Errorf("%q: Inputs %q, want %q", c.src, got, c.want)
		}
	}
}

// Defaults sit under the inputs given; nothing is HTML-escaped.
func TestRenderDefaultsAndNoEscape(t *testing.T) {
	tpl, err := Load([]byte("---\ninput:\n  default:\n    a: A\n    b: B\n---\n{{role \"model\"}}{{a}} {{b}} <&>"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"b": "<b>"})
	if err != nil {
		t.Fatal(err)
	}
	want := []promptfmt.Message{{Role: "assistant", Content: []promptfmt.ContentPart{promptfmt.Text("A <b> <&>")}}}
	if !promptfmt.EqualMessages(doc.Messages, want) {
		t.Errorf("got %#v", doc.Messages)
	}
	if doc.Meta["input"] == nil {
		t.Error("front matter lost")
	}
}

func TestRenderLimits(t *testing.T) {
	src := []byte("{{#each items}}{{this}}{{/each}}")
	if _, err := Load(src, promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 10})); err == nil || !strings.Contains(err.Error(), "MaxSource") {
		t.Errorf("MaxSource: %v", err)
	}
	tpl, err := Load(src)
	if err != nil {
		t.Fatal(err)
	}
	items := make([]any, 100)
	for i := range items {
		items[i] = "0123456789"
	}
	if _, err := tpl.Render(context.Background(), map[string]any{"items": items}, promptfmt.Limits(promptfmt.TemplateLimits{MaxOutput: 999})); err == nil || !strings.Contains(err.Error(), "MaxOutput") {
		t.Errorf("MaxOutput: %v", err)
	}
	if _, err := tpl.Render(context.Background(), map[string]any{"items": items}, promptfmt.Limits(promptfmt.TemplateLimits{MaxOutput: 1000})); err != nil {
		t.Errorf("at the limit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tpl.Render(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("canceled ctx: %v", err)
	}
}

func TestRenderSectionWarns(t *testing.T) {
	tpl, err := Load([]byte("a{{section \"s\"}}b"))
	if err != nil {
		t.Fatal(err)
	}
	var warned []promptfmt.Warning
	doc, err := tpl.Render(context.Background(), nil, promptfmt.OnWarning(func(w promptfmt.Warning) { warned = append(warned, w) }))
	if err != nil {
		t.Fatal(err)
	}
	if len(warned) != 1 || len(doc.Warnings) != 1 || !strings.Contains(warned[0].Msg, `message 1 (user): the part of {{section "s"}}`) {
		t.Errorf("warnings %v", warned)
	}
	if !promptfmt.EqualMessages(doc.Messages, []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("a"), promptfmt.Text("b")}}}) {
		t.Errorf("messages %v", doc.Messages)
	}
}

// Data: input under Render's inputs, history in this package's JSON shape
// or Dotprompt's, context as @ variables; an unknown key is an error.
func TestRenderData(t *testing.T) {
	tpl, err := Load([]byte("{{role \"system\"}}{{a}} {{b}} {{@state.n}}{{history}}{{role \"user\"}}go"))
	if err != nil {
		t.Fatal(err)
	}
	data := map[string]any{
		"input":   map[string]any{"a": "A", "b": "B"},
		"context": map[string]any{"state": map[string]any{"n": 7}},
		"messages": []any{
			map[string]any{"role": "user", "content": "hi"},
			map[string]any{"role": "model", "content": []any{map[string]any{"text": "yo"}, map[string]any{"media": map[string]any{"url": "https://x/a.png", "contentType": "image/png"}}}},
		},
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"b": "b"}, Data(data))
	if err != nil {
		t.Fatal(err)
	}
	h := map[string]any{"purpose": "history"}
	want := []promptfmt.Message{
		{Role: "system", Content: []promptfmt.ContentPart{promptfmt.Text("A b 7")}},
		{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("hi")}, Metadata: h},
		{Role: "assistant", Content: []promptfmt.ContentPart{promptfmt.Text("yo"), {Kind: promptfmt.KindImage, Value: "https://x/a.png", MediaType: "image/png"}}, Metadata: h},
		{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("go")}},
	}
	if !promptfmt.EqualMessages(doc.Messages, want) {
		t.Errorf("got  %#v\nwant %#v", doc.Messages, want)
	}
	if _, err := tpl.Render(context.Background(), nil, Data(map[string]any{"a": 1})); err == nil || !strings.Contains(err.Error(), `unknown key "a"`) {
		t.Errorf("unknown key: %v", err)
	}
}

// One Template renders from several goroutines at once (run with -race).
func TestRenderConcurrent(t *testing.T) {
	tpl, err := Load([]byte("{{role \"system\"}}{{#each xs}}{{this}}{{/each}}{{role \"user\"}}{{a}}"))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	for i := range 4 {
		go func() {
			doc, err := tpl.Render(context.Background(), map[string]any{"xs": []any{1, 2}, "a": i})
			if err == nil && doc.Messages[1].Text() != fmt.Sprint(i) {
				err = fmt.Errorf("goroutine %d got %q", i, doc.Messages[1].Text())
			}
			done <- err
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Error(err)
		}
	}
}

// Partials come from _name.prompt in the FS option (dir/_name.prompt for
// dir/name), nested ones too, with hash arguments; a missing one is an
// error naming it.
func TestRenderPartials(t *testing.T) {
	fsys := fstest.MapFS{
		"_greet.prompt":    {Data: []byte("Hello {{name}}{{> sub/sign}}")},
		"sub/_sign.prompt": {Data: []byte(", {{who}}!")},
	}
	tpl, err := Load([]byte("{{role \"system\"}}{{> greet name=\"Ann\"}}"), promptfmt.FS(fsys))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"who": "Bob"})
	if err != nil {
		t.Fatal(err)
	}
	if got := doc.Messages[0].Text(); got != "Hello Ann, Bob!" {
		t.Errorf("got %q", got)
	}
	if _, err := Load([]byte("{{> nope}}"), promptfmt.FS(fsys)); err == nil || !strings.Contains(err.Error(), "partial nope") {
		t.Errorf("missing partial: %v", err)
	}
	if _, err := Load([]byte("{{> greet}}"), promptfmt.FS(fsys), promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 20})); err == nil || !strings.Contains(err.Error(), "MaxSource") {
		t.Errorf("partial over MaxSource: %v", err)
	}
}

// A partial is what Handlebars reads as one: a "{{> name}}" in a comment,
// a raw block or escaped text (as Write escapes text) names none; and
// without a file system one is an error at its place, not the engine's
// at rendering.
func TestPartialTags(t *testing.T) {
	empty := fstest.MapFS{}
	for src, want := range map[string]string{
		"{{!-- {{> missing}} --}}hi":                   "hi",
		"{{! {{> missing}} }}hi":                       " }}hi", // a short comment ends at the first }}
		"\\{{> missing}} hi":                           "{{> missing}} hi",
		"{{{{raw}}}}{{> missing}}{{{{/raw}}}} hi":      " hi", // a raw block of no helper renders nothing
		"---\ndescription: \"{{> missing}}\"\n---\nhi": "hi",
	} {
		tpl, err := Load([]byte(src), promptfmt.FS(empty))
		if err != nil {
			t.Errorf("%q: %v", src, err)
			continue
		}
		doc, err := tpl.Render(context.Background(), nil)
		if err != nil || doc.Messages[0].Text() != want {
			t.Errorf("%q: %v %#v", src, err, doc)
		}
	}
	// Text written by Write renders back, partial tags and all.
	doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "Write {{> header}} at the top.")}}
	var b strings.Builder
	if err := Write(&b, doc); err != nil {
		t.Fatal(err)
	}
	tpl, err := Load([]byte(b.String()), promptfmt.FS(empty))
	if err != nil {
		t.Fatalf("%q: %v", b.String(), err)
	}
	if got, err := tpl.Render(context.Background(), nil); err != nil || !promptfmt.EqualMessages(got.Messages, doc.Messages) {
		t.Errorf("%q renders %v %v", b.String(), got, err)
	}
	for _, load := range []func([]byte, ...promptfmt.Option) error{
		func(b []byte, o ...promptfmt.Option) error { _, err := Load(b, o...); return err },
		func(b []byte, o ...promptfmt.Option) error { _, err := Check(b, o...); return err },
	} {
		err := load([]byte("---\nmodel: m\n---\nHi {{> card}}"), promptfmt.File("f.prompt"))
		if err == nil || err.Error() != "f.prompt:4:4: the partial card is read beside the file (the FS option), and there is no file system to read it from (a file read from standard input has none)" {
			t.Errorf("no FS: %v", err)
		}
	}
}

// Partials that would make rendering run away are refused at Load, before
// any is rendered: one that includes itself (the engine would follow it
// until the Go stack overflows, a fatal crash), nesting past MaxDepth, and
// an expansion past MaxOutput (each partial naming the next twice).
func TestRunawayPartials(t *testing.T) {
	self := fstest.MapFS{"_a.prompt": {Data: []byte("x {{> b}}")}, "_b.prompt": {Data: []byte("y {{> a}}")}}
	_, err := Load([]byte("{{> a}}"), promptfmt.FS(self))
	if err == nil || !strings.Contains(err.Error(), "partial a includes itself (the template > a > b > a)") {
		t.Errorf("cycle: %v", err)
	}
	chain := fstest.MapFS{}
	for i := range 30 {
		chain[fmt.Sprintf("_p%d.prompt", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf("ab{{> p%d}}{{> p%d}}", i+1, i+1))}
	}
	chain["_p30.prompt"] = &fstest.MapFile{Data: []byte("end")}
	_, err = Load([]byte("{{> p0}}"), promptfmt.FS(chain))
	if err == nil || !strings.Contains(err.Error(), "MaxOutput") {
		t.Errorf("doubling: %v", err)
	}
	_, err = Load([]byte("{{> p0}}"), promptfmt.FS(chain), promptfmt.Limits(promptfmt.TemplateLimits{MaxDepth: 5}))
	if err == nil || !strings.Contains(err.Error(), "partials nest deeper than 5") {
		t.Errorf("depth: %v", err)
	}
	// A partial named many times but not nested is fine.
	flat := fstest.MapFS{"_w.prompt": {Data: []byte("w")}}
	if _, err := Load([]byte(strings.Repeat("{{> w}}", 1000)), promptfmt.FS(flat)); err != nil {
		t.Error(err)
	}
}

// Loops are counted as they pass ({{#each}} and sections over a list,
// which this package's helpers render): each pass costs the template's
// tags, and past MaxSteps the rendering stops. What would take n^k passes
// stops within MaxSteps; ordinary loops render, and so does a section
// over a value that is not a list around a long loop.
func TestRenderLoopBound(t *testing.T) {
	nested := "{{#each l}}{{#each ../l}}{{#each ../../l}}{{#each ../../../l}}{{#each ../../../../l}}{{#each ../../../../../l}}x{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}{{/each}}"
	tpl, err := Load([]byte(nested))
	if err != nil {
		t.Fatal(err)
	}
	list := make([]any, 100)
	for i := range list {
		list[i] = i
	}
	start := time.Now()
	_, err = tpl.Render(context.Background(), map[string]any{"l": list})
	if err == nil || !strings.Contains(err.Error(), "MaxSteps") {
		t.Errorf("nested loops: %v", err)
	}
	t.Logf("100^6 passes refused in %v", time.Since(start))
	// Typed data counts too.
	_, err = tpl.Render(context.Background(), map[string]any{"l": []string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z"}})
	if err == nil {
		t.Error("typed list not counted")
	}
	// Through a partial, inside a loop.
	fsys := fstest.MapFS{"_inner.prompt": {Data: []byte("{{#each ../l}}{{#each ../../l}}{{#each ../../../l}}y{{/each}}{{/each}}{{/each}}")}}
	tpl, err = Load([]byte("{{#each l}}{{#each ../l}}{{#each ../../l}}{{~> inner}}{{/each}}{{/each}}{{/each}}"), promptfmt.FS(fsys))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tpl.Render(context.Background(), map[string]any{"l": list}); err == nil || !strings.Contains(err.Error(), "MaxSteps") {
		t.Errorf("loops through a partial: %v", err)
	}
	// A section over a list loops as {{#each}} does; {{#if}} and
	// {{#with}} do not.
	sections := "{{#@root.l}}{{#if @root.l}}{{#@root.l}}{{#with @root}}{{#@root.l}}x{{/@root.l}}{{/with}}{{/@root.l}}{{/if}}{{/@root.l}}"
	tpl, err = Load([]byte(sections))
	if err != nil {
		t.Fatal(err)
	}
	few := promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 1000})
	_, err = tpl.Render(context.Background(), map[string]any{"l": list[:20]}, few)
	if err == nil || !strings.Contains(err.Error(), "MaxSteps") {
		t.Errorf("nested sections: %v", err)
	}
	// A section over a value that is not a list passes once.
	tpl, err = Load([]byte("{{#user}}{{name}}: {{#items}}{{this}},{{/items}}{{/user}}"))
	if err != nil {
		t.Fatal(err)
	}
	items := make([]any, 50_000)
	for i := range items {
		items[i] = i
	}
	if _, err := tpl.Render(context.Background(), map[string]any{"user": map[string]any{"name": "Ann", "items": items}}); err != nil {
		t.Error(err)
	}
	// One loop over a long list is fine.
	tpl, err = Load([]byte("{{#each l}}{{this}},{{/each}}"))
	if err != nil {
		t.Fatal(err)
	}
	long := make([]any, 10000)
	for i := range long {
		long[i] = i
	}
	if _, err := tpl.Render(context.Background(), map[string]any{"l": long}); err != nil {
		t.Error(err)
	}
}

// A file loaded with its name is named as Dotprompt's directory store
// names it, where its front matter does not say: greet.formal.prompt is
// the prompt greet, variant formal (after the last dot). Parse adds
// nothing (fmt writes what the file has).
func TestFileNames(t *testing.T) {
	for _, c := range []struct {
		file, src     string
		name, variant any
	}{
		{"prompts/greet.formal.prompt", "Hi", "greet", "formal"},
		{"greet.prompt", "Hi", "greet", nil},
		{"a.b.c.prompt", "Hi", "a.b", "c"},
		{"greet.formal.prompt", "---\nname: hello\n---\nHi", "hello", "formal"},
		{"greet.formal.prompt", "---\nvariant: casual\nmodel: m\n---\nHi", "greet", "casual"},
		{"_partial.prompt", "Hi", nil, nil},
		{"greet.txt", "Hi", nil, nil},
		{"", "Hi", nil, nil},
	} {
		tpl, err := Load([]byte(c.src), promptfmt.File(c.file))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := tpl.Render(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if doc.Meta["name"] != c.name || doc.Meta["variant"] != c.variant {
			t.Errorf("%s %q: name %v, variant %v", c.file, c.src, doc.Meta["name"], doc.Meta["variant"])
		}
		parsed, err := Parse([]byte(c.src), promptfmt.File(c.file))
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := parsed.Meta["variant"]; ok != strings.Contains(c.src, "variant:") {
			t.Errorf("%s: Parse gave a variant", c.file)
		}
	}
}

// A partial of a variant, {{> name.variant}}, is _name.variant.prompt,
// in a sub-directory too, as Genkit registers it and Dotprompt's store
// names it.
func TestVariantPartials(t *testing.T) {
	fsys := fstest.MapFS{
		"_header.prompt":            {Data: []byte("plain")},
		"_header.formal.prompt":     {Data: []byte("formal")},
		"sub/_footer.formal.prompt": {Data: []byte("bye")},
	}
	tpl, err := Load([]byte("{{> header}}|{{> header.formal}}|{{> sub/footer.formal}}"), promptfmt.FS(fsys))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tpl.Render(context.Background(), nil)
	if err != nil || doc.Messages[0].Text() != "plain|formal|bye" {
		t.Errorf("%v %v", doc, err)
	}
}

// A media part whose url renders empty (an input not given) is kept, as
// the runtime makes it, with a warning.
func TestRenderEmptyMediaWarns(t *testing.T) {
	tpl, err := Load([]byte("Look: {{media url=photo}}"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tpl.Render(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Messages[0].Content) != 2 || len(doc.Warnings) != 1 || !strings.Contains(doc.Warnings[0].Msg, "no url") {
		t.Errorf("%v %v", doc.Messages, doc.Warnings)
	}
	doc, err = tpl.Render(context.Background(), map[string]any{"photo": "https://x/a.webp"})
	if err != nil || len(doc.Warnings) != 0 || doc.Messages[0].Content[1].Kind != promptfmt.KindImage {
		t.Errorf("%v %v %v", doc.Messages, doc.Warnings, err)
	}
}

// A helper Genkit's code registers is not here: calling one (a name
// given arguments, in a tag or a sub-expression) is an error at Load, at
// its place, rather than the empty text the engine would render. Values,
// Handlebars' and Dotprompt's helpers are not calls of one.
func TestUnknownHelpers(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"---\nmodel: m\n---\nHi\n{{#if xs}}\n{{list xs}}\n{{/if}}", "f.prompt:6:1: {{list xs}} calls list, neither"},
		{"{{#if (eq a b)}}x{{/if}}", "f.prompt:1:1: {{#if (eq a b)}} calls eq"},
		{"{{~#upper name~}}x{{/upper}}", "calls upper"},
		{"{{else if x}}", ""}, // not reached: a syntax error first
		{"{{{fmt x}}}", "calls fmt"},
		{"{{shout name=\"x\"}}", "calls shout"},
	} {
		_, err := Load([]byte(c.src), promptfmt.File("f.prompt"))
		if c.msg == "" {
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v, want %s", c.src, err, c.msg)
		}
	}
	for _, src := range []string{
		"{{name}} {{person.name}} {{@state.x}} {{this}} {{json x indent=2}} {{#each xs as |x|}}{{lookup ../m x}}{{/each}}",
		"{{#ifEquals a \"b\"}}{{else if c}}{{/ifEquals}} {{media url=u}} {{role \"user\"}} {{#with (lookup m k)}}{{.}}{{/with}}",
		"{{#section}}{{/section}} {{!-- {{list x}} --}} \\{{list x}} {{#unless (equal a b)}}{{/unless}}",
		"---\ndescription: \"{{list x}} in YAML is no call\"\n---\nHi",
		"{{{{raw}}}}{{list x}} is text in a raw block{{{{/raw}}}}",
	} {
		if _, err := Load([]byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
	fsys := fstest.MapFS{"_p.prompt": {Data: []byte("{{upper x}}")}}
	if _, err := Load([]byte("{{> p}}"), promptfmt.FS(fsys)); err == nil || !strings.HasPrefix(err.Error(), "_p.prompt:1:1: {{upper x}} calls upper") || !strings.HasSuffix(err.Error(), "(the partial p)") {
		t.Errorf("partial: %v", err)
	}
}

// Front matter our YAML reader takes and the runtime's (goccy/go-yaml)
// does not is refused at Load, at goccy's place: the runtime would print
// to standard output and render the whole file, front matter included.
func TestRuntimeYAML(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout := os.Stdout
	os.Stdout = w
	_, lerr := Load([]byte("---\nmodel: x\nA: !!binary \n---\nhi {{name}}\n"), promptfmt.File("f.prompt"))
	os.Stdout = stdout
	w.Close()
	printed, _ := io.ReadAll(r)
	if len(printed) > 0 {
		t.Errorf("printed to standard output: %q", printed)
	}
	if lerr == nil || !strings.HasPrefix(lerr.Error(), "f.prompt:3:5: Dotprompt's runtime cannot read this front matter") {
		t.Errorf("got %v", lerr)
	}
	// What goccy reads is rendered as before; an empty front matter reads no YAML.
	for _, src := range []string{"---\nmodel: x\nconfig: {temperature: 1}\n---\nhi", "---\n---\nhi", "---\n\n---\nhi"} {
		if _, err := Load([]byte(src)); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}

// Go data that contains itself is refused before the engine prints it
// (raymond recursed until the Go stack overflowed: a crash of the process).
func TestRenderSelfContaining(t *testing.T) {
	self := map[string]any{"a": "x"}
	self["self"] = self
	tpl, err := Load([]byte("{{self}} {{@state.self}}"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		inputs map[string]any
		opts   []promptfmt.Option
		want   string
	}{
		{map[string]any{"self": self}, nil, `input "self": a map that contains itself`},
		{nil, []promptfmt.Option{Data(map[string]any{"input": map[string]any{"self": []any{self}}})}, `input "self": a map that contains itself`},
		{nil, []promptfmt.Option{Data(map[string]any{"context": map[string]any{"state": self}})}, `context "state": a map that contains itself`},
		{nil, []promptfmt.Option{History([]promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("hi")}, Metadata: map[string]any{"m": self}}})}, `history message 1, metadata "m": a map`},
	} {
		if _, err := tpl.Render(context.Background(), c.inputs, c.opts...); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %s", err, c.want)
		}
	}
}

// Check refuses what Load refuses but a helper the host may register, and
// returns what Parse returns.
func TestCheck(t *testing.T) {
	fsys := fstest.MapFS{"_card.prompt": {Data: []byte("{{title}}")}, "_bad.prompt": {Data: []byte("{{#if x}}")}}
	for _, c := range []struct{ src, err string }{
		{"---\nmodel: m\n---\n{{foo (}}\n", "f.prompt:4:8: expected a name"},
		{"{{> missing}}", "partial missing"},
		{"{{> bad}}", "_bad.prompt:1:10: expected the block's end {{/...}}, found the end of the template (the partial bad)"},
		{"---\nmodel: x\nA: !!binary \n---\nhi\n", "f.prompt:3:5: Dotprompt's runtime cannot read this front matter"},
		{"{{#if a}}{{#if b}}{{/if}}{{/if}}", ""},
		{"---\nmodel: m\n---\n{{> card}} {{list items}} {{#upper x}}y{{/upper}}\n", ""},
	} {
		opts := []promptfmt.Option{promptfmt.File("f.prompt"), promptfmt.FS(fsys)}
		doc, err := Check([]byte(c.src), opts...)
		if c.err == "" {
			want, perr := Parse([]byte(c.src), opts...)
			if err != nil || perr != nil || !promptfmt.Equal(doc, want) {
				t.Errorf("%q: %v %v", c.src, err, perr)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.err) {
			t.Errorf("%q: got %v, want %s", c.src, err, c.err)
		}
		if _, lerr := Load([]byte(c.src), opts...); lerr == nil || lerr.Error() != err.Error() {
			t.Errorf("%q: Load says %v, Check %v", c.src, lerr, err)
		}
	}
	if _, err := Load([]byte("{{list items}}")); err == nil {
		t.Error("Load renders an unknown helper")
	}
}

// FuzzRuntimeTemplate: runtimeTemplate gives the template Dotprompt's
// ParseDocument gives, for every source whose YAML the runtime reads (on
// one it cannot read, the runtime prints, and Load refuses the file).
func FuzzRuntimeTemplate(f *testing.F) {
	for _, s := range []string{"---\nmodel: m\n---\n  hi\t \n", "---\n---\n\thi\u00a0 there\n", "---\n\n---\nx", "hi", "---\r\na: 1\r\n---\r\n x ",
		"---\nmodel: x\nA: !!binary \n---\nhi\n", "---\n- a\n---\nx", "--- \nk: v\n---  \nbody", "\u2028---\nk: v\n---\nx", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tmpl, at, err := runtimeTemplate(src)
		if err != nil {
			if at < 0 || at > len(src) {
				t.Fatalf("%q: YAML at %d", src, at)
			}
			return
		}
		parsed, perr := dp.ParseDocument(src)
		if perr != nil {
			t.Fatalf("%q: the runtime fails: %v", src, perr)
		}
		if parsed.Template != tmpl {
			t.Fatalf("%q: runtimeTemplate %q, the runtime %q", src, tmpl, parsed.Template)
		}
	})
}
