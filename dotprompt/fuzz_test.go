package dotprompt_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt"
	. "github.com/promptfmt/promptfmt/dotprompt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// FuzzParse: Parse never panics; a file it reads is written, when Write
// takes it, into one that reads back as the same document and is a fixed
// point of fmt.
func FuzzParse(f *testing.F) {
	for _, s := range []string{"Hi {{x}}", "---\nmodel: m\n---\n{{role \"system\"}}a{{role \"user\"}}b", "\\{{x}}", "{{#if a}}{{role \"user\"}}{{/if}}",
		"{{media url=\"https://a\" contentType=\"image/png\"}}", "{{!-- c --}}", "{{{x}}}",
		"# L\r\n#\r\n---\r\nmodel: m\r\n---\r\n{{role \"system\"}}\r\nA\r\n{{role \"user\"}}\r\nB\r\n"} {
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
			doc.Request = promptfmt.Request{Model: "m"}
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

// FuzzLoad: any source loads, or fails with a ParseError positioned in
// the source (or about the whole file); a loaded template renders with
// small inputs of every kind (values, a list, a map, history, context)
// or fails likewise; nothing panics or hangs (a watchdog fails an input
// that takes seconds).
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/spec/*.yaml")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var suites []struct {
			Template string `yaml:"template"`
		}
		if err := yaml.Unmarshal(src, &suites); err != nil {
			f.Fatal(err)
		}
		for _, s := range suites {
			f.Add([]byte(s.Template), "x", uint8(2))
		}
	}
	examples, _ := filepath.Glob("../testdata/examples/*.prompt")
	for _, name := range examples {
		if src, err := os.ReadFile(name); err == nil {
			f.Add(src, "x", uint8(3))
		}
	}
	for _, s := range []string{"{{#each items}}{{this}}{{@index}}{{/each}}", "{{role \"system\"}}{{json m}}{{history}}{{role \"user\"}}{{x}}",
		"{{#ifEquals x \"a\"}}{{media url=x}}{{else}}{{section \"s\"}}{{/ifEquals}}", "{{@state.n}} {{#with m}}{{k}}{{/with}}",
		"---\ninput:\n  schema:\n    x: string\n  default:\n    x: d\n---\n{{x}}", "{{> p}}", "\\{{x}} {{{x}}} {{!-- c --}}"} {
		f.Add([]byte(s), "a", uint8(5))
	}
	small := promptfmt.Limits(promptfmt.TemplateLimits{MaxOutput: 1 << 20, MaxSteps: 1 << 20})
	f.Fuzz(func(t *testing.T, src []byte, x string, n uint8) {
		done := make(chan struct{})
		defer close(done)
		go func() {
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				panic(fmt.Sprintf("Load or Render of %q hangs", src))
			}
		}()
		tpl, err := Load(src, small)
		// Check refuses what Load refuses, with the same error, but for a
		// helper the host may register (and what only the runtime's
		// compiling finds, which it does not do).
		_, cerr := Check(src, small)
		switch {
		case err == nil && cerr != nil:
			t.Fatalf("Load takes %q, Check refuses it: %v", src, cerr)
		case err != nil && cerr != nil && cerr.Error() != err.Error():
			t.Fatalf("%q: Load says %v, Check %v", src, err, cerr)
		case err != nil && cerr == nil && !strings.Contains(err.Error(), "neither Handlebars' helper nor Dotprompt's"):
			if pe := (*promptfmt.ParseError)(nil); errors.As(err, &pe) && pe.Line > 0 {
				t.Fatalf("%q: Load refuses it (%v), Check takes it", src, err)
			}
		}
		if err != nil {
			checkPositioned(t, src, err)
			return
		}
		items := make([]any, n%16)
		for i := range items {
			items[i] = x
		}
		data := map[string]any{
			"input":    map[string]any{"x": x, "n": int64(n), "b": n%2 == 0, "items": items, "m": map[string]any{"k": x}},
			"context":  map[string]any{"state": map[string]any{"n": int64(n)}},
			"messages": []any{map[string]any{"role": "user", "content": x}},
		}
		if _, err := tpl.Render(context.Background(), nil, Data(data), small); err != nil {
			checkPositioned(t, src, err)
		}
	})
}

// checkPositioned fails unless err is a ParseError about the whole file
// (no line, offset 0) or at a place in src that agrees with its line and
// column.
func checkPositioned(t *testing.T, src []byte, err error) {
	t.Helper()
	var pe *promptfmt.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("not a ParseError: %T %v", err, err)
	}
	if pe.Line == 0 {
		if pe.Offset != 0 {
			t.Fatalf("no line, offset %d: %v", pe.Offset, err)
		}
		return
	}
	if pe.Offset < 0 || pe.Offset > len(src) {
		t.Fatalf("offset %d outside the source (%d bytes): %v", pe.Offset, len(src), err)
	}
	if line, col := lines.Position(src, pe.Offset); line != pe.Line || col != pe.Col {
		t.Fatalf("at %d:%d, but offset %d is %d:%d: %v", pe.Line, pe.Col, pe.Offset, line, col, err)
	}
}
