package promptfmt_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/promptfile"
	"github.com/promptfmt/promptfmt/prompty"
	"github.com/promptfmt/promptfmt/stf"
)

func ExampleDocument_LLMMessages() {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		promptfmt.NewMessage("_head", "configuration the model never sees"),
		promptfmt.NewMessage("system", "Be brief."),
		{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("an old draft")}, Disabled: true},
		{Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{promptfmt.Text("Hi")}},
	}}
	out, _ := json.Marshal(doc.LLMMessages())
	fmt.Println(string(out))
	// Output:
	// [{"role":"system","content":[{"kind":"text","value":"Be brief."}]},{"role":"user","name":"Ross","content":[{"kind":"text","value":"Hi"}]}]
}

func ExampleErrorf() {
	src := []byte("user:\nhello\n  bad line")
	err := diag.Errorf("prompty", src, 14, "something is wrong here")
	fmt.Println(err)
	// Output:
	// prompty:3:3: something is wrong here
}

// Adapt is lossy conversion: here a conversation with a name and an image
// is fitted to a prompt file, which holds one user message of text.
func ExampleAdapt() {
	src := []byte(";sys\nBe brief.\n;user name=Ross\nWhat is in this picture?\n;embed kind=image type=image/png\naGk=\n")
	doc, err := stf.Parse(src)
	if err != nil {
		panic(err)
	}
	fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error {
		return promptfile.Write(io.Discard, d)
	})
	if err != nil {
		panic(err)
	}
	for _, c := range changes {
		fmt.Println(c.Done)
	}
	fmt.Printf("%q\n", fitted.Messages[0].Text())
	// Output:
	// changed the role "system" to "user"
	// added a line break at the end of its text
	// dropped part 2 (image, image/png, 4 bytes)
	// dropped the name "Ross"
	// added a line break at the end of its text
	// joined messages 1 to 2 into one, separated by blank lines
	// "Be brief.\n\nWhat is in this picture?\n"
}

// Locate points a writer's refusal at the line of the file the thing was
// read from, instead of the line of its message: here an STF message's
// metadata, which a prompt file cannot hold.
func ExampleLocate() {
	src := []byte(";user\nMy ticket is attached.\n\n;extra\n{ticket: 'T-7'}\n;end\n")
	doc, err := stf.Parse(src, promptfmt.File("chat.stf"))
	if err != nil {
		panic(err)
	}
	err = promptfile.Write(io.Discard, doc)
	fmt.Println(err)
	promptfmt.Locate(doc, err)
	fmt.Println(err)
	// Output:
	// promptfile: message 1 (line 1): message metadata (put it in the front matter)
	// promptfile: message 1 (line 4): message metadata (put it in the front matter)
}

// Equal compares what two documents say, not how their files lay it out:
// the same conversation read from STF and from Prompty is equal.
func ExampleEqual() {
	a, err := stf.Parse([]byte(";sys\nBe brief.\n;user name=Ross\nHi\n"))
	if err != nil {
		panic(err)
	}
	b, err := prompty.Parse([]byte("system:\nBe brief.\n\nuser[name=\"Ross\"]:\nHi\n"))
	if err != nil {
		panic(err)
	}
	fmt.Println(promptfmt.Equal(a, b))
	b.Messages[1].Name = "Rachel"
	fmt.Println(promptfmt.Equal(a, b))
	// Output:
	// true
	// false
}

// ApplyOptions sorts the options a format's function is given: this
// package's (File here) set Settings, the format's own set its target, and
// an option of another format is an error naming it, never ignored.
func ExampleApplyOptions() {
	var s promptfmt.Settings
	var own struct{ role string }
	err := promptfmt.ApplyOptions("prompty", &s, &own, []promptfmt.Option{
		promptfmt.File("chat.prompty"),
		stf.DefaultRole("user"),
	})
	fmt.Println(s.File)
	fmt.Println(err)
	// Output:
	// chat.prompty
	// stf.DefaultRole is an option of stf, not of prompty
}

// File names the file a parser reads (it sees only bytes): its errors and
// warnings then start with the name, as Go's own tools print a position.
func ExampleFile() {
	_, err := promptfile.Parse([]byte("---\nprompt-id: P1\n\nDiscard all HTML tags.\n"), promptfmt.File("prompts/P1.prompt"))
	fmt.Println(err)
	var pe *promptfmt.ParseError
	if errors.As(err, &pe) {
		fmt.Println(pe.File, pe.Line, pe.Col)
	}
	// Output:
	// prompts/P1.prompt:1:1: front matter opened here is never closed with a --- line (without it the YAML would be hashed as the body)
	// prompts/P1.prompt 1 1
}
