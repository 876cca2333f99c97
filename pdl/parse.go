package pdl

import (
	"io/fs"
	"path"
	"strings"
	"unicode"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/pdl/schema"
)

// Roles of PDL turns; RoleReasoning turns never reach the model.
const (
	RoleUser      = "user"
	RoleSystem    = "system"
	RoleAssistant = "assistant"
	// RoleReasoning is the hidden role a <|reasoning|> turn's text is kept
	// under, so that Write puts it back; upstream drops it.
	RoleReasoning = "_reasoning"
)

// SchemaKey is the Document.Meta key of the schema turn's text.
const SchemaKey = "schema"

// Prompt is a parsed PDL file.
type Prompt struct {
	// Document holds the messages, and the schema turn: as the
	// Request's output when its schema has a JSON Schema, else as its
	// text, trimmed, in Meta[SchemaKey].
	Document *promptfmt.Document
	// Schema is the schema turn parsed; nil without one (or, in non-strict
	// mode, when it did not parse). SchemaText is its text, trimmed:
	// Meta[SchemaKey] holds it too unless the Request's output does (see
	// the package documentation).
	Schema     *schema.Schema
	SchemaText string
	// Rendered is the text the template rendered to.
	Rendered string
}

// Parse reads a PDL file: renders its template with the options' Inputs,
// splits the text into turns, reads its images and parses its schema. See
// the package documentation.
func Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	p, err := Load(src, opts...)
	if err != nil {
		return nil, err
	}
	return p.Document, nil
}

// LoadFile is Load of the file name in fsys: the files its images and
// includes name are read from fsys too, relative to name's directory (and
// never out of fsys), and errors and warnings name the file unless the
// File option names it otherwise. A promptfmt.FS option is overridden by
// fsys.
func LoadFile(fsys fs.FS, name string, opts ...promptfmt.Option) (*Prompt, error) {
	c, err := newConfig(append([]promptfmt.Option{promptfmt.File(name)}, opts...))
	if err != nil {
		return nil, err
	}
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	c.FS, c.base = fsys, path.Dir(name)
	return c.load(src)
}

// Load is Parse, returning the parsed schema and rendered text too. The
// images and includes the template names are read from the promptfmt.FS
// option's file system (relative to its root); without it, none can be.
func Load(src []byte, opts ...promptfmt.Option) (*Prompt, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	return c.load(src)
}

// load is Load with the options applied: errors and warnings get the
// File, and OnWarning is told each warning.
func (c *config) load(src []byte) (*Prompt, error) {
	p, err := c.loadDoc(src)
	var doc *promptfmt.Document
	if p != nil {
		doc = p.Document
	}
	if _, err := c.Finish(doc, err); err != nil {
		return nil, err
	}
	c.tell(doc)
	return p, nil
}

// tell gives OnWarning each of doc's warnings.
func (c *config) tell(doc *promptfmt.Document) {
	if c.OnWarning == nil || doc == nil {
		return
	}
	for _, w := range doc.Warnings {
		c.OnWarning(w)
	}
}

func (c *config) loadDoc(src []byte) (*Prompt, error) {
	if err := diag.CheckUTF8("pdl", src); err != nil {
		return nil, err
	}
	// A leading BOM is not text: the file is read from after it, with a
	// warning, and positions still count it (as every format's do).
	bom := lines.SkipBOM(src)
	s := &source{orig: src, bom: bom, norm: lines.ToLF(string(src[bom:]))}
	p := &parser{c: c, s: s, doc: &promptfmt.Document{}}
	if bom > 0 {
		p.doc.Warnings = append(p.doc.Warnings, diag.Warnf("pdl", src, 0, lines.BOMWarning))
	}
	rendered, err := c.render(s.norm)
	if err != nil {
		err = s.templateError(err)
		if !c.lenient {
			return nil, err
		}
		// Upstream: on any template error the whole source is the text.
		p.doc.Warnings = append(p.doc.Warnings, warning(err, "the template did not render, so the file is read as written"))
		rendered = s.norm
	}
	s.rendered = rendered
	if err := p.split(); err != nil {
		return nil, err
	}
	text, _ := p.doc.Meta[SchemaKey].(string)
	if kept := p.takeRequest(); kept != nil {
		p.doc.Layout = &layout{kept}
	}
	return &Prompt{Document: p.doc, Schema: p.schema, SchemaText: text, Rendered: rendered}, nil
}

// templateError moves a template error positioned in norm (by
// templateError) to the file as written.
func (s *source) templateError(err error) error {
	pe, ok := err.(*promptfmt.ParseError)
	if !ok || pe.Line == 0 {
		return err
	}
	if pe.Line == 1 {
		pe.Col += s.bom
	}
	pe.Offset = s.origOffset(pe.Offset)
	return pe
}

