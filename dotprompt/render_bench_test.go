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
