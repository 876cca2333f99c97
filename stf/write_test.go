package stf

import (
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundTrip checks that doc survives Write then Parse, and that the
// written text is canonical.
func roundTrip(t *testing.T, doc *promptfmt.Document) []byte { return thisFormat.RoundTrip(t, doc) }

func TestWriteCanonical(t *testing.T) {
	tests := []struct {
		name string
		doc  *promptfmt.Document
		want string
	}{
		{"empty", &promptfmt.Document{}, ""},
		{"roles", &promptfmt.Document{Messages: []promptfmt.Message{msg("system", "S"), msg("developer", "D"), msg("user", "U"),
			msg("assistant", "A"), msg("tool", "T"), msg("narrator", "N"), msg("stage direction", ""), msg("", "")}},
			";sys\nS\n;dev\nD\n;user\nU\n;ai\nA\n;tool\nT\n;msg role=narrator\nN\n;msg role=\"stage direction\"\n;msg role=\"\"\n"},
		{"arguments in order, quoted when needed", &promptfmt.Document{Messages: []promptfmt.Message{
			withMeta(withName(msg("tool", "r"), "fn"), "call_id", "c1", "id", "m1", "zeta", "z", "alpha", "a b", "semi", "a;b", "eq", "a=b", "q", `it's "x"`, "ctl", "a\nb\x00"),
		}}, ";tool name=fn id=m1 call_id=c1 alpha=\"a b\" ctl=\"a\\nb\\u0000\" eq=a=b q=\"it's \\\"x\\\"\" semi=\"a;b\" zeta=z\nr\n"},
		{"text lines", &promptfmt.Document{Messages: []promptfmt.Message{msg("user", ";x\n;;y\n ;z\n\n"), msg("ai", "\n")}},
			";user\n;;x\n;;;y\n ;z\n\n\n;msg role=ai\n\n\n"},
		{"metadata that is not a one-line string goes to extra", &promptfmt.Document{Messages: []promptfmt.Message{
			withMeta(msg("assistant", "Hi"), "model", "gpt-4o", "temperature", 0.7, "Bad Key", "x", "role", "r", "name", "n", "id", int64(3)),
		}}, ";ai model=gpt-4o\nHi\n;extra\n{\n  'Bad Key': 'x',\n  id: 3,\n  name: 'n',\n  role: 'r',\n  temperature: 0.7,\n}\n;end\n"},
		{"meta first", &promptfmt.Document{Meta: map[string]any{"title": "T", "n": []any{int64(1), nil}}, Messages: []promptfmt.Message{msg("user", "x")}},
			";meta\n{\n  n: [\n    1,\n    null,\n  ],\n  title: 'T',\n}\n;end\n;user\nx\n"},
		{"parts", &promptfmt.Document{Messages: []promptfmt.Message{
			withParts("assistant", promptfmt.Text("Checking.\n"), call, promptfmt.Text("Done.")),
			withParts("user", img, promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: ";x", Detail: "low"}),
		}}, ";ai\nChecking.\n\n;call name=weather id=c1\n{\"city\":\"Paris\"}\nDone.\n;user\n;embed kind=image type=image/png\nhttps://example.com/a.png\n;embed kind=audio detail=low\n;;x\n"},
		{"raw when the commands cannot say it", &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: "user", Disabled: true, Content: []promptfmt.ContentPart{promptfmt.Text("x")}},
			withParts("user", promptfmt.Text("a"), promptfmt.Text("b")),
			withMeta(withParts("tool", promptfmt.ContentPart{Kind: promptfmt.KindToolResult, Value: "r", ID: "c1"}, promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "aGk=", Filename: "a.txt"}), "id", "m", "k", int64(1)),
		}}, `;raw
{
  role: 'user',
  disabled: true,
  content: 'x',
}
;end
;raw
{
  role: 'user',
  content: [
    {
      text: 'a',
      type: 'text',
    },
    {
      text: 'b',
      type: 'text',
    },
  ],
}
;end
;raw
{
  role: 'tool',
  id: 'm',
  content: [
    {
      content: 'r',
      id: 'c1',
      type: 'tool_result',
    },
    {
      data: 'aGk=',
      name: 'a.txt',
      type: 'file',
    },
  ],
  extra: {
    k: 1,
  },
}
;end
`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := roundTrip(t, tt.doc)
			assert.Equal(t, tt.want, string(out))
		})
	}
}

