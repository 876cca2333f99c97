package stf

import (
	"bytes"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/corpus"
)

// benchInput is a multi-megabyte conversation in canonical STF.
func benchInput(b *testing.B) []byte {
	var buf bytes.Buffer
	if err := Write(&buf, corpus.Conversation(4<<20)); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

// BenchmarkLineSplit is the baseline: finding the lines of the same input.
func BenchmarkLineSplit(b *testing.B) {
	src := benchInput(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		corpus.CountLines(src)
	}
}

func BenchmarkParse(b *testing.B) { benchParse(b, benchInput(b)) }

func BenchmarkParseCRLF(b *testing.B) {
	benchParse(b, bytes.ReplaceAll(benchInput(b), []byte("\n"), []byte("\r\n")))
}

// BenchmarkParseTiny is a million two-line messages: the per-message cost.
func BenchmarkParseTiny(b *testing.B) {
	benchParse(b, []byte(strings.Repeat(";user\nx\n", 1_000_000)))
}

// BenchmarkParseNestedComments is 100,000 nested block comments.
func BenchmarkParseNestedComments(b *testing.B) {
	n := strings.Repeat(";/*\n", 100_000)
	benchParse(b, []byte(n+strings.Repeat("x\n", 100_000)+strings.Replace(n, "/*", "*/", -1)))
}

// BenchmarkParseLongLine is one 10 MB data line.
func BenchmarkParseLongLine(b *testing.B) {
	benchParse(b, []byte(";user\n"+strings.Repeat("a;b ", 10<<20/4)))
}

func benchParse(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(src); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkWrite(b *testing.B) {
	doc := corpus.Conversation(4 << 20)
	var buf bytes.Buffer
	if err := Write(&buf, doc); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ReportAllocs()
	for b.Loop() {
		buf.Reset()
		if err := Write(&buf, doc); err != nil {
			b.Fatal(err)
		}
	}
}
