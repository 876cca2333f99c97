package pdl_test

import (
	"context"
	"fmt"
	"os"
	"strings"

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
