package dotprompt_test

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	. "github.com/promptfmt/promptfmt/dotprompt"
	"github.com/promptfmt/promptfmt/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type msg struct {
	role  string
	parts []promptfmt.ContentPart
}

func text(s string) promptfmt.ContentPart { return promptfmt.Text(s) }

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []msg
	}{
		{"bare body kept whole", "Tell me a joke about {{subject}}.\n", []msg{{"user", []promptfmt.ContentPart{text("Tell me a joke about {{subject}}.\n")}}}},
		{"front matter trims the body", "---\nmodel: m\n---\n\n  Hello\n\n", []msg{{"user", []promptfmt.ContentPart{text("Hello")}}}},
		{"roles", "---\nmodel: m\n---\n{{role \"system\"}}\nBe brief.\n{{role \"user\"}}\nHi {{name}}\n{{role 'model'}}Hello", []msg{
			{"system", []promptfmt.ContentPart{text("\nBe brief.\n")}},
			{"user", []promptfmt.ContentPart{text("\nHi {{name}}\n")}},
			{"assistant", []promptfmt.ContentPart{text("Hello")}},
		}},
		{"text before the first marker is user", "Hi\n{{role \"model\"}}Yo", []msg{{"user", []promptfmt.ContentPart{text("Hi\n")}}, {"assistant", []promptfmt.ContentPart{text("Yo")}}}},
		{"an empty marker relabels", "{{role \"system\"}}\n  \n{{ role \"user\" }}Hi", []msg{{"user", []promptfmt.ContentPart{text("Hi")}}}},
		{"whitespace control marker", "{{~role \"tool\"~}}done", []msg{{"tool", []promptfmt.ContentPart{text("done")}}}},
		{"a marker inside a block is text", "{{#if x}}{{role \"system\"}}{{/if}}Hi", []msg{{"user", []promptfmt.ContentPart{text("{{#if x}}{{role \"system\"}}{{/if}}Hi")}}}},
		{"escaped marker is text", "a \\{{role \"system\"}} b", []msg{{"user", []promptfmt.ContentPart{text("a \\{{role \"system\"}} b")}}}},
		{"double backslash is a tag", "a \\\\{{role \"system\"}}b", []msg{{"user", []promptfmt.ContentPart{text("a \\\\")}}, {"system", []promptfmt.ContentPart{text("b")}}}},
		{"comment holding a marker", "{{!-- {{role \"system\"}} --}}Hi", []msg{{"user", []promptfmt.ContentPart{text("{{!-- {{role \"system\"}} --}}Hi")}}}},
		{"media", "Look: {{media url=\"https://x/a.png\" contentType=\"image/png\"}} \n{{media url='gs://b/c.mp3' contentType='audio/mpeg'}}{{media url=\"https://x/d\"}}", []msg{{"user", []promptfmt.ContentPart{
			text("Look: "),
			{Kind: promptfmt.KindImage, Value: "https://x/a.png", MediaType: "image/png"},
			{Kind: promptfmt.KindAudio, Value: "gs://b/c.mp3", MediaType: "audio/mpeg"},
			{Kind: promptfmt.KindFile, Value: "https://x/d"},
		}}}},
		{"media without a content type: the kind its url says", "{{media url=\"https://x/cat.JPG?s=1\"}}{{media url='data:audio/wav;base64,AAAA'}}", []msg{{"user", []promptfmt.ContentPart{
			{Kind: promptfmt.KindImage, Value: "https://x/cat.JPG?s=1"},
			{Kind: promptfmt.KindAudio, Value: "data:audio/wav;base64,AAAA"},
		}}}},
		{"media from a variable is text", "{{media url=photo}}", []msg{{"user", []promptfmt.ContentPart{text("{{media url=photo}}")}}}},
		{"history and section stay text", "{{role \"system\"}}S{{history}}{{section \"q\"}}", []msg{{"system", []promptfmt.ContentPart{text("S{{history}}{{section \"q\"}}")}}}},
		{"string argument holding }}", "{{json \"}}\"}}{{role \"model\"}}x", []msg{{"user", []promptfmt.ContentPart{text("{{json \"}}\"}}")}}, {"assistant", []promptfmt.ContentPart{text("x")}}}},
		{"front matter only", "---\nmodel: m\n---\n", nil},
		{"empty", "", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Parse([]byte(c.src))
			require.NoError(t, err)
			var got []msg
			for _, m := range doc.Messages {
				got = append(got, msg{m.Role, m.Content})
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestParseMeta(t *testing.T) {
	src := "---\n# the model\nmodel: googleai/gemini-2.0-flash\nconfig:\n  temperature: 0.5\ninput:\n  schema:\n    name: string, the name\nmyext.flag: true\n---\nHi\n"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"input": map[string]any{"schema": map[string]any{"name": "string, the name"}}, "myext.flag": true}, doc.Meta,
		"Meta keeps what the Request does not hold")
	assert.Equal(t, "googleai/gemini-2.0-flash", doc.Request.Model)
	assert.Equal(t, 0.5, *doc.Request.Temperature)
	assert.Equal(t, map[string]int{"model": 3, "temperature": 5}, doc.Request.Lines)
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, src, out.String(), "fmt keeps the front matter as written")
}

