package prompty

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

// writesBack: Write either writes doc so that Load and Prepare give its
// messages and Parse then Write give the same file, or refuses it naming a
// message or a front matter key; then Adapt's document is written so.
func writesBack(t *testing.T, doc *promptfmt.Document) {
	t.Helper()
	var out bytes.Buffer
	if err := Write(&out, doc); err != nil {
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue)
		require.True(t, ue.Index >= 0 || ue.Key != "", "names no message nor key: %v", err)
		fitted, _, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return Write(io.Discard, d) })
		if err != nil {
			return // nothing Adapt can change meets it: convert --lossy reports it
		}
		doc = fitted
		out.Reset()
		require.NoError(t, Write(&out, doc))
	}
	a, err := Load(out.Bytes())
	require.NoError(t, err, "%s", out.String())
	got, err := Prepare(a, nil)
	require.NoError(t, err, "%s", out.String())
	require.Equal(t, stripLines(doc.Messages), stripLines(got), "written:\n%s", out.String())
	parsed, err := Parse(out.Bytes())
	require.NoError(t, err)
	var again bytes.Buffer
	require.NoError(t, Write(&again, parsed))
	require.Equal(t, out.String(), again.String(), "a written file is kept as it is")
}

// Issue 18: text with template syntax converted into a .prompty vanished
// when the file was rendered ({{ order_id }}) or made it fail ({% if %}).
// It is escaped for the engine the front matter names.
func TestWriteEscapesTemplateSyntax(t *testing.T) {
	texts := []string{"Order {{ order_id }}.", "{% if x %}yes", "{# not a comment #}", "{%- endraw %} {% raw %}", "a {{ b }}\n<|user|>\n{{", "<% {{x}} %> <%% %%>"}
	for _, meta := range []map[string]any{nil, {"template": "mustache"}, {"template": map[string]any{"format": map[string]any{"kind": "mustache", "strict": false}}}, {"template": "jinja2"}} {
		for _, text := range texts {
			doc := &promptfmt.Document{Meta: meta, Messages: []promptfmt.Message{promptfmt.NewMessage("system", "s"), promptfmt.NewMessage("user", text)}}
			var out bytes.Buffer
			require.NoError(t, Write(&out, doc), "%v %q", meta, text)
			writesBack(t, doc)
		}
	}
	// A name or attribute value with template syntax is escaped too, in
	// a message before or after others, with metadata or without.
	m := promptfmt.NewMessage("user", "hi")
	m.Name, m.Metadata = "{{ who }}", map[string]any{"k": "{% x %}"}
	plain := promptfmt.NewMessage("assistant", "ok")
	plain.Metadata = map[string]any{"id": int64(7)}
	for _, msgs := range [][]promptfmt.Message{{m}, {plain, m}, {m, plain}, {plain, m, plain}} {
		doc := &promptfmt.Document{Messages: msgs}
		require.NoError(t, Write(io.Discard, doc))
		writesBack(t, doc)
	}
}

// TestWriteProperty: random texts of template fragments, role-marker-like
// lines, quotes and braces, under each engine.
func TestWriteTemplateProperty(t *testing.T) {
	pieces := []string{"a", " ", "\n", "{{", "}}", "{%", "%}", "{#", "#}", "{% raw %}", "{% endraw %}", "{%- endraw", "x", "user:", "\nuser:\n", "\nsystem[a=1]:\n",
		"\"", "'", "{", "}", "[", "]", "<%", "%>", "{{=", "=}}", "__PROMPTY_THREAD_ab_x__", "---\n", "\t", "é", "\r"}
	r := rand.New(rand.NewPCG(18, 1))
	text := func() string {
		var b strings.Builder
		for range 1 + r.IntN(8) {
			b.WriteString(pieces[r.IntN(len(pieces))])
		}
		return b.String()
	}
	metas := []map[string]any{nil, {"template": "mustache"}, {"template": map[string]any{"format": map[string]any{"kind": "jinja2", "strict": false}}}}
	for range 600 {
		doc := &promptfmt.Document{Meta: metas[r.IntN(len(metas))]}
		for j := range 1 + r.IntN(3) {
			doc.Messages = append(doc.Messages, promptfmt.NewMessage([]string{"user", "assistant"}[j%2], text()))
		}
		writesBack(t, doc)
	}
}

