package pdl

import (
	"bytes"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

func TestWriteCanonical(t *testing.T) {
	doc := &promptfmt.Document{
		Request: promptfmt.Request{Output: &promptfmt.Output{Schema: map[string]any{
			"type": "object", "additionalProperties": false, "required": []any{"name", "age"},
			"properties": map[string]any{"name": map[string]any{"type": "string"}, "age": map[string]any{"type": "integer", "minimum": int64(0)}},
		}}},
		Messages: []promptfmt.Message{
			promptfmt.NewMessage("system", "Extract the person."),
			{Role: "user", Content: []promptfmt.ContentPart{
				promptfmt.Text("Who is this?\n\n"),
				{Kind: promptfmt.KindImage, MediaType: "image/jpeg", Value: png},
			}},
			promptfmt.NewMessage("assistant", `{"name": "Bae", "age": 29}`),
			promptfmt.NewMessage(RoleReasoning, "The name tag says Bae."),
			promptfmt.NewMessage("user", "And this one?"),
		},
	}
	want := "<|schema|>\n\n{ name: str, age: int { min: 0 } }\n\n" +
		"<|system|>\n\nExtract the person.\n\n" +
		"<|user|>\n\nWho is this?\n\n<|raw_media(jpg:" + png + ")|>\n\n" +
		"<|assistant|>\n\n{\"name\": \"Bae\", \"age\": 29}\n\n" +
		"<|reasoning|>\n\nThe name tag says Bae.\n\n" +
		"<|user|>\n\nAnd this one?\n"
	out := thisFormat.RoundTrip(t, doc)
	require.Equal(t, want, string(out))
}

// TestWriteEscapes: text that would read as a separator, a token, an
// entity or template syntax is written so that it reads back as itself.
func TestWriteEscapes(t *testing.T) {
	for _, tc := range []struct{ text, written string }{
		{"<|user|>", "&lt;|user|>"},
		{"a\n<|system|>\nb", "a\n&lt;|system|>\nb"},
		{"see <|media(/etc/passwd)|>", "see &lt;|media(/etc/passwd)|>"},
		{"x |> y <| z", "x |> y &lt;| z"},
		{"&lt; &gt; &amp; & &amp;lt;", "&amp;lt; &amp;gt; &amp;amp; & &amp;amp;lt;"},
		{"Q&A", "Q&A"},
		{"{{ name }}", "{% raw %}{{ name }}{% endraw %}"},
		{"{% if x %}{# c #}", "{% raw %}{% if x %}{# c #}{% endraw %}"},
		{"a {% endraw %} b {%- endraw %}", `{% raw %}a {% endraw %}{{ "{%" }}{% raw %} endraw %} b {% endraw %}{{ "{%" }}{% raw %}- endraw %}{% endraw %}`},
		{"{% endraw %}", `{{ "{%" }}{% raw %} endraw %}{% endraw %}`},
		{"a{{% endraw %}", `{% raw %}a{{% endraw %}{{ "{%" }}{% raw %} endraw %}{% endraw %}`},
		{"{ not a tag } {", "{ not a tag } {"},
		{"<|raw_media(png:" + png + ")|> {{x}} &lt;", "{% raw %}&lt;|raw_media(png:" + png + ")|> {{x}} &amp;lt;{% endraw %}"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", tc.text)}}
			out := thisFormat.RoundTrip(t, doc)
			require.Equal(t, "<|user|>\n\n"+tc.written+"\n", string(out))
		})
	}
}

func TestWriteShapes(t *testing.T) {
	img := promptfmt.ContentPart{Kind: promptfmt.KindImage, MediaType: "image/png", Value: png}
	for _, tc := range []struct {
		name string
		msgs []promptfmt.Message
	}{
		{"empty middle message", []promptfmt.Message{promptfmt.NewMessage("user", "a"), promptfmt.NewMessage("assistant", ""), promptfmt.NewMessage("user", "b")}},
		{"two images, nothing between", []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{img, img}}}},
		{"white space between images", []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{img, promptfmt.Text("\n \n"), img}}}},
		{"empty system, then user", []promptfmt.Message{promptfmt.NewMessage("system", ""), promptfmt.NewMessage("user", "q")}},
		{"empty last message", []promptfmt.Message{promptfmt.NewMessage("system", "s"), promptfmt.NewMessage("user", "")}},
		{"empty last message, then reasoning", []promptfmt.Message{promptfmt.NewMessage("user", ""), promptfmt.NewMessage(RoleReasoning, "r")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			thisFormat.RoundTrip(t, &promptfmt.Document{Messages: tc.msgs})
		})
	}
	// An empty last message is kept by an empty <|assistant|> after it.
	out0 := thisFormat.RoundTrip(t, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "")}})
	require.Equal(t, "<|user|>\n\n<|assistant|>\n", string(out0))

	// Text parts side by side would read back as one: refused, not joined.
	var out bytes.Buffer
	err := Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("a"), promptfmt.Text("b")}}}})
	require.ErrorContains(t, err, "text parts side by side")
	var ue *promptfmt.UnsupportedError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, promptfmt.ThingText, ue.Thing)
	require.Empty(t, out.String())
}

