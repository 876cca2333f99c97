package promptfmt_test

import (
	"encoding/json"
	"fmt"

	"github.com/promptfmt/promptfmt"
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
	err := promptfmt.Errorf("prompty", src, 14, "something is wrong here")
	fmt.Println(err)
	// Output:
	// prompty:3:3: something is wrong here
}