// Everything that needs ;raw, one thing at a time.
func TestWriteRawFallbacks(t *testing.T) {
	for _, m := range []promptfmt.Message{
		withParts("user", promptfmt.Text("")), // not raw: the empty message
		withParts("user", img, promptfmt.Text("")),
		withParts("user", promptfmt.Text(""), img),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: "{\n}"}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: "not json"}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: "{}\r"}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: ""}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "a b"}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: ""}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "x", ID: "file-1"}),
		withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindToolResult, Value: "r", ToolName: "f"}),
	} {
		out := roundTrip(t, &promptfmt.Document{Messages: []promptfmt.Message{m}})
		assert.Equal(t, m.Content[0].Value != "" || len(m.Content) > 1 || m.Content[0].Kind != promptfmt.KindText, bytes.HasPrefix(out, []byte(";raw")), "%s", out)
	}
}

func TestWriteUnsupported(t *testing.T) {
	doc := &promptfmt.Document{
		Meta: map[string]any{"t": struct{}{}},
		Messages: []promptfmt.Message{
			msg("user", "ok"),
			msg("user\xff", "x"),
			withParts("user", promptfmt.ContentPart{Kind: "video", Value: "x"}),
			withParts("user", promptfmt.ContentPart{Kind: promptfmt.KindText, Value: "x", MediaType: "text/plain"}),
			withParts("user", promptfmt.Text("\xfe")),
			withMeta(msg("user", "x"), "ch", make(chan int)),
			withMeta(msg("user", "x"), "bad", "\xff"),
		},
	}
	doc.Messages[2].Line = 9
	var out bytes.Buffer
	err := Write(&out, doc)
	require.Error(t, err)
	assert.Empty(t, out.String(), "nothing is written when something cannot be")
	for _, want := range []string{
		"stf: document: metadata: a struct {} is not a JSON-like value",
		"stf: message 2: a role or name that is not UTF-8",
		`stf: message 3 (line 9): part 1 has the unknown kind "video"`,
		"stf: message 4: a text part with a mediaType",
		"stf: message 5: part 1 holds text that is not UTF-8",
		"stf: message 6: metadata .ch is not a JSON-like value",
		"stf: message 7: string \"\\xff\" is not valid UTF-8",
	} {
		assert.Contains(t, err.Error(), want)
	}
	var ue *promptfmt.UnsupportedError
	assert.ErrorAs(t, err, &ue)
}

// A message with no parts is written, and read back, as one empty text.
func TestWriteNoContent(t *testing.T) {
	var out bytes.Buffer
	require.NoError(t, Write(&out, &promptfmt.Document{Messages: []promptfmt.Message{{Role: "user"}}}))
	assert.Equal(t, ";user\n", out.String())
}

// Property: any document survives Write then Parse, but one whose Meta
// holds a key of a setting's name that would read as the setting: that
// key, and only that, is refused.
func TestWriteRandomRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	refused := 0
	for range 3000 {
		doc := randomDoc(r)
		if err := Write(io.Discard, doc); err != nil {
			for _, e := range formattest.Flatten(err) {
				var ue *promptfmt.UnsupportedError
				require.ErrorAs(t, e, &ue)
				require.Equal(t, promptfmt.ThingMeta, ue.Thing, "%v", e)
				require.Equal(t, "request", ue.Key, "%v", e)
				delete(doc.Meta, ue.Key)
			}
			refused++
		}
		roundTrip(t, doc)
	}
	require.NotZero(t, refused, "no Meta key read as a setting was generated")
}

// The canonical files in testdata are unchanged by a read and a write, as
// promptfmt fmt would leave them.
func TestCanonicalFiles(t *testing.T) {
	files, err := filepath.Glob("testdata/canonical/*.stf")
	require.NoError(t, err)

	for _, f := range files {
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		doc, err := Parse(src)
		require.NoError(t, err, f)
		assert.Equal(t, string(src), string(roundTrip(t, doc)), f)
	}
}

var pieces = []string{"a", "b", "Hello", " ", "\t", "\n", "\n", "\r", ";", ";;", "'", "\"", "\\", "=", "{", "}", "é", "😀", "/*", "*/", "#", "//", "\x00", "\v", "\u2028", "end", "user"}