func TestParseErrors(t *testing.T) {
	for _, c := range []struct{ src, msg string }{
		{"---\nmodel: m\nHi\n", "1:1: front matter opened here is never closed"},
		{"Hi {{name\n", "1:4: tag \"{{name\" is never closed with }}"},
		{"Hi {{!-- x }}", "1:4: tag \"{{!-- x }}\" is never closed with --}}"},
		{"a\n{{#if x}}b", "2:1: block {{#if x}} is never closed"},
		{"a{{/if}}", "1:2: {{/if}} closes no block"},
		{"{{#if a}}\n{{#each xs}}x{{/if}}{{/each}}", "2:14: {{/if}} does not close {{#each xs}}, opened at 2:1"},
		{"{{^a}}x{{/b}}", "1:8: {{/b}} does not close {{^a}}, opened at 1:1"},
		{"{{role \"assistant\"}}x", "1:1: unknown role \"assistant\""},
		{"{{role \"user\"}}}x", "1:14: tag \"{{role \"user\"}}}x\" is closed with }}}"},
		{"---\n[1]\n---\n", "2:1: front matter: want a mapping"},
	} {
		_, err := Parse([]byte(c.src), promptfmt.File("f.prompt"))
		var pe *promptfmt.ParseError
		require.ErrorAs(t, err, &pe, c.src)
		assert.Contains(t, err.Error(), "f.prompt:"+strings.SplitN(c.msg, ":", 3)[0], c.src)
		assert.Contains(t, err.Error(), c.msg, c.src)
	}
	doc, err := Parse([]byte("\uFEFFHi"))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 1)
	_, err = Parse(nil, promptfmt.NewOption("stf", "stf.DefaultRole", func(any) {}))
	require.ErrorContains(t, err, "stf.DefaultRole is an option of stf, not of dotprompt")
}

// Round trip of documents Dotprompt can hold: Write then Parse gives the
// document back, and writing it again the same bytes.
func TestRoundTrip(t *testing.T) {
	m := promptfmt.NewMessage
	for _, doc := range []*promptfmt.Document{
		{Messages: []promptfmt.Message{m("user", "Hi {not a tag}")}},
		{Request: promptfmt.Request{Model: "m"}, Messages: []promptfmt.Message{m("user", "Hi"), m("assistant", "\nHello\n"), m("user", "  again")}},
		{Meta: map[string]any{"title": "t"}, Messages: []promptfmt.Message{m("user", "needs a marker")}},
		{Messages: []promptfmt.Message{m("system", "a { b } }} c"), m("tool", "r\r\ns\n")}},
		{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{text("See "),
			{Kind: promptfmt.KindImage, Value: "https://x/a.png", MediaType: "image/png"}, text(" and "),
			{Kind: promptfmt.KindFile, Value: "gs://b/c.pdf", MediaType: "application/pdf"}}}}},
		{},
	} {
		var out bytes.Buffer
		require.NoError(t, Write(&out, doc))
		back, err := Parse(out.Bytes())
		require.NoError(t, err, out.String())
		for i := range doc.Messages {
			require.Less(t, i, len(back.Messages), out.String())
			assert.Equal(t, doc.Messages[i].Content, back.Messages[i].Content, out.String())
		}
		assert.True(t, promptfmt.Equal(doc, back), "%q", out.String())
		var again bytes.Buffer
		require.NoError(t, Write(&again, back))
		assert.Equal(t, out.String(), again.String())
	}
}

func TestWriteRefuses(t *testing.T) {
	m := promptfmt.NewMessage
	named := m("user", "x")
	named.Name = "Ann"
	tool := promptfmt.Message{Role: "assistant", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindToolCall, Value: "{}", ToolName: "f", ID: "1"}}}
	for _, c := range []struct {
		doc   *promptfmt.Document
		thing promptfmt.Thing
		what  string
	}{
		{&promptfmt.Document{Messages: []promptfmt.Message{named}}, promptfmt.ThingName, "the name"},
		{&promptfmt.Document{Messages: []promptfmt.Message{tool}}, promptfmt.ThingPart, "tool_call part"},
		{&promptfmt.Document{Messages: []promptfmt.Message{m("narrator", "x")}}, promptfmt.ThingRole, "the role"},
		{&promptfmt.Document{Messages: []promptfmt.Message{m("user", " \n")}}, promptfmt.ThingMessages, "white space"},
		{&promptfmt.Document{Messages: []promptfmt.Message{m("user", "a <<<dotprompt:role:model>>> b")}}, promptfmt.ThingText, "no escape keeps them text"},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, Value: "https://a/<b>", MediaType: "image/png"}}}}}, promptfmt.ThingPart, "angle bracket"},
		{&promptfmt.Document{Request: promptfmt.Request{Model: "m"}, Messages: []promptfmt.Message{m("user", "a\u00a0")}}, promptfmt.ThingText, "end of the file"},
		{&promptfmt.Document{Request: promptfmt.Request{Model: "m"}, Messages: []promptfmt.Message{m("user", "a\n")}}, promptfmt.ThingText, "end of the file"},
		{&promptfmt.Document{Meta: map[string]any{"prompt-id": "P1"}}, promptfmt.ThingMeta, "PromptCritical"},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, Value: "aGk=", MediaType: "image/png"}}}}}, promptfmt.ThingPart, "data, not a URL"},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, Value: "https://a", MediaType: "audio/x"}}}}}, promptfmt.ThingPart, "read it as a audio"},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindImage, Value: "https://a", MediaType: "image/png", Detail: "low"}}}}}, promptfmt.ThingPart, "detail"},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{text("a"), text("b")}}}}, promptfmt.ThingText, "side by side"},
	} {
		var out bytes.Buffer
		err := Write(&out, c.doc)
		require.Error(t, err, c.what)
		assert.Empty(t, out.String())
		var ue *promptfmt.UnsupportedError
		require.True(t, errors.As(err, &ue), c.what)
		assert.Equal(t, c.thing, ue.Thing, err.Error())
		assert.Contains(t, err.Error(), c.what)
	}
}

