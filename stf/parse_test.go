package stf

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func msg(role, text string) promptfmt.Message { return promptfmt.NewMessage(role, text) }

func withMeta(m promptfmt.Message, kv ...any) promptfmt.Message {
	m.Metadata = map[string]any{}
	for i := 0; i < len(kv); i += 2 {
		m.Metadata[kv[i].(string)] = kv[i+1]
	}
	return m
}

func withName(m promptfmt.Message, name string) promptfmt.Message { m.Name = name; return m }

func withParts(role string, parts ...promptfmt.ContentPart) promptfmt.Message {
	return promptfmt.Message{Role: role, Content: parts}
}

var (
	img  = promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://example.com/a.png", MediaType: "image/png"}
	call = promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: `{"city":"Paris"}`, ID: "c1", ToolName: "weather"}
)

func TestParseRules(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []promptfmt.Message
		meta map[string]any
	}{
		// Lines and data.
		{"simple", ";user\nHi\n;ai\nHello", []promptfmt.Message{msg("user", "Hi"), msg("assistant", "Hello")}, nil},
		{"final LF is not content", ";user\nHello\n", []promptfmt.Message{msg("user", "Hello")}, nil},
		{"empty line keeps a trailing LF", ";user\nHello\n\n", []promptfmt.Message{msg("user", "Hello\n")}, nil},
		{"blank line before a command", ";user\nHello\n\n;ai\nx", []promptfmt.Message{msg("user", "Hello\n"), msg("assistant", "x")}, nil},
		{"one empty line adds nothing", ";user\n\n;ai\n", []promptfmt.Message{msg("user", ""), msg("assistant", "")}, nil},
		{"two empty lines", ";user\n\n\n;ai", []promptfmt.Message{msg("user", "\n"), msg("assistant", "")}, nil},
		{"multi-line", ";user\na\n  b\t\n\nc", []promptfmt.Message{msg("user", "a\n  b\t\n\nc")}, nil},
		{"escape", ";user\n;;x\n;;;y\n;;\n ;z", []promptfmt.Message{msg("user", ";x\n;;y\n;\n ;z")}, nil},
		{"escape first line of run", ";user\n;;\n", []promptfmt.Message{msg("user", ";")}, nil},
		{"leading blank lines ignored", "\n  \n\t\n;user\nx", []promptfmt.Message{msg("user", "x")}, nil},
		{"empty file", "", nil, nil},
		{"blank file", " \n\t\n", nil, nil},
		{"BOM", "\ufeff;user\nx", []promptfmt.Message{msg("user", "x")}, nil},
		{"unicode", ";user\nZoë 😀", []promptfmt.Message{msg("user", "Zoë 😀")}, nil},
		// Comments.
		{"line comments do not split text", ";user\nA\n;# c\n; // d\n;//e\nB", []promptfmt.Message{msg("user", "A\nB")}, nil},
		{"block comment", ";user\nA\n;/* x\n;user\n;!!! anything\n;*/ trailing\nB", []promptfmt.Message{msg("user", "A\nB")}, nil},
		{"nested blocks", ";user\nA\n;/*\n; /* */\nstill\n;*/\n;*/\nB", []promptfmt.Message{msg("user", "A\nB")}, nil},
		{"one-line block opens", ";user\nA\n; /* x */\nhidden\n;*/\nB", []promptfmt.Message{msg("user", "A\nB")}, nil},
		{"end inside block ignored", ";/*\n;end\n;*/\n;user\nx", []promptfmt.Message{msg("user", "x")}, nil},
		{"comment before any message", ";# title\n;user\nx", []promptfmt.Message{msg("user", "x")}, nil},
		// Commands and arguments.
		{"all role commands", ";system\na\n;sys\nb\n;developer\nc\n;dev\nd\n;assistant\ne\n;ai\nf\n;tool\ng\n;user\nh",
			[]promptfmt.Message{msg("system", "a"), msg("system", "b"), msg("developer", "c"), msg("developer", "d"),
				msg("assistant", "e"), msg("assistant", "f"), msg("tool", "g"), msg("user", "h")}, nil},
		{"blanks after the header", ";  \tuser\nx", []promptfmt.Message{msg("user", "x")}, nil},
		{"msg with role", ";msg role=narrator\nx\n;message role=\"stage direction\"\ny",
			[]promptfmt.Message{msg("narrator", "x"), msg("stage direction", "y")}, nil},
		{"msg inherits role", ";ai name=a\nx\n;msg name=b\ny", []promptfmt.Message{withName(msg("assistant", "x"), "a"), withName(msg("assistant", "y"), "b")}, nil},
		{"name id call_id", ";tool name=fn id=m1 call_id=c1\nr", []promptfmt.Message{withMeta(withName(msg("tool", "r"), "fn"), "id", "m1", "call_id", "c1")}, nil},
		{"kv forms", `;user name="John Doe" a='it\'s' b=x=y c=b'c d = "\u0041\n" e=007`,
			[]promptfmt.Message{withMeta(withName(msg("user", ""), "John Doe"), "a", "it's", "b", "x=y", "c", "b'c", "d", "A\n", "e", "007")}, nil},
		{"quoted value then key", `;user a="x"b=1`, []promptfmt.Message{withMeta(msg("user", ""), "a", "x", "b", "1")}, nil},
		{"vt and ff are value bytes", ";user a=\vx\f", []promptfmt.Message{withMeta(msg("user", ""), "a", "\vx\f")}, nil},
		{"unknown args kept", ";user foo=bar", []promptfmt.Message{withMeta(msg("user", ""), "foo", "bar")}, nil},
		{"json5 args", ";msg {role: 'user', name: \"Jo\", /* c */ n: 1, ok: true, list: [1.5,],}",
			[]promptfmt.Message{withMeta(withName(msg("user", ""), "Jo"), "n", int64(1), "ok", true, "list", []any{1.5})}, nil},
		{"json5 args attached", ";user{name:'x'}", []promptfmt.Message{withName(msg("user", ""), "x")}, nil},
		{"CR before LF on a command line", ";user\r\nx\n;ai\r\ny", []promptfmt.Message{msg("user", "x"), msg("assistant", "y")}, nil},
		// Polyadic commands.
		{"extra merges", ";ai\nA\n;extra\n{a: 1, b: 'x'}\n;end\nB\n;extra\n{b: 'y'}\n;end",
			[]promptfmt.Message{withMeta(msg("assistant", "AB"), "a", int64(1), "b", "y")}, nil},
		{"extra non-object", ";ai\nA\n;extra\n[1, 2]\n;end", []promptfmt.Message{withMeta(msg("assistant", "A"), "extra", []any{int64(1), int64(2)})}, nil},
		{"extra multi-line with comments and escape", ";ai\n;extra\n{\n// c\n;# also a comment\na: 'x\\\n;;y'}\n;end", nil, nil},
		{"meta anywhere", ";meta\n{title: 'T'}\n;end\n;user\nx\n;meta\n{v: 2, n: -0}\n;end",
			[]promptfmt.Message{msg("user", "x")}, map[string]any{"title": "T", "v": int64(2), "n": math.Copysign(0, -1)}},
		{"meta non-object", ";meta\n'x'\n;end", nil, map[string]any{"meta": "x"}},
		{"end suffixes", ";meta\n{}\n;end raw\n;meta\n{}\n;end-raw\n;meta\n{}\n;end // x", nil, nil},
		{"raw", ";raw\n{role: 'user', content: 'raw content', name: 'n', id: 'i', reasoning: 'r', other: 1, extra: {e: true}}\n;end",
			[]promptfmt.Message{withMeta(withName(msg("user", "raw content"), "n"), "id", "i", "reasoning", "r", "other", int64(1), "e", true)}, nil},
		{"raw parts and tool calls", `;raw
{role: 'assistant', content: [{type: 'text', text: 'look'}, {type: 'image', url: 'https://example.com/a.png', format: 'image/png'}],
 tool_calls: [{id: 'c1', name: 'weather', arguments: '{"city":"Paris"}'}]}
;end`, []promptfmt.Message{withParts("assistant", promptfmt.Text("look"), img, call)}, nil},
		{"raw extensions", `;raw
{role: 'user', disabled: true, content: [{type: 'tool_result', id: 'c1', content: 'r'}, {type: 'file', data: 'aGk=', file_id: 'f', name: 'a.txt'}]}
;end`, []promptfmt.Message{{Role: "user", Disabled: true, Content: []promptfmt.ContentPart{
			{Kind: promptfmt.KindToolResult, Value: "r", ID: "c1"}, {Kind: promptfmt.KindFile, Value: "aGk=", ID: "f", Filename: "a.txt"}}}}, nil},
		{"raw call_id alone", ";raw\n{role: 'ai', tool_calls: [{call_id: 'c', name: 'f', arguments: '{}'}]}\n;end",
			[]promptfmt.Message{withParts("ai", promptfmt.ContentPart{Kind: promptfmt.KindToolCall, ID: "c", ToolName: "f", Value: "{}"})}, nil},
		{"raw then msg needs role", ";raw\n{role: 'user', content: ''}\n;end\n;ai\nx", []promptfmt.Message{msg("user", ""), msg("assistant", "x")}, nil},
		{"flush then blank lines", ";user\nx\n;flush\n\n  \n;ai\ny", []promptfmt.Message{msg("user", "x"), msg("assistant", "y")}, nil},
		// call and embed.
		{"call", ";ai\nLet me check.\n;call name=weather id=c1\n{\"city\":\"Paris\"}\nDone.",
			[]promptfmt.Message{withParts("assistant", promptfmt.Text("Let me check."), call, promptfmt.Text("Done."))}, nil},
		{"embed", ";user\nlook\n\n;embed kind=image type=image/png\nhttps://example.com/a.png\n;embed kind=audio detail=low\n;;weird\n",
			[]promptfmt.Message{withParts("user", promptfmt.Text("look\n"), img, promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: ";weird", Detail: "low"})}, nil},
		{"embed only", ";user\n;embed kind=file\ndata:text/plain;base64,aGk=",
			[]promptfmt.Message{withParts("user", promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: "data:text/plain;base64,aGk="})}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Parse([]byte(tt.in))
			require.NoError(t, err)
			if tt.name == "extra multi-line with comments and escape" {
				assert.Equal(t, map[string]any{"a": "x;y"}, doc.Messages[0].Metadata)
				return
			}
			roundTrip(t, doc)
			// Comments are tested by TestComments; here, what they leave.
			doc.Comments = nil
			want := &promptfmt.Document{Messages: tt.want, Meta: tt.meta}
			assert.True(t, promptfmt.Equal(want, doc), "want %s\ngot  %s", js(want), js(doc))
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"Hello", "stf:1:1: text outside a message"},
		// The model's numbers are JSON's (internal/values): refused where they start.
		{";meta\n{a: 1,\n b: NaN}\n;end", "stf:3:5: ;meta block: NaN is not a JSON number"},
		{";user {x: Infinity}\nhi", "stf:1:11: JSON5 arguments: Infinity is not a JSON number"},
		{";ai\nx\n;extra\n[1e400]\n;end", "stf:4:2: ;extra block: Infinity is not a JSON number"},
		{";ai\n;call name=f\n{\"a\": [1, -1e999]}", "stf:3:11: tool call arguments: -Infinity is not a JSON number"},
		{";ai\n;call name=f\n{\"a\": " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "}", "stf:3:1006: tool call arguments: nested deeper than 1000 levels"},
		{";user {a: " + strings.Repeat("[", 1000) + strings.Repeat("]", 1000) + "}", "stf:1:1010: JSON5 arguments: nested deeper than 1000 levels"},
		{"\n\n  x", "stf:3:3: text outside a message"},
		{";user\nx\n;flush\ny", "stf:4:1: text outside a message"},
		{";raw\n{role: 'user', content: ''}\n;end\ny", "stf:4:1: text outside a message"},
		{";user\n;*/", "stf:2:2: */ closes no block comment"},
		{";user\n;/*\n;/*\n;*/", "stf:2:1: block comment /* is never closed with ;*/"},
		{";/*\n;/*\n;/*", "stf:1:1: block comment /* is never closed with ;*/ (and 2 more inside it)"},
		{";user\n;", "stf:2:2: not a command"},
		{";user\n; ", "stf:2:3: not a command"},
		{";user\n;!!!", "stf:2:2: not a command"},
		{";1user", "stf:1:2: not a command"},
		{";foo", `stf:1:2: unknown command "foo"`},
		{";User", `stf:1:2: unknown command "User" (command names are lowercase`},
		{";userx", `stf:1:2: unknown command "userx"`},
		{";user\n;endx", `stf:2:2: unknown command "endx"`},
		{";msg\nx", "stf:1:1: ;msg without role= takes the role of the message before it, and there is none"},
		{";user\nx\n;flush\n;msg", "stf:4:1: ;msg without role="},
		{";user role=assistant", `stf:1:7: ;user sets the role "user": use ;msg role=assistant`},
		{";user a=1 a=2", `stf:1:11: duplicate argument "a"`},
		{";user name", `stf:1:7: argument "name" has no value`},
		{";user name x=1", `stf:1:7: argument "name" has no value`},
		{";user justa-key", `stf:1:12: argument key "justa" is followed by '-'`},
		{";user Name=x", `stf:1:7: argument key must start with a lowercase letter a-z, not 'N'`},
		{";user =user", `stf:1:7: missing argument key before '='`},
		{";user 'role=user'", `stf:1:7: argument key must start with a lowercase letter`},
		{";user role=", `stf:1:7: argument "role" has an empty value: write role="" for an empty string`},
		{";msg role=  ", `stf:1:6: argument "role" has an empty value`},
		{";user a=b'", `stf:1:10: unquoted value of "a" ends with a quote`},
		{`;user name="John`, `stf:1:12: unterminated quoted value of "name"`},
		{`;user name="a\qb" x="\1"`, `stf:1:22: value of x: invalid escape \1`},
		{";msg role=user {name: 'John'}", "stf:1:16: cannot mix key=value and JSON5 arguments"},
		{";user {name: 'x'} y", "stf:1:19: JSON5 arguments: unexpected character 'y' after the value"},
		{";user {name: 'x', name: 'y'}", `stf:1:19: JSON5 arguments: duplicate key "name"`},
		{";user [1]", "stf:1:7: JSON5 arguments must be an object, not an array"},
		{";user {name: 123}", `stf:1:7: argument "name" must be a string, not a number`},
		{";user {role: 'x'}", `stf:1:7: ;user sets the role`},
		{";extra\n{}\n;end", "stf:1:1: ;extra needs a message before it"},
		{";user\nx\n;flush\n;extra", "stf:4:1: ;extra needs a message before it"},
		{";end", "stf:1:1: ;end without a ;raw, ;extra or ;meta block"},
		{";raw\n{role: 'user'}", "stf:1:1: ;raw is never closed with ;end"},
		{";meta\n{a: 1}\n;user", "stf:3:1: ;meta at line 1 is not closed"},
		{";raw x=1", "stf:1:6: ;raw takes no arguments"},
		{";user\n;flush now", "stf:2:8: ;flush takes no arguments"},
		{";meta\n\n;end", "stf:1:1: ;meta block is empty"},
		{";meta\n{\n  a: 1,\n  b: ?\n}\n;end", "stf:4:6: ;meta block: unexpected character '?'"},
		{";meta\n{a: 'x\\\n;;y' b}\n;end", "stf:3:6: ;meta block: unexpected character 'b'"},
		{";raw\n[1]\n;end", "stf:1:1: ;raw: the block must hold one message object, not an array"},
		{";raw\n{content: 'x'}\n;end", "stf:1:1: ;raw: the message needs a role string"},
		{";raw\n{role: 'u', content: 1}\n;end", "stf:1:1: ;raw: content must be a string or an array of parts, not a number"},
		{";raw\n{role: 'u', content: [{type: 'video', url: 'x'}]}\n;end", `stf:1:1: ;raw: content[0]: unknown part type "video"`},
		{";raw\n{role: 'u', content: [{type: 'image', url: 'x', data: 'y'}]}\n;end", "both url and data"},
		{";raw\n{role: 'u', content: [{type: 'text', text: 'x', format: 'y'}]}\n;end", `a text part has no field "format"`},
		{";raw\n{role: 'u', content: [{type: 'text'}]}\n;end", "a text part needs text"},
		{";raw\n{role: 'u', name: 1}\n;end", "name must be a string, not a number"},
		{";raw\n{role: 'u', disabled: 'yes'}\n;end", "disabled must be true or false"},
		{";raw\n{role: 'u', tool_calls: [{id: 'a', call_id: 'b', name: 'f', arguments: '{}'}]}\n;end", "a different call_id"},
		{";raw\n{role: 'u', tool_calls: [{name: 'f', arguments: {}}]}\n;end", "tool_calls[0]: arguments must be a string, not an object"},
		{";call name=f\n{}", "stf:1:1: ;call needs a message before it"},
		{";ai\n;call name=f", "stf:2:1: ;call must be followed by one line of JSON arguments"},
		{";ai\n;call name=f\n;ai", "stf:2:1: ;call must be followed by one line"},
		{";ai\n;call name=f\n{city: 'x'}", "stf:3:1: the line after ;call must be the tool call's arguments as JSON"},
		{";ai\n;call name=f kind=x\n{}", `stf:2:14: ;call takes name= and id=, not "kind"`},
		{";ai\n;call {name: 1}\n{}", `stf:2:7: argument "name" must be a string`},
		{";user\n;embed type=image/png\nhttps://x", "stf:2:1: ;embed needs kind=image"},
		{";user\n;embed kind=video\nhttps://x", "stf:2:8: kind=video: an embed is an image, audio or file"},
		{";user\n;embed kind=image\nhttps://x y", "stf:3:1: the line after ;embed must hold a URL"},
		{";user\n;embed kind=image\n", "stf:2:1: ;embed must be followed by one line holding a URL"},
		{";user\n;embed kind=image\n\n", "stf:3:1: the line after ;embed must hold a URL"},
		{";user\n;embed kind=image src=x\nhttps://x", `stf:2:19: ;embed takes kind=, type= and detail=, not "src"`},
		{";user\nok\n\xff", "stf:3:1: invalid UTF-8 (byte 0xff)"},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in))
		if !assert.Error(t, err, "%q", tt.in) {
			continue
		}
		var pe *promptfmt.ParseError
		assert.True(t, errors.As(err, &pe), "%q: %T", tt.in, err)
		assert.Contains(t, err.Error(), tt.want, "%q", tt.in)
	}
}