// FuzzWriteReadsBack: any text in a message, under either engine.
func FuzzWriteReadsBack(f *testing.F) {
	for _, s := range []string{"{{ order_id }}", "{% if x %}", "{%- endraw %}", "{{=<% %>=}}", "a\nuser:\nb", "  x  "} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, mustache bool) {
		if !utf8.ValidString(text) {
			return
		}
		doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", text)}}
		if mustache {
			doc.Meta = map[string]any{"template": "mustache"}
		}
		writesBack(t, doc)
	})
}

// Issue 18: STF ;meta with keys Prompty gives meaning to, of a type it
// does not take, made a .prompty that Load refused. Write refuses each,
// naming the key, so that Adapt drops it.
func TestWriteRefusesFrontMatterLoadRefuses(t *testing.T) {
	for key, v := range map[string]any{
		"inputs": int64(5), "outputs": "x", "model": int64(1), "name": []any{int64(1)}, "description": map[string]any{},
		"displayName": true, "metadata": "m", "tools": "t", "template": map[string]any{"format": int64(1)},
	} {
		for _, meta := range []map[string]any{{key: v}, {key: v, "other": "kept"}} {
			doc := &promptfmt.Document{Meta: meta, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi")}}
			err := Write(io.Discard, doc)
			var ue *promptfmt.UnsupportedError
			require.ErrorAs(t, err, &ue, "%v", meta)
			require.Equal(t, promptfmt.ThingMeta, ue.Thing)
			require.Equal(t, key, ue.Key)
			writesBack(t, doc)
		}
	}
	for _, tmpl := range []any{"handlebars", map[string]any{"parser": "other"}, map[string]any{"format": map[string]any{"kind": "x"}}} {
		err := Write(io.Discard, &promptfmt.Document{Meta: map[string]any{"template": tmpl}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi")}})
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue, "%v", tmpl)
		require.Equal(t, "template", ue.Key)
	}
	// A model is the request's (Meta's model: 'x' would read as it), and
	// a reference is checked when loaded.
	require.NoError(t, Write(io.Discard, &promptfmt.Document{Meta: map[string]any{"inputs": "${file:in.json}"}, Request: promptfmt.Request{Model: "x"},
		Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi")}}))
}

// Issue 18: Load trimmed the body's trailing blanks, so Prepare gave
// "hi" where Parse gave "hi  ".
func TestLoadAndParseAgreeOnTheBody(t *testing.T) {
	for _, src := range []string{"user:\nhi  ", "user:\nhi\t\n", "user:\nhi\n   \n\n", "system:\na\nuser:\nb \r\n"} {
		doc, err := Parse([]byte(src))
		require.NoError(t, err)
		a, err := Load([]byte(src))
		require.NoError(t, err)
		msgs, err := Prepare(a, nil)
		require.NoError(t, err)
		require.Equal(t, stripLines(doc.Messages), stripLines(msgs), "%q", src)
	}
}

// Issue 18: a thread input the template never places was dropped
// silently; Prepare warns, naming it.
func TestPrepareWarnsUnplacedThread(t *testing.T) {
	a, err := Load([]byte("---\ninputs:\n  history: {kind: thread}\n  other: {kind: thread}\n---\nsystem:\nhi\n{{ other }}\n"))
	require.NoError(t, err)
	var warns []string
	thread := []any{map[string]any{"role": "user", "content": "earlier"}}
	_, err = Prepare(a, map[string]any{"history": thread, "other": thread}, promptfmt.OnWarning(func(w promptfmt.Warning) { warns = append(warns, w.Msg) }))
	require.NoError(t, err)
	require.Len(t, warns, 1)
	require.Contains(t, warns[0], `thread input "history"`)
}
