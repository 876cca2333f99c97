package prapti

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

func TestRecordingParsersWrapEverySpecialParser(t *testing.T) {
	assert.Empty(t, missing, "default block parsers not found by type: a goldmark upgrade renamed them?")
}

// dumpTree describes a goldmark tree's blocks: kind, position, heading
// level, lines of code and HTML blocks, list and HTML details. Paragraph
// and heading lines are left out, and so are the positions of paragraphs
// and text blocks, which goldmark takes from their lines: the recording
// parsers empty them.
func dumpTree(src []byte, root ast.Node) string {
	var b strings.Builder
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		if n.Type() != ast.TypeBlock && n.Kind() != ast.KindDocument {
			return
		}
		fmt.Fprintf(&b, "%s%s", strings.Repeat(" ", depth), n.Kind())
		if n.Kind() != ast.KindParagraph && n.Kind() != ast.KindTextBlock {
			fmt.Fprintf(&b, "@%d", n.Pos())
		}
		switch n := n.(type) {
		case *ast.Heading:
			fmt.Fprintf(&b, " level %d", n.Level)
		case *ast.List:
			fmt.Fprintf(&b, " ordered %v tight %v start %d", n.IsOrdered(), n.IsTight, n.Start)
		case *ast.HTMLBlock:
			fmt.Fprintf(&b, " type %d closure %v", n.HTMLBlockType, n.HasClosure())
		}
		if n.IsRaw() {
			for i := 0; i < n.Lines().Len(); i++ {
				seg := n.Lines().At(i)
				fmt.Fprintf(&b, " %q/%d", seg.Value(src), seg.Padding)
			}
		}
		b.WriteByte('\n')
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, depth+1)
		}
	}
	walk(root, 0)
	return b.String()
}

// checkBlocks: the recording parsers build the tree goldmark builds, and
// record what that tree says.
func checkBlocks(t testing.TB, src []byte) {
	want := goldmarkBlocks.Parse(text.NewReader(src))
	r := &recorder{}
	pc := parser.NewContext()
	pc.Set(recorderKey, r)
	got := blocks.Parse(text.NewReader(src), parser.WithContext(pc))
	if w, g := dumpTree(src, want), dumpTree(src, got); w != g {
		t.Fatalf("%q: the recording parsers changed the tree\nwant:\n%s\ngot:\n%s", src, w, g)
	}

	lineOf := func(pos int) int {
		return bytes.Count(src[:min(pos, len(src))], []byte("\n")) + 1
	}
	// What the tree says: literal blocks, top-level level-3 headings, an
	// open top-level fence.
	var literal, headings []int
	unclosed := 0
	for n := range walkBlocks(got) {
		switch n.Kind() {
		case ast.KindFencedCodeBlock:
			literal = append(literal, lineOf(n.Pos()))
		case ast.KindCodeBlock, ast.KindHTMLBlock:
			// Their first line holds their start; Pos can be past it when
			// a tab was expanded ("*\t  0\n").
			literal = append(literal, lineOf(n.Lines().At(0).Start))
		case ast.KindHeading:
			if n.Parent().Kind() == ast.KindDocument && n.(*ast.Heading).Level == 3 {
				headings = append(headings, lineOf(n.Pos()))
			}
		}
		if n.Kind() == ast.KindFencedCodeBlock && n.Parent().Kind() == ast.KindDocument {
			last := n.Pos()
			if l := n.Lines().Len(); l > 0 {
				last = n.Lines().At(l - 1).Start
			}
			if nl := bytes.IndexByte(src[min(last, len(src)):], '\n'); nl < 0 || last+nl+1 == len(src) {
				unclosed = lineOf(n.Pos())
			}
		}
	}
	var starts []int
	for _, s := range r.literal {
		starts = append(starts, s.start)
	}
	if fmt.Sprint(starts) != fmt.Sprint(literal) || fmt.Sprint(r.headings) != fmt.Sprint(headings) {
		t.Fatalf("%q: recorded literal blocks at %v and headings at %v, the tree has %v and %v", src, starts, r.headings, literal, headings)
	}
	recorded := 0
	if r.fence != nil {
		recorded = r.fenceAt
	}
	if recorded != unclosed {
		t.Fatalf("%q: recorded an open fence at line %d, the tree at %d", src, recorded, unclosed)
	}
	for _, s := range r.literal {
		if s.end <= s.start {
			t.Fatalf("%q: literal span %v", src, s)
		}
	}
}

