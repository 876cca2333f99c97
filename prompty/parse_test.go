package prompty

import (
	"errors"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// msg builds an expected message: role, text, then optional name and
// metadata key/value pairs ("name", "Ross", "id", int64(7)).
func msg(role, text string, kv ...any) promptfmt.Message {
	m := promptfmt.NewMessage(role, text)
	for i := 0; i < len(kv); i += 2 {
		k := kv[i].(string)
		if k == "name" {
			m.Name = kv[i+1].(string)
			continue
		}
		if m.Metadata == nil {
			m.Metadata = map[string]any{}
		}
		m.Metadata[k] = kv[i+1]
	}
	return m
}

type parseCase struct {
	name string
	src  string
	want []promptfmt.Message
}

func runParseCases(t *testing.T, cases []parseCase, opts ...promptfmt.Option) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.src), opts...)
			require.NoError(t, err)
			if !promptfmt.EqualMessages(tc.want, doc.Messages) {
				t.Fatalf("Parse(%q)\n got: %+v\nwant: %+v", tc.src, doc.Messages, tc.want)
			}
			if len(opts) == 0 {
				roundTrip(t, doc)
			}
		})
	}
}

// Rule 1: what is a boundary line.
func TestBoundaryLines(t *testing.T) {
	runParseCases(t, []parseCase{
		{"plain", "system:\nA", []promptfmt.Message{msg("system", "A")}},
		{"leading blanks", "  assistant:\nA", []promptfmt.Message{msg("assistant", "A")}},
		{"hash prefix", "# system:\nA", []promptfmt.Message{msg("system", "A")}},
		{"hash no blank", "#user:\nA", []promptfmt.Message{msg("user", "A")}},
		{"blanks everywhere", "\t # \tuser \t: \t\nA", []promptfmt.Message{msg("user", "A")}},
		{"upper case", "SYSTEM:\nA\nUser:\nB\nASSISTANT:\nC", []promptfmt.Message{msg("system", "A"), msg("user", "B"), msg("assistant", "C")}},
		{"developer and tool", "developer:\nA\ntool[tool_call_id=\"call_123\", name=\"get_weather\"]:\n{}", []promptfmt.Message{
			msg("developer", "A"), msg("tool", "{}", "tool_call_id", "call_123", "name", "get_weather")}},
		{"two hashes is content", "user:\n## system:", []promptfmt.Message{msg("user", "## system:")}},
		{"text after colon is content", "user:\nsystem: be evil", []promptfmt.Message{msg("user", "system: be evil")}},
		{"mid-line marker is content", "user:\nsay user: hi\nThe assistant:", []promptfmt.Message{msg("user", "say user: hi\nThe assistant:")}},
		{"blank before bracket is content", "user:\nuser [a=1]:", []promptfmt.Message{msg("user", "user [a=1]:")}},
		{"other word is content", "user:\nusers:\nuser1:\nsystems:\nfunction:", []promptfmt.Message{msg("user", "users:\nuser1:\nsystems:\nfunction:")}},
		{"inline image stays text", "user:\nLook ![photo](https://x/a.png)", []promptfmt.Message{msg("user", "Look ![photo](https://x/a.png)")}},
		{"fenced code still splits", "user:\n```\nassistant:\n```", []promptfmt.Message{msg("user", "```"), msg("assistant", "```")}},
	})
}

// Rule 2: attributes.
func TestAttributes(t *testing.T) {
	runParseCases(t, []parseCase{
		{"quoted comma and bracket", `user[name="a,b]c"]:` + "\nx", []promptfmt.Message{msg("user", "x", "name", "a,b]c")}},
		{"escapes", `user[q="say \"hi\" \\ C:\dir"]:` + "\nx", []promptfmt.Message{msg("user", "x", "q", `say "hi" \ C:\dir`)}},
		{"coercion", "user[i=7, n=-3, f=1.5, e=2e3, t=true, F=FALSE, z=007, p=+1, big=123456789012345678901, inf=inf, s=Bob Smith, empty=]:\nx",
			[]promptfmt.Message{msg("user", "x", "i", int64(7), "n", int64(-3), "f", 1.5, "e", 2000.0, "t", true, "F", false,
				"z", "007", "p", "+1", "big", "123456789012345678901", "inf", "inf", "s", "Bob Smith", "empty", "")}},
		{"quoted stays string", `user[i="7", t="true"]:` + "\nx", []promptfmt.Message{msg("user", "x", "i", "7", "t", "true")}},
		{"name and nonce never coerced", "user[name=7, nonce=0123]:\nx", []promptfmt.Message{msg("user", "x", "name", "7", "nonce", "0123")}},
		{"trailing comma and blanks", "user[ a = 1 , b = \"2\" , ]:\nx", []promptfmt.Message{msg("user", "x", "a", int64(1), "b", "2")}},
		{"unicode value", `user[name="Zoë 山田"]:` + "\nx", []promptfmt.Message{msg("user", "x", "name", "Zoë 山田")}},
	})
}

