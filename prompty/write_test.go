package prompty

import (
	"bytes"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Canonical files come back byte for byte from Write(Parse(x)).
func TestCanonicalGolden(t *testing.T) {
	for name, src := range canonicalFiles(t) {
		t.Run(name, func(t *testing.T) {
			doc, err := Parse(src)
			require.NoError(t, err)
			require.Empty(t, doc.Warnings)
			var out bytes.Buffer
			require.NoError(t, Write(&out, doc))
			assert.Equal(t, string(src), out.String())
		})
	}
}

func TestWriteForm(t *testing.T) {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		{Role: "user", Name: "Ross", Content: []promptfmt.ContentPart{promptfmt.Text("Hi")},
			Metadata: map[string]any{"n": 3, "f": 2.0, "big": 1e21, "s": "7", "t": "true", "e": "", "sp": " x", "nonce": "0123", "tab": "a\tb"}},
		{Role: "assistant", Content: []promptfmt.ContentPart{promptfmt.Text("")}},
		{Role: "system"},
	}}
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, "user[name=Ross, big=1e+21, e=\"\", f=2.0, n=3, nonce=0123, s=\"7\", sp=\" x\", t=\"true\", tab=a\tb]:\nHi\n\nassistant:\n\nsystem:\n", out.String())
	back, err := Parse(out.Bytes())
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"n": int64(3), "f": 2.0, "big": 1e21, "s": "7", "t": "true", "e": "", "sp": " x", "nonce": "0123", "tab": "a\tb"}, back.Messages[0].Metadata)
}

// Property 3: what Prompty cannot express is an error naming each thing,
// and nothing is written.
func TestWriteUnsupported(t *testing.T) {
	img := promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "aGk=", MediaType: "image/png"}
	for _, tc := range []struct {
		m    promptfmt.Message
		want []string
	}{
		{promptfmt.NewMessage("_head", "x"), []string{`role "_head" cannot be expressed`}},
		{promptfmt.NewMessage("User", "x"), []string{`role "User" cannot be expressed`}},
		{promptfmt.NewMessage("", "x"), []string{`role "" cannot be expressed`}},
		{promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("x")}, Disabled: true}, []string{"a disabled message"}},
		{promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("x"), img}}, []string{"a part of kind image cannot be expressed"}},
		{promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("x"), promptfmt.Text("y")}}, []string{"2 text parts"}},
		{promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindText, Value: "x", MediaType: "text/plain"}}}, []string{"a text part with a mediaType"}},
		{promptfmt.Message{Role: "assistant", Content: []promptfmt.ContentPart{{Kind: promptfmt.KindToolCall, Value: "{}"}}}, []string{"a part of kind tool_call"}},
		{promptfmt.NewMessage("user", "a\r\nb"), []string{"text with a carriage return"}},
		{promptfmt.NewMessage("user", "\nx"), []string{"text that starts or ends with an empty line"}},
		{promptfmt.NewMessage("user", "x\n"), []string{"text that starts or ends with an empty line"}},
		{promptfmt.NewMessage("user", "hi\n# assistant:\nbye"), []string{`line 2 of its text, "# assistant:", would be read as a role boundary`}},
		{promptfmt.Message{Role: "user", Name: "a\nb", Content: []promptfmt.ContentPart{promptfmt.Text("x")}}, []string{"a name with a line break"}},
		{promptfmt.Message{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("x")}, Metadata: map[string]any{
			"name": "n", "bad key": 1, "list": []any{1}, "nan": math.NaN(), "nl": "a\nb", "nil": nil}},
			[]string{`metadata "name": a name key`, `metadata "bad key": the key is not an attribute name`, `metadata "list": an array cannot`,
				`metadata "nan": an infinite or NaN`, `metadata "nl": a value with a line break`, `metadata "nil": null cannot`}},
	} {
		doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("system", "ok"), tc.m}}
		doc.Messages[1].Line = 12
		var out bytes.Buffer
		err := Write(&out, doc)
		require.Error(t, err, "%+v", tc.m)
		assert.Zero(t, out.Len(), "nothing may be written on error")
		for _, w := range tc.want {
			assert.Contains(t, err.Error(), "prompty: message 2 (line 12): "+w)
		}
		var ue *promptfmt.UnsupportedError
		require.True(t, errors.As(err, &ue))
		assert.Equal(t, 1, ue.Index)
	}
	err := Write(&bytes.Buffer{}, &promptfmt.Document{Meta: map[string]any{"f": func() {}}})
	assert.ErrorContains(t, err, "prompty: document: front matter: value at .f is not JSON-like data")
}

