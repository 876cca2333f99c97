package promptfmt_test

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/promptfile"
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