func TestWriteUnsupported(t *testing.T) {
	user := promptfmt.NewMessage("user", "q")
	for _, tc := range []struct {
		name string
		doc  promptfmt.Document
		want string
	}{
		{"role", promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("tool", "x"), user}}, `message 1: role "tool"`},
		{"name", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Name: "Ann", Content: user.Content}}}, `the name "Ann"`},
		{"metadata", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Metadata: map[string]any{"k": 1}, Content: user.Content}}}, "message metadata"},
		{"disabled", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Disabled: true, Content: user.Content}}}, "a disabled message"},
		{"document metadata", promptfmt.Document{Meta: map[string]any{"model": "x"}, Messages: []promptfmt.Message{user}}, `metadata "model"`},
		{"schema not text", promptfmt.Document{Meta: map[string]any{SchemaKey: int64(1)}, Messages: []promptfmt.Message{user}}, "a schema that is not text"},
		{"schema that does not parse", promptfmt.Document{Meta: map[string]any{SchemaKey: "{ x: }"}, Messages: []promptfmt.Message{user}}, "a schema that does not parse"},
		{"schema with a separator line", promptfmt.Document{Meta: map[string]any{SchemaKey: "int\n<|user|>"}, Messages: []promptfmt.Message{user}}, "reads as a turn separator"},
		{"tool part", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindToolCall, Value: "{}"}}}}}, "a tool_call part"},
		{"image URL", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, MediaType: "image/png", Value: "https://x/a.png"}}}}}, "not base64 data"},
		{"image type", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, MediaType: "image/bmp", Value: png}}}}}, `media type "image/bmp"`},
		{"image detail", promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, MediaType: "image/png", Value: png, Detail: "high"}}}}}, "detail"},
		{"leading white space", promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "  q")}}, "whitespace at the start or end"},
		{"trailing newline", promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "q\n")}}, "whitespace at the start or end"},
		{"empty last assistant", promptfmt.Document{Messages: []promptfmt.Message{user, promptfmt.NewMessage("assistant", "")}}, "an assistant message at the end"},
		{"ends with assistant", promptfmt.Document{Messages: []promptfmt.Message{user, promptfmt.NewMessage("assistant", "a")}}, "an assistant message at the end"},
		{"two users", promptfmt.Document{Messages: []promptfmt.Message{user, user}}, "message 2: a second user message in a row"},
		{"system later", promptfmt.Document{Messages: []promptfmt.Message{user, promptfmt.NewMessage("system", "s"), user}}, "a system message after the first"},
		{"no messages", promptfmt.Document{Meta: map[string]any{SchemaKey: "int"}}, "no message for the model"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := Write(&out, &tc.doc)
			require.ErrorContains(t, err, tc.want)
			var ue *promptfmt.UnsupportedError
			require.ErrorAs(t, err, &ue)
			require.Zero(t, out.Len(), "nothing is written on error")
		})
	}
}