func TestLineEndings(t *testing.T) {
	// A CRLF file: every CR before LF is a line ending, in data too.
	doc, err := Parse([]byte(";user name=a\r\nHello\r\n\r\nworld\r\n;ai\r\n;;x\r\n;extra\r\n{\r\na: 1}\r\n;end\r\n;call name=f\r\n{}\r\n"))
	require.NoError(t, err)
	want := []promptfmt.Message{withName(msg("user", "Hello\n\nworld"), "a"),
		withMeta(withParts("assistant", promptfmt.Text(";x"), promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: "{}", ToolName: "f"}), "a", int64(1))}
	assert.True(t, promptfmt.EqualMessages(want, doc.Messages), js(doc))

	// Mixed endings: a CR in a data line is content; on a command line it is
	// still tolerated.
	doc, err = Parse([]byte(";user\r\nHello\r\nworld\n;ai\nx\r"))
	require.NoError(t, err)
	assert.True(t, promptfmt.EqualMessages([]promptfmt.Message{msg("user", "Hello\r\nworld"), msg("assistant", "x\r")}, doc.Messages), js(doc))
	doc, err = Parse([]byte(";user\n;embed kind=image\r\nhttps://x\r\n;call\r\n{}\r\nx\r\n"))
	require.NoError(t, err)
	assert.True(t, promptfmt.EqualMessages([]promptfmt.Message{withParts("user", promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "https://x"},
		promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: "{}"}, promptfmt.Text("x\r"))}, doc.Messages), js(doc))

	// A lone CR is data, and counts as a line break in positions, as
	// editors count it.
	doc, err = Parse([]byte(";user\na\rb\n;ai\nx"))
	require.NoError(t, err)
	assert.Equal(t, "a\rb", doc.Messages[0].Text())
	assert.Equal(t, 4, doc.Messages[1].Line)
	_, err = Parse([]byte(";user\na\rb\n;bad"))
	assert.ErrorContains(t, err, "stf:4:2:")
}

