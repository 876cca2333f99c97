package provider_test

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/provider"
)

// Reading a fine-tuning file record by record: a bad record has its
// problems at FILE:LINE:COL, and the reading goes on.
func ExampleDataset_NewReader() {
	file := `{"messages": [{"role": "user", "content": "Capital of France?"}, {"role": "assistant", "content": "Paris", "weight": 1}]}
{"messages": [{"content": "no role"}]}

{"messages": [{"role": "user", "content": "And of Italy?"}, {"role": "assistant", "content": "Rome"}]}
`
	r := provider.OpenAIJSONL.NewReader(strings.NewReader(file), promptfmt.File("train.jsonl"))
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err) // the reading failed: it ends
			return
		}
		if rec.Err != nil {
			fmt.Println(rec.Err)
			continue
		}
		last := rec.Doc.Messages[len(rec.Doc.Messages)-1]
		fmt.Printf("line %d: %d messages, the answer %q %v\n", rec.Line, len(rec.Doc.Messages), last.Text(), last.Metadata)
	}
	// Output:
	// line 1: 2 messages, the answer "Paris" map[weight:1]
	// train.jsonl:2:15: a message without a role
	// line 4: 2 messages, the answer "Rome" map[]
}

// Writing documents as the requests of a batch.
func ExampleDataset_NewWriter() {
	w := provider.OpenAIBatch.NewWriter(os.Stdout)
	for i, question := range []string{"Capital of France?", "Capital of Italy?"} {
		doc := &promptfmt.Document{
			Request:  promptfmt.Request{Model: "gpt-4o-mini"},
			Messages: []promptfmt.Message{promptfmt.NewMessage("user", question)},
		}
		if err := w.Write(provider.Record{ID: fmt.Sprintf("request-%d", i+1), Doc: doc}); err != nil {
			fmt.Println(err)
		}
	}
	// Output:
	// {"custom_id":"request-1","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Capital of France?"}]}}
	// {"custom_id":"request-2","method":"POST","url":"/v1/chat/completions","body":{"model":"gpt-4o-mini","messages":[{"role":"user","content":"Capital of Italy?"}]}}
}
