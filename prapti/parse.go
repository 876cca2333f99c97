package prapti

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/slab"
	"github.com/yuin/goldmark/ast"
)

const format = "prapti"

// HeadRole is the role of the text before the first message heading.
const HeadRole = "_head"

// Parse reads a Prapti conversation. See the package documentation for
// the rules and the options.
func Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.Finish(parseFile(src))
}

func parseFile(src []byte) (*promptfmt.Document, error) {
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	// The file is read from after a byte order mark, with LF line ends;
	// positions are then mapped back to the file (see origin).
	o := &origin{src: src, bom: lines.SkipBOM(src)}
	src = src[o.bom:]
	// Texts, names and configuration lines are slices of one copy of the
	// source (which they keep alive); line numbers stay those of src.
	var str string
	if bytes.IndexByte(src, '\r') >= 0 {
		str = lines.ToLF(string(src))
		src = []byte(str)
		o.crs = true
	} else {
		str = string(src)
	}
	rec, deep, ok := structure(src)
	if !ok {
		e := diag.Errorf(format, src, deep, "blocks nested more than %d deep (block quotes and list items open at once)", MaxNesting)
		e.Line, e.Col, e.Offset = o.position(e.Line, e.Col)
		return nil, e
	}
	p := &parse{str: str, doc: &promptfmt.Document{}, rec: rec, headAt: -1}
	p.run()
	p.takeRequest()
	if o.bom > 0 || o.crs {
		for i := range p.doc.Warnings {
			w := &p.doc.Warnings[i]
			w.Line, w.Col, w.Offset = o.position(w.Line, w.Col)
		}
	}
	if o.bom > 0 {
		p.doc.Warnings = append([]promptfmt.Warning{{Format: format, Line: 1, Col: 1, Msg: lines.BOMWarning}}, p.doc.Warnings...)
	}
	return p.doc, nil
}

// origin maps a position in what Parse reads, the file after a byte order
// mark and with LF line ends, back to the file: lines are the same, a
// column on the first line moves past the mark, and offsets count the
// mark and the CRs.
type origin struct {
	src  []byte // the file
	bom  int    // the length of its byte order mark
	crs  bool   // whether it has CRs
	sc   *lines.Scanner
	line int // the line the scanner has reached, and where it starts
	at   int
}

// position returns the file's line, column and offset for a line and
// column of what Parse reads.
func (o *origin) position(line, col int) (int, int, int) {
	if line == 1 {
		col += o.bom
	}
	if o.sc == nil || line < o.line {
		o.sc, o.line, o.at = lines.NewScanner(o.src), 1, 0
	}
	for o.line < line {
		_, _, next, ok := o.sc.Next()
		if !ok {
			break
		}
		o.line, o.at = o.line+1, next
	}
	return line, col, min(o.at+col-1, len(o.src))
}

type parse struct {
	str string // the source, with LF line ends
	doc *promptfmt.Document
	rec *recorder // the block structure
	// the message being read: its text is the source's ranges segs, which
	// are textLen bytes long
	msg     promptfmt.Message
	segs    []span
	textLen int
	configs []ConfigLine
	parts   slab.Parts // to hand out to messages, one each
	// settings are made of the document's Assignments as they are read:
	// takeRequest reads them rather than the metadata they were made into
	settings settingLines
	odd      []oddLine // lines that would be headings but for their white space
	headAt   int       // where the head's text starts, if the head has text, or -1
}

// A span is a range of bytes of the source.
type span struct{ start, end int }

