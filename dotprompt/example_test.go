package dotprompt_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/dotprompt"
)

// Parse reads a Dotprompt file: its front matter as metadata (kept as
// written), and the messages its top-level {{role}} markers describe, their
// text the template's source, verbatim as Dotprompt's runtimes keep it
// (line breaks included). Load and Render give what a model receives.
func ExampleParse() {
	src, err := os.ReadFile("../testdata/examples/joke.prompt")
	if err != nil {
		panic(err)
	}
	doc, err := dotprompt.Parse(src)
	if err != nil {
		panic(err)
	}
	fmt.Println(doc.Request.Model)
	for _, m := range doc.Messages {
		fmt.Printf("%s: %q\n", m.Role, m.Text())
	}
	// Output:
	// googleai/gemini-2.0-flash
	// system: "\nYou are a comedian. Keep it short{{#if style}}, and tell it as a {{style}}{{/if}}.\n"
	// user: "\nTell me a joke about {{subject}}."
}

// Schema compiles Picoschema, the compact schemas of a Dotprompt file's
// input and output, into JSON Schema; named schemas come from the caller
// (Genkit's registry).
func ExampleSchema() {
	schema, err := dotprompt.Schema(map[string]any{
		"subject":         "string, what the joke is about",
		"style?(enum)":    []any{"pun", "limerick"},
		"audience(array)": "Person",
	}, map[string]any{"Person": map[string]any{"type": "string"}})
	if err != nil {
		panic(err)
	}
	out, _ := json.Marshal(schema)
	fmt.Println(string(out))
	// Output:
	// {"additionalProperties":false,"properties":{"audience":{"items":{"type":"string"},"type":"array"},"style":{"enum":["pun","limerick",null]},"subject":{"description":"what the joke is about","type":"string"}},"required":["audience","subject"],"type":"object"}
}

// Load and Render: the messages a model receives from a file, with
// Dotprompt's data argument (input over the file's input.default, and the
// conversation so far, placed before the last user message).
func ExampleTemplate_Render() {
	src, err := os.ReadFile("../testdata/examples/joke.prompt")
	if err != nil {
		panic(err)
	}
	tpl, err := dotprompt.Load(src)
	if err != nil {
		panic(err)
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"style": "pun"},
		dotprompt.History([]promptfmt.Message{promptfmt.NewMessage("user", "Hi!")}))
	if err != nil {
		panic(err)
	}
	for _, m := range doc.Messages {
		fmt.Printf("%s: %q\n", m.Role, m.Text())
	}
	// Output:
	// system: "\nYou are a comedian. Keep it short, and tell it as a pun.\n"
	// user: "Hi!"
	// user: "\nTell me a joke about cats."
}

// Check reads a file as Load does without making it ready to render: a
// template error is at its line and column, and a helper the host's code
// may register is no error.
func ExampleCheck() {
	_, err := dotprompt.Check([]byte("---\nmodel: m\n---\nHi {{#if name}}{{name}}\n"), promptfmt.File("greet.prompt"))
	fmt.Println(err)
	_, err = dotprompt.Check([]byte("---\nmodel: m\n---\n{{list items}}\n"))
	fmt.Println(err)
	// Output:
	// greet.prompt:4:4: block {{#if name}} is never closed
	// <nil>
}

// A file's model names the Genkit plugin that serves it; a provider
// knows the model by the rest.
func ExampleModelName() {
	plugin, name := dotprompt.ModelName("googleai/gemini-2.0-flash")
	fmt.Println(plugin, name)
	plugin, name = dotprompt.ModelName("gpt-4o")
	fmt.Printf("%q %s\n", plugin, name)
	// Output:
	// googleai gemini-2.0-flash
	// "" gpt-4o
}
