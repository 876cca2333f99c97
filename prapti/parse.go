package prapti

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

const format = "prapti"

// HeadRole is the role of the text before the first message heading.
const HeadRole = "_head"

// blocks is a goldmark parser with only the block parsers: Parse needs the
// block structure (which lines are code, HTML, top-level headings) and
// never the inline markup.
var blocks = parser.NewParser(parser.WithBlockParsers(parser.DefaultBlockParsers()...))

// Parse reads a Prapti conversation. See the package documentation for
// the rules.
func Parse(src []byte) (*promptfmt.Document, error) {
	if err := promptfmt.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	lf := src // line numbers stay those of src
	if bytes.IndexByte(src, '\r') >= 0 {
		lf = []byte(lines.ToLF(string(src)))
	}
	if err := checkNesting(lf); err != nil {
		return nil, err
	}
	p := &parse{src: lf, doc: &promptfmt.Document{}}
	p.structure()
	p.run()
	return p.doc, nil
}

// MaxNesting is how many block quote and list markers may start one line.
// goldmark slows down with the depth of the blocks a line opens (a line of
// 50,000 "- " took seconds); real conversations nest a few levels.
const MaxNesting = 100

// checkNesting refuses a line that opens more than MaxNesting blocks.
func checkNesting(src []byte) error {
	for off := 0; off < len(src); {
		depth, i := 0, off
		for i < len(src) {
			for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
				i++
			}
			start, j := i, i
			for j < len(src) && j-i < 9 && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			switch {
			case i < len(src) && src[i] == '>':
				i++
			case i+1 < len(src) && (src[i] == '-' || src[i] == '+' || src[i] == '*') && (src[i+1] == ' ' || src[i+1] == '\t'):
				i += 2
			case j > i && j+1 < len(src) && (src[j] == '.' || src[j] == ')') && (src[j+1] == ' ' || src[j+1] == '\t'):
				i = j + 2
			default:
				goto done
			}
			if depth++; depth > MaxNesting {
				return promptfmt.Errorf(format, src, start, "blocks nested more than %d deep (block quote and list markers at the start of one line)", MaxNesting)
			}
		}
	done:
		nl := bytes.IndexByte(src[i:], '\n')
		if nl < 0 {
			break
		}
		off = i + nl + 1
	}
	return nil
}

type parse struct {
	src      []byte
	doc      *promptfmt.Document
	literal  []span // sorted line ranges that are code or HTML: never interpreted
	headings []int  // starts of lines that are top-level ATX level-3 headings
	// the message being read; its text is src[bodyStart:off] while simple,
	// else text
	msg       *promptfmt.Message
	bodyStart int
	simple    bool
	off       int
	text      strings.Builder
	configs   []ConfigLine
}

type span struct{ start, end int }

// structure asks goldmark which lines are code or HTML blocks and which are
// top-level level-3 headings.
func (p *parse) structure() {
	root := blocks.Parse(text.NewReader(p.src))
	var starts []int // block starts, in document order
	var literal []int
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		if pos := n.Pos(); pos >= 0 && n.Kind() != ast.KindDocument {
			switch n.Kind() {
			case ast.KindFencedCodeBlock, ast.KindCodeBlock, ast.KindHTMLBlock:
				literal = append(literal, len(starts))
			case ast.KindHeading:
				if n.Parent().Kind() == ast.KindDocument && n.(*ast.Heading).Level == 3 {
					p.headings = append(p.headings, lineStart(p.src, pos))
				}
			}
			starts = append(starts, lineStart(p.src, pos))
		}
		if n.Kind() == ast.KindParagraph || n.Kind() == ast.KindTextBlock {
			return // inline children only
		}
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			walk(c)
		}
	}
	walk(root)
	for _, i := range literal {
		end := len(p.src)
		for j := i + 1; j < len(starts); j++ {
			if starts[j] > starts[i] {
				end = starts[j]
				break
			}
		}
		p.literal = append(p.literal, span{starts[i], end})
	}
}

