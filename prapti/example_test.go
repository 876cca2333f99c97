package prapti_test

import (
	"fmt"
	"log"

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
