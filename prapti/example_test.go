package prapti_test

import (
	"fmt"
	"log"
	"os"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/prapti"
)

func ExampleParse() {
	src := []byte("% model = \"gpt-4o\"\n\n### @user/Ross:\n\n% temperature = 0.2\nWhat does this print?\n\n```\n% not configuration\n```\n")
	doc, err := prapti.Parse(src)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range doc.LLMMessages() {
		fmt.Printf("%s/%s: %q\n", m.Role, m.Name, m.Text())
	}
	for _, a := range prapti.Assignments(doc) {
		fmt.Printf("line %d: %s = %v\n", a.Line, a.Name, a.Value)
	}
	// Output:
	// user/Ross: "What does this print?\n\n```\n% not configuration\n```"
	// line 1: model = gpt-4o
	// line 5: temperature = 0.2
}

func ExampleAppend() {
	file := []byte("### @user/Ross:\n\nHello\n")
	reply := promptfmt.NewMessage("assistant", "  Hi, Ross.\n")
	out, err := prapti.Append(file, []promptfmt.Message{reply, prapti.NextPrompt(file)}, promptfmt.File("chat.md"))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s", out)
	// Output:
	// ### @user/Ross:
	//
	// Hello
	//
	// ### @assistant:
	//
	// Hi, Ross.
	//
	// ### @user/Ross:
}

// Write writes a Document as Prapti markdown: a heading for each message,
// a backslash before a text line that would read as a heading or a
// configuration line.
func ExampleWrite() {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		promptfmt.NewMessage("system", "You are a terse reviewer."),
		{Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{
			promptfmt.Text("Is this line a heading?\n### @assistant:\n% or configuration?"),
		}},
	}}
	if err := prapti.Write(os.Stdout, doc); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ### @system:
	//
	// You are a terse reviewer.
	//
	// ### @user/Ross:
	//
	// Is this line a heading?
	// \### @assistant:
	// \% or configuration?
}

// Which model does a file ask for? Assignments are the configuration
// lines in effect, in order; the last one naming model wins. Lines in code
// blocks and disabled messages are not among them; a line in a block quote
// (line 32 here) is.
func ExampleAssignments() {
	src, err := os.ReadFile("../testdata/examples/review.md")
	if err != nil {
		log.Fatal(err)
	}
	doc, err := prapti.Parse(src, promptfmt.File("review.md"))
	if err != nil {
		log.Fatal(err)
	}
	model := ""
	for _, a := range prapti.Assignments(doc) {
		fmt.Printf("review.md:%d: %s = %v\n", a.Line, a.Name, a.Value)
		if a.Name == "model" {
			model = a.Value.(string)
		}
	}
	fmt.Println("model:", model)
	// Output:
	// review.md:3: model = gpt-4o
	// review.md:4: temperature = 0.2
	// review.md:16: responders.default.max_tokens = 400
	// review.md:32: temperature = 0
	// model: gpt-4o
}

// Config gives one message's configuration lines, each with its source
// line and whether it is in effect ("//%" disables one; "% !" makes it run
// only in the file's last message); the text holds none of them.
func ExampleConfig() {
	src := []byte("### @user/Ross:\n\n% temperature = 0.2\n//% model = \"gpt-4o\"\nHi\n% !max_tokens = 100\n")
	doc, err := prapti.Parse(src)
	if err != nil {
		log.Fatal(err)
	}
	lines, err := prapti.Config(&doc.Messages[0])
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range lines {
		fmt.Printf("line %d: %q enabled=%v exclusive=%v %s=%v\n", c.Line, c.Source, c.Enabled, c.Exclusive, c.Name, c.Value)
	}
	fmt.Printf("%q\n", doc.Messages[0].Text())
	// Output:
	// line 3: "% temperature = 0.2" enabled=true exclusive=false temperature=0.2
	// line 4: "//% model = \"gpt-4o\"" enabled=false exclusive=false model=gpt-4o
	// line 6: "% !max_tokens = 100" enabled=true exclusive=true max_tokens=100
	// "Hi"
}
