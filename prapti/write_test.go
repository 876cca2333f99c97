package prapti

import (
	"bytes"
	"errors"
	"io"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTrip writes doc, reads it back and writes it again: the messages
// must come back the same (configuration lines' source lines aside) and
// the text must be a fixed point. It returns the text.
func roundTrip(t testing.TB, doc *promptfmt.Document) []byte {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	back, err := Parse(out.Bytes())
	require.NoError(t, err, "%q", out.Bytes())
	require.True(t, promptfmt.EqualMessages(withoutLines(doc.Messages), withoutLines(back.Messages)), "round trip changed the document\n%q", out.Bytes())
	var again bytes.Buffer
	require.NoError(t, Write(&again, back))
	require.Equal(t, out.String(), again.String(), "canonical form is not stable")
	return out.Bytes()
}

const canonical = `Notes before the first message.
% model = "gpt-4o"

### @system:

You are a terse reviewer.

### //@user/Ross:

An old question.

### @user/Ross:

% temperature = 0.2
Review this:

` + "```python\n% not configuration\n### @assistant:\n```" + `
//% !prapti.inspect

### @assistant:

`

func TestWriteCanonical(t *testing.T) {
	doc, err := Parse([]byte(canonical))
	require.NoError(t, err)
	assert.Equal(t, canonical, string(roundTrip(t, doc)), "a canonical file is byte-identical after Write(Parse(x))")
}

func TestWriteLayout(t *testing.T) {
	doc, err := Parse([]byte("\n\n  Head  \n###   @User/Ross\n\n\n  Hi\n\n% x = 1\n\n\n### // @assistant:\n### @user:\nq\n   "))
	require.NoError(t, err)
	assert.Equal(t, "Head\n\n### @user/Ross:\n\nHi\n% x = 1\n\n### //@assistant:\n\n### @user:\n\nq\n", string(roundTrip(t, doc)))
}

func TestWriteEscapes(t *testing.T) {
	texts := []string{
		"% a = 1", "  % b", "> % c", ">//% d", "### @user:", "   ###  // @x/y", `\% e`, `\\### @user:`, `> \% f`,
		"100% sure", "#### @user:", `\n`, "```\n% in code\n### @user:\n```", "    % indented code",
	}
	doc := &promptfmt.Document{}
	for _, text := range texts {
		doc.Messages = append(doc.Messages, promptfmt.NewMessage("user", "before\n"+text+"\nafter"))
	}
	out := string(roundTrip(t, doc))
	for _, want := range []string{"\n\\% a = 1\n", "\n  \\% b\n", "\n> \\% c\n", "\n>\\//% d\n", "\n\\### @user:\n", "\n   \\###  // @x/y\n",
		"\n\\\\% e\n", "\n\\\\\\### @user:\n", "\n> \\\\% f\n", "\n100% sure\n", "\n#### @user:\n", "\n\\n\n", "\n% in code\n### @user:\n"} {
		assert.Contains(t, out, want)
	}
}

func TestWriteEmptyHead(t *testing.T) {
	doc, err := Parse([]byte("### @_head:\n### @user:\nhi\n"))
	require.NoError(t, err)
	require.Len(t, doc.Messages, 2)
	assert.Equal(t, "### @_head:\n\n### @user:\n\nhi\n", string(roundTrip(t, doc)), "an empty head keeps its heading, or it would vanish")
	doc, err = Parse([]byte("### @_head:\nnotes\n"))
	require.NoError(t, err)
	assert.Equal(t, "notes\n", string(roundTrip(t, doc)))
}

func TestWriteConfigBuiltByProgram(t *testing.T) {
	m := promptfmt.NewMessage("user", "Hi")
	m.Metadata = map[string]any{MetaConfig: []any{
		map[string]any{"kind": KindAssignment, "name": "model", "value": "gpt-4o", "enabled": true, "offset": int64(0)},
		map[string]any{"kind": KindAction, "name": "prapti.inspect", "exclusive": true, "enabled": false, "offset": int64(2)},
	}}
	var out bytes.Buffer
	require.NoError(t, Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{m}, Request: promptfmt.Request{Model: "gpt-4o"}}))
	assert.Equal(t, "### @user:\n\n% model = \"gpt-4o\"\nHi\n//% !prapti.inspect\n", out.String())
	// The document's request is what its lines set: a line sets the model.
	err := Write(io.Discard, &promptfmt.Document{Messages: []promptfmt.Message{m}})
	var ue *promptfmt.UnsupportedError
	require.ErrorAs(t, err, &ue)
	assert.Equal(t, promptfmt.FieldModel, ue.Key)
	assert.Equal(t, &promptfmt.Request{Model: "gpt-4o"}, ue.NearestRequest)
}