func randomString(r *rand.Rand, max int) string {
	var b strings.Builder
	for range r.IntN(max + 1) {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

func randomValue(r *rand.Rand, depth int) any {
	switch r.IntN(9) {
	case 0:
		return nil
	case 1:
		return r.IntN(2) == 0
	case 2:
		return r.Int64() - r.Int64()
	case 3:
		return []float64{0.5, -2.0, 1e300, math.Copysign(0, -1), 1e-300, 3}[r.IntN(6)]
	case 4, 5:
		return randomString(r, 4)
	case 6:
		if depth < 3 {
			var a []any
			for range r.IntN(3) {
				a = append(a, randomValue(r, depth+1))
			}
			if a == nil {
				a = []any{}
			}
			return a
		}
	case 7:
		if depth < 3 {
			return randomMap(r, depth+1)
		}
	}
	return "x"
}

func randomMap(r *rand.Rand, depth int) map[string]any {
	m := map[string]any{}
	for range r.IntN(4) {
		k := []string{"id", "call_id", "name", "role", "model", "a_b", "Key", "two words", "", "reasoning", "extra", "x", "request"}[r.IntN(13)]
		m[k] = randomValue(r, depth)
		if k == "request" && r.IntN(2) == 0 { // a setting's place, with a value the Request cannot hold
			m[k] = map[string]any{"temperature": "hot"}
		}
	}
	return m
}

func randomPart(r *rand.Rand) promptfmt.ContentPart {
	switch r.IntN(6) {
	case 0:
		kind := []promptfmt.Kind{promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile}[r.IntN(3)]
		p := promptfmt.ContentPart{Kind: kind, Value: []string{"https://x.test/a.png", "aGk=", ";x", "a b", ""}[r.IntN(5)]}
		if r.IntN(2) == 0 {
			p.MediaType = "image/png"
		}
		if r.IntN(3) == 0 {
			p.Detail = randomString(r, 2)
		}
		if r.IntN(4) == 0 {
			p.ID, p.Filename = randomString(r, 2), randomString(r, 2)
		}
		return p
	case 1:
		return promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: []string{`{"a":1}`, "{}", "[1,\n2]", "x", ""}[r.IntN(5)], ID: randomString(r, 2), ToolName: randomString(r, 2)}
	case 2:
		return promptfmt.ContentPart{Kind: promptfmt.KindToolResult, Value: randomString(r, 3), ID: randomString(r, 1)}
	}
	return promptfmt.Text(randomString(r, 8))
}

func randomDoc(r *rand.Rand) *promptfmt.Document {
	doc := &promptfmt.Document{}
	if r.IntN(3) == 0 {
		doc.Meta = randomMap(r, 0)
	}
	for range r.IntN(5) {
		m := promptfmt.Message{Role: []string{"user", "assistant", "system", "developer", "tool", "narrator", "", "a b", "_head", "ai"}[r.IntN(10)]}
		if r.IntN(3) == 0 {
			m.Name = randomString(r, 3)
		}
		if r.IntN(3) == 0 {
			m.Metadata = randomMap(r, 0)
		}
		m.Disabled = r.IntN(10) == 0
		for range 1 + r.IntN(3) {
			m.Content = append(m.Content, randomPart(r))
		}
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

// countingWriter counts the writes it is given and the most bytes in one.
type countingWriter struct{ writes, most, total int }

func (c *countingWriter) Write(p []byte) (int, error) {
	c.writes++
	c.most = max(c.most, len(p))
	c.total += len(p)
	return len(p), nil
}

// A large document is written in blocks, never held whole; a refused one
// writes nothing, even when the refused message is the last.
func TestWriteStreams(t *testing.T) {
	doc := corpus.Short(1 << 20)
	var c countingWriter
	require.NoError(t, Write(&c, doc))
	assert.Greater(t, c.writes, 8)
	assert.Less(t, c.most, 2*flushSize)
	doc.Messages[len(doc.Messages)-1].Metadata = map[string]any{"x": math.NaN()}
	c = countingWriter{}
	require.Error(t, Write(&c, doc))
	assert.Zero(t, c.total)
}