// Property 1: Parse(Write(d)) equals d for every document Prompty can
// express, over random documents.
func TestRoundTripProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		roundTrip(t, randomDoc(r))
	}
}

var (
	roles      = []string{"system", "user", "assistant", "developer", "tool"}
	textPieces = []string{"hello", "user:", "# system:", "user[a=1]:", "  ", "\t", "", "Zoë", "::", "[x]", `"q"`, "\\", "---",
		"__PROMPTY_THREAD_ab_x__", "assistant : x", "\u2028", "\v", "a=b,", "100% sure", "```"}
	valuePieces = []string{"", " ", "a", "b c", ",", "]", `"`, "\\", "7", "true", "007", "1e5", "-", "nonce", "Zoë", "\t", "[", ":"}
)

func randomDoc(r *rand.Rand) *promptfmt.Document {
	doc := &promptfmt.Document{}
	if r.IntN(4) == 0 {
		doc.Meta = map[string]any{"name": pick(r, valuePieces), "n": int64(r.IntN(100)), "nested": map[string]any{"list": []any{"a", true, 1.5}}}
	}
	for range r.IntN(6) {
		m := promptfmt.Message{Role: roles[r.IntN(len(roles))]}
		var lines []string
		for range r.IntN(5) {
			var b strings.Builder
			for range r.IntN(4) {
				b.WriteString(pick(r, textPieces))
			}
			lines = append(lines, b.String())
		}
		text := strings.Trim(strings.Join(lines, "\n"), "\n")
		for _, l := range strings.Split(text, "\n") {
			if _, ok, _ := parseMarker(l); ok {
				text = "" // not expressible; Write's errors are tested elsewhere
			}
		}
		m.Content = []promptfmt.ContentPart{promptfmt.Text(text)}
		if r.IntN(3) == 0 {
			m.Name = pick(r, valuePieces) + pick(r, valuePieces)
		}
		for range r.IntN(4) {
			if m.Metadata == nil {
				m.Metadata = map[string]any{}
			}
			k := []string{"id", "nonce", "x_1", "K"}[r.IntN(4)]
			switch r.IntN(4) {
			case 0:
				m.Metadata[k] = pick(r, valuePieces) + pick(r, valuePieces)
			case 1:
				m.Metadata[k] = r.Int64() - r.Int64()
			case 2:
				m.Metadata[k] = r.NormFloat64() * math.Pow(10, float64(r.IntN(40)-20))
			case 3:
				m.Metadata[k] = r.IntN(2) == 0
			}
			if k == "nonce" {
				m.Metadata[k] = pick(r, valuePieces) // Parse keeps nonces as strings
			}
		}
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

func pick(r *rand.Rand, from []string) string { return from[r.IntN(len(from))] }

// Front matter keeps the author's key order, comments and plain timestamps
// while Meta is unchanged; a changed Meta is written afresh, keys sorted.
func TestWriteKeepsFrontMatter(t *testing.T) {
	src := "---\n# the triage prompt\nname: triage # short\ncreated: 2024-01-02T03:04:05Z\nmodel: {id: gpt-4o}\n---\nuser:\nhi\n"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, "2024-01-02T03:04:05Z", doc.Meta["created"])
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, src, out.String())

	doc.Meta["name"] = "renamed"
	out.Reset()
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, "---\ncreated: \"2024-01-02T03:04:05Z\"\nmodel:\n  id: gpt-4o\nname: renamed\n---\nuser:\nhi\n", out.String())
	roundTrip(t, doc)
}
