package promptfile

import (
	"os"
	"testing"

	"github.com/promptfmt/promptfmt/internal/formattest"
)

// A typical prompt file: the example, about half a kilobyte.
func typical(b *testing.B) []byte {
	src, err := os.ReadFile("../testdata/examples/discard-html.prompt")
	if err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkLineSplit is the baseline: finding the lines of the same file.
func BenchmarkLineSplit(b *testing.B) { formattest.BenchLineSplit(b, typical(b)) }

func BenchmarkParse(b *testing.B) { thisFormat.BenchParse(b, typical(b)) }

func BenchmarkVerify(b *testing.B) {
	src := typical(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if err := Verify(src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseLarge is the shared corpus's text as one body.
func BenchmarkParseLarge(b *testing.B) {
	doc := corpusAsBody()
	src := thisFormat.RoundTrip(b, doc)
	thisFormat.BenchParse(b, src)
}

// BenchmarkWriteLarge writes the shared corpus's text as one body.
func BenchmarkWriteLarge(b *testing.B) { thisFormat.BenchWrite(b, corpusAsBody()) }
