package dotprompt

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/mediatype"
	"github.com/promptfmt/promptfmt/internal/slab"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

const format = "dotprompt"

// Parse reads a Dotprompt file: its front matter as Meta (MetaNode keeps
// the YAML as written) and the messages its body's top-level role markers
// describe, their text kept as template source. See the package
// documentation. promptfmt.File names the file in errors and warnings.
func Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(format, &s, nil, opts); err != nil {
		return nil, err
	}
	doc, yamlStart, err := parse(src)
	if err == nil {
		kept := takeRequest(doc, src, yamlStart)
		if l, ok := doc.Layout.(*layout); ok {
			l.kept = kept
		}
	}
	return s.Finish(doc, err)
}

// parse reads src with its front matter whole in Meta (Parse then moves
// the settings into the Request) and returns where the YAML starts.
func parse(src []byte) (*promptfmt.Document, int, error) {
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, 0, err
	}
	doc := &promptfmt.Document{}
	start := lines.SkipBOM(src)
	if start > 0 {
		doc.Warnings = append(doc.Warnings, diag.Warnf(format, src, 0, lines.BOMWarning))
	}
	body, end := start, len(src)
	open, yamlStart, yamlEnd, next, err := frontMatter(src, start)
	if err != nil {
		return nil, 0, err
	}
	if open >= 0 {
		if pre := src[start:open]; bytes.Contains(pre, []byte("#")) {
			// A licence header before the front matter: a comment,
			// which Write puts back.
			line, _ := lines.Position(src, start)
			text := strings.TrimSuffix(lines.ToLF(string(pre)), "\n")
			doc.Comments = []promptfmt.Comment{{Format: format, Text: text, Part: -1, Line: line}}
		}
		node, meta, err := yamlmeta.Decode(format, src, yamlStart, yamlEnd)
		if err != nil {
			return nil, 0, err
		}
		doc.Meta = meta
		if node != nil {
			doc.MetaNode = node
		}
		if err := checkSchemas(src, yamlStart, doc); err != nil {
			return nil, 0, err
		}
		// With front matter the runtimes trim the template's ends of
		// white space (Unicode's, as strings.TrimSpace).
		rest := src[next:end] // not copied: a large file's body would be, whole
		body = next + len(rest) - len(bytes.TrimLeftFunc(rest, unicode.IsSpace))
		end = next + len(bytes.TrimRightFunc(rest, unicode.IsSpace))
		end = max(end, body)
	}
	msgs, lay, err := messages(src, body, end, false)
	if err != nil {
		return nil, 0, err
	}
	doc.Messages = msgs
	doc.Layout = lay
	return doc, yamlStart, nil
}

// frontMatter finds front matter at src[start:], as Dotprompt's runtimes'
// pattern does: lines of "#" comments or blanks may come first (a licence
// header); then a line "---", the YAML, and the next line "---" (blanks
// after either allowed), followed by a line break. It returns where the
// opening "---" starts, the YAML's bounds and where the body starts, or
// open -1 when there is no front matter (the whole source is the body).
func frontMatter(src []byte, start int) (open, yamlStart, yamlEnd, body int, err error) {
	sc := lines.NewScanner(src[start:])
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			return -1, 0, 0, start, nil
		}
		line, eol := src[start+s:start+e], src[start+e:start+next]
		if delimiter(line) {
			open, yamlStart = start+s, start+next
			break
		}
		// A preamble line ends at "\n" (the pattern's "#[^\n]*\n" or
		// "[ \t]*\n"); anything else means no front matter.
		if !bytes.HasSuffix(eol, []byte("\n")) || !(bytes.HasPrefix(line, []byte("#")) || len(bytes.Trim(line, " \t")) == 0 && len(eol) == 1) {
			return -1, 0, 0, start, nil
		}
	}
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			return 0, 0, 0, 0, diag.Errorf(format, src, open, "front matter opened here is never closed (want a --- line)")
		}
		if delimiter(src[start+s : start+e]) {
			if next == e {
				e := diag.Errorf(format, src, start+s, "front matter is closed by a --- that ends the file with no line break after it")
				e.Hint = "Dotprompt's runtimes then read the whole file, YAML included, as the template: end the line"
				return 0, 0, 0, 0, e
			}
			return open, yamlStart, start + s, start + next, nil
		}
	}
}