func TestMessageLines(t *testing.T) {
	doc, err := Parse([]byte(";# c\n;user\na\nb\n;/*\n;*/\n;ai\n;raw\n{role: 'x'}\n;end\n;msg role=y"))
	require.NoError(t, err)
	var lines []int
	for _, m := range doc.Messages {
		lines = append(lines, m.Line)
	}
	assert.Equal(t, []int{2, 7, 8, 11}, lines)
}

func TestDefaultRole(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want []promptfmt.Message
	}{
		{"Hello, world!", []promptfmt.Message{msg("user", "Hello, world!")}},
		{"\n\nHello\n;ai\nHi", []promptfmt.Message{msg("user", "\n\nHello"), msg("assistant", "Hi")}},
		{"\n;# c\nHello", []promptfmt.Message{msg("user", "\nHello")}},
		{" \n\t\n", nil},
		{";ai\nx\n;flush\ny", []promptfmt.Message{msg("assistant", "x"), msg("user", "y")}},
		{";ai\nx\n;flush\n;msg\ny", []promptfmt.Message{msg("assistant", "x"), msg("user", "y")}},
	} {
		doc, err := Parse([]byte(tt.in), DefaultRole("user"))
		require.NoError(t, err, "%q", tt.in)
		assert.True(t, promptfmt.EqualMessages(tt.want, doc.Messages), "%q: %s", tt.in, js(doc))
	}
	doc, err := Parse([]byte("\n\nHello"), DefaultRole("user"))
	require.NoError(t, err)
	assert.Equal(t, 1, doc.Messages[0].Line)
}

