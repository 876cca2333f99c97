package stf

import (
	"errors"
	"strconv"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/json5"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/slab"
)

const format = "stf"

// Parse reads an STF file into a Document. See the package documentation
// for the rules and the options.
func Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	cfg, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return cfg.Finish(parse(src, cfg))
}

func parse(src []byte, cfg config) (*promptfmt.Document, error) {
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	p := &parser{src: src, s: string(src), cfg: cfg, cur: -1, doc: &promptfmt.Document{}, layout: layout{metaAfter: -1}}
	p.lines = lineCounter{s: p.s, line: 1}
	p.text.src, p.block.src, p.block.track = p.s, p.s, true
	if cr, crlf := lines.CountCR(p.s); cr > 0 {
		lf := strings.Count(p.s, "\n")
		p.crlf = lf > 0 && crlf == lf
		p.lines.loneCR = cr != crlf
	}
	p.doc.Messages = make([]promptfmt.Message, 0, slab.First(len(p.s)))
	p.parts = slab.New(slab.First(len(p.s)))
	if err := p.run(); err != nil {
		return nil, err
	}
	return p.doc, nil
}

type parser struct {
	src              []byte
	s                string // the source, one copy: message texts are substrings of it
	cfg              config
	doc              *promptfmt.Document
	crlf             bool // every LF follows a CR: the file's lines end in CRLF
	cur              int  // index of the current message, -1 when there is none
	text             buffer
	block            buffer     // data lines of the pending polyadic command
	open             string     // the pending polyadic command (raw, extra, meta), or ""
	at               int        // offset of its command line
	atLine, textLine int        // lines of that command and of the pending text
	opens            []int      // offsets of the /* lines of the open block comments
	parts            slab.Parts // where messages' first parts are cut from
	lines            lineCounter
	args             []arg // buffer for parseArgs
	// pending are the comments read since the last flush; blockLine is
	// the line of the outermost open ;/*.
	pending   []pendingComment
	blockLine int
	layout    layout
	sawMeta   bool
}

// emptyName warns of name="": the model has no empty name (Name "" is no
// name), so the writer cannot put it back.
func (p *parser) emptyName(name string, off int) {
	if name == "" {
		p.doc.Warnings = append(p.doc.Warnings, diag.Warnf(format, p.src, off, `name "" is no name: it is left out when the file is written`))
	}
}

func (p *parser) errAt(off int, msg string, args ...any) error {
	return diag.Errorf(format, p.src, off, msg, args...)
}

// dataHint is the hint on an error about a line that reads as a command.
const dataHint = "a text line that starts with ';' is written ';;' (the first ';' is dropped)"

func (p *parser) hintAt(off int, hint, msg string, args ...any) error {
	e := diag.Errorf(format, p.src, off, msg, args...)
	e.Hint = hint
	return e
}

// lineEnd returns the end of the line starting at pos (without its LF, and
// without a CR before it when keepCR is false) and the start of the next.
func (p *parser) lineEnd(pos int, keepCR bool) (end, next int) {
	i := strings.IndexByte(p.s[pos:], '\n')
	if i < 0 {
		end, next = len(p.s), len(p.s)
	} else {
		end, next = pos+i, pos+i+1
	}
	if !keepCR && end > pos && p.s[end-1] == '\r' {
		end--
	}
	return end, next
}

// isCommand reports whether the line starting at pos is a command line:
// it starts with ';' but not with the ";;" of an escaped data line.
func (p *parser) isCommand(pos int) bool {
	return p.s[pos] == ';' && (pos+1 == len(p.s) || p.s[pos+1] != ';')
}

func (p *parser) run() error {
	pos := 0
	if strings.HasPrefix(p.s, "\uFEFF") {
		p.doc.Warnings = append(p.doc.Warnings, diag.Warnf(format, p.src, 0, "byte order mark at the start of the file ignored"))
		pos = 3
	}
	for pos < len(p.s) {
		var err error
		switch {
		case p.isCommand(pos):
			pos, err = p.command(pos)
		case len(p.opens) > 0: // inside a block comment: only /* and */ lines matter
			pos = p.nextCommandLine(pos)
		case p.open != "":
			end, next := p.lineEnd(pos, !p.crlf)
			start := pos
			if p.s[pos] == ';' {
				start++
			}
			p.block.add(p.s[start:end], start, true)
			pos = next
		default:
			pos, err = p.data(pos)
		}
		if err != nil {
			return err
		}
	}
	return p.finish()
}

