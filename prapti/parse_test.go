package prapti

import (
	"fmt"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// summary shows a document compactly: one line per message, then one per
// configuration line, then the warnings.
func summary(t *testing.T, doc *promptfmt.Document) []string {
	t.Helper()
	var out []string
	for _, m := range doc.Messages {
		head := m.Role
		if m.Name != "" {
			head += "/" + m.Name
		}
		if m.Disabled {
			head = "//" + head
		}
		out = append(out, fmt.Sprintf("%s@%d %q", head, m.Line, m.Text()))
		configs, err := Config(&m)
		require.NoError(t, err)
		for _, c := range configs {
			s := fmt.Sprintf("  %d@%d %s", c.Line, c.Offset, c.Kind)
			if !c.Enabled {
				s += " disabled"
			}
			if c.Quoted {
				s += " quoted"
			}
			if c.Exclusive {
				s += " !"
			}
			s += " " + c.Name
			switch {
			case c.Error != "":
				s += " error"
			case c.Var != "":
				s += " var(" + c.Var + ")"
			case c.Kind == KindAssignment:
				s += fmt.Sprintf(" = %#v", c.Value)
			case c.Args != "":
				s += " " + c.Args
			}
			out = append(out, s)
		}
	}
	for _, w := range doc.Warnings {
		out = append(out, "warning "+w.String())
	}
	return out
}

// noHeadingAt is the summary of the warning for a file without a message
// heading, whose text starts at line:col.
func noHeadingAt(line, col int) string {
	return fmt.Sprintf("warning prapti:%d:%d: no message heading: the file's text is the hidden message _head, which reaches no model", line, col)
}

func TestParseRules(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"head, messages, configuration", "Intro\n% model = \"gpt-4\"\n\n### @system:\nBe brief.\n\n### @user/Ross:\n% temperature = 0.2\nHi\n", []string{
			`_head@0 "Intro"`, `  2@5 assignment model = "gpt-4"`,
			`system@4 "Be brief."`,
			`user/Ross@7 "Hi"`, `  8@0 assignment temperature = 0.2`}},
		{"no head when there is nothing before the first heading", "\n\n### @user:\nHi", []string{`user@3 "Hi"`}},
		{"headings inside a fence, a block quote and a list are text",
			"### @user:\n```md\n### @assistant:\n% x = 1\n```\n> ### @assistant:\n- ### @assistant:\n", []string{
				"user@1 \"```md\\n### @assistant:\\n% x = 1\\n```\\n> ### @assistant:\\n- ### @assistant:\""}},
		{"a fence with tildes, an indented code block, an HTML block, a comment",
			"### @user:\n~~~\n% a = 1\n~~~\n\n    % b = 2\n\n<div>\n% c = 3\n</div>\n\n<!--\n% d = 4\n### @assistant:\n-->\n", []string{
				"user@1 \"~~~\\n% a = 1\\n~~~\\n\\n    % b = 2\\n\\n<div>\\n% c = 3\\n</div>\\n\\n<!--\\n% d = 4\\n### @assistant:\\n-->\""}},
		{"levels 2 and 4, no blank after ###, text after the colon, setext",
			"## @user:\n#### @user:\n###@user:\n### @user: hello\n@user:\n---\n", []string{
				"_head@0 \"## @user:\\n#### @user:\\n###@user:\\n### @user: hello\\n@user:\\n---\"", noHeadingAt(1, 1)}},
		{"disabled headings, blanks around //, no colon, indentation, upper case role",
			"### // @assistant:\na\n   ###  //  @User/X\nb\n### //@user/名前:\nc\n", []string{
				`//assistant@1 "a"`, `//user/X@3 "b"`, `//user/名前@5 "c"`}},
		{"names and roles of Unicode letters, digits and _", "### @ユーザー/名前_2:\nx\n### @user/Mary-Ann:\ny\n", []string{
			"ユーザー/名前_2@1 \"x\\n### @user/Mary-Ann:\\ny\""}},
		{"configuration lines: quoted, disabled, indented, exclusive, actions",
			"### @user:\n> % a = 1\n>% b = true\n> //% c = null\n  //% d = [1]\n   % !e.f arg1 arg2\n% g = var(h)\n% plugins.load x\n", []string{
				`user@1 ""`,
				"  2@0 assignment quoted a = 1", "  3@0 assignment quoted b = true", "  4@0 assignment disabled quoted c = <nil>",
				"  5@0 assignment disabled d = []interface {}{1}", "  6@0 action ! e.f arg1 arg2", "  7@0 assignment g var(h)",
				"  8@0 action plugins.load x"}},
		{"not configuration: four spaces, a tab, nested quotes, mid-line, a list item",
			"### @user:\nText\n    % a = 1\n\t% b = 2\n> > % c = 3\n100% sure\n- % d = 4\n", []string{
				"user@1 \"Text\\n    % a = 1\\n\\t% b = 2\\n> > % c = 3\\n100% sure\\n- % d = 4\""}},
		{"offsets: where each line stood in the trimmed text",
			"### @user:\n\n% a = 1\n  First\n% b = 2\nSecond\n\n% c = 3\n", []string{
				`user@1 "First\nSecond"`, "  3@0 assignment a = 1", "  5@6 assignment b = 2", "  8@12 assignment c = 3"}},
		{"text is trimmed of Unicode white space, across configuration lines",
			"### @user:\n\u00a0\n% a = 1\n\u2003Hi\n\\% x\u0085\n% b = 2\n\u00a0\n", []string{
				"user@1 \"Hi\\n% x\"", "  3@0 assignment a = 1", "  6@6 assignment b = 2"}},
		{"text and commands are trimmed as Python's str.strip: U+001C to U+001F too",
			"### @user:\n\x1c\x1dHi\x1e\n% a = 1\x1f\n\x1f\n", []string{
				`user@1 "Hi"`, "  3@2 assignment a = 1"}},
		{"a code block after a tab ends on its own line", "*\t  0\n% b = 1\n", []string{
			"_head@0 \"*\\t  0\"", "  2@5 assignment b = 1", noHeadingAt(1, 1)}},
		{"lines that do not split, or whose value is not JSON, are kept with a warning",
			"### @user:\n%\n% = 3\n% n = 'single'\n% x =\n% n = NaN\nok", []string{
				`user@1 "ok"`,
				"  2@0   error", "  3@0   error", "  4@0 assignment n error", "  5@0 assignment x error", "  6@0 assignment n error",
				"warning prapti:2:1: not a configuration command: want %name = value or %name arguments",
				"warning prapti:3:1: not a configuration command: want %name = value or %name arguments",
				"warning prapti:4:1: the value 'single' is not a JSON literal: invalid character '\\'' looking for beginning of value",
				"warning prapti:5:1: an assignment without a value",
				"warning prapti:6:1: the value NaN is not a JSON literal: invalid character 'N' looking for beginning of value"}},
		{"escapes: a backslash before what would be a heading or a configuration line",
			"### @user:\n\\% a = 1\n\\### @assistant:\n> \\//% b\n\\\\% c\n\\n not an escape\n", []string{
				"user@1 \"% a = 1\\n### @assistant:\\n> //% b\\n\\\\% c\\n\\\\n not an escape\""}},
		{"CRLF and CR", "### @user:\r\n% a = 1\r\nHi\rthere\r\n", []string{`user@1 "Hi\nthere"`, "  2@0 assignment a = 1"}},
		{"an unclosed fence runs to the end, swallowing headings, with a warning", "### @user:\n```\ncode\n### @assistant:\n", []string{
			"user@1 \"```\\ncode\\n### @assistant:\"",
			"warning prapti:2:1: fenced code block opened here is never closed: the rest of the file is inside it"}},
		{"a warning for an unclosed fence that swallows nothing but its code", "### @user:\nSee:\n\n   ~~~~ go\nx := 1\n~~~\n", []string{
			"user@1 \"See:\\n\\n   ~~~~ go\\nx := 1\\n~~~\"",
			"warning prapti:4:4: fenced code block opened here is never closed: the rest of the file is inside it"}},
		{"no warning for fences closed, or ended by their block quote or list item", "```\na\n```\n> ```\n> % a = 1\n\n- ```\n  code\n", []string{
			"_head@0 \"```\\na\\n```\\n> ```\\n> % a = 1\\n\\n- ```\\n  code\"", noHeadingAt(1, 1)}},
		{"the warning's line counts CR and CRLF line ends", "a\rb\r\n```\r\n", []string{
			"_head@0 \"a\\nb\\n```\"", noHeadingAt(1, 1),
			"warning prapti:3:1: fenced code block opened here is never closed: the rest of the file is inside it"}},
		{"an HTML comment never closed swallows headings, with the fence's warning", "### @user:\nHi\n<!-- note\n### @assistant:\nanswer\n", []string{
			"user@1 \"Hi\\n<!-- note\\n### @assistant:\\nanswer\"",
			"warning prapti:3:1: HTML block opened here is never closed: the rest of the file is inside it"}},
		{"so do <script>, <style>, <pre>, <?, <!X and <![CDATA[ never closed", "  <script>\n### @a:\n", []string{
			"_head@0 \"<script>\\n### @a:\"", "warning prapti:1:3: HTML block opened here is never closed: the rest of the file is inside it", noHeadingAt(1, 3)}},
		{"<style>", "### @a:\n<STYLE type=x>\n\n### @b:\n", []string{
			"a@1 \"<STYLE type=x>\\n\\n### @b:\"", "warning prapti:2:1: HTML block opened here is never closed: the rest of the file is inside it"}},
		{"<pre>", "<pre>\r\n### @a:\r\n</p>\r\n", []string{
			"_head@0 \"<pre>\\n### @a:\\n</p>\"", "warning prapti:1:1: HTML block opened here is never closed: the rest of the file is inside it", noHeadingAt(1, 1)}},
		{"<?, <!X, <![CDATA[", "### @a:\n<?php\n", []string{
			"a@1 \"<?php\"", "warning prapti:2:1: HTML block opened here is never closed: the rest of the file is inside it"}},
		{"no warning for HTML blocks closed, on their first or last line, or in a container, or ended by a blank line",
			"<!-- a -->\n<pre>\n</PRE>\n\n<![CDATA[ x\n]]>\n> <!--\n\n<div>\n\n### @a:\n<!-- b -->", []string{
				"_head@0 \"<!-- a -->\\n<pre>\\n</PRE>\\n\\n<![CDATA[ x\\n]]>\\n> <!--\\n\\n<div>\"", `a@11 "<!-- b -->"`}},
		{"a heading but for white space other than spaces and tabs is text, with a warning",
			"### @user:\nHi\n###\u00a0@assistant:\nanswer\n### @user:\u2003\nmore\n###\x1c//\u3000@x\n   ### \v@y/z \n", []string{
				"user@1 \"Hi\\n###\\u00a0@assistant:\\nanswer\\n### @user:\\u2003\\nmore\\n###\\x1c//\\u3000@x\\n   ### \\v@y/z\"",
				"warning prapti:3:4: not a message heading, only because of the white space U+00A0 here (a heading's blanks are spaces and tabs): the line is text, though upstream reads a heading",
				"warning prapti:5:11: not a message heading, only because of the white space U+2003 here (a heading's blanks are spaces and tabs): the line is text, though upstream reads a heading",
				"warning prapti:7:4: not a message heading, only because of the white space U+001C here (a heading's blanks are spaces and tabs): the line is text, though upstream reads a heading",
				"warning prapti:8:8: not a message heading, only because of the white space U+000B here (a heading's blanks are spaces and tabs): the line is text, though upstream reads a heading"}},
		{"no such warning where the line would not be a message heading with spaces", "### @u:\n- x\n  ###\u00a0@a\n```\n###\u00a0@b\n```\n\u00a0### @c\n###\u00a0@d: text\n> ###\u00a0@e\n####\u00a0@f\n", []string{
			"u@1 \"- x\\n  ###\\u00a0@a\\n```\\n###\\u00a0@b\\n```\\n\\u00a0### @c\\n###\\u00a0@d: text\\n> ###\\u00a0@e\\n####\\u00a0@f\""}},
		{"a file with text but no message heading gets a warning where its text starts", "\n\n  Just notes,\n% a = 1\nno messages.\n", []string{
			"_head@0 \"Just notes,\\nno messages.\"", "  4@12 assignment a = 1", noHeadingAt(3, 3)}},
		{"one of configuration lines only (upstream's configuration files) gets none", "% a = 1\n//% b = 2\n", []string{
			"_head@0 \"\"", "  1@0 assignment a = 1", "  2@0 assignment disabled b = 2"}},
		{"nor does a blank file", " \n\t\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Parse([]byte(tt.in))
			require.NoError(t, err)
			assert.Equal(t, tt.want, summary(t, doc))
		})
	}
}