func walkBlocks(root ast.Node) func(func(ast.Node) bool) {
	return func(yield func(ast.Node) bool) {
		var walk func(n ast.Node) bool
		walk = func(n ast.Node) bool {
			if n.Type() != ast.TypeBlock && n.Kind() != ast.KindDocument {
				return true
			}
			if n.Kind() != ast.KindDocument && !yield(n) {
				return false
			}
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if !walk(c) {
					return false
				}
			}
			return true
		}
		walk(root)
	}
}

var blockSamples = []string{
	"Title\n===\n% a\n",
	"[a]:\n/url\n% x\n",
	"```\n```\n[a]:\n% x\n",
	"```\ncode\n",
	"```\ncode\n```",
	"> ```\n> % x\n",
	"- ```\n  code\n",
	"<!--\n% x\n",
	"<div>\n% x\n\n% y\n",
	"    code\n\n% x\n",
	"*\t  0",
	"*\t  0\n",
	"-\t```\n% x\n",
	"para\n- item\n\n      code\n% x\n",
	"## a\n### @user:\n#### b\n> ### @x:\n",
	"Text\n---\n% x\n***\n",
	"1. a\n2. b\n\n   ```\n   x\n",
}

func TestBlocksAsGoldmark(t *testing.T) {
	srcs := [][]byte{benchInput(t)}
	for _, s := range blockSamples {
		srcs = append(srcs, []byte(s))
	}
	require.NoError(t, filepath.WalkDir("testdata/upstream", func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".md") {
			src, err := os.ReadFile(path)
			srcs = append(srcs, src)
			return err
		}
		return err
	}))
	require.Greater(t, len(srcs), 100)
	for _, src := range srcs {
		checkBlocks(t, src)
	}
}

// FuzzBlocks: on any input, the recording parsers build goldmark's tree
// and record what it says.
func FuzzBlocks(f *testing.F) {
	for _, s := range blockSamples {
		f.Add([]byte(s))
	}
	f.Add([]byte(strings.Repeat("> ", MaxNesting) + "x\n"))
	f.Add([]byte(strings.Repeat("- ", MaxNesting/2) + "x\n" + strings.Repeat("  ", MaxNesting/2) + "> - x\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkDepth(t, src)
		if _, _, ok := structure(src); ok {
			checkBlocks(t, src)
		}
	})
}

// checkDepth: structure refuses src exactly when goldmark's tree has more
// than MaxNesting list items and block quotes one in another.
func checkDepth(t testing.TB, src []byte) {
	deepest := 0
	var walk func(n ast.Node, depth int)
	walk = func(n ast.Node, depth int) {
		if k := n.Kind(); k == ast.KindListItem || k == ast.KindBlockquote {
			depth++
		}
		deepest = max(deepest, depth)
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c, depth)
		}
	}
	walk(goldmarkBlocks.Parse(text.NewReader(src)), 0)
	if _, _, ok := structure(src); ok != (deepest <= MaxNesting) {
		t.Fatalf("%.80q (%d lines): containers nest %d deep, and structure says ok=%v", src, bytes.Count(src, []byte("\n")), deepest, ok)
	}
}

// TestNestingAcrossLines: the limit counts the block quotes and list items
// open at once, however many lines they take to open.
func TestNestingAcrossLines(t *testing.T) {
	lines := func(n int, step func(i int) string) []byte {
		var b strings.Builder
		for i := range n {
			b.WriteString(step(i))
		}
		return []byte(b.String())
	}
	for name, build := range map[string]func(n int) []byte{
		"spaces": func(n int) []byte {
			return lines(n, func(i int) string { return strings.Repeat("  ", i) + "- x\n" })
		},
		"tabs": func(n int) []byte {
			return lines(n, func(i int) string { return strings.Repeat("\t", i) + "-\tx\n" })
		},
		"quotes": func(n int) []byte {
			return lines(n, func(i int) string { return strings.Repeat("> ", i+1) + "x\n" })
		},
		"mixed": func(n int) []byte {
			cont := "" // what continues the containers open so far
			return lines(n, func(i int) string {
				line := cont + "> x\n"
				if cont += "> "; i%2 == 0 {
					line = cont[:len(cont)-2] + "- x\n"
					cont = cont[:len(cont)-2] + "  "
				}
				return line
			})
		},
	} {
		t.Run(name, func(t *testing.T) {
			for _, n := range []int{MaxNesting, MaxNesting + 1} {
				src := build(n)
				checkDepth(t, src)
				_, err := Parse(src)
				if n <= MaxNesting {
					assert.NoError(t, err)
					continue
				}
				var pe *promptfmt.ParseError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, n, pe.Line, "the error is at the line that opens one too many")
				assert.Contains(t, pe.Msg, "nested more than 100 deep")
			}
		})
	}
}

