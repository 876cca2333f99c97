package dotprompt_test

import (
	"bytes"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	. "github.com/promptfmt/promptfmt/dotprompt"
)

// FuzzParse: Parse never panics; a file it reads is written, when Write
// takes it, into one that reads back as the same document and is a fixed
// point of fmt.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Hi {{x}}", "---\nmodel: m\n---\n{{role \"system\"}}a{{role \"user\"}}b", "\\{{x}}", "{{#if a}}{{role \"user\"}}{{/if}}",
		"{{media url=\"https://a\" contentType=\"image/png\"}}", "{{!-- c --}}", "{{{x}}}"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if Write(&out, doc) != nil {
			return
		}
		back, err := Parse(out.Bytes())
		if err != nil {
			t.Fatalf("written file does not parse: %v\n%q", err, out.Bytes())
		}
		if !promptfmt.Equal(doc, back) {
			t.Fatalf("read back changed\nsrc: %q\nout: %q", src, out.Bytes())
		}
		var again bytes.Buffer
		if err := Write(&again, back); err != nil || again.String() != out.String() {
			t.Fatalf("not a fixed point: %v\n%q\n%q", err, out.Bytes(), again.Bytes())
		}
	})
}

// FuzzWriteRender: any two texts (and a media part between them) that
// Dotprompt can hold are written into a file that renders them back, in
// messages of any roles, with front matter or not; what Parse reads of
// the file writes back to the same bytes.
func FuzzWriteRender(f *testing.F) {
	for _, s := range hostile {
		f.Add(s, "x", byte(0))
		f.Add("a"+s, s+"b", byte(0xff))
	}
	f.Fuzz(func(t *testing.T, a, b string, shape byte) {
		roles := []string{"user", "assistant", "system", "tool"}
		doc := &promptfmt.Document{}
		if shape&1 != 0 {
			doc.Meta = map[string]any{"model": "m"}
			b = strings.TrimRightFunc(b, unicode.IsSpace) + "."
		}
		for _, s := range []string{a, b} {
			if !utf8.ValidString(s) || strings.TrimSpace(s) == "" || strings.Contains(s, "<<<dotprompt:") {
				return
			}
		}
		first := promptfmt.NewMessage(roles[shape>>1&3], a)
		if shape&8 != 0 { // one message: a, media, b
			first.Content = append(first.Content, promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://x/a.png", MediaType: "image/png"}, promptfmt.Text(b))
			doc.Messages = []promptfmt.Message{first}
		} else {
			doc.Messages = []promptfmt.Message{first, promptfmt.NewMessage(roles[shape>>4&3], b)}
		}
		checkRendersBack(t, doc)
	})
}
