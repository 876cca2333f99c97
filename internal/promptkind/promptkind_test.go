package promptkind

import (
	"bytes"
	"testing"
)

func TestOf(t *testing.T) {
	for _, c := range []struct {
		src  string
		want Kind
	}{
		{"", Neither},
		{"Tell me a joke.\n", Neither},
		{"---\n---\nHi\n", Neither},
		{"---\nprompt-id: P1\ncreated-at: 2022-08-17T14:37:22Z\nsha1-hash: 3b21\n---\nHi\n", PromptFile},
		{"---\nid: P42\n---\nHi\n", PromptFile},
		{"---\nid: \"P42\"\nmodel: gpt-4\n---\nHi\n", PromptFile},     // model is shared
		{"---\nprompt-id: P1\nmodel: x\n---\n{{name}}\n", PromptFile}, // a plain {{ }} is not a helper
		{"---\nmodel: googleai/gemini-2.0-flash\n---\nHi {{name}}\n", Dotprompt},
		{"---\nconfig:\n  temperature: 0.2\n---\nHi\n", Dotprompt},
		{"---\nmyext.key: 1\n---\nHi\n", Dotprompt},
		{"---\n  config: 1\n---\nHi\n", Neither}, // not a top-level key
		{"{{role \"system\"}}\nBe brief.\n", Dotprompt},
		{"Hi {{history}}\n", Dotprompt},
		{"{{media url=photo}}\n", Dotprompt},
		{"{{> header}}\n", Dotprompt},
		{"{{~role 'user'~}}\n", Dotprompt},
		{"---\nprompt-id: P1\ninput:\n  schema: {}\n---\nHi\n", Both},
		{"---\nprompt-id: P1\n---\n{{role \"user\"}}Hi\n", Both},
		{"\uFEFF---\nprompt-id: P1\n---\nHi\n", PromptFile},
		{"---\r\nmodel: x\r\n---\r\nHi\r\n", Dotprompt},
		{"# Copyright 2026 Ann\n\n---\nmodel: x\n---\nHi\n", Dotprompt}, // a licence header
		{"# Title\nmodel: x\n", Neither},
	} {
		if got := Of([]byte(c.src)); got != c.want {
			t.Errorf("Of(%q) = %d, want %d", c.src, got, c.want)
		}
	}
}

// The byte tests Of runs before each pattern never skip a line the
// pattern matches.
func FuzzGuards(f *testing.F) {
	for _, s := range []string{"id: P1", "config: 1", "my.ext: 2", "model: x", "{{role 'user'}}", "toolDefs :", "a.b.c:", "version\t:", "created-at: x", "names: y", "raw :"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		b := []byte(line)
		colon := bytes.IndexByte(b, ':') >= 0
		word := leadingWord(b)
		if seedID.Match(b) && !bytes.HasPrefix(b, []byte("id:")) ||
			dotStrong.Match(b) && !(colon && (strongWords[string(word)] || bytes.IndexByte(b, '.') >= 0)) ||
			dotWeak.Match(b) && !(colon && weakWords[string(word)]) ||
			dotHelper.Match(b) && !bytes.Contains(b, []byte("{{")) {
			t.Fatalf("a guard skips %q", line)
		}
	})
}
