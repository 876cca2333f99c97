package formats_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/formats"
)

// Detect finds a file's format by its extension (and by its content where
// formats share one); Parse reads it into the shared model.
func ExampleDetect() {
	name := "../testdata/examples/support.stf"
	src, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	f, err := formats.Detect(name, src)
	if err != nil {
		panic(err)
	}
	doc, err := f.Parse(src)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Name(), len(doc.Messages), doc.Messages[0].Role)
	// Output: stf 6 system
}

// ByName finds a format by the name -f takes; Write writes any document
// in it.
func ExampleByName() {
	f, err := formats.ByName("pdl")
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Name(), f.Extensions())
	// Output: pdl [.pdl]
}

// All lists every format, each with the file extensions Detect knows it by
// and whether its files are templates, rendered with inputs.
func ExampleAll() {
	for _, f := range formats.All() {
		_, template := f.(promptfmt.TemplateFormat)
		fmt.Println(f.Name(), f.Extensions(), template)
	}
	// Output:
	// prapti [.md] false
	// stf [.stf] false
	// pdl [.pdl] true
	// promptfile [.prompt] false
	// prompty [.prompty] true
	// dotprompt [.prompt] true
	// openai [.json] false
	// openai-responses [.json] false
	// anthropic [.json] false
	// gemini [.json] false
}

// A template format (Prompty, PDL) loads a file and renders it with inputs
// into the messages a model receives, whichever format it is.
func ExampleByName_template() {
	f, err := formats.ByName("prompty")
	if err != nil {
		panic(err)
	}
	tf := f.(promptfmt.TemplateFormat)
	src, err := os.ReadFile("../testdata/examples/chat.prompty")
	if err != nil {
		panic(err)
	}
	tpl, err := tf.Load(src, promptfmt.File("chat.prompty"))
	if err != nil {
		panic(err)
	}
	fmt.Println("inputs:", tpl.Inputs())

	raw, err := os.ReadFile("../testdata/examples/inputs.json")
	if err != nil {
		panic(err)
	}
	var inputs map[string]any
	if err := json.Unmarshal(raw, &inputs); err != nil {
		panic(err)
	}
	doc, err := tpl.Render(context.Background(), inputs)
	if err != nil {
		panic(err)
	}
	for _, m := range doc.LLMMessages() {
		fmt.Printf("%s %q\n", m.Role, m.Name)
	}
	// Output:
	// inputs: [customer order history question]
	// system ""
	// user ""
	// assistant ""
	// user "Ross"
}