// nextCommandLine returns the start of the next line after pos that starts
// with ';', or the end of the source.
func (p *parser) nextCommandLine(pos int) int {
	// Searching for ';' and looking behind it is faster than searching for
	// "\n;": prose has far fewer semicolons than line breaks.
	for i := pos + 1; i < len(p.s); {
		j := strings.IndexByte(p.s[i:], ';')
		if j < 0 {
			break
		}
		i += j
		if p.s[i-1] == '\n' {
			return i
		}
		i++
	}
	return len(p.s)
}

// data reads the run of data lines starting at pos, up to the next line
// starting with ';', as one piece of text: a substring of the source.
func (p *parser) data(pos int) (int, error) {
	start := pos
	if p.s[pos] == ';' { // ";;" escape: the first ';' is dropped
		start++
	}
	// The first line is found by its LF: a message of one line then costs
	// one search, and its next line's number is known.
	next := len(p.s)
	line := -1
	if i := strings.IndexByte(p.s[pos:], '\n'); i >= 0 {
		i += pos
		if i+1 < len(p.s) && p.s[i+1] == ';' {
			next = i + 1
			if p.lines.off == pos {
				line = p.lines.line + 1
			}
		} else {
			next = p.nextCommandLine(i)
		}
	}
	end := next - 1 // the LF before the command line
	if next == len(p.s) {
		end = next
		if end > start && p.s[end-1] == '\n' {
			end-- // the file's final LF ends its last line; it is not content
		}
	}
	raw := p.s[start:end]
	if p.cur < 0 && p.cfg.defaultRole == "" {
		// Blank lines outside a message are ignored; anything else is an error.
		for i := 0; i < len(raw); i++ {
			if c := raw[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
				return 0, p.errAt(start+i, "text outside a message: start one with a command such as ;user (a data line that starts with ';' is written ';;')")
			}
		}
		return next, nil
	}
	if p.text.n == 0 {
		p.textLine = p.lines.at(start)
	}
	if line > 0 {
		p.lines.skip(next, line)
	}
	if !p.crlf {
		p.text.add(raw, start, true)
		return next, nil
	}
	seg := lines.CRLFToLF(raw)
	if end < len(p.s) {
		seg = strings.TrimSuffix(seg, "\r")
	}
	p.text.add(seg, start, false)
	return next, nil
}

// command handles the command line starting at pos and returns where the
// next line starts.
func (p *parser) command(pos int) (int, error) {
	if next, ok := p.bareRole(pos); ok {
		return next, nil
	}
	end, next := p.lineEnd(pos, false) // a CR before the LF is tolerated
	line := p.s[pos:end]
	i := 1
	for i < len(line) && isBlank(line[i]) {
		i++
	}
	rest := line[i:]
	switch {
	case strings.HasPrefix(rest, "/*"):
		if len(p.opens) == 0 {
			p.blockLine = p.lines.at(pos)
		}
		p.opens = append(p.opens, pos)
		return next, nil
	case strings.HasPrefix(rest, "*/"):
		if len(p.opens) == 0 {
			return 0, p.errAt(pos+i, "*/ closes no block comment")
		}
		if len(p.opens) == 1 {
			p.comment(p.opens[0], p.blockLine, p.s[p.opens[0]:end])
		}
		p.opens = p.opens[:len(p.opens)-1]
		return next, nil
	case len(p.opens) > 0:
		return next, nil // every other line of a block comment is ignored
	case strings.HasPrefix(rest, "#") || strings.HasPrefix(rest, "//"):
		p.comment(pos, p.lines.at(pos), line)
		return next, nil
	}
	j := i
	for j < len(line) && (isKeyStart(line[j]) || j > i && line[j] >= '0' && line[j] <= '9') {
		j++
	}
	name := line[i:j]
	if k := wordEnd(line, j); k > j || name == "" {
		if k == i || line[i] >= '0' && line[i] <= '9' {
			return 0, p.errAt(pos+i, "not a command: a line starting with ';' holds a command such as ;user, a comment (;# ;// ;/* ;*/), or data written ';;'")
		}
		return 0, p.hintAt(pos+i, dataHint, "unknown command %q (command names are lowercase: %s)", line[i:k], commandNames)
	}
	argsOff := pos + j
	args := line[j:]
	if name == "end" {
		return next, p.end(pos)
	}
	if p.open != "" {
		return 0, p.errAt(pos, ";%s at line %d is not closed: write ;end before the next command", p.open, p.lines.at(p.at))
	}
	if role := roleCommand(name); role != "" {
		return next, p.startMessage(pos, role, name, args, argsOff)
	}
	switch name {
	case "message", "msg":
		return next, p.startMessage(pos, "", name, args, argsOff)
	case "raw", "extra", "meta":
		p.flush()
		if name == "extra" && p.cur < 0 {
			return 0, p.errAt(pos, ";extra needs a message before it to attach to")
		}
		if err := p.noArgs(name, args, argsOff); err != nil {
			return 0, err
		}
		if name == "meta" && !p.sawMeta {
			p.sawMeta = true
			if len(p.doc.Messages) == 0 {
				p.layout.metaAfter = len(p.doc.Comments)
			}
		}
		p.open, p.at, p.atLine = name, pos, p.lines.at(pos)
		p.block.reset()
		return next, nil
	case "flush":
		if err := p.noArgs(name, args, argsOff); err != nil {
			return 0, err
		}
		p.flush()
		p.cur = -1
		return next, nil
	case "call", "embed":
		return p.monadic(pos, name, args, argsOff, next)
	}
	return 0, p.hintAt(pos+i, dataHint, "unknown command %q (known: %s)", name, commandNames)
}

