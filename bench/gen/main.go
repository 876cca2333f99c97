// Command gen writes the large inputs that the memory and throughput
// figures of the README are measured on: the shared benchmark corpus
// (internal/corpus) in one format's syntax, at about the size asked for.
// The files are made, never committed:
//
//	go run ./bench/gen -f stf -shape short -size 32 -o /tmp/short32.stf
//
// Shapes: short (one-line messages of ~120 bytes), long (~4 KB messages),
// mixed (the conversation every BenchmarkFormat parses: names, metadata,
// markdown). A prompt file holds one message: the shape's texts as its body.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/formats"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/promptfile"
)

func main() {
	format := flag.String("f", "stf", "format: "+strings.Join(formats.Names(), ", "))
	shape := flag.String("shape", "short", "short, long or mixed")
	size := flag.Int("size", 32, "size of the file in MB (MiB)")
	out := flag.String("o", "", "output file (default: standard output)")
	flag.Parse()
	if err := run(*format, *shape, *size<<20, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(format, shape string, size int, out string) error {
	f, err := formats.ByName(format)
	if err != nil {
		return err
	}
	write := func(text int) ([]byte, error) {
		doc, err := document(format, shape, text)
		if err != nil {
			return nil, err
		}
		var b bytes.Buffer
		if err := f.Write(&b, doc); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	}
	// The syntax adds a share of its own: measure it on 1 MB of text, then
	// ask for as much text as makes size bytes of file.
	sample, err := write(1 << 20)
	if err != nil {
		return err
	}
	src, err := write(int(float64(size) * float64(1<<20) / float64(len(sample))))
	if err != nil {
		return err
	}
	if out == "" {
		_, err = os.Stdout.Write(src)
		return err
	}
	return os.WriteFile(out, src, 0o644)
}

// document is the shape's conversation of text bytes of text, fitted to
// what the format holds.
func document(format, shape string, text int) (*promptfmt.Document, error) {
	var doc *promptfmt.Document
	switch shape {
	case "short":
		doc = corpus.Short(text)
	case "long":
		doc = corpus.Long(text)
	case "mixed":
		doc = corpus.Conversation(text)
	default:
		return nil, fmt.Errorf("unknown shape %q (want short, long or mixed)", shape)
	}
	switch format {
	case "promptfile": // one body: the texts, a line each
		var b strings.Builder
		for _, m := range doc.Messages {
			b.WriteString(m.Text())
			b.WriteByte('\n')
		}
		body := b.String()
		return &promptfmt.Document{
			Meta:     map[string]any{promptfile.KeyID: "P1", promptfile.KeyCreated: "2025-06-28T14:37:22Z", promptfile.KeyHash: promptfile.Hash(body)},
			Messages: []promptfmt.Message{promptfmt.NewMessage("user", body)},
		}, nil
	case "pdl", "dotprompt": // no names or metadata; PDL ends with the user
		for i := range doc.Messages {
			doc.Messages[i].Name, doc.Messages[i].Metadata = "", nil
		}
		if n := len(doc.Messages); format == "pdl" && doc.Messages[n-1].Role == "assistant" {
			doc.Messages = doc.Messages[:n-1]
		}
	case "prapti": // Prapti keeps metadata as configuration lines: none here
		for i := range doc.Messages {
			doc.Messages[i].Metadata = nil
		}
	}
	return doc, nil
}
