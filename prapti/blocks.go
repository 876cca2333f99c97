package prapti

import (
	"bytes"
	"fmt"
	"math"
	"slices"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"

	"github.com/promptfmt/promptfmt/internal/lines"
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
	"*parser.paragraphParser":       func(bp parser.BlockParser) parser.BlockParser { return &paragraphWrap{stopping{bp}} },
	"*parser.atxHeadingParser":      func(bp parser.BlockParser) parser.BlockParser { return &atxWrap{stopping{bp}} },
	"*parser.setextHeadingParser":   func(bp parser.BlockParser) parser.BlockParser { return &setextWrap{stopping{bp}} },
	"*parser.fencedCodeBlockParser": func(bp parser.BlockParser) parser.BlockParser { return &fenceWrap{stopping{bp}} },
	"*parser.codeBlockParser":       func(bp parser.BlockParser) parser.BlockParser { return &literalWrap{stopping{bp}} },
	"*parser.htmlBlockParser":       func(bp parser.BlockParser) parser.BlockParser { return &htmlWrap{stopping{bp}} },
	"*parser.listParser":            func(bp parser.BlockParser) parser.BlockParser { return &containerWrap{stopping{bp}} },
	"*parser.listItemParser":        func(bp parser.BlockParser) parser.BlockParser { return &containerWrap{stopping{bp}} },
	"*parser.blockquoteParser":      func(bp parser.BlockParser) parser.BlockParser { return &containerWrap{stopping{bp}} },
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
		w := parser.BlockParser(&openWrap{stopping{bp}})
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
	literal  []lineSpan     // code and HTML blocks: from the line they open on to the next line a block opens on
	headings []int          // lines of top-level ATX headings of level 3
	fence    ast.Node       // the top-level fenced code block open now, if any
	fenceAt  int            // its line
	html     *ast.HTMLBlock // the top-level HTML block that ends at a marker, open now, if any
	htmlAt   int            // its line
	keep     ast.Node       // a paragraph a setext heading is taking over: its lines are still needed
	work     int            // bytes of lines goldmark looked at to continue list items and block quotes
	base     int            // lines of the source before the part goldmark reads now (see structure)
	stop     bool           // end goldmark's parse when it closes the blocks open at the end (see stopAtEnd)
	given    int            // bytes structure gave goldmark to read

	// For the escaper (see escapingStructure): lines read as text though
	// they would open a block that is never closed or a message heading.
	escaping bool
	refused  []int
	look     *lookahead
}

// refuse notes that the line at offset off of src is read as text, as it
// will be once escaped.
func (r *recorder) refuse(src []byte, off int) {
	r.refused = append(r.refused, bytes.Count(src[:off], []byte{'\n'})+1)
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
	if r != nil {
		line += r.base
	}
	if node != nil && r != nil {
		r.opened(line, literal)
	}
	return node, state, r, line
}

type openWrap struct{ stopping }

func (w *openWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, _, _ := open(w.BlockParser, false, parent, reader, pc)
	return node, state
}

// lineAt returns the line of src holding offset off, and its start.
func lineAt(src []byte, off int) (string, int) {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		end = len(src)
	} else {
		end += off
	}
	return string(src[start:end]), start
}

type literalWrap struct{ stopping }

func (w *literalWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, _, _ := open(w.BlockParser, true, parent, reader, pc)
	return node, state
}

// fenceWrap also tracks the top-level fence open now: goldmark's Continue
// returns Close, without Continue, only at the closing fence.
type fenceWrap struct{ stopping }

func (w *fenceWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if r := recorderOf(pc); r != nil && r.escaping && parent.Kind() == ast.KindDocument {
		line, seg := reader.PeekLine()
		_, start := lineAt(reader.Source(), seg.Start)
		if c, n := fenceOpener(line, pc.BlockOffset()); n > 0 && !r.lookahead(reader.Source()).fenceCloses(start, c, n) {
			r.refuse(reader.Source(), seg.Start)
			return nil, parser.NoChildren
		}
	}
	node, state, r, line := open(w.BlockParser, true, parent, reader, pc)
	if node != nil && r != nil && parent.Kind() == ast.KindDocument {
		r.fence, r.fenceAt = node, line+1
	}
	return node, state
}