// bareRole handles the commonest command line, a role command alone on
// its line (";user\n"), and reports whether it did: its name is read up
// to the LF it ends at, so the line costs no search of its own. Any other
// line is left to command.
func (p *parser) bareRole(pos int) (next int, ok bool) {
	if len(p.opens) > 0 || p.open != "" {
		return 0, false
	}
	j := pos + 1
	for j < len(p.s) && p.s[j] >= 'a' && p.s[j] <= 'z' {
		j++
	}
	if j < len(p.s) && p.s[j] != '\n' {
		return 0, false
	}
	role := roleCommand(p.s[pos+1 : j])
	if role == "" {
		return 0, false
	}
	p.flush()
	line := p.lines.at(pos)
	m := slab.Next(&p.doc.Messages, pos, len(p.s))
	m.Role, m.Line = role, line
	p.cur = len(p.doc.Messages) - 1
	next = min(j+1, len(p.s))
	p.lines.skip(next, line+1)
	return next, true
}

// roleCommand returns the role a role command names, or "".
func roleCommand(name string) string {
	switch name {
	case "user":
		return "user"
	case "assistant", "ai":
		return "assistant"
	case "system", "sys":
		return "system"
	case "developer", "dev":
		return "developer"
	case "tool":
		return "tool"
	}
	return ""
}

// wordEnd returns where the run of ASCII letters and digits from j ends.
func wordEnd(s string, j int) int {
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || s[j] >= '0' && s[j] <= '9') {
		j++
	}
	return j
}

const commandNames = "user, assistant/ai, system/sys, developer/dev, tool, message/msg, raw, extra, meta, flush, end, call, embed"

func (p *parser) noArgs(name, args string, off int) error {
	for i := 0; i < len(args); i++ {
		if !isBlank(args[i]) {
			return p.errAt(off+i, ";%s takes no arguments", name)
		}
	}
	return nil
}

// startMessage handles a role command or ;msg (role == "").
func (p *parser) startMessage(pos int, role, name, argText string, argsOff int) error {
	args, err := p.parseArgs(argText, argsOff)
	if err != nil {
		return err
	}
	p.flush()
	m := promptfmt.Message{Role: role}
	hasRole := role != ""
	for _, a := range args {
		switch a.key {
		case "role", "name", "id", "call_id":
			s, ok := a.text()
			if !ok {
				return p.errAt(a.off, "argument %q must be a string, not %s", a.key, jsonvalue.Describe(a.value()))
			}
			switch a.key {
			case "role":
				if role != "" {
					return p.errAt(a.off, ";%s sets the role %q: use ;msg role=%s for another role", name, role, s)
				}
				m.Role, hasRole = s, true
			case "name":
				p.emptyName(s, a.off)
				m.Name = s
			default:
				setMeta(&m.Metadata, a.key, s)
			}
		default:
			setMeta(&m.Metadata, a.key, a.value())
		}
	}
	if !hasRole {
		switch {
		case p.cur >= 0:
			m.Role = p.doc.Messages[p.cur].Role
		case p.cfg.defaultRole != "":
			m.Role = p.cfg.defaultRole
		default:
			return p.errAt(pos, ";%s without role= takes the role of the message before it, and there is none", name)
		}
	}
	m.Line = p.lines.at(pos)
	if len(args) > 1 {
		if p.layout.args == nil {
			p.layout.args = map[int][]string{}
		}
		keys := make([]string, len(args))
		for i, a := range args {
			keys[i] = a.key
		}
		p.layout.args[m.Line] = keys
	}
	p.push(pos, m)
	return nil
}

