package prompty

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// thisFormat is this package for the shared checks and benchmarks.
var thisFormat = formattest.Format{
	Parse: func(b []byte) (*promptfmt.Document, error) { return Parse(b) },
	Write: func(w io.Writer, d *promptfmt.Document) error { return Write(w, d) },
}

// BenchmarkFormat: the line-split baseline, Parse, Parse of CRLF text and
// Write, on the shared conversation.
func BenchmarkFormat(b *testing.B) { thisFormat.Bench(b) }

// BenchmarkAdversarial parses the ReDoS-style inputs of upstream issue #446.
func BenchmarkAdversarial(b *testing.B) {
	inputs := adversarialInputs()
	n := 0
	for _, s := range inputs {
		n += len(s)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range inputs {
			if _, err := Parse([]byte(s)); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkPrepare prepares the example chat.prompty with a 200-message
// thread: Load, Render alone, and Prepare (render, strict parse, thread
// expansion), beside the baseline of parsing the same rendered text.
func BenchmarkPrepare(b *testing.B) {
	src, err := os.ReadFile("../testdata/examples/chat.prompty")
	if err != nil {
		b.Fatal(err)
	}
	thread := make([]any, 200)
	size := 0
	for i := range thread {
		role := []string{"user", "assistant"}[i%2]
		text := strings.Repeat("Message "+strconv.Itoa(i)+" of the conversation so far. ", 4)
		thread[i] = map[string]any{"role": role, "content": text}
		size += len(text)
	}
	inputs := map[string]any{"customer": "Ross", "question": "Can I swap the router?",
		"order": map[string]any{"id": "A-1042", "status": "shipped", "items": []any{
			map[string]any{"name": "Wi-Fi router", "qty": int64(1)}, map[string]any{"name": "Ethernet cable", "qty": int64(2)}}},
		"history": thread}
	a, err := Load(src)
	if err != nil {
		b.Fatal(err)
	}
	rendered, n, err := renderN(a, inputs)
	if err != nil {
		b.Fatal(err)
	}
	run := func(name string, bytes int, f func() error) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(bytes))
			b.ReportAllocs()
			for b.Loop() {
				if err := f(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	run("Load", len(src), func() error { _, err := Load(src); return err })
	run("Render", len(src), func() error { _, _, err := renderN(a, inputs); return err })
	threadMsgs, err := threadMessages(thread)
	if err != nil {
		b.Fatal(err)
	}
	var ph string
	for k := range n.rich {
		ph = k
	}
	run("ParseRenderedBaseline", len(rendered)+size, func() error {
		_, err := Parse([]byte(rendered), Strict(n.render), Threads(map[string][]promptfmt.Message{ph: threadMsgs}))
		return err
	})
	run("Prepare", len(src)+size, func() error {
		msgs, err := Prepare(a, inputs)
		if err == nil && len(msgs) != 202 {
			err = fmt.Errorf("%d messages", len(msgs))
		}
		return err
	})
}

// BenchmarkSettings parses and writes back a file with every setting
// (testdata/canonical/settings.prompty): the front matter's homes taken
// into the Request and put back, the property lists compiled both ways.
func BenchmarkSettings(b *testing.B) {
	thisFormat.BenchReadWrite(b, canonicalFiles(b)["settings.prompty"])
}

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { thisFormat.BenchShapes(b) }

// A file of short messages costs a bounded number of allocations, not
// some for each message.
func TestParseAllocs(t *testing.T) { thisFormat.CheckAllocs(t, 16) }

// TestWriteAllocs: writing short messages allocates per 512 messages, not per message.
func TestWriteAllocs(t *testing.T) { thisFormat.CheckWriteAllocs(t, 16) }