// TestUnclosedFenceSwallowsAppends: why the warning is given for every
// top-level fence left open, even when it swallows nothing yet: whatever
// is added after it, a reply included, is inside it.
func TestUnclosedFenceSwallowsAppends(t *testing.T) {
	src := []byte("### @user:\n\nWhat does this do?\n\n```go\nfmt.Println(1)\n")
	doc, err := Parse(src)
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 1)
	assert.Equal(t, "prapti:5:1: fenced code block opened here is never closed: the rest of the file is inside it", doc.Warnings[0].String())
	_, err = Append(src, []promptfmt.Message{promptfmt.NewMessage("assistant", "It prints 1."), NextPrompt(src)})
	var ue *promptfmt.UnsupportedError
	require.ErrorAs(t, err, &ue, "the reply would be code of the first message")
	assert.Contains(t, err.Error(), "prapti: message 1: the file's messages read otherwise")
}

// TestUnclosedHTMLSwallowsAppends: an HTML block that ends at a marker and
// never finds it is warned of as a fence is, with where it would end.
func TestUnclosedHTMLSwallowsAppends(t *testing.T) {
	for _, tc := range []struct{ src, hint string }{
		{"### @user:\n\nWhy?\n\n<!-- draft\n", `a comment ends at a line holding "-->"`},
		{"### @user:\n\n<script>\nx()\n", "it ends at a line holding </script>, </pre>, </style> or </textarea>"},
	} {
		doc, err := Parse([]byte(tc.src))
		require.NoError(t, err)
		require.Len(t, doc.Warnings, 1, tc.src)
		assert.Equal(t, "HTML block opened here is never closed: the rest of the file is inside it", doc.Warnings[0].Msg)
		assert.Equal(t, tc.hint, doc.Warnings[0].Hint)
		_, err = Append([]byte(tc.src), []promptfmt.Message{promptfmt.NewMessage("assistant", "Because.")})
		assert.ErrorContains(t, err, "the file's messages read otherwise", "the reply would be inside the HTML block")
	}
}