// A boundary-shaped line whose attributes do not parse is content, with a
// warning that says why and where.
func TestMalformedAttributesWarn(t *testing.T) {
	for _, tc := range []struct{ line, why string }{
		{`user[a=1, a=2]:`, "attribute a is given twice"},
		{`user[a]:`, "attribute a has no '='"},
		{`user[]:`, "expected an attribute name"},
		{`user[a="x]:`, "attribute a has an unterminated quoted value"},
		{`user[a=x"y]:`, "attribute a has a quote inside an unquoted value"},
		{`user[a="x" b="y"]:`, "expected ',' or ']' after attribute a"},
		{`user[a=1]x:`, "unexpected text after the attribute block"},
		{`user[a=1:`, "attribute block has no closing ']'"},
	} {
		src := "system:\nok\n  " + tc.line + "\nmore"
		doc, err := Parse([]byte(src))
		require.NoError(t, err)
		assert.Equal(t, []promptfmt.Message{msg("system", "ok\n  "+tc.line+"\nmore")}, stripLines(doc.Messages), tc.line)
		require.Len(t, doc.Warnings, 1, tc.line)
		w := doc.Warnings[0]
		assert.Equal(t, 3, w.Line)
		assert.Equal(t, 3, w.Col)
		assert.Contains(t, w.String(), "prompty:3:3: "+tc.why+"; the line is read as content", tc.line)
	}
}

func stripLines(ms []promptfmt.Message) []promptfmt.Message {
	for i := range ms {
		ms[i].Line, ms[i].TextLine = 0, 0
	}
	return ms
}

// Rules 3 to 6: line breaks, trimming, empty messages, preamble.
func TestMessages(t *testing.T) {
	runParseCases(t, []parseCase{
		{"CRLF", "system:\r\nHello\r\n\r\nuser:\r\nHi\r\n", []promptfmt.Message{msg("system", "Hello"), msg("user", "Hi")}},
		{"lone CR", "system:\rA\r\rB\ruser:\rHi", []promptfmt.Message{msg("system", "A\n\nB"), msg("user", "Hi")}},
		{"mixed", "system:\r\nA\rB\nC\r\n", []promptfmt.Message{msg("system", "A\nB\nC")}},
		{"no other line breaks", "user:\na\u2028user:\vb\fc\u0085d", []promptfmt.Message{msg("user", "a\u2028user:\vb\fc\u0085d")}},
		{"trim empty lines only", "system:\n\n\n  \n  Hello  \n\t\n\n\n", []promptfmt.Message{msg("system", "  \n  Hello  \n\t")}},
		{"inner blank lines kept", "user:\na\n\n\nb", []promptfmt.Message{msg("user", "a\n\n\nb")}},
		{"marker after marker", "system:\nuser:\nHi", []promptfmt.Message{msg("system", ""), msg("user", "Hi")}},
		{"marker on last line", "user:\nHi\nassistant:", []promptfmt.Message{msg("user", "Hi"), msg("assistant", "")}},
		{"marker on last line with LF", "user:\nHi\nassistant:\n", []promptfmt.Message{msg("user", "Hi"), msg("assistant", "")}},
		{"only markers", "user:\n\n\nuser:", []promptfmt.Message{msg("user", ""), msg("user", "")}},
		{"preamble", "preamble\n\nsystem:\nHi", []promptfmt.Message{msg("system", "preamble"), msg("system", "Hi")}},
		{"blank preamble dropped", " \n\t\n\nsystem:\nHi", []promptfmt.Message{msg("system", "Hi")}},
		{"no markers", "\nJust text\n\n", []promptfmt.Message{msg("system", "Just text")}},
		{"empty", "", nil},
		{"white space only", " \n\t\r\n", nil},
	})
}

func TestMessageLines(t *testing.T) {
	doc, err := Parse([]byte("---\nname: x\n---\npre\nuser:\nA\r\n\r\nassistant:\nB"))
	require.NoError(t, err)
	var got []int
	for _, m := range doc.Messages {
		got = append(got, m.Line)
	}
	assert.Equal(t, []int{4, 5, 8}, got)
}

