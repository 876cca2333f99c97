package pdl_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing/fstest"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/pdl"
)

// A PDL file renders with its inputs, splits into turns, and brings a
// schema that checks the model's answer.
func ExampleLoad() {
	src := `<|schema|>

[int { min: 1, max: {{ docs | length }} }]

<|user|>

Which documents are about {{ topic }}? Answer with their numbers.
{% for d in docs %}
{{ loop.index }}. {{ d }}
{%- endfor %}

<|assistant|>
`
	p, err := pdl.Load([]byte(src), pdl.Inputs(map[string]any{
		"topic": "food",
		"docs":  []any{"Rust manual", "Apple pie <|recipe|>", "Healthy food"},
	}))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range p.Document.LLMMessages() {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}
	fmt.Println("schema:", p.Schema)

	// The model's answer is checked; a wrong one gets upstream's message.
	v, err := p.Schema.Extract("Documents 2 and 3: [2, 3]")
	fmt.Println(v, err)
	_, err = p.Schema.Extract("[2, 5]")
	fmt.Println(err)
	// Output:
	// user: Which documents are about food? Answer with their numbers.
	//
	// 1. Rust manual
	// 2. Apple pie <|recipe|>
	// 3. Healthy food
	// schema: [int { min: 1, max: 3 }]
	// [2 3] <nil>
	// The second value of your output is too big. Make sure that the value is at most 3.
}

// The images a file names are read through an fs.FS (os.DirFS(dir), an
// embed.FS, or here a map): with LoadFile relative to the file's
// directory, and never out of the file system.
func ExampleLoadFile() {
	fsys := fstest.MapFS{
		"prompts/describe.pdl": {Data: []byte("<|user|>\n\nWhat is in this picture?\n<|media(../images/cat.png)|>\n")},
		"images/cat.png":       {Data: []byte("\x89PNG\r\n\x1a\n")},
	}
	p, err := pdl.LoadFile(fsys, "prompts/describe.pdl")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, part := range p.Document.Messages[0].Content {
		fmt.Printf("%s %s %q\n", part.Kind, part.MediaType, part.Value)
	}

	// Load reads the names from the file system's root; this one climbs
	// out of it.
	_, err = pdl.Load([]byte("<|user|>\n<|media(../cat.png)|>"), promptfmt.FS(fsys), promptfmt.File("inline.pdl"))
	fmt.Println(err)
	// Output:
	// text  "What is in this picture?\n"
	// image image/png "iVBORw0KGgo="
	// inline.pdl:2:1: media(../cat.png): ../cat.png: path is outside allowed roots (the base directory)
}

// Write turns a conversation into canonical PDL; text that would read as
// PDL syntax is escaped.
func ExampleWrite() {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		promptfmt.NewMessage("system", "Answer in one line."),
		promptfmt.NewMessage("user", "What does <|user|> mean in {{ PDL }}?"),
	}}
	if err := pdl.Write(os.Stdout, doc); err != nil {
		fmt.Println(err)
	}
	// Output:
	// <|system|>
	//
	// Answer in one line.
	//
	// <|user|>
	//
	// {% raw %}What does &lt;|user|> mean in {{ PDL }}?{% endraw %}
}

// The retry loop, with a scripted model: the first answer does not fit,
// the second does.
func ExampleLoad_retry() {
	p, _ := pdl.Load([]byte("<|schema|>\n{ name: str, age: int }\n<|user|>\nWho is he? Ragit, 26."))
	answers := []string{`{"name": "ragit"}`, `{"name": "ragit", "age": 26}`}
	model := func(_ context.Context, msgs []promptfmt.Message) (string, error) {
		a := answers[0]
		answers = answers[1:]
		return a, nil
	}
	res, err := p.Schema.Ask(context.Background(), p.Document.LLMMessages(), model)
	fmt.Println(res.Value, res.Tries, res.Defaulted, err)
	for _, m := range res.Messages[1:] {
		fmt.Printf("%s: %s\n", m.Role, strings.TrimSpace(m.Text()))
	}
	// Output:
	// map[age:26 name:ragit] 2 false <nil>
	// assistant: {"name": "ragit"}
	// user: Your output is missing a field: age. Make sure that your output contains 2 keys: name, age
	// assistant: {"name": "ragit", "age": 26}
}

// A file without template syntax is read as it is written: split into
// turns, with "&lt;" written for a "<" that would start a token.
func ExampleParse() {
	src := []byte("<|system|>\n\nAnswer in one line.\n\n<|user|>\n\nWhat does &lt;|user|&gt; mean in PDL?\n\n<|assistant|>\n")
	doc, err := pdl.Parse(src, promptfmt.File("ask.pdl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range doc.LLMMessages() {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}
	// Output:
	// system: Answer in one line.
	// user: What does <|user|> mean in PDL?
}

// Render is the template step alone: the text a file renders to with its
// Inputs, before it is split into turns. An input's "<|" and "&" are
// escaped, so a value never makes a turn.
func ExampleRender() {
	src, err := os.ReadFile("../testdata/examples/pick.pdl")
	if err != nil {
		panic(err)
	}
	raw, err := os.ReadFile("../testdata/examples/pick.json")
	if err != nil {
		panic(err)
	}
	var inputs map[string]any
	if err := json.Unmarshal(raw, &inputs); err != nil {
		panic(err)
	}
	text, err := pdl.Render(src, pdl.Inputs(inputs), promptfmt.File("pick.pdl"))
	if err != nil {
		fmt.Println(err)
		return
	}
	// Numbered, so that blank lines show.
	for i, line := range strings.Split(text, "\n") {
		fmt.Println(strings.TrimRight(fmt.Sprintf("%2d %s", i+1, line), " "))
	}
	// Output:
	//  1
	//  2 <|schema|>
	//  3
	//  4 [int { min: 1, max: 3 }] { max: 3 }
	//  5
	//  6 <|system|>
	//  7
	//  8 You pick the documents that help answer a question about last night's incident.
	//  9 Answer with a JSON array of their numbers, at most 3, best first.
	// 10
	// 11 <|user|>
	// 12
	// 13 The question: Why did the rollout stall at 40%?
	// 14
	// 15 1. Deployment runbook: How canary pods are promoted &amp; rolled back.
	// 16 2. Cache client 2.4 notes: The client refuses to start without CACHE_URL.
	// 17 3. Lunch menu: Soup &lt;|of the day|&gt; and bread.
	// 18
	// 19
	// 20 The latency chart from last night:
	// 21
	// 22 <|media(chart.png)|>
	// 23
	// 24 <|assistant|>
}

// Check reads a file as far as it can without inputs: a template has its
// syntax checked (its turns depend on the inputs), so a mistake is found
// before any value is at hand.
func ExampleCheck() {
	src, err := os.ReadFile("../testdata/examples/pick.pdl")
	if err != nil {
		panic(err)
	}
	_, err = pdl.Check(src, promptfmt.File("pick.pdl"))
	fmt.Println(err)

	_, err = pdl.Check([]byte("<|user|>\n{% for d in documents %}\n{{ d }}\n"), promptfmt.File("broken.pdl"))
	fmt.Println(err)
	// Output:
	// <nil>
	// broken.pdl:3:8: template: Unexpected EOF, expected tag else or endfor.
}
