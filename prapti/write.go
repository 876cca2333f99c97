package prapti

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Write writes doc in the canonical layout, the one upstream uses when it
// appends a reply: the _head message's text first, without a heading (an
// empty _head, which would vanish, keeps its "### @_head:"); then
// for each message a blank line, the heading "### @role:" or
// "### @role/name:" ("### //@role:" when disabled), a blank line, the text
// with its configuration lines where they stood, and a line feed.
//
// Text lines that would read as structure get a backslash after their
// indentation, which Parse removes: a heading or a configuration line
// (outside code and HTML blocks), a fence or HTML block opener never
// closed in the text, which would swallow what follows it, and a line
// that reads as an escape. A document Prapti cannot express is an error
// naming each thing, and nothing is written: document metadata, parts
// other than text, message metadata other than configuration lines, a
// role that is not lower case letters, digits and _, text that starts or
// ends with white space (Prapti trims it), a message that does not read
// back the same, or a setting of doc.Request that the configuration lines
// do not make (see Settings in the package documentation). Text whose blocks would swallow what follows it only
// because trimming changed them ("```" that was "    ```", code) is
// written another way that reads back the same: see the package
// documentation. It takes the options Parse takes, so that one list
// serves both; none changes what it writes.
func Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	if _, err := newConfig(opts); err != nil {
		return err
	}
	out, err := write(doc, w)
	if err != nil || out == nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// write makes doc's text. When every message is proven by construction
