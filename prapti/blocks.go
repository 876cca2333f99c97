package prapti

import (
	"fmt"
	"math"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// blocks is goldmark's CommonMark block parser with its default block
// parsers, each wrapped to tell a recorder (found in the parse context)
// which line every block opens on. Parse needs only that: which lines are
// code or HTML, which are top-level level-3 headings, whether a top-level
// fence is left open. The wrappers change nothing goldmark decides (the
// tests compare the trees with and without them); they also empty the
// lines of paragraphs and headings once goldmark is done with them, so that
// goldmark's inline pass, which Parse never reads, has no text to turn into
// nodes.
var blocks = parser.NewParser(parser.WithBlockParsers(recordingParsers...))

// recorderKey holds the *recorder of one parse in goldmark's context.
var recorderKey = parser.NewContextKey()

// wrapped lists the default block parsers that need more than openWrap,
// by type; recordingParsers reports those it did not find.
var wrapped = map[string]func(parser.BlockParser) parser.BlockParser{
	"*parser.paragraphParser":       func(bp parser.BlockParser) parser.BlockParser { return &paragraphWrap{bp} },
	"*parser.atxHeadingParser":      func(bp parser.BlockParser) parser.BlockParser { return &atxWrap{bp} },
	"*parser.setextHeadingParser":   func(bp parser.BlockParser) parser.BlockParser { return &setextWrap{bp} },
	"*parser.fencedCodeBlockParser": func(bp parser.BlockParser) parser.BlockParser { return &fenceWrap{bp} },
	"*parser.codeBlockParser":       func(bp parser.BlockParser) parser.BlockParser { return &literalWrap{bp} },
	"*parser.htmlBlockParser":       func(bp parser.BlockParser) parser.BlockParser { return &literalWrap{bp} },
	"*parser.listParser":            func(bp parser.BlockParser) parser.BlockParser { return &containerWrap{bp} },
	"*parser.listItemParser":        func(bp parser.BlockParser) parser.BlockParser { return &containerWrap{bp} },
	"*parser.blockquoteParser":      func(bp parser.BlockParser) parser.BlockParser { return &containerWrap{bp} },
}

// recordingParsers wraps goldmark's default block parsers, with their
// priorities. missing names the types of wrapped it did not find (a test
// asserts there are none).
var recordingParsers, missing = func() ([]util.PrioritizedValue, []string) {
	out := parser.DefaultBlockParsers()
	found := map[string]bool{}
	for i, v := range out {
		bp := v.Value.(parser.BlockParser)
		name := fmt.Sprintf("%T", bp)
		w := parser.BlockParser(&openWrap{bp})
		if wrap, ok := wrapped[name]; ok {
			w, found[name] = wrap(bp), true
		}
		out[i] = util.Prioritized(w, v.Priority)
	}
	var missing []string
	for name := range wrapped {
		if !found[name] {
			missing = append(missing, name)
		}
	}
	return out, missing
}()

// A lineSpan is a range of 1-based lines, end excluded.
type lineSpan struct{ start, end int }

// toEnd is the end of a span that runs to the end of the source.
const toEnd = math.MaxInt

// recorder collects what Parse needs of goldmark's block structure.
type recorder struct {
	literal  []lineSpan // code and HTML blocks: from the line they open on to the next line a block opens on
	headings []int      // lines of top-level ATX headings of level 3
	fence    ast.Node   // the top-level fenced code block open now, if any
	fenceAt  int        // its line
	keep     ast.Node   // a paragraph a setext heading is taking over: its lines are still needed
	work     int        // bytes of lines goldmark looked at to continue list items and block quotes
}

func recorderOf(pc parser.Context) *recorder {
	r, _ := pc.Get(recorderKey).(*recorder)
	return r
}

// opened notes a block opened on 0-based line i.
func (r *recorder) opened(i int, literal bool) {
	line := i + 1
	if n := len(r.literal); n > 0 && r.literal[n-1].end == toEnd && r.literal[n-1].start < line {
		r.literal[n-1].end = line
	}
	if literal {
		r.literal = append(r.literal, lineSpan{line, toEnd})
	}
}

// open calls bp.Open and records the block it opens.
func open(bp parser.BlockParser, literal bool, parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State, *recorder, int) {
	line, _ := reader.Position()
	node, state := bp.Open(parent, reader, pc)
	r := recorderOf(pc)
	if node != nil && r != nil {
		r.opened(line, literal)
	}
	return node, state, r, line
}

type openWrap struct{ parser.BlockParser }

func (w *openWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, _, _ := open(w.BlockParser, false, parent, reader, pc)
	return node, state
}

type literalWrap struct{ parser.BlockParser }

func (w *literalWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, _, _ := open(w.BlockParser, true, parent, reader, pc)
	return node, state
}

// fenceWrap also tracks the top-level fence open now: goldmark's Continue
// returns Close, without Continue, only at the closing fence.
type fenceWrap struct{ parser.BlockParser }

func (w *fenceWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, r, line := open(w.BlockParser, true, parent, reader, pc)
	if node != nil && r != nil && parent.Kind() == ast.KindDocument {
		r.fence, r.fenceAt = node, line+1
	}
	return node, state
}

func (w *fenceWrap) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	state := w.BlockParser.Continue(node, reader, pc)
	if r := recorderOf(pc); r != nil && state&parser.Continue == 0 && r.fence == node {
		r.fence = nil
	}
	return state
}