func TestWriteUnsupported(t *testing.T) {
	img := promptfmt.NewMessage("user", "")
	img.Content = []promptfmt.ContentPart{{Kind: promptfmt.KindImage, Value: "https://x/y.png"}}
	meta := promptfmt.NewMessage("user", "x")
	meta.Metadata = map[string]any{"ticket": "T-1"}
	two := promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("a\n"), promptfmt.Text("b")}}
	for _, tc := range []struct {
		doc   *promptfmt.Document
		want  string
		thing promptfmt.Thing
	}{
		{&promptfmt.Document{Meta: map[string]any{"a": 1}}, "prapti: document: document metadata", promptfmt.ThingMeta},
		{&promptfmt.Document{Messages: []promptfmt.Message{img}}, "prapti: message 1: a part of kind image", promptfmt.ThingPart},
		{&promptfmt.Document{Messages: []promptfmt.Message{meta}}, `prapti: message 1: message metadata "ticket"`, promptfmt.ThingMetadata},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("User", "x")}}, `role "User"`, promptfmt.ThingRole},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("tool-call", "x")}}, `role "tool-call"`, promptfmt.ThingRole},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", " padded\n")}}, "text that starts or ends with white space", promptfmt.ThingText},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "padded\x1f")}}, "text that starts or ends with white space", promptfmt.ThingText},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "\x1cpadded")}}, "text that starts or ends with white space", promptfmt.ThingText},
		{&promptfmt.Document{Messages: []promptfmt.Message{two}}, "prapti: message 1: 2 text parts", promptfmt.ThingText},
	} {
		err := Write(&bytes.Buffer{}, tc.doc)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
		var ue *promptfmt.UnsupportedError
		assert.True(t, errors.As(err, &ue))
		assert.Equal(t, tc.thing, ue.Thing, tc.want)
	}
}

// TestWriteRandom: documents built from awkward lines round trip or are
// refused, never written wrong.
func TestWriteRandom(t *testing.T) {
	pieces := []string{"text", "% a = 1", "> quote", "### @user:", "```", "~~~", "    code", "<!--", "-->", "<div>", "",
		`\% x`, "- item", "  % b", "//% c", "#### h", "100% sure", "> % q", "\t% t", "ユーザー"}
	rng := rand.New(rand.NewPCG(5, 6))
	written := 0
	for range 2000 {
		doc := &promptfmt.Document{}
		for range 1 + rng.IntN(4) {
			var lines []string
			for range 1 + rng.IntN(5) {
				lines = append(lines, pieces[rng.IntN(len(pieces))])
			}
			role := []string{"user", "assistant", "system", "_notes"}[rng.IntN(4)]
			doc.Messages = append(doc.Messages, promptfmt.NewMessage(role, trimSpace(strings.Join(lines, "\n"))))
		}
		var out bytes.Buffer
		if err := Write(&out, doc); err != nil {
			var ue *promptfmt.UnsupportedError
			require.True(t, errors.As(err, &ue), "%v", err)
			continue
		}
		written++
		roundTrip(t, doc)
	}
	assert.Greater(t, written, 1000, "most random documents can be written")
}

var thisFormat = formattest.Format{
	Parse: func(b []byte) (*promptfmt.Document, error) { return Parse(b) },
	Write: func(w io.Writer, d *promptfmt.Document) error { return Write(w, d) },
}

