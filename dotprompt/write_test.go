package dotprompt_test

import (
	"bytes"
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/promptfmt/promptfmt"
	. "github.com/promptfmt/promptfmt/dotprompt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// hostile are pieces of text that Handlebars or Dotprompt's runtimes give
// a meaning: tags of every kind, escapes, braces and backslashes beside
// tags, white space control, markers' look-alikes, and white space the
// runtimes trim.
var hostile = []string{
	"{{", "}}", "{{{", "}}}", "{{{{", "\\{{", "\\\\{{", "\\", "\\\\", "{", "}", "{{x}}", "{{/x}}", "{{! c }}", "{{!-- c --}}",
	"{{#if x}}", "{{else}}", "{{^}}", "{{> p}}", "{{{{raw}}}}", "{{~", "~}}", "{{role \"system\"}}", "{{history}}",
	"{{media url=\"https://a/b.png\"}}", "{{section \"s\"}}", "<<<", ">>>", "dotprompt:role:user", "a", "text", " ", "\n",
	"\t", "\r\n", "\u00a0", "\u2028", "ü", "---", "@root", "|",
}

// text joins 1 to 5 hostile pieces.
func hostileText(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(5) {
		b.WriteString(hostile[r.IntN(len(hostile))])
	}
	return b.String()
}

// hostileDocument is a random document Dotprompt can hold (no text of
// white space only, none with a runtime's marker, none ending in white
// space at the end of a file with front matter), of hostile texts and
// media parts.
func hostileDocument(r *rand.Rand) *promptfmt.Document {
	doc := &promptfmt.Document{}
	if r.IntN(2) == 0 {
		doc.Request = promptfmt.Request{Model: "googleai/gemini-2.0-flash"}
	}
	for range 1 + r.IntN(3) {
		m := promptfmt.Message{Role: []string{"user", "assistant", "system", "tool"}[r.IntN(4)]}
		for range 1 + r.IntN(3) {
			if r.IntN(4) == 0 {
				m.Content = append(m.Content, promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://x/a.png", MediaType: "image/png"})
				continue
			}
			if n := len(m.Content); n > 0 && m.Content[n-1].Kind == promptfmt.KindText {
				continue
			}
			t := hostileText(r)
			for strings.TrimSpace(t) == "" || strings.Contains(t, "<<<dotprompt:") {
				t = hostileText(r)
			}
			m.Content = append(m.Content, promptfmt.Text(t))
		}
		doc.Messages = append(doc.Messages, m)
	}
	if !doc.Request.IsZero() { // front matter: the body is trimmed
		last := &doc.Messages[len(doc.Messages)-1]
		if p := &last.Content[len(last.Content)-1]; p.Kind == promptfmt.KindText {
			p.Value = strings.TrimRightFunc(p.Value, unicode.IsSpace) + "."
		}
	}
	return doc
}

// checkRendersBack writes doc, then loads and renders the file without
// inputs: the messages must be the document's. What Parse reads of the
// file must write back to the same bytes.
func checkRendersBack(t *testing.T, doc *promptfmt.Document) {
	t.Helper()
	var out bytes.Buffer
	if err := Write(&out, doc); err != nil {
		t.Fatalf("Write: %v\ndocument: %s", err, show(doc))
	}
	tpl, err := Load(out.Bytes())
	if err != nil {
		t.Fatalf("Load: %v\nfile: %q", err, out.String())
	}
	got, err := tpl.Render(context.Background(), nil)
	if err != nil {
		t.Fatalf("Render: %v\nfile: %q", err, out.String())
	}
	if !promptfmt.EqualMessages(got.Messages, doc.Messages) {
		t.Fatalf("renders back changed\nfile: %q\nwant %s\ngot  %s", out.String(), show(doc), show(got))
	}
	back, err := Parse(out.Bytes())
	if err != nil {
		t.Fatalf("Parse: %v\nfile: %q", err, out.String())
	}
	var again bytes.Buffer
	if err := Write(&again, back); err != nil || again.String() != out.String() {
		t.Fatalf("fmt changes the file: %v\n%q\n%q", err, out.String(), again.String())
	}
}

func show(doc *promptfmt.Document) string {
	b, _ := jsonvalue.Encode(doc.Messages)
	return string(b)
}

// Text that is not a file's template is escaped so that the file renders
// it back as it was, each piece beside a marker, a media tag and the
// file's ends.
func TestWriteEscapes(t *testing.T) {
	img := promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://x/a.png", MediaType: "image/png"}
	for _, h := range hostile {
		if strings.TrimSpace(h) == "" {
			continue
		}
		for _, doc := range []*promptfmt.Document{
			{Messages: []promptfmt.Message{promptfmt.NewMessage("user", h)}},
			{Messages: []promptfmt.Message{promptfmt.NewMessage("system", "a"+h), promptfmt.NewMessage("user", h+"b"), promptfmt.NewMessage("assistant", h)}},
			{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text(h), img, promptfmt.Text(h), img}}}},
			{Request: promptfmt.Request{Model: "m"}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", h+"."), promptfmt.NewMessage("user", "x"+h+".")}},
		} {
			checkRendersBack(t, doc)
		}
	}
	// The escapes themselves, as written.
	for _, c := range []struct{ text, file string }{
		{"a {{b}} c", "{{role \"user\"~}}\n" + `a \{{b}} c`},
		{`a \{{b}}`, "{{role \"user\"~}}\n" + `a \\{{!}}\{{b}}`},
		{"{{{{x", "{{role \"user\"~}}\n" + `\{{\{{x`},
		// Text that starts with white space (Unicode's) keeps it after
		// the marker, which "~" would strip.
		{"\nHi", "{{role \"user\"}}\nHi"},
		{"\u00a0Hi", "{{role \"user\"}}\u00a0Hi"},
	} {
		var out bytes.Buffer
		if err := Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", c.text)}}); err != nil || out.String() != c.file {
			t.Errorf("%q: got %q (%v), want %q", c.text, out.String(), err, c.file)
		}
	}
	var out bytes.Buffer
	if err := Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", `a{`), promptfmt.NewMessage("assistant", `}b\`), promptfmt.NewMessage("user", "c")}}); err != nil {
		t.Fatal(err)
	}
	// Each text on lines of its own, the line breaks stripped by "~": a
	// "{" or backslash at its end, a "}" at its start, parted from the
	// markers.
	if want := "{{role \"user\"~}}\na{\n{{~role \"model\"~}}\n}b\\\n{{~role \"user\"~}}\nc"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// Property: any document of hostile texts Dotprompt can hold is written,