func delimiter(line []byte) bool { return string(bytes.TrimRight(line, " \t")) == "---" }

var (
	roleTag  = regexp.MustCompile(`^role\s+(?:"([^"]*)"|'([^']*)')$`)
	mediaTag = regexp.MustCompile(`^media((?:\s+(?:url|contentType)=(?:"[^"]*"|'[^']*'))+)$`)
	mediaArg = regexp.MustCompile(`(url|contentType)=(?:"([^"]*)"|'([^']*)')`)
)

// roleOf is the model's role of a Dotprompt role name ("model" is
// "assistant"); ok is false for a name that is none.
func roleOf(name string) (role string, ok bool) {
	switch name {
	case "user":
		return "user", true
	case "model":
		return "assistant", true
	case "system":
		return "system", true
	case "tool":
		return "tool", true
	}
	return "", false
}

// messages splits src[body:end] at its top-level role markers and media
// tags (those outside any block); everything else is template text. A
// marker's white space control ({{~role "user"}}, {{media url="u"~}})
// strips the text beside it, as Handlebars does; the layout keeps the
// texts, and what the markers stripped of them.
//
// The layout's strings and strips are recorded with record; without, the
// layout records where the messages are, and reads them again, recording,
// the first time Write asks (most documents are never written, or not
// in their own format: a large file's maps would cost more than its
// messages).
func messages(src []byte, body, end int, record bool) ([]promptfmt.Message, *layout, error) {
	s := string(src[:end])
	msgs := make([]promptfmt.Message, 0, slab.First(end-body))
	parts := slab.New(slab.First(end - body))
	lay := &layout{src: s, body: body}
	if record {
		lay.set, lay.strip = map[string]bool{}, map[[2]int]strip{}
	}
	cur := promptfmt.Message{Role: "user"}
	has := false                 // cur holds text that is not white space, or media
	pos := lines.NewCounter(src) // the offsets asked only increase
	cur.Line, _ = pos.Position(body)
	text := body       // start of the text not yet placed
	stripLeft := false // the marker before text ends with ~}}
	flush := func(to int, stripRight bool) {
		from := text
		var st strip
		if stripLeft { // Handlebars' "~" strips Go's \s, as raymond does
			st.left, st.lws = true, leadingSpace(s[from:to])
			from += len(st.lws)
		}
		if stripRight {
			st.right, st.rws = true, trailingSpace(s[from:to])
			to -= len(st.rws)
		}
		piece := s[from:to]
		if strings.TrimSpace(piece) == "" {
			return // the runtimes drop white space between markers
		}
		if cur.TextLine == 0 {
			cur.TextLine, _ = pos.Position(from)
		}
		if record {
			lay.set[piece] = true
			if st.left || st.right {
				st.text = piece
				lay.strip[[2]int{len(msgs), len(cur.Content)}] = st
			}
		}
		if cur.Content == nil {
			cur.Content = parts.Text(piece)
		} else {
			cur.Content = append(cur.Content, promptfmt.Text(piece))
		}
		has = true
	}
	var blocks []block // the open blocks
	for from := body; ; {
		t, err := nextTag(src, s, from)
		if err != nil {
			return nil, nil, err
		}
		if t.start < 0 {
			break
		}
		from = t.end
		inner := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s[t.start+2:t.end-2], "~"), "~"))
		switch {
		case t.raw:
			continue
		case strings.HasPrefix(inner, "#") || strings.HasPrefix(inner, "^") && inner != "^":
			blocks = append(blocks, block{t.start, t.end, blockName(inner[1:])})
			continue
		case strings.HasPrefix(inner, "/"):
			if len(blocks) == 0 {
				return nil, nil, diag.Errorf(format, src, t.start, "%s closes no block", s[t.start:t.end])
			}
			open := blocks[len(blocks)-1]
			if name := blockName(inner[1:]); name != open.name {
				line, col := lines.Position(src, open.start)
				return nil, nil, diag.Errorf(format, src, t.start, "%s does not close %s, opened at %d:%d", s[t.start:t.end], s[open.start:open.end], line, col)
			}
			blocks = blocks[:len(blocks)-1]
			continue
		case len(blocks) > 0:
			continue
		}
		tildeOpen, tildeClose := s[t.start+2] == '~', s[t.end-3] == '~'
		if name, ok := roleName(inner); ok {
			role, ok := roleOf(name)
			if !ok {
				e := diag.Errorf(format, src, t.start, "unknown role %q", name)
				e.Hint = `the roles are "system", "user", "model" and "tool"`
				return nil, nil, e
			}
			flush(t.start, tildeOpen)
			text, stripLeft = t.end, tildeClose
			line, _ := pos.Position(t.start)
			if has {
				*slab.Next(&msgs, t.start, end) = cur
				cur, has = promptfmt.Message{}, false
			}
			cur.Role, cur.Line = role, line
			continue
		}
		if m := mediaTag.FindStringSubmatch(inner); m != nil {
			var url, ct string
			for _, a := range mediaArg.FindAllStringSubmatch(m[1], -1) {
				if a[1] == "url" {
					url = a[2] + a[3]
				} else {
					ct = a[2] + a[3]
				}
			}
			if url == "" {
				continue // not a part the runtimes make: kept as text
			}
			flush(t.start, tildeOpen)
			text, stripLeft = t.end, tildeClose
			cur.Content = append(cur.Content, promptfmt.ContentPart{Kind: mediaKind(url, ct), Value: url, MediaType: ct})
			has = true
		}
	}
	if len(blocks) > 0 {
		o := blocks[len(blocks)-1]
		return nil, nil, diag.Errorf(format, src, o.start, "block %s is never closed", s[o.start:o.end])
	}
	flush(end, false)
	if has {
		*slab.Next(&msgs, end, end) = cur
	}
	if len(msgs) == 0 {
		msgs = nil // as before: no messages is no list
	}
	return msgs, lay, nil
}