// TestWarningHints: the warnings for a near heading and for a file without
// one tell how to fix it, at the file's positions (after a byte order mark,
// with CRLF line ends).
func TestWarningHints(t *testing.T) {
	doc, err := Parse([]byte("\ufeffnotes\r\n###\u00a0@user:\r\nHi\r\n"))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 3)
	assert.Equal(t, "prapti:1:4: no message heading: the file's text is the hidden message _head, which reaches no model", doc.Warnings[1].String())
	assert.Equal(t, `start a message with a heading, such as "### @user:", on a line of its own`, doc.Warnings[1].Hint)
	w := doc.Warnings[2]
	assert.Equal(t, []int{2, 4, 13}, []int{w.Line, w.Col, w.Offset})
	assert.Equal(t, "write a space instead of U+00A0 to start a message here", w.Hint)
}

func TestParseErrors(t *testing.T) {
	_, err := Parse([]byte("### @user:\nok \xff\n"))
	assert.EqualError(t, err, "prapti:2:4: invalid UTF-8 (byte 0xff)")
}

func TestLLMMessages(t *testing.T) {
	doc, err := Parse([]byte("head\n### @_notes:\nn\n### //@user:\nold\n### @system:\ns\n### @user:\n% model = \"x\"\nq\n"))
	require.NoError(t, err)
	var got []string
	for _, m := range doc.LLMMessages() {
		got = append(got, m.Role+": "+m.Text())
	}
	assert.Equal(t, []string{"system: s", "user: q"}, got)
}