// lineStart returns the start of the line holding off. goldmark's
// positions can point past the end of the source when it expanded a tab
// in an indentation (a list item "*\t  0" at the end of the file).
func lineStart(src []byte, off int) int {
	off = min(off, len(src))
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// run reads the lines, starting messages at headings and setting configuration
// lines apart.
func (p *parse) run() {
	p.msg = &promptfmt.Message{Role: HeadRole}
	p.simple = true
	lit, head := 0, 0
	n := 0
	for off := 0; off < len(p.src); {
		n++
		end := off
		for end < len(p.src) && p.src[end] != '\n' {
			end++
		}
		next := min(end+1, len(p.src))
		for lit < len(p.literal) && p.literal[lit].end <= off {
			lit++
		}
		for head < len(p.headings) && p.headings[head] < off {
			head++
		}
		switch {
		case lit < len(p.literal) && p.literal[lit].start <= off:
			if !p.simple {
				p.text.Write(p.src[off:next])
			}
		case head < len(p.headings) && p.headings[head] == off && p.heading(p.src[off:end], n, next):
		case !special(p.src[off:end]):
			if !p.simple {
				p.text.Write(p.src[off:next])
			}
		case p.config(string(p.src[off:end]), n, off):
		default:
			p.complicate(off)
			line := string(p.src[off:end])
			if i := prefixLen(line); isEscape(line) {
				line = line[:i] + line[i+1:]
			}
			p.text.WriteString(line)
			if next > end {
				p.text.WriteByte('\n')
			}
		}
		off = next
		p.off = off
	}
	p.finish()
}

// prefixLen is the length of what may precede the "%" of a configuration
// line or the backslash of an escape: at most three spaces, then one
// optional block quote marker with the blanks after it.
func prefixLen[T string | []byte](line T) int {
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
func special(line []byte) bool {
	i := prefixLen(line)
	return i < len(line) && (line[i] == '%' || line[i] == '/' || line[i] == '\\')
}

// isEscape reports whether line is escaped text: a backslash after its
// prefix, and without its leading backslashes it would read as a heading
// or a configuration line.
func isEscape(line string) bool {
	i := prefixLen(line)
	if i >= len(line) || line[i] != '\\' {
		return false
	}
	bare := line[:i] + strings.TrimLeft(line[i:], `\`)
	_, _, _, config := matchConfig(bare)
	_, _, _, heading := matchHeading([]byte(bare))
	return config || heading
}

// heading starts a new message if line is a message heading.
func (p *parse) heading(line []byte, n, next int) bool {
	role, name, disabled, ok := matchHeading(line)
	if !ok {
		return false
	}
	p.finish()
	p.msg = &promptfmt.Message{Role: strings.ToLower(role), Name: name, Disabled: disabled, Line: n}
	p.bodyStart, p.simple = next, true
	return true
}

// matchHeading reports whether line is a message heading: at most three
// spaces, "###", blanks, an optional "//" and blanks that disable it, then
// "@role" or "@role/name" (letters, digits, _), an optional colon and
// blanks.
func matchHeading(line []byte) (role, name string, disabled, ok bool) {
	i := 0
	for i < 3 && i < len(line) && line[i] == ' ' {
		i++
	}
	if !bytes.HasPrefix(line[i:], []byte("###")) {
		return
	}
	i += 3
	blanks := func() int {
		j := i
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		return i - j
	}
	if blanks() == 0 {
		return
	}
	if bytes.HasPrefix(line[i:], []byte("//")) {
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
			r, size := utf8.DecodeRune(line[i:])
			if r != '_' && !unicode.IsLetter(r) && !unicode.IsNumber(r) {
				break
			}
			i += size
		}
		return string(line[j:i])
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
	return role, name, disabled, i == len(line)
}

// config sets a configuration line apart.
func (p *parse) config(line string, n, off int) bool {
	quoted, disabled, command, ok := matchConfig(line)
	if !ok {
		return false
	}
	p.complicate(off)
	c := ConfigLine{Source: line, Line: n, Enabled: !disabled, Quoted: quoted, Offset: p.text.Len()}
	c.splitCommand(strings.TrimSpace(command))
	if c.Error != "" {
		p.doc.Warnings = append(p.doc.Warnings, promptfmt.Warnf(format, p.src, off, "%s", c.Error))
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

// complicate stops taking the message's text straight from the source:
// from off on, a line is left out or changed.
func (p *parse) complicate(off int) {
	if p.simple {
		p.text.Write(p.src[p.bodyStart:off])
		p.simple = false
	}
}

// finish ends the message being read: its text is trimmed, as upstream
// does, and the configuration lines' offsets follow.
func (p *parse) finish() {
	var raw string
	if p.simple {
		raw = string(p.src[p.bodyStart:p.off])
	} else {
		raw = p.text.String()
		p.text.Reset()
	}
	content := strings.TrimSpace(raw)
	lead := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
	m := p.msg
	if m.Role == HeadRole && m.Line == 0 && content == "" && len(p.configs) == 0 {
		return // no head
	}
	m.Content = []promptfmt.ContentPart{promptfmt.Text(content)}
	if len(p.configs) > 0 {
		list := make([]any, len(p.configs))
		for i := range p.configs {
			c := &p.configs[i]
			c.Offset = min(max(c.Offset-lead, 0), len(content))
			list[i] = c.toMap()
		}
		m.Metadata = map[string]any{MetaConfig: list}
		p.configs = p.configs[:0]
	}
	p.doc.Messages = append(p.doc.Messages, *m)
}
