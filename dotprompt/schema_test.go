package dotprompt_test

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	. "github.com/promptfmt/promptfmt/dotprompt"
)

// A schema that Dotprompt's runtimes would refuse is a ParseError at its
// place in the file (Parse, Load, and so check); Write refuses one in
// Meta.
func TestSchemaErrors(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"---\ninput:\n  schema:\n    a(list): string\n---\nx", `f.prompt:4:5: input.schema: a(list): "list" is not a modifier`},
		{"---\noutput:\n  schema:\n    a:\n      b?(enum): red\n---\nx", `f.prompt:5:17: output.schema: a.b?(enum): an enum's values are a list, not a string`},
		{"---\ninput:\n  schema: [a]\n---\nx", "f.prompt:3:11: input.schema: a schema is a string or a mapping, not a list"},
	} {
		for _, read := range []func([]byte, ...promptfmt.Option) error{
			func(b []byte, o ...promptfmt.Option) error { _, err := Parse(b, o...); return err },
			func(b []byte, o ...promptfmt.Option) error { _, err := Load(b, o...); return err },
		} {
			err := read([]byte(c.src), promptfmt.File("f.prompt"))
			var pe *promptfmt.ParseError
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("%q: %v, want %s", c.src, err, c.msg)
			}
		}
	}
	err := Write(&bytes.Buffer{}, &promptfmt.Document{Meta: map[string]any{"input": map[string]any{"schema": map[string]any{"a(x)": "string"}}}})
	var ue *promptfmt.UnsupportedError
	if !errors.As(err, &ue) || ue.Key != "input" || !strings.Contains(err.Error(), "not a modifier") {
		t.Errorf("Write: %v", err)
	}
}

// A named schema: the file parses, loads and renders without it (Genkit
// resolves it); InputSchema takes it from the caller, and names it, at
// its place, when it is not given. Inputs are read all the same.
func TestNamedSchemas(t *testing.T) {
	src := "---\ninput:\n  schema:\n    who: Person, the one to greet\n    when?: string\noutput:\n  schema: Greeting\n---\nHi {{who.name}}"
	tpl, err := Load([]byte(src), promptfmt.File("g.prompt"))
	if err != nil {
		t.Fatal(err)
	}
	if got := tpl.Inputs(); !slices.Equal(got, []string{"who", "when"}) {
		t.Errorf("Inputs %q", got)
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"who": map[string]any{"name": "Ann"}})
	if err != nil || doc.Messages[0].Text() != "Hi Ann" {
		t.Fatalf("%v %v", doc, err)
	}
	_, err = tpl.InputSchema(nil)
	if err == nil || !strings.Contains(err.Error(), `g.prompt:4:10: input.schema: who: "Person" is not a type`) {
		t.Errorf("unknown name: %v", err)
	}
	person := map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}
	in, err := tpl.InputSchema(map[string]any{"Person": person})
	if err != nil {
		t.Fatal(err)
	}
	who := in["properties"].(map[string]any)["who"].(map[string]any)
	if who["description"] != "the one to greet" || who["properties"] == nil || person["description"] != nil {
		t.Errorf("who: %v (the registered schema: %v)", who, person)
	}
	if req := in["required"].([]any); len(req) != 1 || req[0] != "who" {
		t.Errorf("required %v", req)
	}
	out, err := tpl.OutputSchema(map[string]any{"Greeting": map[string]any{"type": "string"}})
	if err != nil || out["type"] != "string" {
		t.Errorf("output: %v %v", out, err)
	}
	if _, err := Schema("Greeting", nil); err == nil || !strings.Contains(err.Error(), `"Greeting" is not a type`) {
		t.Errorf("Schema: %v", err)
	}
	// No schema is none.
	tpl, err = Load([]byte("Hi"))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tpl.OutputSchema(nil); s != nil || err != nil {
		t.Errorf("none: %v %v", s, err)
	}
}
