package formattest

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/slab"
)

// BenchCopySplit is the floor without the model: one copy of src, its
// UTF-8 check and one pass finding every line, no message made. What a
// parse that keeps texts as substrings of one copy cannot go below
// whatever its model.
func BenchCopySplit(b *testing.B, src []byte) {
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := string(src)
		if !utf8.ValidString(s) {
			b.Fatal("invalid UTF-8")
		}
		n := 0
		for pos := 0; pos < len(s); n++ {
			i := strings.IndexByte(s[pos:], '\n')
			if i < 0 {
				break
			}
			pos += i + 1
		}
		runtime.KeepAlive(n)
	}
}

// BenchFloor is what a minimal parse of src, a file of n messages of one
// text part each, into the model costs: one pass that finds the lines,
// one copy of the source (texts are cut from it), its UTF-8 check, and n
// messages (in one list) and n parts (from internal/slab's arrays)
// allocated and written as the lines go by. A parser's share of the line
// split can pass the floor's only by finding fewer lines than all.
func BenchFloor(b *testing.B, src []byte, n int) {
	per := max(corpus.CountLines(src)/max(n, 1), 1) // lines a message
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		s := string(src)
		if !utf8.ValidString(s) {
			b.Fatal("invalid UTF-8")
		}
		runtime.KeepAlive(floor(s, n, per))
	}
}

// BenchFloorVariants measures what the floor of a file of short
// messages would be with another model or API, the figures behind the
// README's decision to keep both: Floor as BenchFloor; NoCopy with texts
// cut from src itself (a parse that took ownership of the caller's
// bytes); Compact with a 40-byte message of role, text and line in place
// of a Message and a ContentPart; CompactNoCopy with both.
func (f Format) BenchFloorVariants(b *testing.B) {
	doc := corpus.Short(ShapeSize)
	var buf bytes.Buffer
	if err := f.Write(&buf, doc); err != nil {
		b.Fatal(err)
	}
	src, n := bytes.Clone(buf.Bytes()), len(doc.Messages)
	doc, buf = nil, bytes.Buffer{}
	per := max(corpus.CountLines(src)/max(n, 1), 1)
	b.Run("LineSplit", func(b *testing.B) { BenchLineSplit(b, src) })
	for _, v := range []struct {
		name          string
		copy, compact bool
	}{{"Floor", true, false}, {"NoCopy", false, false}, {"Compact", true, true}, {"CompactNoCopy", false, true}} {
		b.Run(v.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				s := unsafe.String(&src[0], len(src)) // src is never changed here
				if v.copy {
					s = string(src)
				}
				if !utf8.ValidString(s) {
					b.Fatal("invalid UTF-8")
				}
				if v.compact {
					runtime.KeepAlive(compactFloor(s, n, per))
				} else {
					runtime.KeepAlive(floor(s, n, per))
				}
			}
		})
	}
}

// compactMessage is the smallest message a text-only model could have.
type compactMessage struct {
	role, text string
	line       int32
}

// compactFloor is floor's loop with compactMessages.
func compactFloor(s string, n, per int) []compactMessage {
	msgs := make([]compactMessage, 0, n)
	line := 0
	for pos := 0; pos < len(s); {
		i := strings.IndexByte(s[pos:], '\n')
		if i < 0 {
			i = len(s) - pos
		}
		if line++; line%per == 0 && len(msgs) < n {
			msgs = msgs[:len(msgs)+1]
			m := &msgs[len(msgs)-1]
			m.role, m.text, m.line = "user", s[pos:pos+i], int32(line)
		}
		pos += i + 1
	}
	return msgs
}

// floor is the messages of BenchFloor: n of them, one every per lines of
// s, each a text part cut from s.
func floor(s string, n, per int) []promptfmt.Message {
	msgs := make([]promptfmt.Message, 0, n)
	var parts slab.Parts
	line := 0
	for pos := 0; pos < len(s); {
		i := strings.IndexByte(s[pos:], '\n')
		if i < 0 {
			i = len(s) - pos
		}
		if line++; line%per == 0 && len(msgs) < n {
			msgs = msgs[:len(msgs)+1]
			m := &msgs[len(msgs)-1]
			m.Role, m.Content, m.Line = "user", parts.Text(s[pos:pos+i]), line
		}
		pos += i + 1
	}
	return msgs
}
