package dotprompt_test

import (
	"bytes"
	"testing"

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