type atxWrap struct{ parser.BlockParser }

func (w *atxWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, r, line := open(w.BlockParser, false, parent, reader, pc)
	if node != nil && r != nil && parent.Kind() == ast.KindDocument && node.(*ast.Heading).Level == 3 {
		r.headings = append(r.headings, line+1)
	}
	return node, state
}

func (w *atxWrap) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	w.BlockParser.Close(node, reader, pc)
	if recorderOf(pc) != nil {
		node.Lines().Clear()
	}
}

// paragraphWrap empties a closed paragraph, unless a setext heading is
// taking it over (goldmark reads its lines when it closes the heading).
type paragraphWrap struct{ parser.BlockParser }

func (w *paragraphWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, _, _ := open(w.BlockParser, false, parent, reader, pc)
	return node, state
}

func (w *paragraphWrap) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	w.BlockParser.Close(node, reader, pc)
	if r := recorderOf(pc); r != nil && node != r.keep {
		node.Lines().Clear()
	}
}

type setextWrap struct{ parser.BlockParser }

func (w *setextWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	last := pc.LastOpenedBlock().Node
	node, state, r, _ := open(w.BlockParser, false, parent, reader, pc)
	if node != nil && r != nil {
		r.keep = last
	}
	return node, state
}

func (w *setextWrap) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	w.BlockParser.Close(node, reader, pc)
	if r := recorderOf(pc); r != nil {
		r.keep = nil
		if node.Parent() != nil {
			node.Lines().Clear() // the paragraph's lines, now the heading's
		}
	}
}

// MaxNesting is how many block quotes and list items may be open at once,
// whether their markers start one line or indentation nests them across
// lines. goldmark continues every open block on every line, looking at the
// rest of the line each time, so that its work grows with the depth times
// the size of the input (2.5 MB of list items nested by tabs, 2,000 deep,
// took 35 s); real conversations nest a few levels.
const MaxNesting = 100

// containerWrap refuses a block quote, list or list item that would open
// more than MaxNesting containers: it stops goldmark (see structure) at once. It
// counts the work of continuing the containers, for the tests.
type containerWrap struct{ parser.BlockParser }

// tooDeep is what containerWrap panics with, and structure recovers: the
// offset of the marker that opened one container too many.
type tooDeep struct{ offset int }

func (w *containerWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	_, seg := reader.Position()
	node, state, _, _ := open(w.BlockParser, false, parent, reader, pc)
	if node != nil && containers(parent) >= MaxNesting {
		panic(tooDeep{seg.Start + max(pc.BlockOffset(), 0)})
	}
	return node, state
}

func (w *containerWrap) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	if r := recorderOf(pc); r != nil {
		line, _ := reader.PeekLine()
		r.work += len(line) // what goldmark looks at, at most
	}
	return w.BlockParser.Continue(node, reader, pc)
}

// containers counts the list items and block quotes n is in (n included),
// up to MaxNesting.
func containers(n ast.Node) int {
	depth := 0
	for ; n != nil && depth < MaxNesting; n = n.Parent() {
		if k := n.Kind(); k == ast.KindListItem || k == ast.KindBlockquote {
			depth++
		}
	}
	return depth
}

// structure reads src with goldmark and returns what the recorder found.
// For blocks nested more than MaxNesting deep it stops, and ok is false:
// deep is then the offset in src of the marker that opens one too many.
func structure(src []byte) (r *recorder, deep int, ok bool) {
	r = &recorder{}
	pc := parser.NewContext()
	pc.Set(recorderKey, r)
	defer func() {
		if e := recover(); e != nil {
			d, isDeep := e.(tooDeep)
			if !isDeep {
				panic(e)
			}
			deep, ok = min(d.offset, len(src)), false
		}
	}()
	blocks.Parse(text.NewReader(src), parser.WithContext(pc))
	return r, 0, true
}