// run reads the lines, starting messages at headings and setting
// configuration lines apart.
func (p *parse) run() {
	p.doc.Messages = make([]promptfmt.Message, 0, len(p.rec.headings)+1)
	p.parts = slab.New(len(p.rec.headings) + 1)
	p.msg = promptfmt.Message{Role: HeadRole}
	literal, headings := p.rec.literal, p.rec.headings
	str := p.str
	n := 0
	for off := 0; off < len(str); {
		n++
		end, next := lines.LineLF(str, off)
		for len(literal) > 0 && literal[0].end <= n {
			literal = literal[1:]
		}
		for len(headings) > 0 && headings[0] < n {
			headings = headings[1:]
		}
		line := str[off:end]
		switch {
		case n == p.rec.fenceAt && p.rec.fence != nil:
			p.doc.Warnings = append(p.doc.Warnings, promptfmt.Warning{Format: format, Line: n, Col: 1 + len(line) - len(strings.TrimLeft(line, " ")), Offset: off,
				Msg: "fenced code block opened here is never closed: the rest of the file is inside it"})
			p.text(off, next)
		case n == p.rec.htmlAt && p.rec.html != nil:
			p.doc.Warnings = append(p.doc.Warnings, promptfmt.Warning{Format: format, Line: n, Col: 1 + len(line) - len(strings.TrimLeft(line, " ")), Offset: off,
				Msg: "HTML block opened here is never closed: the rest of the file is inside it", Hint: htmlHint[p.rec.html.HTMLBlockType]})
			p.text(off, next)
		case len(literal) > 0 && literal[0].start <= n:
			p.text(off, next)
		case len(headings) > 0 && headings[0] == n && p.heading(line, n):
		case !special(line):
			if line != "" && (line[0] == '#' || line[0] == ' ') {
				if odd := oddSpaceHeading(line); odd >= 0 {
					p.odd = append(p.odd, oddLine{n, off, odd})
				}
			}
			p.text(off, next)
		case p.config(line, n, off):
		case isEscape(line):
			i := prefixLen(line)
			p.text(off, off+i)
			p.text(off+i+1, next)
		default:
			p.text(off, next)
		}
		off = next
	}
	p.finish(true)
	p.oddSpaces()
	p.noHeading()
}

// An oddLine is a line that would be a message heading but for white
// space other than spaces and tabs: its number, offset, and the offset in
// it of that white space.
type oddLine struct{ n, off, odd int }

// oddSpaces warns at each line that would be a message heading, where it
// stands, if its odd white space were spaces: upstream reads it as one
// (Python's \s is any white space), CommonMark only with spaces and tabs,
// and a writer may not see the difference. Whether it would be one (not
// in a list item, say) is for goldmark to tell: the source is read again
// with those lines mended.
func (p *parse) oddSpaces() {
	if len(p.odd) == 0 {
		return
	}
	mended := []byte(p.str)
	for _, o := range p.odd {
		line := mended[o.off:]
		if end := bytes.IndexByte(line, '\n'); end >= 0 {
			line = line[:end]
		}
		for i := o.odd; i < len(line); {
			r, size := utf8.DecodeRune(line[i:])
			if r != ' ' && r != '\t' && isSpace(r) {
				copy(line[i:i+size], "    ")
			}
			i += size
		}
	}
	rec, _, ok := structure(mended)
	if !ok {
		return
	}
	var warnings []promptfmt.Warning
	headings := rec.headings
	for _, o := range p.odd {
		for len(headings) > 0 && headings[0] < o.n {
			headings = headings[1:]
		}
		if len(headings) == 0 || headings[0] != o.n {
			continue
		}
		r, _ := utf8.DecodeRuneInString(p.str[o.off+o.odd:])
		warnings = append(warnings, promptfmt.Warning{Format: format, Line: o.n, Col: o.odd + 1, Offset: o.off + o.odd,
			Msg:  fmt.Sprintf("not a message heading, only because of the white space %U here (a heading's blanks are spaces and tabs): the line is text, though upstream reads a heading", r),
			Hint: fmt.Sprintf("write a space instead of %U to start a message here", r)})
	}
	p.warnInOrder(warnings)
}

// warnInOrder adds warnings to the document's, keeping them in the order
// of their lines.
func (p *parse) warnInOrder(warnings []promptfmt.Warning) {
	if len(warnings) == 0 {
		return
	}
	p.doc.Warnings = append(p.doc.Warnings, warnings...)
	slices.SortStableFunc(p.doc.Warnings, func(a, b promptfmt.Warning) int { return a.Line - b.Line })
}

