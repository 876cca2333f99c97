package dotprompt_test

import (
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt/dotprompt"
)

// Parse reads a Dotprompt file: its front matter as metadata (kept as
// written), and the messages its top-level {{role}} markers describe, their
// text verbatim as Dotprompt's runtimes keep it (line breaks included).
func ExampleParse() {
	src, err := os.ReadFile("../testdata/examples/joke.prompt")
	if err != nil {
		panic(err)
	}
	doc, err := dotprompt.Parse(src)
	if err != nil {
		panic(err)
	}
	fmt.Println(doc.Meta["model"])
	for _, m := range doc.Messages {
		fmt.Printf("%s: %q\n", m.Role, m.Text())
	}
	// Output:
	// googleai/gemini-2.0-flash
	// system: "\nYou are a comedian. Keep it short.\n"
	// user: "\nTell me a joke about cats."
}
