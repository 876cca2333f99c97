package prompty

import (
	"bytes"
	"testing"

	"github.com/promptfmt/promptfmt/internal/corpus"
)

// benchInput is a multi-megabyte conversation in canonical Prompty form.
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
