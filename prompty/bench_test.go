package prompty

import (
	"bytes"
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

// BenchmarkLineSplit is the baseline: finding the lines of the same input.
func BenchmarkLineSplit(b *testing.B) { formattest.BenchLineSplit(b, thisFormat.BenchInput(b)) }

func BenchmarkParse(b *testing.B) { thisFormat.BenchParse(b, thisFormat.BenchInput(b)) }

func BenchmarkParseCRLF(b *testing.B) {
	thisFormat.BenchParse(b, bytes.ReplaceAll(thisFormat.BenchInput(b), []byte("\n"), []byte("\r\n")))
}

func BenchmarkWrite(b *testing.B) { thisFormat.BenchWrite(b) }

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
