package stf

import (
	"bytes"
	"io"
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

// BenchmarkLineSplit is the baseline: finding the lines of the same input.
func BenchmarkLineSplit(b *testing.B) { formattest.BenchLineSplit(b, thisFormat.BenchInput(b)) }

func BenchmarkParse(b *testing.B) { thisFormat.BenchParse(b, thisFormat.BenchInput(b)) }

func BenchmarkParseCRLF(b *testing.B) {
	thisFormat.BenchParse(b, bytes.ReplaceAll(thisFormat.BenchInput(b), []byte("\n"), []byte("\r\n")))
}

func BenchmarkWrite(b *testing.B) { thisFormat.BenchWrite(b) }

// BenchmarkParseTiny is a million two-line messages: the per-message cost.
func BenchmarkParseTiny(b *testing.B) {
	thisFormat.BenchParse(b, []byte(strings.Repeat(";user\nx\n", 1_000_000)))
}

// BenchmarkParseNestedComments is 100,000 nested block comments.
func BenchmarkParseNestedComments(b *testing.B) {
	n := strings.Repeat(";/*\n", 100_000)
	thisFormat.BenchParse(b, []byte(n+strings.Repeat("x\n", 100_000)+strings.ReplaceAll(n, "/*", "*/")))
}

// BenchmarkParseLongLine is one 10 MB data line.
func BenchmarkParseLongLine(b *testing.B) {
	thisFormat.BenchParse(b, []byte(";user\n"+strings.Repeat("a;b ", 10<<20/4)))
}