// roleName is the role a tag's inner text names, when it is a role
// marker (roleTag): {{role "user"}} is told without the pattern.
func roleName(inner string) (string, bool) {
	if rest, ok := strings.CutPrefix(inner, `role "`); ok && len(rest) > 0 && strings.IndexByte(rest, '"') == len(rest)-1 {
		return rest[:len(rest)-1], true
	}
	if m := roleTag.FindStringSubmatch(inner); m != nil {
		return m[1] + m[2], true
	}
	return "", false
}

// block is an open block's tag, and its name, which its end must repeat
// ({{#if x}} ... {{/if}}), as Handlebars requires.
type block struct {
	start, end int
	name       string
}

// blockName is the name of a block's tag, after its "#", "^" or "/": the
// helper or value ({{#each xs}}: each), a partial block's partial, a
// decorator's name.
func blockName(s string) string {
	s = strings.TrimLeft(s, "*> \t\r\n")
	if i := strings.IndexAny(s, " \t\r\n~}("); i >= 0 {
		s = s[:i]
	}
	return s
}

// mediaKind is the part kind of a media part: image/… and audio/…, else a
// file, by its content type, or when it has none by the type its url says
// (a data: URL's own, else its extension's: internal/mediatype), as a
// model's API would take "photo.jpg" (the part's MediaType stays as
// written).
func mediaKind(url, ct string) promptfmt.Kind {
	if ct == "" {
		ct = mediatype.OfURL(url)
	}
	switch {
	case strings.HasPrefix(ct, "image/"):
		return promptfmt.KindImage
	case strings.HasPrefix(ct, "audio/"):
		return promptfmt.KindAudio
	}
	return promptfmt.KindFile
}

type tag struct {
	start, end int  // s[start:end] is the tag, braces included; start -1 for none
	raw        bool // a comment or a raw block's tag: no meaning here
}

