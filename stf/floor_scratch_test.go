package stf

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
)

func shortSrc(b *testing.B) []byte {
	var buf bytes.Buffer
	if err := Write(&buf, corpus.Short(8<<20)); err != nil {
		b.Fatal(err)
	}
	return buf.Bytes()
}

func BenchmarkFloor(b *testing.B) {
	src := shortSrc(b)
	b.Run("LineSplit", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			corpus.CountLines(src)
		}
	})
	b.Run("UTF8", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			utf8.Valid(src)
		}
	})
	b.Run("Copy", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			_ = string(src)
		}
	})
	n := bytes.Count(src, []byte(";"))
	b.Run("Alloc", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			m := make([]promptfmt.Message, n)
			p := make([]promptfmt.ContentPart, n)
			_, _ = m, p
		}
	})
	b.Run("Model", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			s := string(src)
			ms := make([]promptfmt.Message, n)
			ps := make([]promptfmt.ContentPart, n)
			k := 0
			line := 1
			for pos := 0; pos < len(s); {
				i := strings.IndexByte(s[pos:], '\n')
				if i < 0 {
					break
				}
				if s[pos] == ';' {
					m := &ms[k]
					m.Role = "user"
					m.Line = line
					ps[k].Kind = promptfmt.KindText
					m.Content = ps[k : k+1 : k+1]
				} else if k < n {
					ps[k].Value = s[pos : pos+i]
					k++
				}
				line++
				pos += i + 1
			}
		}
	})
}

func BenchmarkPieces(b *testing.B) {
	src := shortSrc(b)
	s := string(src)
	b.Run("IndexCR", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			strings.IndexByte(s, '\r')
		}
	})
	b.Run("CountSemi", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			strings.Count(s, ";")
		}
	})
	b.Run("ScanSemi", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			line, n := 1, 0
			for pos := 0; pos < len(s); {
				i := strings.IndexByte(s[pos+1:], ';')
				if i < 0 {
					break
				}
				i += pos + 1
				line += strings.Count(s[pos:i], "\n")
				j := strings.IndexByte(s[i:], '\n')
				n += j
				pos = i
			}
			_ = line
		}
	})
	b.Run("ScanLines", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		for b.Loop() {
			line, n := 1, 0
			for pos := 0; pos < len(s); {
				i := strings.IndexByte(s[pos:], '\n')
				if i < 0 {
					break
				}
				if s[pos] == ';' {
					n++
				}
				line++
				pos += i + 1
			}
			_ = line
		}
	})
}

var keep *promptfmt.Document

func BenchmarkHarness(b *testing.B) {
	src := shortSrc(b)
	b.Run("ParseFree", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			Parse(src)
		}
	})
	keep = corpus.Short(8 << 20)
	b.Run("ParseKept", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			Parse(src)
		}
	})
	keep = nil
}
