package dotprompt

import (
	"context"
	"os"
	"testing"
)

// BenchmarkRender renders a typical prompt (the example joke.prompt).
func BenchmarkRender(b *testing.B) {
	src, err := os.ReadFile("../testdata/examples/joke.prompt")
	if err != nil {
		b.Fatal(err)
	}
	tpl, err := Load(src)
	if err != nil {
		b.Fatal(err)
	}
	in := map[string]any{"subject": "dogs"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tpl.Render(context.Background(), in); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoad loads the same prompt; its syntax check (checkSyntax) is
// the share the engine's own parser would have made safe.
func BenchmarkLoad(b *testing.B) {
	src, err := os.ReadFile("../testdata/examples/joke.prompt")
	if err != nil {
		b.Fatal(err)
	}
	b.Run("load", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(src); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("syntax", func(b *testing.B) {
		b.SetBytes(int64(len(src)))
		b.ReportAllocs()
		for b.Loop() {
			tmpl, _, yerr := runtimeTemplate(string(src))
			if yerr != nil {
				b.Fatal(yerr)
			}
			if _, _, _, err := checkSyntax(src, 0, string(src), tmpl, nil, 200, ""); err != nil {
				b.Fatal(err)
			}
		}
	})
}