func TestAssignments(t *testing.T) {
	doc, err := Parse([]byte("% model = \"a\"\n% !x = 1\n### //@user:\n% model = \"disabled\"\n### @user:\n//% model = \"off\"\n% model = \"b\"\n% bad =\n% !y = 2\n"))
	require.NoError(t, err)
	var got []string
	for _, a := range Assignments(doc) {
		got = append(got, fmt.Sprintf("%s=%v@%d", a.Name, a.Value, a.Line))
	}
	assert.Equal(t, []string{"model=a@1", "model=b@7", "y=2@9"}, got)
}

func TestPathological(t *testing.T) {
	for src, want := range map[string]string{
		strings.Repeat(">", 100_000) + " % x\n":       "prapti:1:101: blocks nested more than 100 deep",
		"ok\n" + strings.Repeat("- ", 50_000) + "x\n": "prapti:2:201: blocks nested more than 100 deep",
		strings.Repeat("> 1. * ", 34) + "x\n":         "prapti:1:",
	} {
		_, err := Parse([]byte(src))
		assert.ErrorContains(t, err, want)
	}
	_, err := Parse([]byte(strings.Repeat("> - ", 50) + "x\n"))
	assert.NoError(t, err, "100 deep is allowed")
	for name, src := range map[string]string{
		"nesting within the limit on every line": strings.Repeat(strings.Repeat("- ", 100)+"x\n", 5_000),
		"a huge line":                            "### @user:\n" + strings.Repeat("% ", 1<<20) + "\n",
		"many headings":                          strings.Repeat("### @user:\n% a = 1\n", 50_000),
	} {
		t.Run(name, func(t *testing.T) {
			doc, err := Parse([]byte(src))
			require.NoError(t, err)
			require.NotEmpty(t, doc.Messages)
		})
	}
}