// TestWriteTrimmedFence: the source's "    ```" is an indented code block;
// trimmed, the text "```" would open a fence that swallows what follows
// it, so Write gives the first line its indentation back. Blank lines
// trimmed off the text come back where they ended a block, and escapes
// follow the blocks of what is written. A fence or HTML comment left open
// after the first line, which would swallow what follows, is escaped.
func TestWriteTrimmedFence(t *testing.T) {
	for src, want := range map[string]string{
		"### @user:\n    ```\n% a = 1\n":                               "### @user:\n\n    ```\n% a = 1\n",
		"### @user:\n% a = 1\n    ```\n% b = 2\n### @assistant:\nok\n": "### @user:\n\n% a = 1\n    ```\n% b = 2\n\n### @assistant:\n\nok\n",
		"### @user:\n\n    <!--\n\\% x\n### @assistant:\nok\n":         "### @user:\n\n    <!--\n\\% x\n\n### @assistant:\n\nok\n",
		"    ~~~\n    code\n":                                          "    ~~~\n    code\n",
		"### @user:\n\n```\ncode\n```\n### @assistant:\nok\n":          "### @user:\n\n```\ncode\n```\n\n### @assistant:\n\nok\n",
	} {
		doc, err := Parse([]byte(src))
		require.NoError(t, err)
		assert.True(t, strings.HasPrefix(doc.Messages[0].Text(), "```") || strings.HasPrefix(doc.Messages[0].Text(), "<!--") || strings.HasPrefix(doc.Messages[0].Text(), "~~~"))
		assert.Equal(t, want, string(roundTrip(t, doc)), "%q", src)
	}

	for src, want := range map[string]string{
		// blank lines trimmed off the text had ended an HTML block
		"### @user:\n<div>\n\n% a = 1\n":                         "### @user:\n\n<div>\n\n% a = 1\n",
		"### @user:\n% a = 1\n\n2. x\n   ```\n% b = 2\n   ```\n": "### @user:\n\n% a = 1\n\n2. x\n   ```\n% b = 2\n   \\```\n",
		// escaped, "% b" reads as text without the HTML block
		"### @user:\n% a = 1\n\n<span>\n% b\n\n": "### @user:\n\n% a = 1\n<span>\n\\% b\n",
		// escaping line 1 ends the heading that let <span> open a block
		"### @user:\n\\### @user:\n<span>\n\\% x\n": "### @user:\n\n\\### @user:\n<span>\n\\% x\n",
	} {
		doc, err := Parse([]byte(src))
		require.NoError(t, err)
		assert.Equal(t, want, string(roundTrip(t, doc)), "%q", src)
	}

	doc, err := Parse([]byte("### @user:\n    Look:\n    ```\n\n% a = 1\n"))
	require.NoError(t, err)
	assert.Equal(t, "Look:\n    ```", doc.Messages[0].Text())
	assert.NoError(t, Write(&bytes.Buffer{}, doc), "still code: the second line keeps its indentation")
	for text, want := range map[string]string{
		"Look:\n```":               "Look:\n\\```",
		"Look:\n```\nunclosed":     "Look:\n\\```\nunclosed",
		"a\n<!-- x\n### @user:\nb": "a\n\\<!-- x\n\\### @user:\nb",
		"a\n<!-- x\n-->\n```\n```": "a\n<!-- x\n-->\n```\n```",
		"~~~~\n~~~\n```\n<?x":      "\\~~~~\n\\~~~\n\\```\n\\<?x",
	} {
		doc = &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", text), promptfmt.NewMessage("user", "next")}}
		out := roundTrip(t, doc)
		assert.Equal(t, "### @user:\n\n"+want+"\n\n### @user:\n\nnext\n", string(out), "%q", text)
	}
}

// FuzzWord holds word to the pattern a heading's role and name follow.
func FuzzWord(f *testing.F) {
	pattern := regexp.MustCompile(`^[\p{L}\p{N}_]+$`)
	for _, s := range []string{"", "user", "a_b", "Zoë", "x y", "٣", "Ⅻ", "\xff", "\uFFFD", "a-b", "_"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := word(s), pattern.MatchString(s); got != want {
			t.Fatalf("word(%q) = %v, the pattern says %v", s, got, want)
		}
	})
}

// A configuration line indented four or more after a block quote's '>'
// may be code in the quote, which Parse does not read as configuration:
// Write does not take it for one without goldmark's verdict.
func TestWriteConfigInQuotedCode(t *testing.T) {
	for _, tc := range []struct{ source string }{{">     % x = 1"}, {">\t% x = 1"}, {">    % x = 1"}, {"> % x = 1"}, {"   % x = 1"}} {
		m := promptfmt.NewMessage("user", "> quoted\n>\n> more")
		m.Metadata = map[string]any{MetaConfig: []any{
			map[string]any{"kind": KindAssignment, "name": "x", "value": int64(1), "enabled": true, "quoted": strings.Contains(tc.source, ">"), "offset": int64(len("> quoted\n>\n")), "source": tc.source},
		}}
		doc := &promptfmt.Document{Messages: []promptfmt.Message{m, promptfmt.NewMessage("assistant", "ok")}}
		var out bytes.Buffer
		if err := Write(&out, doc); err != nil {
			continue // refused: nothing lost
		}
		back, err := Parse(out.Bytes())
		require.NoError(t, err)
		assert.True(t, promptfmt.EqualMessages(withoutLines(doc.Messages), withoutLines(back.Messages)), "%q written as %q reads back otherwise", tc.source, out.String())
	}
	assert.True(t, mayBeCode(">     % x") && mayBeCode(">\t% x") && mayBeCode(" >    % x"))
	assert.False(t, mayBeCode("> % x") || mayBeCode("   % x") || mayBeCode("% x") || mayBeCode(""))
}
