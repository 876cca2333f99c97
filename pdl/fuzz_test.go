package pdl

import (
	"bytes"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/tmpl"
)

var fuzzInputs = map[string]any{"name": "<|user|>\n&amp;", "xs": []any{"a", int64(2)}, "n": int64(3)}

// FuzzParse: no input panics or hangs, strict or not; what Parse reads
// strictly, Write accepts, and it reads back equal (Write checks that
// itself and would fail).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"<|system|>\n\nBe brief.\n\n<|user|>\n\nHi {{ name }}\n",
		"<|schema|>\n[int { min: 1, max: {{ n }} }]\n<|user|>\n{% for x in xs %}{{ loop.index }}. {{ x }}\n{% endfor %}<|assistant|>\n",
		"<|user|>\nlook <|raw_media(png:" + png + ")|> &lt;|x|&gt; {% raw %}{{ y }}{% endraw %}",
		"<|user|>\na\n<|reasoning|>\nr\n<|assistant|>\n\n<|user|>\nb <|media(x.png)|>",
		"\r\n<|USER|>\r\n<|foo|>\r{#",
		"<|schema|>\n{ a: [str {max: 3}], 'b c': float { min: -0.5 } }\n<|user|>\nq", "<|schema|>\nyesno\n<|user|>\nq",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		if _, err := Load(src, Inputs(fuzzInputs), NonStrict()); err != nil {
			if _, ok := err.(*promptfmt.ParseError); !ok {
				t.Fatalf("non-strict: %T %v", err, err)
			}
		}
		doc, err := Parse(src, Inputs(fuzzInputs))
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, doc); err != nil {
			t.Fatalf("Write of a parsed document: %v\ninput: %q", err, src)
		}
	})
}

// FuzzIsTemplate: IsTemplate's quick answer for a file without a tag
// opener (which spares copying a large file) is the full check's.
func FuzzIsTemplate(f *testing.F) {
	for _, s := range []string{"", "{", "{x}", "a{{b}}", "{% raw %}{{x}}{% endraw %}", "{\r\n%", "{#", "{{ \"{%\" }}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := IsTemplate([]byte(s)), !tmpl.OnlyJinjaLiterals(lines.ToLF(s)); got != want {
			t.Fatalf("IsTemplate(%q) = %v, want %v", s, got, want)
		}
	})
}
