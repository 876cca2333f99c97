package promptfile_test

import (
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/promptfile"
)

// Fix completes what a file's front matter lacks and leaves the rest as
// written.
func ExampleFix() {
	src := []byte("---\n# from the notebook\nid: P42\n---\n\nDiscard all HTML tags.\n")
	out, changes, err := promptfile.Fix(src,
		promptfile.IDFrom(func() (string, error) { return "P43", nil }), // a Store's NextID, usually
		promptfile.CreatedAt(time.Date(2025, 6, 28, 14, 37, 22, 0, time.UTC)))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range changes {
		fmt.Println(c)
	}
	fmt.Print(string(out))
	// Output:
	// promptfile:3:5: id renamed prompt-id
	// promptfile:1:1: missing created-at set to 2025-06-28T14:37:22Z (now)
	// promptfile:1:1: missing sha1-hash set to the body's hash 2289f89af992dd7c4120707f9ae53c35c201fa52
	// ---
	// # from the notebook
	// prompt-id: "P42"
	// created-at: "2025-06-28T14:37:22Z"
	// sha1-hash: "2289f89af992dd7c4120707f9ae53c35c201fa52"
	// ---
	//
	// Discard all HTML tags.
}

// A Store hands out IDs and writes each new prompt atomically.
func ExampleStore() {
	dir, _ := os.MkdirTemp("", "prompts")
	defer os.RemoveAll(dir)
	store, err := promptfile.OpenStore(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, body := range []string{"Discard all HTML tags.", "Keep the text between HTML tags."} {
		path, err := store.Create(body, map[string]any{"generator": "human"})
		if err != nil {
			fmt.Println(err)
			return
		}
		src, _ := os.ReadFile(path)
		fmt.Println(path[len(dir)+1:], promptfile.Verify(src))
	}
	// Output:
	// P1.prompt <nil>
	// P2.prompt <nil>
}

// Parse reads the front matter into Meta, as strings where the keys are
// mandatory, and the body into the one user message, exactly as hashed.
func ExampleParse() {
	src, err := os.ReadFile("../testdata/examples/discard-html.prompt")
	if err != nil {
		panic(err)
	}
	doc, err := promptfile.Parse(src, promptfmt.File("discard-html.prompt"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, k := range []string{"prompt-id", "created-at", "generator", "ancestors", "model"} {
		fmt.Printf("%s: %v\n", k, doc.Meta[k])
	}
	m := doc.Messages[0]
	fmt.Printf("%s: %q\n", m.Role, m.Text())
	fmt.Println("warnings:", doc.Warnings)
	// Output:
	// prompt-id: P42
	// created-at: 2025-06-28T14:37:22Z
	// generator: human
	// ancestors: [P7 P12]
	// model: gpt-4o-mini
	// user: "Find more precise way to state this instruction:\nDiscard all HTML tags.\n"
	// warnings: []
}

// Write writes a prompt file; the body is never changed, so it must be
// canonical already (LF line breaks, ending with one): otherwise Write
// says so and writes nothing. Canonical gives that form.
func ExampleWrite() {
	body := "Discard all HTML tags."
	doc := &promptfmt.Document{
		Meta: map[string]any{
			"prompt-id":  "P42",
			"created-at": "2025-06-28T14:37:22Z",
			"sha1-hash":  promptfile.Hash(body),
			"generator":  "human",
		},
		Messages: []promptfmt.Message{promptfmt.NewMessage("user", body)},
	}
	fmt.Println(promptfile.Write(os.Stdout, doc))

	doc.Messages[0] = promptfmt.NewMessage("user", promptfile.Canonical(body))
	if err := promptfile.Write(os.Stdout, doc); err != nil {
		fmt.Println(err)
	}
	// Output:
	// promptfile: message 1: text with no line break at its end (a prompt file's body is one text with LF line breaks, ending with one, not blank)
	// ---
	// prompt-id: "P42"
	// created-at: "2025-06-28T14:37:22Z"
	// sha1-hash: "2289f89af992dd7c4120707f9ae53c35c201fa52"
	// generator: human
	// ---
	//
	// Discard all HTML tags.
}

// Verify checks a file's integrity: the mandatory keys, and the body
// against its hash. An edited body no longer matches.
func ExampleVerify() {
	src, err := os.ReadFile("../testdata/examples/discard-html.prompt")
	if err != nil {
		panic(err)
	}
	fmt.Println(promptfile.Verify(src, promptfmt.File("discard-html.prompt")))

	edited := bytes.Replace(src, []byte("Discard all HTML tags."), []byte("Discard all tags."), 1)
	fmt.Println(promptfile.Verify(edited, promptfmt.File("discard-html.prompt")))
	// Output:
	// <nil>
	// discard-html.prompt:4:12: the body does not match its hash: sha1-hash is 3b215be875d3e5c583e1a4bd80a358243b4747b1, the body hashes to 34695cb4e741730651888828627ee0a4c44dfd2b (the body was edited or corrupted)
}

// Hash is the value of sha1-hash: the SHA-1 of the body's canonical form,
// so a body hashes the same with CRLF line breaks or without its last one
// (the third is discard-html.prompt's body, and its sha1-hash).
func ExampleHash() {
	fmt.Println(promptfile.Hash("Discard all HTML tags.\n"))
	fmt.Println(promptfile.Hash("Discard all HTML tags."))
	fmt.Println(promptfile.Hash("Find more precise way to state this instruction:\r\nDiscard all HTML tags.\r\n"))
	// Output:
	// 2289f89af992dd7c4120707f9ae53c35c201fa52
	// 2289f89af992dd7c4120707f9ae53c35c201fa52
	// 3b215be875d3e5c583e1a4bd80a358243b4747b1
}