func TestWarnings(t *testing.T) {
	doc, err := Parse([]byte("\ufeff;user\nx"))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 1)
	assert.Equal(t, "stf:1:1: byte order mark at the start of the file ignored", doc.Warnings[0].String())
}

// Hostile input finishes in linear time: these would take minutes or
// overflow the stack otherwise.
func TestPathological(t *testing.T) {
	nested := strings.Repeat(";/*\n", 100_000)
	_, err := Parse([]byte(nested))
	assert.ErrorContains(t, err, "and 99999 more")
	doc, err := Parse([]byte(nested + strings.Repeat(";*/\n", 100_000) + ";user\nx"))
	require.NoError(t, err)
	assert.Len(t, doc.Messages, 1)

	line := strings.Repeat("a;b ", 10<<20/4)
	doc, err = Parse([]byte(";user\n" + line))
	require.NoError(t, err)
	assert.Equal(t, len(line), len(doc.Messages[0].Text()))

	doc, err = Parse([]byte(strings.Repeat(";user\nx\n", 1_000_000)))
	require.NoError(t, err)
	assert.Len(t, doc.Messages, 1_000_000)

	_, err = Parse([]byte(";meta\n" + strings.Repeat("[", 1_000_000) + "\n;end"))
	assert.ErrorContains(t, err, "nested deeper")

	var many strings.Builder
	many.WriteString(";user")
	for i := range 200_000 {
		fmt.Fprintf(&many, " k%d=v", i)
	}
	doc, err = Parse([]byte(many.String()))
	require.NoError(t, err)
	assert.Len(t, doc.Messages[0].Metadata, 200_000)
	_, err = Parse([]byte(many.String() + " k7=x"))
	assert.ErrorContains(t, err, `duplicate argument "k7"`)
	doc, err = Parse([]byte(";user\n" + strings.Repeat(";;\n", 1<<20)))
	require.NoError(t, err)
	assert.Len(t, doc.Messages[0].Text(), 2<<20-1)
}

// name="" is no name in the model; the writer leaves it out, so reading
// it says so.
func TestEmptyNameWarns(t *testing.T) {
	for _, src := range []string{";user name=\"\"\nhi\n", ";raw\n{role: 'user', name: '', content: 'hi'}\n;end\n"} {
		doc, err := Parse([]byte(src))
		require.NoError(t, err, src)
		require.Len(t, doc.Warnings, 1, src)
		assert.Contains(t, doc.Warnings[0].String(), `name "" is no name`)
		assert.Equal(t, "", doc.Messages[0].Name)
	}
	doc, err := Parse([]byte(";user name=a\nhi\n"))
	require.NoError(t, err)
	assert.Empty(t, doc.Warnings)
}