func (w *fenceWrap) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, _ := reader.Position()
	state := w.BlockParser.Continue(node, reader, pc)
	if r := recorderOf(pc); r != nil && state&parser.Continue == 0 && r.fence == node {
		r.fence = nil
		// Its span ends with its closing line, not at the next block:
		// a fence closed at the end of a message body runs to no end.
		if n := len(r.literal); n > 0 && r.literal[n-1].end == toEnd {
			r.literal[n-1].end = line + r.base + 2
		}
	}
	return state
}

// htmlWrap, for the escaper, refuses an HTML block that ends at a marker
// ("-->") it never finds.
type htmlWrap struct{ stopping }

func (w *htmlWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	r := recorderOf(pc)
	if r == nil || !r.escaping || parent.Kind() != ast.KindDocument {
		node, state, r, line := open(w.BlockParser, true, parent, reader, pc)
		if node != nil && r != nil && parent.Kind() == ast.KindDocument {
			// Tracked as a fence is, unless it closes on its first
			// line: goldmark then closes it at the next line, if any.
			h := node.(*ast.HTMLBlock)
			if l := h.Lines(); l.Len() > 0 && !closesOn(h.HTMLBlockType, reader.Source()[l.At(0).Start:l.At(0).Stop]) {
				r.html, r.htmlAt = h, line+1
			}
		}
		return node, state
	}
	at, seg := reader.Position()
	node, state := w.BlockParser.Open(parent, reader, pc)
	if node != nil {
		src := reader.Source()
		_, start := lineAt(src, seg.Start)
		if !r.lookahead(src).htmlCloses(node.(*ast.HTMLBlock).HTMLBlockType, start) {
			reader.SetPosition(at, seg)
			r.refuse(src, seg.Start)
			return nil, parser.NoChildren
		}
		r.opened(at, true)
	}
	return node, state
}

func (w *htmlWrap) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	state := w.BlockParser.Continue(node, reader, pc)
	if r := recorderOf(pc); r != nil && state&parser.Continue == 0 && r.html == node {
		r.html = nil
	}
	return state
}

// closesOn reports whether line holds the end marker of an HTML block of
// type t, as goldmark looks for it (for types 6 and 7, which end at a blank
// line, it reports true: they never run to the end of a file Write or
// Append writes, and a reply appended after a blank line is not in them).
func closesOn(t ast.HTMLBlockType, line []byte) bool {
	marks, ok := htmlEnds[t]
	if !ok {
		return true
	}
	if t == ast.HTMLBlockType1 {
		line = bytes.ToLower(line)
	}
	for _, m := range marks {
		if bytes.Contains(line, []byte(m)) {
			return true
		}
	}
	return false
}

type atxWrap struct{ stopping }

func (w *atxWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	if r := recorderOf(pc); r != nil && r.escaping {
		_, seg := reader.Position()
		if line, _ := lineAt(reader.Source(), seg.Start); needsEscape(line) {
			r.refuse(reader.Source(), seg.Start)
			return nil, parser.NoChildren
		}
	}
	node, state, r, line := open(w.BlockParser, false, parent, reader, pc)
	if node != nil && r != nil && parent.Kind() == ast.KindDocument && node.(*ast.Heading).Level == 3 {
		r.headings = append(r.headings, line+1)
	}
	return node, state
}

func (w *atxWrap) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	w.stopping.Close(node, reader, pc)
	if recorderOf(pc) != nil {
		node.Lines().Clear()
	}
}

// paragraphWrap empties a closed paragraph, unless a setext heading is
// taking it over (goldmark reads its lines when it closes the heading).
type paragraphWrap struct{ stopping }

func (w *paragraphWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	node, state, _, _ := open(w.BlockParser, false, parent, reader, pc)
	return node, state
}

func (w *paragraphWrap) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	w.stopping.Close(node, reader, pc)
	if r := recorderOf(pc); r != nil && node != r.keep {
		node.Lines().Clear()
	}
}

type setextWrap struct{ stopping }

func (w *setextWrap) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	last := pc.LastOpenedBlock().Node
	node, state, r, _ := open(w.BlockParser, false, parent, reader, pc)
	if node != nil && r != nil {
		r.keep = last
	}
	return node, state
}