// TestParseConcurrently: the recording parsers are shared, their
// recorders are not.
func TestParseConcurrently(t *testing.T) {
	var want []*promptfmt.Document
	for _, s := range blockSamples {
		doc, err := Parse([]byte(s))
		require.NoError(t, err)
		want = append(want, doc)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				for i, s := range blockSamples {
					doc, err := Parse([]byte(s))
					if assert.NoError(t, err) {
						assert.Equal(t, want[i], doc)
					}
				}
			}
		}()
	}
	wg.Wait()
}

// nestedInputs build inputs of about n bytes that nest lists and block
// quotes by indentation, one level a line.
var nestedInputs = map[string]func(i int) string{
	"indented lists": func(i int) string { return strings.Repeat("  ", i) + "- x\n" },
	"tab lists":      func(i int) string { return strings.Repeat("\t", i) + "-\tx\n" },
	"block quotes":   func(i int) string { return strings.Repeat("> ", i+1) + "x\n" },
	"mixed":          func(i int) string { return strings.Repeat("  ", i) + "- x\n" + strings.Repeat("  ", i+1) + "> x\n" },
}

func nestedInput(step func(i int) string, n int) []byte {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(step(i))
	}
	return []byte(b.String())
}

// sawtooth is about n bytes of inputs nested MaxNesting deep.
func sawtooth(step func(i int) string, n int) []byte {
	var b strings.Builder
	for b.Len() < n {
		for i := range MaxNesting / 2 {
			b.WriteString(step(i))
		}
		b.WriteString("\nx\n\n")
	}
	return []byte(b.String())
}

// TestNestingWorkIsLinear: lists and block quotes nested by indentation
// across lines cost work linear in the input. goldmark continues every
// open block on every line, looking at the line each time, so that an
// input of n bytes nested about √n deep cost n√n (2.5 MB of tab-nested
// list items took 35 s); the nesting limit bounds the open blocks. The
// work is what the recorder counts, and the allocations.
func TestNestingWorkIsLinear(t *testing.T) {
	for name, step := range nestedInputs {
		t.Run(name, func(t *testing.T) {
			growth.Linear(t, name+": work", 40_000, func(n int) float64 {
				r, _, _ := structure(nestedInput(step, n))
				return float64(r.work)
			})
			growth.Linear(t, name+": allocations", 40_000, func(n int) float64 {
				src := nestedInput(step, n)
				return growth.AllocBytes(func() { Parse(src) })
			})
			// n√n grows only ×8 at 4n: bound the work per byte too, by
			// the most blocks that may be open (a list and an item per
			// level), on this input and on one nested to the limit and
			// back again and again.
			for _, src := range [][]byte{nestedInput(step, 1<<20), sawtooth(step, 1<<18)} {
				r, _, ok := structure(src)
				assert.LessOrEqual(t, r.work, 2*MaxNesting*len(src), "work per byte beyond the open blocks' bound (ok=%v)", ok)
			}
		})
	}
}

// A top-level fence's span ends with its closing line, so that a message
// ending with one runs to no end and Write need not read it back alone;
// one never closed runs to the end.
func TestFenceSpan(t *testing.T) {
	for _, tc := range []struct {
		src     string
		spans   []lineSpan
		openEnd bool
	}{
		{"text\n\n```go\ncode\n```", []lineSpan{{3, 6}}, false},
		{"```\na\n```\n\n\nafter", []lineSpan{{1, 4}}, false},
		{"~~~~\n```\n~~~~\n    code", []lineSpan{{1, 4}, {4, toEnd}}, true},
		{"- ```\n  a\n  ```", []lineSpan{{1, toEnd}}, true}, // in a list item: to the next block
	} {
		r, _, ok := readBlocks([]byte(tc.src), false)
		require.True(t, ok)
		assert.Equal(t, tc.spans, r.literal, "%q", tc.src)
		_, _, openEnd, _ := messageBody(tc.src, nil, 0)
		assert.Equal(t, tc.openEnd, openEnd, "%q", tc.src)
	}
}