func warning(err error, what string) promptfmt.Warning {
	w := promptfmt.Warning{Format: "pdl", Msg: what + ": " + err.Error()}
	if pe, ok := err.(*promptfmt.ParseError); ok {
		w.Line, w.Col, w.Offset, w.Msg = pe.Line, pe.Col, pe.Offset, what+": "+pe.Message()
	}
	return w
}

type parser struct {
	c          *config
	s          *source
	doc        *promptfmt.Document
	schema     *schema.Schema
	hasSchema  bool
	seps       []int                   // rendered offset of each message's separator line
	sepLine    int                     // rendered line of the open turn's separator
	tokens     bool                    // the open turn's text holds "<|"
	schemaLine int                     // file line of the schema turn's separator
	slab       []promptfmt.ContentPart // text parts of turns without tokens
}

var separatorRoles = [...]string{"user", "system", "assistant", "schema", "reasoning"}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// separator returns the role of a separator line ("" for none) and the
// offset of its "<|" in the line. An all-letters <|name|> that is not a
// role is returned as unknown.
func separator(line string) (role string, at int, unknown bool) {
	if !strings.Contains(line, "<|") {
		return "", 0, false
	}
	t := strings.TrimLeftFunc(line, unicode.IsSpace)
	at = len(line) - len(t)
	t = strings.TrimRightFunc(t, unicode.IsSpace)
	if len(t) <= 4 || !strings.HasPrefix(t, "<|") || !strings.HasSuffix(t, "|>") {
		return "", 0, false
	}
	inner := t[2 : len(t)-2]
	for _, r := range separatorRoles {
		if strings.EqualFold(inner, r) && isASCII(inner) { // upstream lower-cases ASCII only
			return r, at, false
		}
	}
	for i := 0; i < len(inner); i++ {
		if b := inner[i] | 0x20; b < 'a' || b > 'z' {
			return "", 0, false
		}
	}
	return "", at, true
}

// split reads the rendered text into turns. Only a line holding "<|"
// can be a separator, so it jumps from one "<|" to the next and counts the
// lines it skips, rather than looking at every line.
func (p *parser) split() error {
	r := p.s.rendered
	role, sep, start := "", -1, 0 // the open turn: role "" before the first separator
	line, counted := 1, 0         // line is the number of the line at offset counted
	p.tokens = false
	// Every separator holds "<|": room for them all, and one text part
	// each, saves growing the slices of a large file many times.
	n := strings.Count(r, "<|") + 1
	p.doc.Messages = make([]promptfmt.Message, 0, n)
	p.seps = make([]int, 0, n)
	p.slab = make([]promptfmt.ContentPart, 0, n)
	for pos := 0; pos < len(r); {
		i := strings.Index(r[pos:], "<|")
		if i < 0 {
			break
		}
		i += pos
		ls := strings.LastIndexByte(r[:i], '\n') + 1
		le := strings.IndexByte(r[i:], '\n')
		if le < 0 {
			le = len(r)
		} else {
			le += i
		}
		text := r[ls:le]
		next, at, unknown := separator(text)
		if unknown {
			t := strings.TrimSpace(text)
			if !p.c.lenient {
				return p.s.errorf(ls+at, t, "unknown turn separator %s (PDL has <|user|>, <|system|>, <|assistant|>, <|schema|> and <|reasoning|>; write &lt;| for a literal \"<|\")", t)
			}
			p.doc.Warnings = append(p.doc.Warnings, p.s.warnf(ls+at, t, "unknown turn separator %s read as text", t))
		}
		if next == "" {
			p.tokens = true // the turn's text has "<|": look for inline tokens
		} else {
			if err := p.flush(role, sep, start, max(ls-1, start)); err != nil {
				return err
			}
			line += strings.Count(r[counted:ls], "\n")
			counted = ls
			role, sep, start = next, ls, min(le+1, len(r))
			p.sepLine, p.tokens = line, false
		}
		pos = le + 1
	}
	if err := p.flush(role, sep, start, len(r)); err != nil {
		return err
	}
	p.dropEmptyLast()
	if p.c.lenient {
		return nil
	}
	return p.validate()
}

