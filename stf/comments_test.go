package stf

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Comments are read into Document.Comments, anchored where they were, and
// Write puts them back there: a canonical file with comments is written
// back byte for byte.
func TestComments(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		anchors   [][3]int // message, part, offset of each comment
	}{
		{"before, inside, after", ";# top\n;user\na\n;# mid\nb\n;// end of user\n;ai\nx\n;/*\nblock\n;user\n;*/\n",
			[][3]int{{0, -1, 0}, {0, 0, 2}, {0, 1, 0}, {1, 1, 0}}},
		{"right after the command", ";user\n;# c\nhi\n", [][3]int{{0, 0, 0}}},
		{"empty message", ";user\n;# c\n;ai\nx\n", [][3]int{{0, 1, 0}}},
		{"before the empty last line", ";user\na\n;# c\n\n", [][3]int{{0, 0, 2}}},
		{"around a call", ";ai\nlet me see\n;# before\n;call name=f\n{}\n;# after\ndone\n", [][3]int{{0, 1, 0}, {0, 2, 0}}},
		{"licence above meta", ";# licence\n;meta\n{a: 1}\n;end\n;# about the user\n;user\nhi\n", [][3]int{{0, -1, 0}, {0, -1, 0}}},
		{"before a raw message", ";user\nhi\n;# raw next\n;raw\n{\n  role: 'user',\n  disabled: true,\n  content: 'x',\n}\n;end\n", [][3]int{{0, 1, 0}}},
		{"after a raw message", ";raw\n{\n  role: 'user',\n  disabled: true,\n  content: 'x',\n}\n;end\n;# after\n;user\nhi\n", [][3]int{{1, -1, 0}}},
		{"inside a raw block", ";raw\n{\n;# inside\n  role: 'user',\n  disabled: true,\n  content: 'x',\n}\n;end\n", [][3]int{{0, -1, 0}}},
		{"only comments", ";# a\n;# b\n", [][3]int{{0, -1, 0}, {0, -1, 0}}},
		// The reader drops one CR before each LF of a comment; the writer
		// puts one back before a CR the comment keeps.
		{"a CR kept at a line end", ";# a\r\r\n;/*\r\r\nx\r\r\n;*/\r\r\n;user\nhi\n", [][3]int{{0, -1, 0}, {0, -1, 0}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := Parse([]byte(tc.src))
			require.NoError(t, err)
			var got [][3]int
			for _, c := range doc.Comments {
				got = append(got, [3]int{c.Message, c.Part, c.Offset})
				assert.Equal(t, "stf", c.Format)
			}
			assert.Equal(t, tc.anchors, got)
			var out bytes.Buffer
			require.NoError(t, Write(&out, doc))
			want := tc.src
			switch tc.name {
			case "inside a raw block": // before the block, which holds no comment
				want = ";# inside\n" + strings.Replace(want, ";# inside\n", "", 1)
			}
			assert.Equal(t, want, out.String())
			roundTrip(t, doc)
		})
	}
}

// Property: for generated files with comments anywhere, every comment is
// read, Write puts each back (Parse(Write(d)) equals d, comments and
// their places included), and writing again changes nothing.
func TestCommentsProperty(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 18))
	pieces := []func() string{
		func() string { return ";user\n" },
		func() string { return ";ai name=a\n" },
		func() string { return ";msg role=narrator\n" },
		func() string { return "word\n" },
		func() string { return "\n" },
		func() string { return ";;semi\n" },
		func() string { return "  indented\n" },
		func() string { return ";call name=f\n{\"x\": 1}\n" },
		func() string { return ";embed kind=image type=image/png\nhttps://x/y.png\n" },
		func() string { return ";extra\n{k: [1, 2]}\n;end\n" },
		func() string { return ";meta\n{m: 'v'}\n;end\n" },
		func() string { return ";flush\n" },
		func() string { return ";raw\n{role: 'tool', content: 'r'}\n;end\n" },
	}
	comments := []func(n int) string{
		func(n int) string { return fmt.Sprintf(";# c%d\n", n) },
		func(n int) string { return fmt.Sprintf("; // c%d\n", n) },
		func(n int) string { return fmt.Sprintf(";/* c%d\n;user\ninside\n;/*\n;*/\n;*/\n", n) },
		// A CR the reader keeps: the one before a CRLF's.
		func(n int) string { return fmt.Sprintf(";# c%d\r\r\n", n) },
		func(n int) string { return fmt.Sprintf(";/* c%d\r\r\nx\r\r\n;*/\r\r\n", n) },
	}
	checked := 0
	for range 5000 {
		var b strings.Builder
		ncomments := 0
		for range 1 + r.IntN(12) {
			if r.IntN(3) == 0 {
				b.WriteString(comments[r.IntN(len(comments))](ncomments))
				ncomments++
			}
			b.WriteString(pieces[r.IntN(len(pieces))]())
		}
		if r.IntN(2) == 0 {
			b.WriteString(comments[r.IntN(len(comments))](ncomments))
			ncomments++
		}
		src := b.String()
		doc, err := Parse([]byte(src))
		if err != nil {
			continue // text outside a message, ;extra without one, ...
		}
		checked++
		require.Len(t, doc.Comments, ncomments, "every comment is read: %q", src)
		var out bytes.Buffer
		require.NoError(t, Write(&out, doc), src)
		again, err := Parse(out.Bytes())
		require.NoError(t, err, "%q\nwritten %q", src, out.String())
		require.True(t, promptfmt.Equal(doc, again), "%q\nwritten %q\nbefore %s\nafter  %s", src, out.String(), js(doc), js(again))
		var out2 bytes.Buffer
		require.NoError(t, Write(&out2, again))
		require.Equal(t, out.String(), out2.String(), "writing is idempotent: %q", src)
		for n := range ncomments {
			c := fmt.Sprintf("c%d", n)
			require.True(t, strings.Contains(out.String(), c+"\n") || strings.Contains(out.String(), c+"\r"), "comment %s written", c)
		}
	}
	require.Greater(t, checked, 1000)
}

// fmt keeps the user's order of keys: ;meta and ;extra blocks are written
// as the user wrote them (key order, JSON5 comments, style) while the
// Document still holds what they say, and arguments stay in their order.
func TestKeyOrderKept(t *testing.T) {
	src := ";meta\n{zeta: 1, alpha: 2} // why\n;end\n;user zulu=1 alpha=2 id=x\nhi\n;extra\n{y: [1],\n x: {d: 1, c: 2}}\n;end\n"
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, src, out.String())

	// Changed, a block is written afresh: never stale.
	doc.Meta["alpha"] = int64(3)
	doc.Messages[0].Metadata["x"] = "now a string"
	out.Reset()
	require.NoError(t, Write(&out, doc))
	assert.Equal(t, ";meta\n{\n  alpha: 3,\n  zeta: 1,\n}\n;end\n;user zulu=1 alpha=2 id=x x=\"now a string\"\nhi\n;extra\n{\n  y: [\n    1,\n  ],\n}\n;end\n", out.String())
	again, err := Parse(out.Bytes())
	require.NoError(t, err)
	assert.True(t, promptfmt.Equal(doc, again))
}
