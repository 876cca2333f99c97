package stf

import (
	"io"
	"os"
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

// BenchmarkSettings parses and writes back a file with every setting in
// ;meta (testdata/canonical/settings.stf).
func BenchmarkSettings(b *testing.B) {
	src, err := os.ReadFile("testdata/canonical/settings.stf")
	if err != nil {
		b.Fatal(err)
	}
	thisFormat.BenchReadWrite(b, src)
}

// BenchmarkShapes: the line-split baseline, Parse and Write on 8 MB of
// one-line messages (Short) and of 4 KB messages (Long).
func BenchmarkShapes(b *testing.B) { thisFormat.BenchShapes(b) }

// BenchmarkFloorVariants: the floor of 8 MB of short messages with a
// smaller model, without the copy, and with both (README, Speed).
func BenchmarkFloorVariants(b *testing.B) { thisFormat.BenchFloorVariants(b) }

// A file of short messages costs a bounded number of allocations, not
// some for each message.
func TestParseAllocs(t *testing.T) { thisFormat.CheckAllocs(t, 16) }

// TestWriteAllocs: writing short messages allocates per 512 messages, not per message.
func TestWriteAllocs(t *testing.T) { thisFormat.CheckWriteAllocs(t, 16) }