// flush ends the turn of role whose separator line starts at rendered
// offset sep and whose content is rendered[start:end].
func (p *parser) flush(role string, sep, start, end int) error {
	raw := p.s.rendered[start:end]
	switch role {
	case "":
		text := strings.TrimSpace(raw)
		if text == "" {
			return nil
		}
		off := start + strings.Index(raw, text[:1])
		first := lines.First(text)
		if !p.c.lenient {
			return p.s.errorf(off, first, "text before the first turn separator: start with <|user|> or <|system|>")
		}
		p.doc.Warnings = append(p.doc.Warnings, p.s.warnf(off, first, "text before the first turn separator read as a system turn"))
		role = RoleSystem
	case "schema":
		return p.readSchema(sep, start, raw)
	case "reasoning":
		if text := strings.TrimSpace(raw); text != "" {
			p.push(sep, promptfmt.Message{Role: RoleReasoning, Content: []promptfmt.ContentPart{promptfmt.Text(unescape(text))}})
		}
		return nil
	}
	lead := len(raw) - len(strings.TrimLeftFunc(raw, unicode.IsSpace))
	text := strings.TrimSpace(raw)
	parts, err := p.parts(text, start+lead, p.tokens)
	if err != nil {
		if !p.c.lenient {
			return err
		}
		p.doc.Warnings = append(p.doc.Warnings, warning(err, "the turn is kept as written"))
		parts = []promptfmt.ContentPart{promptfmt.Text(text)}
	}
	if len(parts) == 0 {
		parts = []promptfmt.ContentPart{promptfmt.Text("")} // the model's empty message
	}
	p.push(sep, promptfmt.Message{Role: role, Content: parts})
	return nil
}

func (p *parser) push(sep int, m promptfmt.Message) {
	if sep >= 0 {
		m.Line = p.s.sepLine(p.sepLine, strings.TrimSpace(lines.First(p.s.rendered[sep:])))
	}
	p.doc.Messages = append(p.doc.Messages, m)
	p.seps = append(p.seps, sep)
}

// readSchema keeps the schema turn's text and parses it.
func (p *parser) readSchema(sep, start int, raw string) error {
	if p.hasSchema && !p.c.lenient {
		return p.s.errorf(sep, strings.TrimSpace(lines.First(p.s.rendered[sep:])), "<|schema|> appeared multiple times.")
	}
	p.hasSchema = true
	p.schemaLine = p.s.sepLine(p.sepLine, strings.TrimSpace(lines.First(p.s.rendered[sep:])))
	text := strings.TrimSpace(raw)
	if p.doc.Meta == nil {
		p.doc.Meta = map[string]any{}
	}
	p.doc.Meta[SchemaKey] = text
	sc, err := schema.Parse([]byte(raw))
	if err != nil {
		pe, ok := err.(*promptfmt.ParseError)
		if !ok {
			pe = &promptfmt.ParseError{Msg: err.Error()}
		}
		off := start + min(pe.Offset, len(raw))
		span := raw[min(pe.Offset, len(raw)):]
		span = lines.First(strings.TrimRightFunc(span, unicode.IsSpace))
		if span == "" {
			span = lines.First(strings.TrimSpace(raw))
			off = start + max(strings.Index(raw, span), 0)
		}
		e := p.s.errorf(off, span, "schema: %s", pe.Message())
		if !p.c.lenient {
			return e
		}
		p.doc.Warnings = append(p.doc.Warnings, warning(e, "the schema is ignored"))
		p.schema = nil
		return nil
	}
	p.schema = sc
	return nil
}

// dropEmptyLast removes the last message the model would get when it is
// empty: ragit's prompts end with an empty <|assistant|> for the answer.
func (p *parser) dropEmptyLast() {
	for i := len(p.doc.Messages) - 1; i >= 0; i-- {
		m := p.doc.Messages[i]
		if m.Hidden() {
			continue
		}
		if isEmpty(m) {
			p.doc.Messages = append(p.doc.Messages[:i], p.doc.Messages[i+1:]...)
			p.seps = append(p.seps[:i], p.seps[i+1:]...)
		}
		return
	}
}

// validate is upstream's Pdl::validate (strict mode only), over the
// messages the model gets.
func (p *parser) validate() error {
	prev := ""
	n, last := 0, -1
	for i, m := range p.doc.Messages {
		if m.Hidden() {
			continue
		}
		at := func(msg string) error {
			sep := p.seps[i]
			return p.s.errorf(sep, strings.TrimSpace(lines.First(p.s.rendered[sep:])), "%s", msg)
		}
		switch {
		case m.Role == prev && m.Role == RoleUser:
			return at("<|user|> appeared twice in a row.")
		case m.Role == prev && m.Role == RoleAssistant:
			return at("<|assistant|> appeared twice in a row.")
		case m.Role == RoleSystem && n > 0:
			return at("<|system|> must appear at top.")
		}
		prev, n, last = m.Role, n+1, i
	}
	if n == 0 {
		return &promptfmt.ParseError{Format: "pdl", Line: 1, Col: 1, Msg: "A pdl file is empty."}
	}
	if p.doc.Messages[last].Role == RoleAssistant {
		sep := p.seps[last]
		return p.s.errorf(sep, strings.TrimSpace(lines.First(p.s.rendered[sep:])), "A pdl file ends with <|assistant|>.")
	}
	return nil
}