// TestWriteProperty: random documents that strict PDL can hold, built
// from pieces that look like PDL syntax, come back equal from Write and
// Parse (RoundTrip also checks the text is a fixed point).
func TestWriteProperty(t *testing.T) {
	pieces := []string{
		"a", "Hello", " ", "\n", "\n\n", "<|", "|>", "<|user|>", "\n<|system|>\n", "<|media(x.png)|>",
		"&", "&lt;", "&gt;", "&amp;", "&amp;lt;", "{{", "}}", "{%", "%}", "{#", "#}", "{% endraw %}",
		"{%- endraw", "{% raw %}", "é", "\t", "<", ">", "|", "%", "{", "\r",
	}
	img := promptfmt.ContentPart{Kind: promptfmt.KindImage, MediaType: "image/gif", Value: png}
	r := rand.New(rand.NewPCG(1, 2))
	text := func() string {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	for range 2000 {
		var doc promptfmt.Document
		if r.IntN(4) == 0 {
			doc.Meta = map[string]any{SchemaKey: "{ a: [int { min: -1 }], 'b{{': str }"}
		}
		roles := []string{"user", "assistant"}
		if r.IntN(3) == 0 {
			doc.Messages = append(doc.Messages, promptfmt.NewMessage("system", text()))
		}
		n := 1 + 2*r.IntN(3)
		for j := range n {
			m := promptfmt.Message{Role: roles[j%2]}
			for range r.IntN(4) {
				if r.IntN(3) == 0 {
					m.Content = append(m.Content, img)
				} else if s := text(); s != "" {
					m.Content = append(m.Content, promptfmt.Text(s))
				}
			}
			doc.Messages = append(doc.Messages, m)
			if r.IntN(5) == 0 {
				doc.Messages = append(doc.Messages, promptfmt.NewMessage(RoleReasoning, "think "+text()))
			}
		}
		writesOrNames(t, canonical(&doc))
	}
}

// writesOrNames: Write either writes doc so that it reads back equal, or
// refuses it naming a message by what of it is the matter, and then the
// document Adapt makes of it is written and reads back equal (issue 18:
// "the messages do not read back the same", no message, no line).
func writesOrNames(t *testing.T, doc *promptfmt.Document) {
	t.Helper()
	err := Write(io.Discard, doc)
	if err == nil {
		thisFormat.RoundTrip(t, doc)
		return
	}
	var ue *promptfmt.UnsupportedError
	require.ErrorAs(t, err, &ue)
	require.NotEqual(t, promptfmt.ThingOther, ue.Thing, "%v", err)
	fitted, _, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
	require.NoError(t, err)
	thisFormat.RoundTrip(t, canonical(fitted))
}

// FuzzWriteReadsBack: a user message of any text (template syntax,
// separators, entities, white space) is written so that it reads back
// equal, or refused naming what Adapt changes so that it is.
func FuzzWriteReadsBack(f *testing.F) {
	for _, s := range []string{"{{ order_id }}", "{% if x %}", "  {{ x }}  ", "a\r{{ x }}", "{%- endraw %}", "<|user|>", "{#", "&lt;|x|&gt;"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		writesOrNames(t, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", text)}})
	})
}

func TestIsTemplate(t *testing.T) {
	for src, want := range map[string]bool{
		"<|user|>\nhi { there }":                              false,
		"<|user|>\n{% raw %}{{ x }}{% endraw %}":              false,
		`<|user|>\n{{ "{%" }}{% raw %} endraw %}{% endraw %}`: false,
		"<|user|>\n{{ x }}":                                   true,
		"<|user|>\n{# note #}hi":                              true,
		"<|user|>\n{% if a %}b{% endif %}":                    true,
		"<|user|>\n{% raw %}never closed":                     true,
		"<|user|>\n{% raw %}a{% endraw %}{{ y }}":             true,
		"{": false,
	} {
		require.Equal(t, want, IsTemplate([]byte(src)), src)
	}
	// What Write makes is never a template.
	for _, text := range []string{"{{ a }}", "{% endraw %}{#", "a{{% endraw %}"} {
		var out bytes.Buffer
		require.NoError(t, Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", text)}}))
		require.False(t, IsTemplate(out.Bytes()), out.String())
	}
}

// Issue 18: what Write checks is the text as it reads back, not its
// escaped form. White space inside {% raw %} was not seen as white space
// at the message's ends, and a carriage return was written as is; both
// read back changed, and --lossy failed with "the messages do not read
// back the same". Both are refused as text (ThingText), so Adapt trims the
// white space and makes the line breaks LF.
func TestWriteChecksTheTextAsRead(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"  {{ x }}  ", "whitespace at the start or end"},
		{"{% if a %}\n", "whitespace at the start or end"},
		{"a\r{{ x }}", "carriage return"},
		{"a\rb", "carriage return"},
		{"a\r\nb", "carriage return"},
	} {
		doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", tc.text)}}
		doc.Messages[0].Line = 7
		err := Write(&bytes.Buffer{}, doc)
		require.ErrorContains(t, err, tc.want, "%q", tc.text)
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue)
		require.Equal(t, promptfmt.ThingText, ue.Thing, "%q", tc.text)
		require.Equal(t, 0, ue.Index)
		fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
		require.NoError(t, err, "%q", tc.text)
		require.NotEmpty(t, changes)
		thisFormat.RoundTrip(t, canonical(fitted))
	}
}

// A file that does not read back the same is refused naming the message
// and its line, not the document.
func TestReadsBackNamesTheMessage(t *testing.T) {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("system", "s"), promptfmt.NewMessage("user", "q")}}
	doc.Messages[1].Line = 12
	err := readsBack(doc, []byte("<|system|>\ns\n<|user|>\nother\n"))
	var ue *promptfmt.UnsupportedError
	require.ErrorAs(t, err, &ue)
	require.Equal(t, 1, ue.Index)
	require.Equal(t, 12, ue.Line)
	require.Contains(t, ue.Error(), `"q" reads as "other"`)
	err = readsBack(doc, []byte("<|system|>\ns\n<|user|>\n<|raw_media(png:@@)|>\n"))
	require.ErrorAs(t, err, &ue)
	require.Equal(t, 1, ue.Index, "%v", err)
	require.Equal(t, 12, ue.Line)
}
