package promptfile

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var thisFormat = formattest.Format{
	Parse: func(b []byte) (*promptfmt.Document, error) { return Parse(b) },
	Write: func(w io.Writer, d *promptfmt.Document) error { return Write(w, d) },
}

const seedBody = "Find more precise way to state this instruction:\nDiscard all HTML tags.\n"

func TestHashVectors(t *testing.T) {
	for in, want := range map[string]string{
		"hello":     "f572d396fae9206628714fb2ce00f72e94f2258f",
		"a\r\nb\rc": "3ca69e8d6c234a469d16ac28a4a658c92267c423",
		seedBody:    "3b215be875d3e5c583e1a4bd80a358243b4747b1",
		"":          "da39a3ee5e6b4b0d3255bfef95601890afd80709",
	} {
		assert.Equal(t, want, Hash(in), "%q", in)
	}
}

func promptFile(id, created, hash, extra, body string) string {
	return fmt.Sprintf("---\nprompt-id: %s\ncreated-at: %s\nsha1-hash: %s\n%s---\n\n%s", id, created, hash, extra, body)
}

func warnings(doc *promptfmt.Document) []string {
	var out []string
	for _, w := range doc.Warnings {
		out = append(out, w.String())
	}
	return out
}

func TestParse(t *testing.T) {
	good := promptFile(`"P42"`, `"2022-08-17T14:37:22Z"`, `"3b215be875d3e5c583e1a4bd80a358243b4747b1"`, "# who made it\ngenerator: human\nancestors: [P1, P2]\n", seedBody)
	tests := []struct {
		name, in string
		body     string
		meta     map[string]any
		warn     []string
	}{
		{"canonical", good, seedBody, map[string]any{"prompt-id": "P42", "created-at": "2022-08-17T14:37:22Z",
			"sha1-hash": "3b215be875d3e5c583e1a4bd80a358243b4747b1", "generator": "human", "ancestors": []any{"P1", "P2"}}, nil},
		{"unquoted time and all-digit hash stay strings",
			promptFile("P1", "2022-08-17T14:37:22Z", "1234567890123456789012345678901234567890", "", "hi\n"), "hi\n",
			map[string]any{"prompt-id": "P1", "created-at": "2022-08-17T14:37:22Z", "sha1-hash": "1234567890123456789012345678901234567890"},
			[]string{"promptfile:4:12: the body does not match its hash: sha1-hash is 1234567890123456789012345678901234567890, the body hashes to 55ca6286e3e4f4fba5d0448333fa99fc5a404a73 (the body was edited or corrupted)"}},
		{"CRLF, BOM, blank lines before the body, --- in the body, uppercase hash",
			"\ufeff---\r\nprompt-id: P7\r\ncreated-at: 2024-01-02T03:04:05Z\r\nsha1-hash: " + strings.ToUpper(Hash("a\n---\nb\n")) + "\r\n---  \r\n\r\n  \r\na\r\n---\rb",
			"a\n---\nb\n", nil, []string{"promptfile:1:1: byte order mark at the start of the file ignored (prompt files are written without one)",
				"promptfile:5:4: blanks after --- ignored"}},
		{"no front matter", "just a body", "just a body\n", nil, []string{
			"promptfile:1:1: missing prompt-id: want P followed by digits, such as P42",
			"promptfile:1:1: missing created-at: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z",
			"promptfile:1:1: missing sha1-hash: want 40 hexadecimal digits; the body hashes to " + Hash("just a body")}},
		{"empty front matter, empty body", "---\n---\n", "", nil, []string{
			"promptfile:1:1: missing prompt-id: want P followed by digits, such as P42",
			"promptfile:1:1: missing created-at: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z",
			"promptfile:1:1: missing sha1-hash: want 40 hexadecimal digits; the body hashes to da39a3ee5e6b4b0d3255bfef95601890afd80709"}},
		{"the seed's example: id, generated-at, a 20-digit hash",
			"---\nid: \"P323\"\ngenerator: \"human\"\ngenerated-at: \"2025-06-28T12:00:00Z\"\nsha1-hash: \"7fd8e8e70235bc6fd5c1\"\n---\n\n" + seedBody, seedBody, nil, []string{
				"promptfile:2:5: missing prompt-id: id \"P323\" is read in its place (the seed example's spelling); write prompt-id",
				"promptfile:1:1: missing created-at: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z",
				"promptfile:5:12: sha1-hash \"7fd8e8e70235bc6fd5c1\" is malformed: want 40 hexadecimal digits; the body hashes to 3b215be875d3e5c583e1a4bd80a358243b4747b1"}},
		{"malformed keys", promptFile("42", "yesterday", "null", "", "x"), "x\n", nil, []string{
			`promptfile:2:12: prompt-id "42" is malformed: want P followed by digits, such as P42`,
			`promptfile:3:13: created-at "yesterday" is malformed: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z`,
			"promptfile:4:12: sha1-hash must be a string: want 40 hexadecimal digits; the body hashes to 6fcf9dfbd479ed82697fee719b9f8c610a11ff2a"}},
		{"local time is not UTC", promptFile("P1", "2022-08-17T14:37:22+02:00", Hash("x"), "", "x"), "x\n", nil, []string{
			`promptfile:3:13: created-at "2022-08-17T14:37:22+02:00" is malformed: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Parse([]byte(tt.in))
			require.NoError(t, err)
			require.Len(t, doc.Messages, 1)
			assert.Equal(t, "user", doc.Messages[0].Role)
			assert.Equal(t, tt.body, doc.Messages[0].Text())
			if tt.meta != nil {
				assert.True(t, promptfmt.Equal(&promptfmt.Document{Meta: tt.meta}, &promptfmt.Document{Meta: doc.Meta}), "%v", doc.Meta)
			}
			assert.Equal(t, tt.warn, warnings(doc))
			assert.Equal(t, len(tt.warn) > 0 && !strings.Contains(tt.name, "CRLF"), Verify([]byte(tt.in)) != nil)
		})
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"---\nprompt-id: P1\nbody":        "promptfile:1:1: front matter opened here is never closed",
		"---\na: [1\n---\nx":              "promptfile:2:1: front matter: did not find expected ',' or ']'",
		"---\na: 1\n...\nb: 2\n---\nbody": "promptfile:3:1: front matter: did not find expected <document start>",
		"---\na: 1\na: 2\n---\nx":         "promptfile:3:1: front matter: mapping key \"a\" already defined at line 2",
		"---\n- 1\n---\nx":                "promptfile:2:1: front matter: want a mapping",
		"x\xff":                           "promptfile:1:2: invalid UTF-8",
	} {
		_, err := Parse([]byte(in))
		assert.ErrorContains(t, err, want, "%q", in)
	}
}

func TestVerify(t *testing.T) {
	good := promptFile(`"P1"`, `"2022-08-17T14:37:22Z"`, `"`+Hash("body\n")+`"`, "", "body\n")
	assert.NoError(t, Verify([]byte(good)))
	edited := strings.Replace(good, "body", "b0dy", 1)
	err := Verify([]byte(edited))
	assert.ErrorContains(t, err, "promptfile:4:12: the body does not match its hash")
	assert.ErrorContains(t, err, Hash("b0dy\n"))
	// Changing metadata only keeps the hash valid.
	assert.NoError(t, Verify([]byte(strings.Replace(good, "\n---\n\n", "\nmodel: gpt-4o\n---\n\n", 1))))
}

func TestWrite(t *testing.T) {
	src := "---\n# provenance\ngenerator: human   # typed in\nsha1-hash: " + Hash(seedBody) + "\nprompt-id: P42\nancestors:\n  - P1\ncreated-at: 2022-08-17T14:37:22Z\n---\n" + seedBody
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	out := thisFormat.RoundTrip(t, doc)
	assert.Equal(t, "---\nprompt-id: \"P42\"\ncreated-at: \"2022-08-17T14:37:22Z\"\nsha1-hash: \""+Hash(seedBody)+"\"\n# provenance\ngenerator: human # typed in\nancestors:\n  - P1\n---\n\n"+seedBody, string(out))
	assert.NoError(t, Verify(out))

	// A changed Meta is written fresh, keys sorted after the mandatory ones.
	doc.Meta["model"] = "gpt-4o"
	out = thisFormat.RoundTrip(t, doc)
	assert.Contains(t, string(out), "sha1-hash: \""+Hash(seedBody)+"\"\nancestors:\n  - P1\ngenerator: human\nmodel: gpt-4o\n---\n\n"+seedBody)

	// Canonical files are unchanged by a read and a write.
	example, err := os.ReadFile("../testdata/examples/discard-html.prompt")
	require.NoError(t, err)
	doc, err = Parse(example)
	require.NoError(t, err)
	assert.Equal(t, string(example), string(thisFormat.RoundTrip(t, doc)))
	assert.NoError(t, Verify(example))
}

func TestWriteUnsupported(t *testing.T) {
	img := promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "x"}
	for _, tc := range []struct {
		doc  *promptfmt.Document
		want string
	}{
		{&promptfmt.Document{}, "0 messages"},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "a"), promptfmt.NewMessage("user", "b")}}, "2 messages"},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("system", "a")}}, `role "system"`},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Name: "n", Content: []promptfmt.ContentPart{promptfmt.Text("a")}}}}, "a message name"},
		{&promptfmt.Document{Messages: []promptfmt.Message{{Role: "user", Content: []promptfmt.ContentPart{promptfmt.Text("a"), img}}}}, "a part of kind image"},
		{&promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "\nx")}}, "starts with a blank line"},
		{&promptfmt.Document{Meta: map[string]any{"x": struct{}{}}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "x")}}, "not JSON-like"},
		{&promptfmt.Document{Meta: map[string]any{KeyHash: int64(7)}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "x")}}, "sha1-hash is not a string"},
	} {
		var b bytes.Buffer
		err := Write(&b, tc.doc)
		assert.ErrorContains(t, err, tc.want)
		assert.Empty(t, b.String())
	}
}

// Property: any document the format can express survives a round trip.
func TestWriteRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	words := []string{"a", "b c", "---", "...", "#", ": x", "\n", "\n", "'", "\"", "é", "  ", "\t", "P1", "2022-08-17T14:37:22Z", "0123", "true", "null"}
	text := func(n int) string {
		var b strings.Builder
		for range r.IntN(n + 1) {
			b.WriteString(words[r.IntN(len(words))])
		}
		return b.String()
	}
	for range 2000 {
		body := Canonical(strings.TrimLeft(text(10), " \t\n"))
		doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", body)}}
		if r.IntN(4) > 0 {
			doc.Meta = map[string]any{}
			for range r.IntN(5) {
				k := []string{KeyID, KeyCreated, KeyHash, "generator", "model", "ancestors", "score", "x y"}[r.IntN(8)]
				var v any = text(3)
				switch r.IntN(4) {
				case 0:
					v = []any{text(2), int64(r.IntN(100))}
				case 1:
					if k != KeyID && k != KeyCreated && k != KeyHash {
						v = 0.25
					}
				}
				doc.Meta[k] = v
			}
		}
		thisFormat.RoundTrip(t, doc)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte(promptFile(`"P42"`, "2022-08-17T14:37:22Z", Hash(seedBody), "a: [1, {b: c}]\n", seedBody)))
	f.Add([]byte("\ufeff---\r\nid: 1\r\n---  \r\n\r\nx\r---\ry"))
	f.Add([]byte("---\n---\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			return
		}
		if m := doc.Messages[0].Text(); strings.TrimSpace(lines.First(m)) == "" && strings.TrimSpace(m) != "" {
			t.Fatalf("body starts with a blank line: %q", m)
		}
		if Hash(doc.Messages[0].Text()) != Hash(string(Canonical(doc.Messages[0].Text()))) {
			t.Fatal("body is not canonical")
		}
		var b bytes.Buffer
		if err := Write(&b, doc); err != nil {
			if strings.Contains(err.Error(), "front matter") {
				return // YAML values yaml.v3 cannot write back, such as non-UTF-8 or odd keys
			}
			t.Fatalf("Write: %v", err)
		}
		thisFormat.RoundTrip(t, doc)
	})
}

// corpusAsBody is the shared benchmark conversation's text as one body.
func corpusAsBody() *promptfmt.Document {
	var b strings.Builder
	for _, m := range corpus.Conversation(formattest.BenchSize).Messages {
		b.WriteString(m.Text())
		b.WriteString("\n")
	}
	body := b.String()
	return &promptfmt.Document{
		Meta:     map[string]any{KeyID: "P1", KeyCreated: "2025-06-28T14:37:22Z", KeyHash: Hash(body)},
		Messages: []promptfmt.Message{promptfmt.NewMessage("user", body)},
	}
}

// A body not in canonical form is refused, not silently changed: the
// error offers the canonical body as Nearest.
func TestWriteRefusesNonCanonicalBody(t *testing.T) {
	for _, tc := range []struct{ text, want, nearest string }{
		{"hi", "no line break at its end", "hi\n"},
		{"a\r\nb\n", "CR line breaks", "a\nb\n"},
		{"a\rb", "CR line breaks and no line break at its end", "a\nb\n"},
	} {
		var b bytes.Buffer
		err := Write(&b, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", tc.text)}})
		require.ErrorContains(t, err, tc.want)
		var ue *promptfmt.UnsupportedError
		require.ErrorAs(t, err, &ue)
		require.Equal(t, promptfmt.ThingText, ue.Thing)
		require.NotNil(t, ue.Nearest)
		require.Equal(t, tc.nearest, *ue.Nearest)
		require.Empty(t, b.String())
		require.NoError(t, Write(&b, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", *ue.Nearest)}}))
	}
}