// noHeading warns when a file has text but no message heading: it is all
// the hidden _head, and reaches no model. A file of configuration lines
// only, as upstream's configuration files are, gets no warning.
func (p *parse) noHeading() {
	if len(p.doc.Messages) != 1 || p.doc.Messages[0].Role != HeadRole || p.doc.Messages[0].Line != 0 || p.headAt < 0 {
		return
	}
	line, col := lines.Position([]byte(p.str[:p.headAt]), p.headAt)
	p.warnInOrder([]promptfmt.Warning{{Format: format, Line: line, Col: col, Offset: p.headAt,
		Msg:  "no message heading: the file's text is the hidden message _head, which reaches no model",
		Hint: `start a message with a heading, such as "### @user:", on a line of its own`}})
}

// htmlHint tells where each kind of HTML block that ends at a marker ends.
var htmlHint = map[ast.HTMLBlockType]string{
	ast.HTMLBlockType1: "it ends at a line holding </script>, </pre>, </style> or </textarea>",
	ast.HTMLBlockType2: `a comment ends at a line holding "-->"`,
	ast.HTMLBlockType3: `it ends at a line holding "?>"`,
	ast.HTMLBlockType4: `it ends at a line holding ">"`,
	ast.HTMLBlockType5: `it ends at a line holding "]]>"`,
}

// text adds the source's bytes from start to end to the message's text.
func (p *parse) text(start, end int) {
	p.textLen += end - start
	if n := len(p.segs); n > 0 && p.segs[n-1].end == start {
		p.segs[n-1].end = end
		return
	}
	p.segs = append(p.segs, span{start, end})
}

// prefixLen is the length of what may precede the "%" of a configuration
// line or the backslash of an escape: at most three spaces, then one
// optional block quote marker with the blanks after it.
func prefixLen(line string) int {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if i < len(line) && line[i] == '>' {
		for i++; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		}
	}
	return i
}

// special reports whether line may be a configuration line or an escape:
// after its prefix comes %, / or a backslash. Most lines are not, and are
// not looked at further.
func special(line string) bool {
	i := prefixLen(line)
	return i < len(line) && (line[i] == '%' || line[i] == '/' || line[i] == '\\')
}