// A Dotprompt file and a prompt file, both .prompt: each format's Sniff
// takes its own and refuses the other's, and Detect tells them apart.
func TestSniffDetect(t *testing.T) {
	dp, err := os.ReadFile("../testdata/examples/joke.prompt")
	require.NoError(t, err)
	pf, err := os.ReadFile("../testdata/examples/discard-html.prompt")
	require.NoError(t, err)
	for _, c := range []struct {
		src  []byte
		want string
	}{
		{dp, "dotprompt"},
		{pf, "promptfile"},
		{[]byte("{{role \"system\"}}Be brief."), "dotprompt"},
		{[]byte("Just a body."), "promptfile"},
		{[]byte("---\nmodel: gpt-4\nprompt-id: P3\n---\nHi"), "promptfile"},
	} {
		f, err := formats.Detect("x.prompt", c.src)
		require.NoError(t, err, string(c.src))
		assert.Equal(t, c.want, f.Name(), string(c.src))
		assert.Equal(t, c.want == "dotprompt", Format.Sniff(c.src))
	}
	_, err = formats.Detect("x.prompt", []byte("---\nprompt-id: P3\nconfig: {}\n---\nHi"))
	assert.ErrorContains(t, err, "cannot tell whether x.prompt is promptfile or dotprompt")
	// What Write makes is Dotprompt's by its content.
	var out bytes.Buffer
	require.NoError(t, Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "Hi")}}))
	assert.True(t, Format.Sniff(out.Bytes()), out.String())
}

// Front matter as Dotprompt's runtimes find it: "#" comment and blank
// lines may come first (a licence header, kept as a comment that fmt
// writes back); the closing --- needs a line break after it, else the
// runtimes read the whole file as the template, an error here.
func TestFrontMatterBounds(t *testing.T) {
	src := "# Copyright 2026 Ann\n#   SPDX-License-Identifier: Apache-2.0\n\n---\nmodel: m\n---\n{{role \"system\"}}Hi {{x}}"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, "m", doc.Request.Model)
	require.Len(t, doc.Comments, 1)
	assert.Equal(t, promptfmt.Comment{Format: "dotprompt", Text: "# Copyright 2026 Ann\n#   SPDX-License-Identifier: Apache-2.0\n", Part: -1, Line: 1}, doc.Comments[0])
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, src+"\n", out.String())
	assert.True(t, Format.Sniff([]byte(src)))
	tpl, err := Load([]byte(src))
	require.NoError(t, err)
	got, err := tpl.Render(context.Background(), map[string]any{"x": "there"})
	require.NoError(t, err)
	assert.Equal(t, []promptfmt.Message{{Role: "system", Content: []promptfmt.ContentPart{text("Hi there")}}}, got.Messages)

	// Not a header: the whole file is the body.
	doc, err = Parse([]byte("# Title\nText\n---\nmodel: m\n---\n"))
	require.NoError(t, err)
	assert.Nil(t, doc.Meta)

	_, err = Parse([]byte("---\nmodel: m\n---"), promptfmt.File("f.prompt"))
	assert.ErrorContains(t, err, "f.prompt:3:1: front matter is closed by a --- that ends the file with no line break after it")

	// A header needs front matter after it; comments go nowhere else.
	for _, doc := range []*promptfmt.Document{
		{Comments: []promptfmt.Comment{{Format: "dotprompt", Text: "# c", Part: -1}}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "x")}},
		{Request: promptfmt.Request{Model: "m"}, Comments: []promptfmt.Comment{{Format: "dotprompt", Text: "not # a header", Part: -1}}},
		{Request: promptfmt.Request{Model: "m"}, Comments: []promptfmt.Comment{{Format: "dotprompt", Text: "# c", Message: 1, Part: 0}}},
	} {
		err := Write(&bytes.Buffer{}, doc)
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue)
		assert.Equal(t, promptfmt.ThingComment, ue.Thing, err.Error())
	}
}
