package prapti

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// recorded is what Parse reads of a recorder.
func recorded(r *recorder, deep int, ok bool) string {
	var b strings.Builder
	for _, s := range r.literal {
		fmt.Fprintf(&b, "literal %d-%d ", s.start, s.end)
	}
	fmt.Fprintf(&b, "headings %v ", r.headings)
	if r.fence != nil {
		fmt.Fprintf(&b, "fence@%d ", r.fenceAt)
	}
	if r.html != nil {
		fmt.Fprintf(&b, "html@%d ", r.htmlAt)
	}
	if !ok {
		fmt.Fprintf(&b, "deep@%d", deep)
	}
	return b.String()
}

// written is doc in Prapti's syntax.
func written(t *testing.T, doc *promptfmt.Document) []byte {
	var b bytes.Buffer
	if err := Write(&b, doc); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// checkStructure asserts that structure, which has goldmark read only the
// stretches that are not plain, records what one read of the whole does.
func checkStructure(t *testing.T, src []byte) {
	t.Helper()
	want := recorded(readBlocks(src, false))
	got := recorded(structure(src))
	if got != want {
		t.Fatalf("structure differs from goldmark's read of the whole\nsource: %q\ngot:  %s\nwant: %s", src, got, want)
	}
}

// The stretches goldmark is spared: plain ones, between message headings.
var stretchCases = []string{
	"",
	"### @user:\nHi\n### @ai:\nYo",
	"### @user:\n\nHi\n\n### @ai:\n\nYo\n",
	"plain head\n### @user:\nHi\n",
	"```\n### @user:\n```\n### @ai:\nplain\n### @x:\nmore\n",
	"```\n### @user:\nnever closed\n### @ai:\nplain\n",
	"### @a:\n<!--\n### @b:\nplain\n### @c:\n-->\n### @d:\nx\n",
	"### @a:\n- item\n### @b:\nplain\n",
	"### @a:\n> quote\nlazy\n### @b:\nplain\n",
	"### @a:\n    code\n### @b:\nplain\n### @c:\n    code\n",
	"### @a:\npara\n===\n### @b:\n1. one\n### @c:\n2) two\n### @d:\n12 apples\n",
	"### @a:\n- a\n  - b\n    ### @b:\nplain\n",
	"### @a:\n<script>\n### @b:\n</script>\n### @c:\ntext\n",
	"### @a:\ntext\n### ###\n### @c:\n#### four\n###\tx\n",
	"### @a:\n\t\ttabbed\n### @b:\n \u00a0x\n### @c:\n   ~~~\n### @d:\n~~~\n",
	"### @a:\n" + strings.Repeat("> ", 120) + "x\n### @b:\nplain\n",
	"### @a:\nplain\n### @b:\n" + strings.Repeat("- ", 120) + "x\n",
	"### @a:\n<div>\n### @b:\n\n### @c:\nx",
	"### @a:\n[ref]: /url\n### @b:\n* * *\n### @c:\n_ _ _\n### @d:\n+ x\n",
	// Lists and quotes are plain; what opens code or HTML in them is not.
	"### @a:\n- a\n- b\n> c\n1. d\n### @b:\n- ```\n  x\n### @c:\n> <div>\n### @d:\n- > ~~~\n### @e:\nplain\n",
	"### @a:\n-     code\n### @b:\n>     code\n### @c:\n1.     code\n### @d:\n- a\n\n      code\n### @e:\n- x\n",
	"### @a:\n-\tx\n### @b:\n1.\t\tcode\n### @c:\n>\t\tcode\n### @d:\n- \tcode\n### @e:\n-\n  x\n",
	"### @a:\n- #\n### @b:\n> ### @x:\n### @c:\n   ###\n### @d:\n---\n***\ntext\n===\n",
	"### @a:\n" + strings.Repeat("> ", 16) + "x\n### @b:\n" + strings.Repeat("- ", 17) + "x\n### @c:\nplain\n",
	"### @a:\n- a\n  - b\n   - c\n### @b:\n1) x\n1234567890. y\n2.z\n-x\n### @c:\n",
}

func TestStructureStretches(t *testing.T) {
	for _, src := range stretchCases {
		checkStructure(t, []byte(src))
	}
	checkStructure(t, benchInput(t)) // the shared conversation, with configuration lines
	checkStructure(t, written(t, corpus.Short(256<<10)))
	checkStructure(t, written(t, corpus.Long(256<<10)))
	filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if src, err := os.ReadFile(path); err == nil && strings.HasSuffix(path, ".md") {
			checkStructure(t, bytes.ReplaceAll(src, []byte("\r\n"), []byte("\n")))
		}
		return nil
	})
}

// Lists and quotes are read without goldmark, and most of the shared
// conversation: only the stretches with code or HTML, and the short plain
// ones between them, are given to it.
func TestStructureSpares(t *testing.T) {
	lists := []byte(strings.Repeat("### @user:\n- a\n- b `c`\n  more\n> quoted\n1. one\n2) two\n\n### @assistant:\nplain * text\n", 200))
	r, _, ok := structure(lists)
	require.True(t, ok)
	assert.Zero(t, r.given, "goldmark read lists and quotes")
	src := benchInput(t)
	r, _, ok = structure(src)
	require.True(t, ok)
	assert.Less(t, r.given, len(src)*2/3, "goldmark read %d of %d bytes", r.given, len(src))
}

// FuzzStructure: structure records what goldmark's read of the whole does.
func FuzzStructure(f *testing.F) {
	for _, s := range stretchCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) { checkStructure(t, src) })
}

// Parse takes the Request from the configuration lines as it reads them;
// their metadata makes the same.
func TestParseRequestAsMetadata(t *testing.T) {
	srcs := [][]byte{benchInput(t), []byte("% responders.default.model = var(m)\n% m = \"gpt-4o\"\n### @user:\n% responders.default.stop = [\"x\"]\n% temperature = \"hot\"\n% !top_p = 1\nhi\n### @ai:\n% !responders.default.top_p = 0.5\n% //responders.default.seed = 3\n")}
	filepath.WalkDir("testdata", func(path string, d os.DirEntry, err error) error {
		if src, err := os.ReadFile(path); err == nil && strings.HasSuffix(path, ".md") {
			srcs = append(srcs, src)
		}
		return nil
	})
	for _, src := range srcs {
		if doc, err := Parse(src); err == nil {
			sameRequest(t, doc)
		}
	}
}