// isEscape reports whether line is escaped text: a backslash after its
// prefix, and without its leading backslashes it would read as a heading,
// a configuration line, or the start of a fenced code block or of an HTML
// block that ends at a marker (the blocks that may run to the end of the
// file).
func isEscape(line string) bool {
	i := prefixLen(line)
	if i >= len(line) || line[i] != '\\' {
		return false
	}
	bare := line[:i] + strings.TrimLeft(line[i:], `\`)
	_, _, _, config := matchConfig(bare)
	_, _, _, heading := matchHeading(bare)
	return config || heading || opensLiteral(bare[i:])
}

// opensLiteral reports whether s starts a fenced code block, or an HTML
// block of the kinds that end at a marker rather than at a blank line
// (CommonMark's kinds 1 to 5), as goldmark reads them.
func opensLiteral(s string) bool {
	if c, _ := fenceOpener([]byte(s), 0); c != 0 {
		return true
	}
	if !strings.HasPrefix(s, "<") {
		return false
	}
	for _, p := range []string{"<!--", "<?", "<![CDATA["} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	if len(s) > 2 && s[1] == '!' && s[2] >= 'A' && s[2] <= 'Z' {
		return true
	}
	for _, tag := range []string{"script", "pre", "style", "textarea"} {
		if len(s) > len(tag) && strings.EqualFold(s[1:1+len(tag)], tag) {
			rest := s[1+len(tag):]
			if rest == "" || rest[0] == '>' || strings.HasPrefix(rest, "/>") || asciiSpace(rest[0]) {
				return true
			}
		}
	}
	return false
}

// heading starts a new message if line n is a message heading.
func (p *parse) heading(line string, n int) bool {
	role, name, disabled, ok := matchHeading(line)
	if !ok {
		return false
	}
	p.finish(false)
	p.msg = promptfmt.Message{Role: lower(role), Name: name, Disabled: disabled, Line: n}
	return true
}

// lower is strings.ToLower, without copying the common roles.
func lower(role string) string {
	for i := 0; i < len(role); i++ {
		if c := role[i]; c >= 'A' && c <= 'Z' || c >= utf8.RuneSelf {
			return strings.ToLower(role)
		}
	}
	return role
}

// matchHeading reports whether line is a message heading: at most three
// spaces, "###", blanks, an optional "//" and blanks that disable it, then
// "@role" or "@role/name" (letters, digits, _), an optional colon and
// blanks.
func matchHeading(line string) (role, name string, disabled, ok bool) {
	role, name, disabled, ok, _ = scanHeading(line, false)
	return
}

// oddSpaceHeading returns the offset in line of the first white space
// that is neither a space nor a tab, when line is a message heading to
// upstream, whose \s is Python's white space (see isSpace), but not to
// Parse, and -1 otherwise: "###\u00a0@user:", "### @user:\u2003".
func oddSpaceHeading(line string) int {
	if _, _, _, ok, odd := scanHeading(line, true); ok {
		return odd
	}
	return -1
}

// scanHeading is matchHeading, whose blanks are spaces and tabs, or, if
// loose, any white space; odd is then the offset of the first that is
// neither, or -1.
func scanHeading(line string, loose bool) (role, name string, disabled, ok bool, odd int) {
	odd = -1
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if !strings.HasPrefix(line[i:], "###") {
		return
	}
	i += 3
	blanks := func() int {
		j := i
		for i < len(line) {
			if c := line[i]; c == ' ' || c == '\t' {
				i++
				continue
			}
			if !loose {
				break
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			if !isSpace(r) {
				break
			}
			if odd < 0 {
				odd = i
			}
			i += size
		}
		return i - j
	}
	if blanks() == 0 {
		return
	}
	if strings.HasPrefix(line[i:], "//") {
		disabled = true
		i += 2
		blanks()
	}
	if i >= len(line) || line[i] != '@' {
		return
	}
	i++
	word := func() string {
		j := i
		for i < len(line) {
			r, size := utf8.DecodeRuneInString(line[i:])
			if r != '_' && !unicode.IsLetter(r) && !unicode.IsNumber(r) {
				break
			}
			i += size
		}
		return line[j:i]
	}
	if role = word(); role == "" {
		return
	}
	if i < len(line) && line[i] == '/' {
		i++
		if name = word(); name == "" {
			return
		}
	}
	if i < len(line) && line[i] == ':' {
		i++
	}
	blanks()
	return role, name, disabled, i == len(line), odd
}

// config sets a configuration line, at off, apart.
func (p *parse) config(line string, n, off int) bool {
	quoted, disabled, command, ok := matchConfig(line)
	if !ok {
		return false
	}
	c := ConfigLine{Source: line, Line: n, Enabled: !disabled, Quoted: quoted, Offset: p.textLen}
	hint := c.splitCommand(trimSpace(command))
	if c.Error != "" {
		p.doc.Warnings = append(p.doc.Warnings, promptfmt.Warning{Format: format, Line: n, Col: 1, Offset: off, Msg: c.Error, Hint: hint})
	}
	p.configs = append(p.configs, c)
	return true
}

// matchConfig reports whether line is a configuration line: its prefix
// (see prefixLen), an optional "//" and blanks that disable it, then "%";
// command is the text after the "%".
func matchConfig(line string) (quoted, disabled bool, command string, ok bool) {
	i := prefixLen(line)
	quoted = strings.Contains(line[:i], ">")
	if strings.HasPrefix(line[i:], "//") {
		disabled = true
		for i += 2; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
		}
	}
	if i < len(line) && line[i] == '%' {
		return quoted, disabled, line[i+1:], true
	}
	return false, false, "", false
}

// finish ends the message being read, the file's last when last is set:
// its text is trimmed, as upstream does, and the configuration lines'
// offsets follow.
func (p *parse) finish(last bool) {
	segs := p.segs
	p.segs, p.textLen = p.segs[:0], 0
	// Trim the text: spaces at the ends of segments, segments that are
	// only spaces.
	lead := 0
	for len(segs) > 0 {
		s := p.str[segs[0].start:segs[0].end]
		t := trimLeftSpace(s)
		lead += len(s) - len(t)
		if t != "" {
			segs[0].start = segs[0].end - len(t)
			break
		}
		segs = segs[1:]
	}
	for len(segs) > 0 {
		last := &segs[len(segs)-1]
		t := trimRightSpace(p.str[last.start:last.end])
		if t != "" {
			last.end = last.start + len(t)
			break
		}
		segs = segs[:len(segs)-1]
	}
	var content string
	switch len(segs) {
	case 0:
	case 1:
		content = p.str[segs[0].start:segs[0].end]
	default:
		var b strings.Builder
		size := 0
		for _, s := range segs {
			size += s.end - s.start
		}
		b.Grow(size)
		for _, s := range segs {
			b.WriteString(p.str[s.start:s.end])
		}
		content = b.String()
	}
	m := &p.msg
	if m.Role == HeadRole && m.Line == 0 && content == "" && len(p.configs) == 0 {
		return // no head
	}
	if m.Line == 0 && content != "" {
		p.headAt = segs[0].start
	}
	d := slab.Next(&p.doc.Messages, 0, 0) // reserved for every heading
	d.Role, d.Name, d.Disabled, d.Line = m.Role, m.Name, m.Disabled, m.Line
	d.Content = p.parts.Text(content)
	if len(p.configs) > 0 {
		list := make([]any, len(p.configs))
		m.KeyLines = make(map[string]int, len(p.configs)+1)
		m.KeyLines[MetaConfig] = p.configs[0].Line
		for i := range p.configs {
			c := &p.configs[i]
			c.Offset = min(max(c.Offset-lead, 0), len(content))
			list[i] = c.toMap()
			m.KeyLines[configKey(i)] = c.Line
			if !m.Disabled && c.Enabled && c.Kind == KindAssignment && c.Error == "" && (!c.Exclusive || last) {
				p.settings.add(*c)
			}
		}
		d.Metadata, d.KeyLines = map[string]any{MetaConfig: list}, m.KeyLines
		p.configs = p.configs[:0]
	}
}

// trimSpace trims s as upstream trims a message's text and a command:
// Python's str.strip, whose white space (str.isspace) is unicode.IsSpace
// and the information separators U+001C to U+001F. Parse, Write and
// Append use it alone, so that what Write refuses is what Parse trims.
func trimSpace(s string) string { return trimRightSpace(trimLeftSpace(s)) }

// isSpace reports whether r is white space to Python's str.isspace.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return spaceByte(byte(r))
	}
	return unicode.IsSpace(r)
}

// spaceByte reports whether ASCII c is white space to Python: \t, \n,
// \v, \f, \r, U+001C to U+001F and the space.
func spaceByte(c byte) bool { return c == ' ' || c-'\t' <= '\r'-'\t' || c-0x1c <= 0x1f-0x1c }

// trimLeftSpace is strings.TrimLeftFunc(s, isSpace), quicker on ASCII.
func trimLeftSpace(s string) string {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.TrimLeftFunc(s[i:], isSpace)
		}
		if !spaceByte(c) {
			return s[i:]
		}
	}
	return ""
}

// trimRightSpace is strings.TrimRightFunc(s, isSpace), quicker on ASCII.
func trimRightSpace(s string) string {
	for i := len(s) - 1; i >= 0; i-- {
		c := s[i]
		if c >= utf8.RuneSelf {
			return strings.TrimRightFunc(s[:i+1], isSpace)
		}
		if !spaceByte(c) {
			return s[:i+1]
		}
	}
	return ""
}

// asciiSpace reports whether c is CommonMark white space.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}
