package prompty

import (
	"io"
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