// push appends a message read before offset at and makes it the current
// one.
func (p *parser) push(at int, m promptfmt.Message) {
	*slab.Next(&p.doc.Messages, at, len(p.s)) = m
	p.cur = len(p.doc.Messages) - 1
}

func setMeta(m *map[string]any, k string, v any) {
	if *m == nil {
		*m = map[string]any{}
	}
	(*m)[k] = v
}

// flush adds the buffered data lines to the current message. Outside a
// message they start one of the default role, unless they are blank.
func (p *parser) flush() {
	if p.text.n == 0 {
		p.placeComments(-1, 0, 0)
		return
	}
	t := p.text.String()
	if p.cur < 0 {
		if strings.TrimLeft(t, " \t\r\n") == "" {
			p.text.reset()
			p.placeComments(-1, 0, 0)
			return
		}
		p.push(p.text.off, promptfmt.Message{Role: p.cfg.defaultRole, Line: p.lines.at(p.text.off)})
	}
	p.text.reset()
	if t == "" {
		p.placeComments(-1, 0, 0)
		return
	}
	m := &p.doc.Messages[p.cur]
	if n := len(m.Content); n > 0 && m.Content[n-1].Kind == promptfmt.KindText {
		p.placeComments(n-1, len(m.Content[n-1].Value), len(t))
		m.Content[n-1].Value += t // text split by a block or comment joins without a separator
		return
	}
	p.placeComments(len(m.Content), 0, len(t))
	if len(m.Content) == 0 {
		m.TextLine = p.textLine
	}
	if m.Content == nil {
		m.Content = p.parts.Text(t)
		return
	}
	p.addPart(promptfmt.Text(t))
}

// addPart appends a part to the current message; a message's first part
// is cut from a shared slab, so most messages cost no allocation of their
// own for their content.
func (p *parser) addPart(part promptfmt.ContentPart) {
	m := &p.doc.Messages[p.cur]
	if m.Content != nil {
		m.Content = append(m.Content, part)
		return
	}
	m.Content = p.parts.One(part)
}

// end runs the pending polyadic command on its data lines.
func (p *parser) end(pos int) error {
	if p.open == "" {
		return p.errAt(pos, ";end without a ;raw, ;extra or ;meta block to end")
	}
	name, at := p.open, p.at
	p.open = ""
	text := p.block.String()
	v, err := json5.Parse(text)
	if err != nil {
		if strings.TrimSpace(text) == "" {
			return p.errAt(at, ";%s block is empty: it needs one JSON5 value", name)
		}
		var se *json5.SyntaxError
		if errors.As(err, &se) {
			return p.hintAt(p.block.source(se.Offset), se.Hint, ";%s block: %s", name, se.Msg)
		}
		return err
	}
	switch name {
	case "raw":
		m, err := p.rawMessage(v, at)
		if err != nil {
			return err
		}
		p.push(at, m)
		p.cur = -1
	case "extra":
		m := &p.doc.Messages[p.cur]
		merge(&m.Metadata, "extra", v)
		keyLines(&m.KeyLines, v, "extra", p.atLine)
		if p.layout.extra == nil {
			p.layout.extra = map[int][]string{}
		}
		p.layout.extra[m.Line] = append(p.layout.extra[m.Line], text)
	case "meta":
		merge(&p.doc.Meta, "meta", v)
		keyLines(&p.doc.KeyLines, v, "meta", p.atLine)
		p.layout.meta = append(p.layout.meta, text)
	}
	return nil
}

// keyLines records line as the line of each key v (merged as merge does)
// sets.
func keyLines(dst *map[string]int, v any, key string, line int) {
	if *dst == nil {
		*dst = map[string]int{}
	}
	obj, ok := v.(map[string]any)
	if !ok {
		(*dst)[key] = line
		return
	}
	for k := range obj {
		(*dst)[k] = line
	}
}

// merge merges an object into *dst (its keys win); any other value is
// kept under key.
func merge(dst *map[string]any, key string, v any) {
	obj, ok := v.(map[string]any)
	if !ok {
		setMeta(dst, key, v)
		return
	}
	if *dst == nil { // the common case: the object becomes the map
		*dst = obj
		return
	}
	for k, x := range obj {
		setMeta(dst, k, x)
	}
}