// nextTag finds the next Handlebars tag in s[from:], as Handlebars' lexer
// does: "\{{" is an escaped, literal "{{" (and "\\{{" a backslash then a
// tag); comments ({{! }}, {{!-- --}}), triple stashes and string
// arguments holding "}}" are read whole.
func nextTag(src []byte, s string, from int) (tag, error) {
	for {
		i := strings.Index(s[from:], "{{")
		if i < 0 {
			return tag{start: -1}, nil
		}
		i += from
		n := 0
		for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
			n++
		}
		if n == 1 {
			// Escaped: raymond's lexer takes every "{" that follows as
			// text too ("\{{{{x}}" is the text "{{{{x}}").
			for from = i + 2; from < len(s) && s[from] == '{'; from++ {
			}
			continue
		}
		rest := s[i:]
		closeAt := func(closer string, raw bool) (tag, error) {
			k := strings.Index(rest, closer)
			if k < 0 {
				return tag{}, diag.Errorf(format, src, i, "%s is never closed with %s", tagHead(rest), closer)
			}
			return tag{start: i, end: i + k + len(closer), raw: raw}, nil
		}
		body := strings.TrimPrefix(rest[2:], "~")
		switch {
		case strings.HasPrefix(body, "!--"):
			// The first "--}}" or "--~}}" ends it, as the lexer's
			// \s*--~?}} does.
			scope := rest
			if k := strings.Index(rest, "--}}"); k >= 0 {
				scope = rest[:k]
			}
			if k := strings.Index(scope, "--~}}"); k >= 0 {
				return tag{start: i, end: i + k + len("--~}}"), raw: true}, nil
			}
			return closeAt("--}}", true)
		case strings.HasPrefix(body, "!"):
			return closeAt("}}", true)
		case strings.HasPrefix(rest, "{{{{"):
			return closeAt("}}}}", true)
		case strings.HasPrefix(rest, "{{{"):
			return closeAt("}}}", false)
		}
		var quote byte
		for k := 2; k < len(rest); k++ {
			switch c := rest[k]; {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '}' && k+1 < len(rest) && rest[k+1] == '}':
				if k+2 < len(rest) && rest[k+2] == '}' {
					return tag{}, diag.Errorf(format, src, i+k, "%s is closed with }}} (Handlebars reads it as the end of a {{{ tag)", tagHead(rest))
				}
				return tag{start: i, end: i + k + 2}, nil
			}
		}
		return tag{}, diag.Errorf(format, src, i, "%s is never closed with }}", tagHead(rest))
	}
}

func tagHead(s string) string {
	s = lines.First(s)
	if len(s) > 20 {
		s = s[:20]
		for len(s) > 0 && s[len(s)-1] >= 0x80 {
			s = s[:len(s)-1] // no cut rune
		}
		s += "…"
	}
	return "tag " + `"` + s + `"`
}

// layout is what Parse keeps in Document.Layout: the texts as read (set)
// and, by message and part, the texts that a marker beside strips of
// white space. The texts are template source, which Write writes as it
// is, with the markers' white space control; any other text is what the
// model is to receive, and is escaped.
type layout struct {
	set   map[string]bool
	strip map[[2]int]strip
	// src and body are the file (to its body's end) and where its body
	// starts, for record to read them again.
	src  string
	body int
	// kept is what takeRequest read from the front matter, so that an
	// unchanged setting is written back as written (Picoschema stays
	// Picoschema).
	kept *homes.Kept
}

// crlf reports whether every line of the file read ends in CRLF.
func (l *layout) crlf() bool {
	_, crlf := lines.CountCR(l.src)
	return crlf > 0 && crlf == strings.Count(l.src, "\n")
}

// strip is a text read beside a marker that strips white space: left for
// a marker before it ({{role "user"~}}), right for one after it; lws and
// rws are the white space stripped.
type strip struct {
	text        string
	left, right bool
	lws, rws    string
}

// leadingSpace and trailingSpace are the white space at the ends of s
// that Handlebars' "~" strips: Go's \s in raymond, [\t\n\f\r ]. By
// hand: strings.TrimLeft with a cutset makes its set at each call, a
// fifth of a parse of short messages.
func leadingSpace(s string) string {
	i := 0
	for i < len(s) && isStripped(s[i]) {
		i++
	}
	return s[:i]
}

func trailingSpace(s string) string {
	i := len(s)
	for i > 0 && isStripped(s[i-1]) {
		i--
	}
	return s[i:]
}

func isStripped(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' }

func (l *layout) isSource(s string) bool { return l != nil && l.record().set[s] }

// record makes l's strings and strips, read from the file again (it
// read before: it reads the same way) when Parse did not record them.
func (l *layout) record() *layout {
	if l.set == nil {
		_, again, _ := messages([]byte(l.src), l.body, len(l.src), true)
		l.set, l.strip = again.set, again.strip
	}
	return l
}

// stripOf is how the markers beside text, part j of message i, strip
// it, when Parse read that text there.
func (l *layout) stripOf(i, j int, text string) strip {
	if l == nil {
		return strip{}
	}
	st, ok := l.record().strip[[2]int{i, j}]
	if !ok || st.text != text {
		return strip{}
	}
	return st
}