func (w *setextWrap) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	w.stopping.Close(node, reader, pc)
	if r := recorderOf(pc); r != nil {
		r.keep = nil
		if node.Parent() != nil {
			node.Lines().Clear() // the paragraph's lines, now the heading's
		}
	}
}

// stopping is a wrapped block parser whose Close first ends goldmark's
// parse when it is at the end (see stopAtEnd): every wrap embeds it.
type stopping struct{ parser.BlockParser }

func (w *stopping) Close(node ast.Node, reader text.Reader, pc parser.Context) {
	stopAtEnd(reader, pc)
	w.BlockParser.Close(node, reader, pc)
}

// endOfBlocks is what stopAtEnd panics with, and readPart recovers.
type endOfBlocks struct{}

// stopAtEnd ends goldmark's parse, when the recorder asks, once it closes
// the blocks still open at the end of the source: every line has been
// read then, and all that is left of goldmark's parse is its inline
// pass over the tree, which the recorder never reads (a tenth of the
// time of structure).
func stopAtEnd(reader text.Reader, pc parser.Context) {
	if r := recorderOf(pc); r != nil && r.stop {
		if line, _ := reader.PeekLine(); line == nil {
			panic(endOfBlocks{})
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
type containerWrap struct{ stopping }

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
//
// Decision: goldmark reads only the parts of src where it can find more
// than paragraphs. After a top-level heading, goldmark's state is that of
// a new document (no block is open, and none can continue), so src is
// read in stretches, each ending at a line that starts with "### " (a
// message heading). A stretch whose other lines are plain (blank, text,
// or the markers of lists and block quotes before text that opens no code
// or HTML block: see plainLine) records nothing but a top-level level-3
// heading on its last line: a heading at the start of a line closes the
// lists and quotes open before it.
// Goldmark reads every run of other stretches, from after the heading
// before it to its last heading; when that heading comes out top-level,
// goldmark's state is new again, else (a fence or an HTML block swallowed
// it) goldmark reads the rest of src. The recorder is the same as one
// read of the whole (a test and a fuzz target compare the two); a file of
// plain messages costs a line split.
func structure(src []byte) (r *recorder, deep int, ok bool) {
	r = &recorder{}
	start, startLine := 0, 1 // where the stretch being scanned starts: goldmark's state is new there
	pending := -1            // where goldmark is to start reading, if it is; its line
	pendingLine := 0
	// The plain stretches after those goldmark is to read: where they
	// start, their headings' lines, their size.
	plainFrom, plainAt, plainSize := 0, 0, 0
	var deferred []int
	plain := true // the stretch's lines so far are plain
	line := 1
	for off := 0; off < len(src); line++ {
		end, next := lines.LineLFBytes(src, off)
		l := src[off:end]
		off = next
		if !bytes.HasPrefix(l, []byte("### ")) {
			plain = plain && plainLine(l)
			continue
		}
		switch {
		case plain && pending < 0: // a plain stretch from a new state: its heading is top-level
			r.opened(line-1, false)
			r.headings = append(r.headings, line)
		case !plain && pending < 0:
			pending, pendingLine = start, startLine
		case !plain:
			deferred, plainSize = deferred[:0], 0 // goldmark reads them on its way
		default:
			if len(deferred) == 0 {
				plainFrom, plainAt = start, startLine
			}
			deferred, plainSize = append(deferred, line), plainSize+next-start
			if plainSize < minSkip {
				break
			}
			// Goldmark reads up to the plain stretches: the state is new
			// after it when its last heading is top-level.
			if deep, ok := r.read(src, pending, pendingLine, plainFrom); !ok {
				return r, deep, false
			}
			if n := len(r.headings); n == 0 || r.headings[n-1] != plainAt-1 {
				return r, 0, true // it read to the end
			}
			for _, h := range deferred {
				r.opened(h-1, false)
				r.headings = append(r.headings, h)
			}
			pending, deferred, plainSize = -1, deferred[:0], 0
		}
		start, startLine, plain = next, line+1, true
	}
	if !plain && pending < 0 {
		pending, pendingLine = start, startLine
	}
	if pending >= 0 {
		if deep, ok := r.read(src, pending, pendingLine, len(src)); !ok {
			return r, deep, false
		}
	}
	return r, 0, true
}

// minSkip is how many bytes of plain stretches after others make
// structure stop goldmark before them, rather than let it read through:
// starting goldmark again costs about as much as reading a few hundred
// bytes.
const minSkip = 512

// read has goldmark read src[from:to], which starts on line fromLine in
// a new state, into r. When the last heading of src[from:to] does not
// come out top-level, it reads on to the end of src instead, as if it
// had gone on: what it recorded of the part is put back first.
func (r *recorder) read(src []byte, from, fromLine, to int) (deep int, ok bool) {
	nl, nh, work := len(r.literal), len(r.headings), r.work
	r.base = fromLine - 1
	defer func() { r.base = 0 }()
	if deep, ok := r.readPart(src[from:to]); !ok {
		return from + deep, false
	}
	if to == len(src) || len(r.headings) > nh && r.headings[len(r.headings)-1] == fromLine-1+bytes.Count(src[from:to], []byte{'\n'}) {
		return 0, true
	}
	r.literal, r.headings, r.work = r.literal[:nl], r.headings[:nh], work
	r.fence, r.html, r.keep = nil, nil, nil
	if deep, ok := r.readPart(src[from:]); !ok {
		return from + deep, false
	}
	return 0, true
}

// readPart has goldmark read src, a document of its own, into r.
func (r *recorder) readPart(src []byte) (deep int, ok bool) {
	r.given += len(src)
	pc := parser.NewContext()
	pc.Set(recorderKey, r)
	r.stop = true
	defer func() {
		r.stop = false
		if e := recover(); e != nil {
			if _, end := e.(endOfBlocks); end {
				deep, ok = 0, true
				return
			}
			d, isDeep := e.(tooDeep)
			if !isDeep {
				panic(e)
			}
			deep, ok = min(d.offset, len(src)), false
		}
	}()
	blocks.Parse(text.NewReader(src), parser.WithContext(pc))
	return 0, true
}

// plainLine reports whether a line can open no code or HTML block, nor
// a block nested deep enough to be refused, in a new state or in the
// blocks that lines of this kind open: after the markers of block quotes
// and list items (at most maxPlainMarkers), each with fewer than four
// spaces after it (more may be indented code), its text starts with
// neither ` nor ~ (a fence) nor < (HTML) nor # (a heading: "###\tx" is
// one, and no stretch ends at it), nor a tab or another control
// character. A blank line is plain. Paragraphs, lists, quotes, setext
// headings and thematic breaks are recorded as nothing, so a stretch of
// plain lines needs no goldmark.
func plainLine(l []byte) bool {
	i, markers := 0, 0
	for {
		j := i
		for j < len(l) && l[j] == ' ' {
			j++
		}
		if j == len(l) {
			return true
		}
		if j-i > 3 {
			return false
		}
		i = j
		switch c := l[i]; {
		case c == '>':
			i++
		case c == '-' || c == '+' || c == '*':
			if i+1 < len(l) && l[i+1] != ' ' {
				return l[i+1] != '\t' // text, a thematic break or a setext underline
			}
			i++
		case c >= '0' && c <= '9':
			k := i
			for k < len(l) && l[k] >= '0' && l[k] <= '9' {
				k++
			}
			if k == len(l) || l[k] != '.' && l[k] != ')' {
				return true // text
			}
			if k+1 < len(l) && l[k+1] != ' ' {
				return l[k+1] != '\t'
			}
			i = k + 1
		default:
			return c > ' ' && c != 0x7f && c != '`' && c != '~' && c != '<' && c != '#'
		}
		if markers++; markers > maxPlainMarkers {
			return false
		}
	}
}

// maxPlainMarkers is how many block markers a plain line may have: far
// fewer than MaxNesting, so that no plain line nests too deep.
const maxPlainMarkers = 16

// escapingStructure is structure as the escaper needs it: src read as it
// will read once its lines that need it are escaped. A message heading
// is text, and so is a top-level fence or HTML block that would run to the
// end of src, swallowing what follows src (an HTML block that ends at a
// blank line, as a message does, swallows nothing). Those lines are in
// refused.
func escapingStructure(src []byte) (r *recorder, deep int, ok bool) {
	return readBlocks(src, true)
}

func readBlocks(src []byte, escaping bool) (r *recorder, deep int, ok bool) {
	r = &recorder{escaping: escaping}
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

// fenceOpener returns the character and length of the fence that line
// opens at pos, as goldmark reads one (three or more ` or ~; no ` in the
// info string of a ` fence), or 0.
func fenceOpener(line []byte, pos int) (byte, int) {
	if pos < 0 || pos >= len(line) || line[pos] != '`' && line[pos] != '~' {
		return 0, 0
	}
	c, i := line[pos], pos
	for i < len(line) && line[i] == c {
		i++
	}
	if i-pos < 3 || c == '`' && bytes.IndexByte(line[i:], '`') >= 0 {
		return 0, 0
	}
	return c, i - pos
}

// lookahead tells whether a block opened on some line closes later in the
// source, in constant time after one pass over it.
type lookahead struct {
	src []byte
	// closing fence lines (at most three columns of indentation, a run
	// of ` or ~, then blanks), in order: where they start, and the
	// longest run of each character at or after each
	closers  []int
	longest  [][2]int
	lastMark map[ast.HTMLBlockType]int // the last offset of each HTML block's end marker
}

func (r *recorder) lookahead(src []byte) *lookahead {
	if r.look == nil {
		r.look = newLookahead(src)
	}
	return r.look
}

func newLookahead(src []byte) *lookahead {
	l := &lookahead{src: src}
	for off := 0; off < len(src); {
		end, _ := lines.LineLFBytes(src, off)
		line := src[off:end]
		w, pos := util.IndentWidth(line, 0)
		if w < 4 && pos < len(line) && (line[pos] == '`' || line[pos] == '~') {
			i := pos
			for i < len(line) && line[i] == line[pos] {
				i++
			}
			if util.IsBlank(line[i:]) {
				var run [2]int
				run[fenceIndex(line[pos])] = i - pos
				l.closers = append(l.closers, off)
				l.longest = append(l.longest, run)
			}
		}
		off = end + 1
	}
	for k := len(l.longest) - 2; k >= 0; k-- {
		for c := range 2 {
			l.longest[k][c] = max(l.longest[k][c], l.longest[k+1][c])
		}
	}
	return l
}

func fenceIndex(c byte) int {
	if c == '~' {
		return 1
	}
	return 0
}

// fenceCloses reports whether a fence of n c's, opened on the line that
// starts at start, is closed by a later line.
func (l *lookahead) fenceCloses(start int, c byte, n int) bool {
	k, found := slices.BinarySearch(l.closers, start)
	if found {
		k++
	}
	return k < len(l.closers) && l.longest[k][fenceIndex(c)] >= n
}

// htmlEnds are the end markers of the HTML blocks that end at one, as
// goldmark looks for them: anywhere on a line, the first line included.
var htmlEnds = map[ast.HTMLBlockType][]string{
	ast.HTMLBlockType1: {"</script>", "</pre>", "</style>", "</textarea>"}, // any case
	ast.HTMLBlockType2: {"-->"},
	ast.HTMLBlockType3: {"?>"},
	ast.HTMLBlockType4: {">"},
	ast.HTMLBlockType5: {"]]>"},
}

// htmlCloses reports whether an HTML block of type t opened on the line
// starting at start is closed there or later. Blocks of types 6 and 7 end
// at a blank line, which always follows what the escaper writes.
func (l *lookahead) htmlCloses(t ast.HTMLBlockType, start int) bool {
	if _, ok := htmlEnds[t]; !ok {
		return true
	}
	if l.lastMark == nil {
		l.lastMark = map[ast.HTMLBlockType]int{}
		lower := make([]byte, len(l.src)) // ASCII only, so that offsets stay
		for i, c := range l.src {
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			lower[i] = c
		}
		for typ, marks := range htmlEnds {
			last := -1
			for _, m := range marks {
				in := l.src
				if typ == ast.HTMLBlockType1 {
					in = lower
				}
				last = max(last, bytes.LastIndex(in, []byte(m)))
			}
			l.lastMark[typ] = last
		}
	}
	return l.lastMark[t] >= start
}