// before it is made (see streamable), it checks them all first, then
// writes the text to w as it makes it, in blocks of 64 KB, and returns
// nil: a large document's text is never held whole. Otherwise (and
// always when w is nil) it returns the text, once readsBack has given its
// verdict.
func write(doc *promptfmt.Document, w io.Writer) ([]byte, error) {
	errs := promptfmt.CommentErrors(doc, format)
	fail := func(i int, m *promptfmt.Message, t promptfmt.Thing, msg string, args ...any) *promptfmt.UnsupportedError {
		line := 0
		if m != nil {
			line = m.Line
		}
		e := &promptfmt.UnsupportedError{Format: format, Index: i, Line: line, What: fmt.Sprintf(msg, args...), Thing: t}
		errs = append(errs, e)
		return e
	}
	if len(doc.Meta) > 0 {
		fail(-1, nil, promptfmt.ThingMeta, "document metadata (Prapti has none; configuration lines belong to messages)")
	}
	errs = append(errs, requestErrors(doc)...)
	stream := w != nil && streamable(doc)
	if stream {
		for i := range doc.Messages {
			check(i, &doc.Messages[i], fail)
		}
		if len(errs) > 0 {
			return nil, errors.Join(errs...)
		}
	}
	var b bytes.Buffer
	// proven stays true while every body reads back: by construction,
	// or checked alone with a message after it (see the package
	// documentation's Decision on what Write checks). Then the whole
	// file does, and readsBack need not parse it again.
	proven := true
	for i := range doc.Messages {
		m := &doc.Messages[i]
		if stream && b.Len() >= flushSize {
			// All but the last two bytes, which blankLine looks at.
			if _, err := w.Write(b.Next(b.Len() - 2)); err != nil {
				return nil, err
			}
		}
		check := check
		if stream {
			check = checked // checked above, with no error
		}
		configs, ok := check(i, m, fail)
		if !ok {
			continue
		}
		// The head goes first without a heading, unless it is empty: it
		// would vanish.
		head := i == 0 && isHead(m) && (m.Text() != "" || len(configs) > 0)
		var body string
		var configsOK, openEnd, escaped bool
		if stream {
			// Prose is its own body: its lines need no escape and open
			// no block (FuzzStreamable holds the stream to the whole).
			body, configsOK = m.Text(), true
		} else {
			body, configsOK, openEnd, escaped = messageBody(m.Text(), configs, 0)
		}
		// The plain layout is proven when it needs no verdict (no block
		// runs to its end) or bodyReadsBack has given it, with a message
		// after it.
		plain := configsOK && !escaped && (!openEnd || bodyReadsBack(m, head, body))
		// streamable has seen every text ordinary, with no configuration
		// lines.
		proven = proven && plain && (stream || ordinary(m.Text()) && configsReadBack(configs))
		if !plain {
			// Trimming changed the text's blocks ("    ```", code, is now
			// "```", a fence): take the first layout that reads back with
			// a message after it and escapes no block opener (indented,
			// "    ```" is code again), else the first that keeps the
			// configuration lines out of code (enough for the last
			// message), and leave the verdict to readsBack. A body whose
			// openers are escaped reads back too, but shows as text.
			fallback := ""
			for layout := 1; layout < layouts; layout++ {
				other, ok, _, otherEscaped := messageBody(m.Text(), configs, layout)
				if other == body {
					continue
				}
				if !otherEscaped && bodyReadsBack(m, head, other) {
					fallback = other
					break
				}
				if ok && fallback == "" && !configsOK {
					fallback = other
				}
			}
			if fallback != "" {
				body = fallback
			}
		}
		if head {
			if body != "" {
				b.WriteString(body)
				b.WriteByte('\n')
			}
			continue
		}
		blankLine(&b)
		b.WriteString("### ")
		if m.Disabled {
			b.WriteString("//")
		}
		b.WriteString("@" + m.Role)
		if m.Name != "" {
			b.WriteString("/" + m.Name)
		}
		b.WriteString(":\n\n")
		if body != "" {
			b.WriteString(body)
			b.WriteByte('\n')
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if stream {
		_, err := w.Write(b.Bytes())
		return nil, err
	}
	if !proven {
		if err := readsBack(doc, b.Bytes()); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// flushSize is how much text write makes before it writes it, streaming.
const flushSize = 64 << 10

// checked is check of a message checked before: its configuration lines
// (none: see streamable).
func checked(int, *promptfmt.Message, func(int, *promptfmt.Message, promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) ([]ConfigLine, bool) {
	return nil, true
}

// streamable reports whether every message of doc is proven to read back
// by construction, before its text is made: it has no metadata (so no
// configuration lines), and its text is ordinary and every line of it
// prose (see proseLine). Such a text is one or more paragraphs: no line
// of it needs an escape, none opens a block that runs to its end, and
// the plain layout is the body.
func streamable(doc *promptfmt.Document) bool {
	for i := range doc.Messages {
		m := &doc.Messages[i]
		if len(m.Metadata) > 0 || len(m.Content) != 1 || m.Content[0].Kind != promptfmt.KindText {
			return false
		}
		t := m.Content[0].Value
		if !ordinary(t) {
			return false
		}
		for off, end, next := 0, 0, 0; off < len(t); off = next {
			if end, next = lines.LineLF(t, off); !proseLine(t[off:end]) {
				return false
			}
		}
	}
	return true
}

// proseLine reports whether a line of text is blank, or starts, after at
// most three spaces, with an ASCII letter or a digit that starts no list
// item: a line that can only be a paragraph's and that Parse
// reads as text, neither a heading nor a configuration line nor an escape.
func proseLine(l string) bool {
	i := 0
	for i < len(l) && l[i] == ' ' {
		i++
	}
	if i == len(l) {
		return true
	}
	switch c := l[i]; {
	case i > 3:
		return false
	case c|0x20 >= 'a' && c|0x20 <= 'z':
		return true
	case c < '0' || c > '9':
		return false
	}
	for i < len(l) && l[i] >= '0' && l[i] <= '9' {
		i++
	}
	return i < len(l) && l[i] != '.' && l[i] != ')'
}

func isHead(m *promptfmt.Message) bool {
	return m.Role == HeadRole && m.Name == "" && !m.Disabled
}

// blankLine ends b with a blank line, unless b is empty.
func blankLine(b *bytes.Buffer) {
	if b.Len() == 0 {
		return
	}
	for !bytes.HasSuffix(b.Bytes(), []byte("\n\n")) {
		b.WriteByte('\n')
	}
}

// check reports whether message i can be written, and its configuration
// lines.
func check(i int, m *promptfmt.Message, fail func(int, *promptfmt.Message, promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) ([]ConfigLine, bool) {
	ok := true
	bad := func(t promptfmt.Thing, msg string, args ...any) *promptfmt.UnsupportedError {
		ok = false
		return fail(i, m, t, msg, args...)
	}
	checkHeading(m, bad)
	if texts := checkParts(m, bad); texts > 1 {
		bad(promptfmt.ThingText, "%d text parts (a Prapti message is one text)", texts)
	}
	for k := range m.Metadata {
		if k != MetaConfig {
			bad(promptfmt.ThingMetadata, "message metadata %q (only configuration lines, under %q)", excerpt(k), MetaConfig).Key = k
		}
	}
	configs, err := Config(m)
	if err != nil {
		bad(promptfmt.ThingMetadata, "%v", err).Key = MetaConfig
	}
	t := m.Text()
	if trimSpace(t) != t {
		bad(promptfmt.ThingText, "text that starts or ends with white space (Prapti trims it)")
	}
	for _, c := range configs {
		if c.Offset < 0 || c.Offset > len(t) || c.Offset > 0 && c.Offset < len(t) && t[c.Offset-1] != '\n' {
			bad(promptfmt.ThingMetadata, "configuration line %q at offset %d, which is not the start of a line of the text", excerpt(c.Source), c.Offset).Key = MetaConfig
		}
		if msg := nonFinite(c.Value); c.Kind == KindAssignment && msg != "" {
			bad(promptfmt.ThingMetadata, "configuration line %q: %s", excerpt(c.Source), msg).Key = MetaConfig
		}
		if _, _, _, isConfig := matchConfig(c.Source); strings.ContainsAny(c.Source, "\r\n") || !isConfig {
			bad(promptfmt.ThingMetadata, "configuration line %q does not read as one", excerpt(c.Source)).Key = MetaConfig
		}
	}
	return configs, ok
}

// Layouts of a message body beyond the plain one, for text that trimming
// changed, in the order Write tries them: a blank line between the text
// and the configuration lines after it, one between the configuration
// lines before the text and the text (Parse trims both), and the first
// line indented four spaces (Parse trims them).
const (
	blankBeforeTrailing = 1 << iota
	blankAfterLeading
	indentFirst
	layouts = 1 << iota
)

// A bodyLine is a line of a message body: a line of the text, or a
// configuration line, or a blank line Write adds.
type bodyLine struct {
	s       string
	text    bool // a line of the text, escaped if escape
	escape  bool
	refused bool // would open a block that swallows what follows, or a heading
}

// messageBody is the text with escapes where needed and the configuration
// lines put back at their offsets, in the given layout: the escaper of
// Write and Append. configsOK reports that no configuration line is inside
// a code or HTML block, openEnd that such a block runs to the end of the
// body (one that ends at a blank line, or is nested), escapedOpener that a
// fence or HTML block opener was escaped.
//
// A line of text is escaped when it would otherwise read as a heading, a
// configuration line or an escape and is not inside a code or HTML block
// of the body, or when it opens a fence or HTML block at the top level
// that is never closed. Escaping changes the blocks ("\### @x:" is no
// heading, so an HTML block may no longer start after it):
// escapingStructure reads the body as it reads once escaped, in one pass.
func messageBody(t string, configs []ConfigLine, layout int) (body string, configsOK, openEnd, escapedOpener bool) {
	configs = slices.Clone(configs)
	slices.SortStableFunc(configs, func(a, b ConfigLine) int { return a.Offset - b.Offset })
	var rows []bodyLine
	emit := func(off int) {
		for len(configs) > 0 && configs[0].Offset <= off {
			rows = append(rows, bodyLine{s: configs[0].Source})
			configs = configs[1:]
		}
	}
	first := true
	for off := 0; off < len(t); {
		emit(off)
		if first && layout&blankAfterLeading != 0 && len(rows) > 0 {
			rows = append(rows, bodyLine{})
		}
		end, _ := lines.LineLF(t, off)
		line := t[off:end]
		if first && layout&indentFirst != 0 {
			line = "    " + line
		}
		first = false
		rows = append(rows, bodyLine{s: line, text: true})
		off = end + 1
	}
	if t != "" && layout&blankBeforeTrailing != 0 && len(configs) > 0 {
		rows = append(rows, bodyLine{})
	}
	emit(len(t))

	render := func() string {
		var b strings.Builder
		for i, l := range rows {
			if i > 0 {
				b.WriteByte('\n')
			}
			if l.escape {
				j := prefixLen(l.s)
				b.WriteString(l.s[:j] + `\` + l.s[j:])
			} else {
				b.WriteString(l.s)
			}
		}
		return b.String()
	}
	if !mayOpenLiteral(t) && markers(t) < MaxNesting && !slices.ContainsFunc(rows, func(l bodyLine) bool { return !l.text && mayBeCode(l.s) || l.text && needsEscape(l.s) }) {
		// Without fences or HTML there is no block to escape rows in
		// or to swallow what follows, and no line to escape; with no
		// more block markers than blocks may nest, none nests too deep.
		// A configuration line is in no code block unless indented in a
		// block quote.
		return render(), true, false, false
	}
	// escapingStructure reads the body as it reads once escaped, so one
	// round settles the escapes; the second checks that they hold.
	for range 4 {
		body = render()
		rec, _, ok := escapingStructure([]byte(body))
		if !ok {
			return body, false, false, false // nested too deep: Parse refuses it, and so does readsBack
		}
		literal, refused := rec.literal, rec.refused
		changed := false
		configsOK, openEnd = true, len(literal) > 0 && literal[len(literal)-1].end == toEnd
		for i := range rows {
			n := i + 1
			for len(literal) > 0 && literal[0].end <= n {
				literal = literal[1:]
			}
			for len(refused) > 0 && refused[0] < n {
				refused = refused[1:]
			}
			inLiteral := len(literal) > 0 && literal[0].start <= n
			l := &rows[i]
			if !l.text {
				configsOK = configsOK && !(inLiteral && l.s != "")
				continue
			}
			// A line refused once stays escaped: escaped, it is read as
			// the text it was refused as.
			if len(refused) > 0 && refused[0] == n && !l.refused {
				l.refused = true
				_, _, _, heading := matchHeading(l.s)
				escapedOpener = escapedOpener || !heading
			}
			if escape := l.refused || !inLiteral && needsEscape(l.s); escape != l.escape {
				l.escape, changed = escape, true
			}
		}
		if !changed {
			break
		}
	}
	return body, configsOK, openEnd, escapedOpener
}

// bodyReadsBack reports whether body, written as m's (or as the head's),
// with a message after it, reads back as m's text and configuration lines.
func bodyReadsBack(m *promptfmt.Message, head bool, body string) bool {
	var b strings.Builder
	if !head {
		b.WriteString("### @x:\n\n")
	}
	b.WriteString(body)
	b.WriteString("\n\n### @next:\n")
	back, err := parseFile([]byte(b.String()))
	if err != nil || len(back.Messages) != 2 || back.Messages[1].Role != "next" {
		return false
	}
	got, want := back.Messages[0], *m
	got.Role, got.Name, got.Disabled = want.Role, want.Name, want.Disabled
	return promptfmt.EqualMessages(withoutLines([]promptfmt.Message{want}), withoutLines([]promptfmt.Message{got}))
}

// needsEscape reports whether a line of text would not read back as text.
func needsEscape(line string) bool {
	if _, _, _, heading := matchHeading(line); heading {
		return true
	}
	if !special(line) {
		return false
	}
	_, _, _, config := matchConfig(line)
	return config || isEscape(line)
}

// readsBack checks that out parses as doc, so that Write never produces a
// file that means something else.
func readsBack(doc *promptfmt.Document, out []byte) error {
	back, err := parseFile(out)
	if err != nil {
		return err
	}
	want := withoutLines(doc.Messages)
	got := withoutLines(back.Messages)
	if promptfmt.EqualMessages(want, got) {
		return nil
	}
	for i := range want {
		if i >= len(got) || !promptfmt.EqualMessages(want[i:i+1], got[i:i+1]) {
			return &promptfmt.UnsupportedError{Format: format, Index: i, Line: doc.Messages[i].Line,
				What: "this message does not read back the same"}
		}
	}
	return &promptfmt.UnsupportedError{Format: format, Index: len(want) - 1, What: "the messages do not read back the same"}
}

// withoutLines copies messages with their configuration lines in a
// comparable form: as Config reads them, without source line numbers.
func withoutLines(msgs []promptfmt.Message) []promptfmt.Message {
	out := make([]promptfmt.Message, len(msgs))
	for i, m := range msgs {
		if configs, err := Config(&m); err == nil && configs != nil {
			list := make([]any, len(configs))
			for j := range configs {
				configs[j].Line = 0
				list[j] = configs[j].toMap()
			}
			m.Metadata = map[string]any{MetaConfig: list}
		}
		out[i] = m
	}
	return out
}

// checkHeading refuses a role or name a heading cannot spell.
func checkHeading(m *promptfmt.Message, bad func(promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) {
	if !word(m.Role) || strings.ToLower(m.Role) != m.Role {
		bad(promptfmt.ThingRole, "role %q (Prapti roles are letters, digits and _, read back in lower case)", excerpt(m.Role))
	}
	if m.Name != "" && !word(m.Name) {
		bad(promptfmt.ThingName, "name %q (Prapti names are letters, digits and _)", excerpt(m.Name))
	}
}

// word reports whether s is one or more letters, numbers and _, as a
// heading spells a role or a name (`[\p{L}\p{N}_]+`); invalid UTF-8 is
// not.
func word(s string) bool {
	for _, r := range s {
		if r != '_' && !unicode.IsLetter(r) && !unicode.IsNumber(r) {
			return false
		}
	}
	return s != ""
}

// checkParts refuses every part that is not plain text and returns how
// many text parts m has.
func checkParts(m *promptfmt.Message, bad func(promptfmt.Thing, string, ...any) *promptfmt.UnsupportedError) (texts int) {
	for j, p := range m.Content {
		if p.Kind != promptfmt.KindText || p.StrayField() != "" {
			bad(promptfmt.ThingPart, "a part of kind %s (a Prapti message is markdown text)", excerpt(string(p.Kind))).Part = j
		} else {
			texts++
		}
	}
	return texts
}

// mayOpenLiteral reports whether a line of t may open a fence or an HTML
// block: whether a '`', '~' or '<' follows only what may stand before one
// on its line (indentation and the markers of block quotes and list
// items, taken loosely). A backtick inside a line opens no block. The
// walks back end at the '`', '~' or '<' before, so t is read about twice.
func mayOpenLiteral(t string) bool {
	for i := 0; ; {
		j := strings.IndexAny(t[i:], "`~<")
		if j < 0 {
			return false
		}
		j += i
		k := j
		for k > 0 && strings.IndexByte(" \t>-+*0123456789.)", t[k-1]) >= 0 {
			k--
		}
		if k == 0 || t[k-1] == '\n' || t[k-1] == '\r' {
			return true
		}
		i = j + 1
	}
}

// mayBeCode reports whether a configuration line may be indented code in
// a block quote: a tab, or four blanks, after its '>'. Its prefix allows
// no more than three spaces before, too few for code elsewhere.
func mayBeCode(config string) bool {
	i := prefixLen(config)
	q := strings.IndexByte(config[:i], '>')
	return q >= 0 && (strings.Contains(config[q:i], "\t") || i-q-1 >= 4)
}

// markers counts what can open a block quote or a list item in t: '>',
// '-', '*', '+', and '.' or ')' after a digit. Blocks cannot nest deeper
// than t has markers.
func markers(t string) int {
	n := 0
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '>', '-', '*', '+':
			n++
		case '.', ')':
			if i > 0 && t[i-1] >= '0' && t[i-1] <= '9' {
				n++
			}
		}
	}
	return n
}

// ordinary reports whether Parse reads t as it is, once its blocks are
// settled: valid UTF-8 without a byte order mark, line breaks other than
// LF (CR, Python's others) or other control characters, which Parse
// reads otherwise or refuses. Write parses a file whose text is not
// ordinary again whole.
func ordinary(t string) bool {
	ascii := true
	for i := 0; i < len(t); i++ {
		if c := t[i]; c < 0x20 && c != '\n' && c != '\t' || c == 0x7f {
			return false
		} else if c >= 0x80 {
			ascii = false
		}
	}
	if ascii {
		return true
	}
	for _, r := range []string{"\u0085", "\u2028", "\u2029", "\uFEFF"} {
		if strings.Contains(t, r) {
			return false
		}
	}
	return utf8.ValidString(t)
}

// configsReadBack reports whether each configuration line, read back from
// its source line as Parse reads it, is the line the message holds: a
// line built by a program may say one thing in its source and another in
// its fields.
func configsReadBack(configs []ConfigLine) bool {
	for _, c := range configs {
		if !ordinary(c.Source) || strings.Contains(c.Source, "\n") {
			return false
		}
		quoted, disabled, command, ok := matchConfig(c.Source)
		if !ok {
			return false
		}
		r := ConfigLine{Source: c.Source, Enabled: !disabled, Quoted: quoted, Offset: c.Offset}
		r.splitCommand(trimSpace(command))
		c.Line = 0
		if !jsonvalue.Equal(r.toMap(), c.toMap()) {
			return false
		}
	}
	return true
}