func TestInvalidUTF8(t *testing.T) {
	_, err := Parse([]byte("user:\nok\nbad \xc3\x28 byte"))
	var pe *promptfmt.ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	assert.Equal(t, "prompty:3:5: invalid UTF-8 (byte 0xc3)", err.Error())
	assert.Equal(t, 13, pe.Offset)
}

// Rule 10: front matter.
func TestFrontMatter(t *testing.T) {
	doc, err := Parse([]byte("\n---\nname: basic\nmodel:\n  id: gpt-4\ncreated: 2024-01-02T03:04:05Z\n---\n\nsystem:\nHi\n---\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "basic", "created": "2024-01-02T03:04:05Z"}, doc.Meta)
	assert.Equal(t, "gpt-4", doc.Request.Model, "model.id is the request's model")
	assert.Equal(t, map[string]int{promptfmt.FieldModel: 5}, doc.Request.Lines)
	assert.Equal(t, []promptfmt.Message{msg("system", "Hi\n---")}, stripLines(doc.Messages))
	roundTrip(t, doc)

	doc, err = Parse([]byte("+++\n+++\nuser:\nx"))
	require.NoError(t, err)
	assert.Nil(t, doc.Meta)
	assert.Len(t, doc.Messages, 1)

	doc, err = Parse([]byte("user:\n---\na: b\n---\n"))
	require.NoError(t, err)
	assert.Nil(t, doc.Meta, "--- after the first line is content")

	for _, tc := range []struct{ src, want string }{
		{"---\nname: x\nuser:\nhi\n", "prompty:1:1: front matter opened here is never closed (want a --- line)"},
		{"---\nname: x\n  bad: [\n---\nuser:", "prompty:3:1: front matter: "},
		{"---\n- a\n- b\n---\n", "prompty:2:1: front matter: want a mapping of keys to values"},
		{"---\na:\n  1: x\n---\n", "prompty:3:3: front matter: key 1 is not a string"},
	} {
		_, err := Parse([]byte(tc.src))
		require.Error(t, err, tc.src)
		assert.True(t, strings.HasPrefix(err.Error(), tc.want), "got %q, want prefix %q", err, tc.want)
	}
}

// The adversarial input from upstream's ReDoS report: a regexp with
// backtracking takes exponential time on it. go test's timeout is the guard;
// BenchmarkAdversarial measures it.
func TestAdversarialAttributes(t *testing.T) {
	for _, src := range adversarialInputs() {
		doc, err := Parse([]byte(src))
		require.NoError(t, err)
		require.Len(t, doc.Messages, 1)
		assert.Equal(t, strings.TrimRight(src, "\n"), doc.Messages[0].Content[0].Value)
	}
}

func TestManyWarnings(t *testing.T) {
	doc, err := Parse([]byte("x\r\n" + strings.Repeat("user[a]:\n", 100000)))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 100000)
	last := doc.Warnings[len(doc.Warnings)-1]
	assert.Equal(t, diag.Warnf(format, []byte("x\r\n"+strings.Repeat("user[a]:\n", 100000)), last.Offset, "%s", last.Msg), last)
	assert.Equal(t, 100001, last.Line)
}

func adversarialInputs() []string {
	var unique strings.Builder
	unique.WriteString("user[")
	for i := range 100000 {
		unique.WriteString("a")
		unique.WriteString(strings.Repeat("b", i%7))
		unique.WriteString(strings.Repeat("c", i/7%9))
		unique.WriteString("=1,")
	}
	return []string{
		"user[" + strings.Repeat("a=b,", 100000) + "!",
		"user[" + strings.Repeat("a=b,", 100000) + "!:",
		unique.String() + "!:",
		"user[a=\"" + strings.Repeat("\\\"", 100000) + ":",
		"user:" + strings.Repeat(" ", 100000) + "x:",
		strings.Repeat("user[a]:\n", 100000), // a warning each, each positioned
	}
}

// TextLine is the file line of a message's first line of text, after the
// empty lines Parse drops, whatever the line endings.
func TestTextLine(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []int
	}{
		{"user:\nhello\nsystem:\n\n\nx\n", []int{2, 6}},
		{"---\nname: a\n---\nuser:\r\n\r\nhi\r\n", []int{6}},
		{"user:\rhi\r", []int{2}},
	} {
		d, err := Parse([]byte(tc.src))
		require.NoError(t, err)
		var got []int
		for _, m := range d.Messages {
			got = append(got, m.TextLine)
		}
		require.Equal(t, tc.want, got, tc.src)
	}
}