// and the file renders back as that document.
func TestWriteRendersBackProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(20, 2026))
	for range 2000 {
		checkRendersBack(t, hostileDocument(r))
	}
}

// Parse keeps a marker's white space control: the text beside it is what
// the runtimes render (the white space stripped), and fmt writes the
// marker and the white space back as they were.
func TestParseStrippingMarkers(t *testing.T) {
	src := "{{role \"system\"~}}\n  Be brief.\n{{~role \"user\"}}\nHi {{~media url=\"https://x/a.png\"~}} there"
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := []promptfmt.Message{
		promptfmt.NewMessage("system", "Be brief."),
		{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("\nHi"), {Kind: promptfmt.KindImage, Value: "https://x/a.png"}, promptfmt.Text("there")}},
	}
	if !promptfmt.EqualMessages(doc.Messages, want) {
		t.Errorf("got %s", show(doc))
	}
	tpl, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got, err := tpl.Render(context.Background(), nil)
	if err != nil || !promptfmt.EqualMessages(got.Messages, want) {
		t.Errorf("rendered %v %s", err, show(got))
	}
	var out bytes.Buffer
	if err := Write(&out, doc); err != nil || out.String() != src {
		t.Errorf("fmt: %v\n%q\n%q", err, out.String(), src)
	}
}

// A file whose lines all end in CRLF is written with CRLF: the writer's
// own line breaks (licence header, front matter, the last) are the
// file's, as its text is written as read. Every Genkit sample and example
// made CRLF is written back as it was read (fmt changes nothing) and
// reads back as the same document; a file of mixed endings keeps LF for
// what the writer makes.
func TestWriteKeepsCRLF(t *testing.T) {
	files, _ := filepath.Glob("testdata/genkit/*/*.prompt")
	examples, _ := filepath.Glob("../testdata/examples/*.prompt")
	checked := 0
	for _, name := range append(files, examples...) {
		lf, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		src := bytes.ReplaceAll(bytes.ReplaceAll(lf, []byte("\r\n"), []byte("\n")), []byte("\n"), []byte("\r\n"))
		doc, err := Parse(src)
		if err != nil {
			continue // as the LF file: ex03, prompt files
		}
		var out bytes.Buffer
		if err := Write(&out, doc); err != nil {
			continue // what Write refuses of the LF file too
		}
		checked++
		if bare := bytes.Count(out.Bytes(), []byte("\n")) - bytes.Count(out.Bytes(), []byte("\r\n")); bare > 0 {
			t.Errorf("%s: %d line breaks written without CR:\n%q", name, bare, out.String())
		}
		back, err := Parse(out.Bytes())
		if err != nil || !promptfmt.Equal(doc, back) {
			t.Errorf("%s: does not read back the same: %v", name, err)
		}
	}
	if checked < 5 {
		t.Fatalf("only %d files checked", checked)
	}
	src := "# Licence\r\n---\r\nmodel: m\r\nconfig:\r\n  temperature: 0.5\r\n---\r\n{{role \"system\"}}\r\nBe nice.\r\n{{role \"user\"}}\r\nHi {{name}}!\r\n"
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := Write(&out, doc); err != nil || out.String() != src {
		t.Errorf("fmt changed a CRLF file: %v\n%q", err, out.String())
	}
	mixed := strings.Replace(src, "config:\r\n", "config:\n", 1)
	doc, err = Parse([]byte(mixed))
	if err != nil {
		t.Fatal(err)
	}
	out.Reset()
	if err := Write(&out, doc); err != nil || !strings.HasPrefix(out.String(), "# Licence\n---\nmodel: m\n") {
		t.Errorf("mixed endings: %v\n%q", err, out.String())
	}
}