// monadic handles ;call and ;embed, which take the next line as their
// value.
func (p *parser) monadic(pos int, name, argText string, argsOff, next int) (int, error) {
	args, err := p.parseArgs(argText, argsOff)
	if err != nil {
		return 0, err
	}
	p.flush()
	if p.cur < 0 {
		return 0, p.errAt(pos, ";%s needs a message before it to add to", name)
	}
	want := "one line of JSON arguments"
	if name == "embed" {
		want = "one line holding a URL, a data: URI or base64"
	}
	if next >= len(p.s) || p.isCommand(next) {
		return 0, p.errAt(pos, ";%s must be followed by %s", name, want)
	}
	start := next
	if p.s[start] == ';' {
		start++
	}
	end, after := p.lineEnd(next, false) // a CR before the LF is a line ending here
	value := p.s[start:end]
	var part promptfmt.ContentPart
	if name == "call" {
		part, err = p.callPart(args, value, start)
	} else {
		part, err = p.embedPart(args, value, start, pos)
	}
	if err != nil {
		return 0, err
	}
	p.addPart(part)
	return after, nil
}

// lineCounter turns offsets, asked for in increasing order, into line
// numbers counted as lines.Position counts them.
type lineCounter struct {
	s         string
	off, line int
	loneCR    bool // the source has a CR not followed by LF: count those too
}

func (c *lineCounter) at(off int) int {
	if off == c.off {
		return c.line
	}
	if off < c.off {
		c.off, c.line = 0, 1
	}
	if !c.loneCR {
		c.line += strings.Count(c.s[c.off:off], "\n")
		c.off = off
		return c.line
	}
	for ; c.off < off; c.off++ {
		if ch := c.s[c.off]; ch == '\n' || ch == '\r' && (c.off+1 == len(c.s) || c.s[c.off+1] != '\n') {
			c.line++
		}
	}
	return c.line
}

// skip moves the counter to off, which the caller knows is on line: the
// start of the line after a line it read to its LF. A lone CR would be a
// line break the caller did not see: then the counter counts.
func (c *lineCounter) skip(off, line int) {
	if !c.loneCR && off > c.off {
		c.off, c.line = off, line
	}
}

// buffer joins data lines with LF. Lines that follow each other in the
// source stay a substring of it, with no copy; marks map offsets in the
// joined text back to the source.
type buffer struct {
	src      string // the source the pieces are cut from
	n        int
	off, end int    // source range of the pieces while they are one substring
	b        []byte // the joined text once they are not
	joined   bool
	size     int
	track    bool // keep marks: only JSON5 blocks map errors back
	marks    []mark
}

type mark struct{ at, src int }

// add appends a piece: verbatim pieces are src[off:off+len(s)].
func (b *buffer) add(s string, off int, verbatim bool) {
	switch {
	case b.n == 0 && verbatim:
		b.off, b.end, b.joined = off, off+len(s), false
	case b.n > 0 && !b.joined && verbatim && off == b.end+1 && b.src[b.end] == '\n':
		b.end = off + len(s)
	default:
		if !b.joined {
			b.b = append(b.b[:0], b.src[b.off:b.end]...)
			if b.n == 0 {
				b.off = off
			}
			b.joined = true
		}
		if b.n > 0 {
			b.b = append(b.b, '\n')
		}
		b.b = append(b.b, s...)
	}
	if b.n > 0 {
		b.size++
	}
	if b.track {
		b.marks = append(b.marks, mark{b.size, off})
	}
	b.size += len(s)
	b.n++
}

func (b *buffer) String() string {
	if b.joined {
		return string(b.b)
	}
	return b.src[b.off:b.end]
}

func (b *buffer) reset() {
	b.n, b.off, b.end, b.joined, b.size = 0, 0, 0, false, 0
	if len(b.marks) > 0 { // a pointer store costs a write barrier while the collector marks
		b.marks = b.marks[:0]
	}
}

// source maps an offset in the joined text to the source.
func (b *buffer) source(at int) int {
	src := b.off
	for _, m := range b.marks {
		if m.at > at {
			break
		}
		src = m.src + at - m.at
	}
	return src
}

func (p *parser) finish() error {
	if len(p.opens) > 0 {
		more := ""
		if n := len(p.opens); n > 1 {
			more = " (and " + strconv.Itoa(n-1) + " more inside it)"
		}
		return p.errAt(p.opens[0], "block comment /* is never closed with ;*/%s", more)
	}
	if p.open != "" {
		return p.errAt(p.at, ";%s is never closed with ;end", p.open)
	}
	p.flush()
	for i := range p.doc.Messages {
		if m := &p.doc.Messages[i]; len(m.Content) == 0 {
			p.cur = i
			p.addPart(promptfmt.Text(""))
		}
	}
	canonicalComments(p.doc)
	p.takeRequest()
	if p.layout.metaAfter >= 0 || p.layout.meta != nil || p.layout.extra != nil || p.layout.args != nil {
		p.doc.Layout = &p.layout
	}
	return nil
}
