package stf_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/stf"
)

func ExampleParse() {
	src := []byte(`;sys
Answer briefly.
;user name=Ross
What is the weather in Paris?
;ai
;call name=weather id=c1
{"city": "Paris"}
;tool call_id=c1
21 °C, clear
`)
	doc, err := stf.Parse(src)
	if err != nil {
		panic(err)
	}
	for _, m := range doc.LLMMessages() {
		fmt.Printf("%s %q %v %v\n", m.Role, m.Name, m.Content, m.Metadata)
	}
	// Output:
	// system "" [{text Answer briefly.     }] map[]
	// user "Ross" [{text What is the weather in Paris?     }] map[]
	// assistant "" [{tool_call {"city": "Paris"}   c1 weather }] map[]
	// tool "" [{text 21 °C, clear     }] map[call_id:c1]
}

func ExampleParse_error() {
	_, err := stf.Parse([]byte(";user\nHello\n;usr\n"), promptfmt.File("chat.stf"))
	var pe *promptfmt.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.Line, pe.Col)
	}
	fmt.Println(err)
	// Output:
	// 3 2
	// chat.stf:3:2: unknown command "usr" (known: user, assistant/ai, system/sys, developer/dev, tool, message/msg, raw, extra, meta, flush, end, call, embed)
}

func ExampleDefaultRole() {
	doc, err := stf.Parse([]byte("Hello\n;ai\nHi\n"), stf.DefaultRole("user"))
	if err != nil {
		panic(err)
	}
	for _, m := range doc.Messages {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}
	// Output:
	// user: Hello
	// assistant: Hi
}

func ExampleWrite() {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		promptfmt.NewMessage("system", "Be brief."),
		{Role: "user", Name: "John Doe", Content: []promptfmt.ContentPart{
			promptfmt.Text(";-) hi"),
			{Kind: promptfmt.KindImage, Value: "https://example.com/cat.png", MediaType: "image/png"},
		}, Metadata: map[string]any{"ticket": "T-1", "turn": int64(3)}},
	}}
	if err := stf.Write(os.Stdout, doc); err != nil {
		panic(err)
	}
	// Output:
	// ;sys
	// Be brief.
	// ;user name="John Doe" ticket=T-1
	// ;;-) hi
	// ;embed kind=image type=image/png
	// https://example.com/cat.png
	// ;extra
	// {
	//   turn: 3,
	// }
	// ;end
}

// Parse keeps a file's comments in the Document, each where it stood, and
// Write puts them back: support.stf, with its ;# lines, a block comment
// and ;meta and ;extra blocks as written, comes back byte for byte.
func ExampleWrite_comments() {
	src, err := os.ReadFile("../testdata/examples/support.stf")
	if err != nil {
		panic(err)
	}
	doc, err := stf.Parse(src, promptfmt.File("support.stf"))
	if err != nil {
		panic(err)
	}
	for _, c := range doc.Comments {
		fmt.Printf("line %d: %q\n", c.Line, c.Text)
	}
	var out bytes.Buffer
	if err := stf.Write(&out, doc); err != nil {
		panic(err)
	}
	fmt.Println(bytes.Equal(out.Bytes(), src))
	// Output:
	// line 1: ";# A support conversation in STF, the Simple Text Format."
	// line 2: ";# Try: go run ./cmd/promptfmt messages testdata/examples/support.stf"
	// line 22: ";/*\nNotes for the next editor: everything in a block comment is ignored,\n;user lines included.\n;*/"
	// true
}

// A parser sees bytes, not files: promptfmt.File names the file, and its
// errors then read file:line:col, the Go way, which editors jump to. Here
// support.stf gains a block comment it never closes.
func ExampleParse_file() {
	name := "../testdata/examples/support.stf"
	src, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	src = append(src, ";/* a note never closed\n"...)
	_, err = stf.Parse(src, promptfmt.File(name))
	fmt.Println(err)
	// Output:
	// ../testdata/examples/support.stf:40:1: block comment /* is never closed with ;*/
}
