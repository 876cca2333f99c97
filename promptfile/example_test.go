package promptfile_test

import (
	"fmt"
	"os"
	"time"

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