// A byte order mark is skipped with a warning (it made the file parse to
// no messages); positions stay those of the file, CRs and the mark
// counted.
func TestBOM(t *testing.T) {
	for _, eol := range []string{"\n", "\r\n", "\r"} {
		src := []byte(lines.BOM + strings.ReplaceAll("% x = 1e400\n### @user:\n\nHi\n% y =\n", "\n", eol))
		doc, err := Parse(src)
		require.NoError(t, err)
		require.Len(t, doc.Messages, 2, "%q", eol)
		assert.Equal(t, []string{HeadRole, "user"}, []string{doc.Messages[0].Role, doc.Messages[1].Role})
		assert.Equal(t, "Hi", doc.Messages[1].Text())
		assert.Equal(t, 2, doc.Messages[1].Line)
		require.Len(t, doc.Warnings, 3)
		assert.Equal(t, promptfmt.Warning{Format: format, Line: 1, Col: 1, Offset: 0, Msg: lines.BOMWarning}, doc.Warnings[0])
		for _, w := range doc.Warnings {
			line, col := lines.Position(src, w.Offset)
			assert.Equal(t, [2]int{w.Line, w.Col}, [2]int{line, col}, "%q: %v: the offset is the file's", eol, w)
		}
		assert.Equal(t, [2]int{1, 1 + len(lines.BOM)}, [2]int{doc.Warnings[1].Line, doc.Warnings[1].Col}, "the first line's columns count the mark")
		assert.Equal(t, 5, doc.Warnings[2].Line)
	}
	_, err := Parse([]byte(lines.BOM + strings.Repeat("> ", MaxNesting+1) + "x\n"))
	var pe *promptfmt.ParseError
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, [3]int{1, len(lines.BOM) + 2*MaxNesting + 1, len(lines.BOM) + 2*MaxNesting}, [3]int{pe.Line, pe.Col, pe.Offset})
	_, err = Parse([]byte("x\r\n" + strings.Repeat("> ", MaxNesting+1) + "x\n"))
	require.ErrorAs(t, err, &pe)
	assert.Equal(t, [3]int{2, 2*MaxNesting + 1, 3 + 2*MaxNesting}, [3]int{pe.Line, pe.Col, pe.Offset})
}

// TestWarningsAreLinear: near headings (each one read again by goldmark,
// all at once), and a file of text without a heading, cost allocations
// linear in their number.
func TestWarningsAreLinear(t *testing.T) {
	for name, unit := range map[string]string{
		"near headings":            "###\u00a0@user:\nHi\n### @x:\u2003\n- ###\u000b@y\n",
		"no heading":               "notes\n\n",
		"HTML blocks never closed": "<!--\n### @a:\n",
	} {
		growth.Linear(t, name, 5_000, func(n int) float64 {
			src := []byte(strings.Repeat(unit, n))
			return growth.AllocBytes(func() {
				doc, err := Parse(src)
				require.NoError(t, err)
				require.NotEmpty(t, doc.Warnings)
			})
		})
	}
}
