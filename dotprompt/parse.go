package dotprompt

import (
	"bytes"
	"regexp"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
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
	doc, err := parse(src)
	return s.Finish(doc, err)
}

func parse(src []byte) (*promptfmt.Document, error) {
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	doc := &promptfmt.Document{}
	start := lines.SkipBOM(src)
	if start > 0 {
		doc.Warnings = append(doc.Warnings, diag.Warnf(format, src, 0, lines.BOMWarning))
	}
	body, end := start, len(src)
	yamlStart, yamlEnd, next, err := frontMatter(src, start)
	if err != nil {
		return nil, err
	}
	if yamlStart >= 0 {
		node, meta, err := yamlmeta.Decode(format, src, yamlStart, yamlEnd)
		if err != nil {
			return nil, err
		}
		doc.Meta = meta
		if node != nil {
			doc.MetaNode = node
		}
		// With front matter the runtimes trim the template's ends.
		body = next
		for body < end && isSpace(src[body]) {
			body++
		}
		for end > body && isSpace(src[end-1]) {
			end--
		}
	}
	msgs, err := messages(src, body, end)
	if err != nil {
		return nil, err
	}
	doc.Messages = msgs
	doc.Layout = newLayout(msgs)
	return doc, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// frontMatter finds front matter at src[start:]: a first line "---" and
// the next line "---" (blanks after either allowed). It returns the YAML's
// bounds and where the body starts, or yamlStart -1 when there is none.
func frontMatter(src []byte, start int) (yamlStart, yamlEnd, body int, err error) {
	sc := lines.NewScanner(src[start:])
	s, e, next, ok := sc.Next()
	if !ok || !delimiter(src[start+s:start+e]) {
		return -1, 0, start, nil
	}
	yamlStart = start + next
	for {
		s, e, next, ok = sc.Next()
		if !ok {
			return 0, 0, 0, diag.Errorf(format, src, start, "front matter opened here is never closed (want a --- line)")
		}
		if delimiter(src[start+s : start+e]) {
			return yamlStart, start + s, start + next, nil
		}
	}
}

func delimiter(line []byte) bool { return string(bytes.TrimRight(line, " \t")) == "---" }

var (
	roleTag  = regexp.MustCompile(`^role\s+(?:"([^"]*)"|'([^']*)')$`)
	mediaTag = regexp.MustCompile(`^media((?:\s+(?:url|contentType)=(?:"[^"]*"|'[^']*'))+)$`)
	mediaArg = regexp.MustCompile(`(url|contentType)=(?:"([^"]*)"|'([^']*)')`)
)

// roles maps a role marker's name to the model's role.
var roles = map[string]string{"user": "user", "model": "assistant", "system": "system", "tool": "tool"}

// messages splits src[body:end] at its top-level role markers and media
// tags (those outside any block); everything else is template text.
func messages(src []byte, body, end int) ([]promptfmt.Message, error) {
	s := string(src[:end])
	var msgs []promptfmt.Message
	cur := promptfmt.Message{Role: "user"}
	has := false                 // cur holds text that is not white space, or media
	pos := lines.NewCounter(src) // offsets come in order: positions cost linear time
	cur.Line, _ = pos.Position(body)
	text := body // start of the text not yet placed
	flush := func(to int) {
		piece := s[text:to]
		if strings.TrimSpace(piece) == "" {
			return // the runtimes drop white space between markers
		}
		if cur.TextLine == 0 {
			cur.TextLine, _ = pos.Position(text)
		}
		cur.Content = append(cur.Content, promptfmt.Text(piece))
		has = true
	}
	var blocks []int // offsets of the open blocks
	for from := body; ; {
		t, err := nextTag(src, s, from)
		if err != nil {
			return nil, err
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
			blocks = append(blocks, t.start)
			continue
		case strings.HasPrefix(inner, "/"):
			if len(blocks) == 0 {
				return nil, diag.Errorf(format, src, t.start, "%s closes no block", s[t.start:t.end])
			}
			blocks = blocks[:len(blocks)-1]
			continue
		case len(blocks) > 0:
			continue
		}
		if m := roleTag.FindStringSubmatch(inner); m != nil {
			name := m[1] + m[2]
			role, ok := roles[name]
			if !ok {
				e := diag.Errorf(format, src, t.start, "unknown role %q", name)
				e.Hint = `the roles are "system", "user", "model" and "tool"`
				return nil, e
			}
			flush(t.start)
			text = t.end
			line, _ := pos.Position(t.start)
			if has {
				msgs = append(msgs, cur)
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
			flush(t.start)
			text = t.end
			cur.Content = append(cur.Content, promptfmt.ContentPart{Kind: mediaKind(ct), Value: url, MediaType: ct})
			has = true
		}
	}
	if len(blocks) > 0 {
		o := blocks[len(blocks)-1]
		t, _ := nextTag(src, s, o)
		return nil, diag.Errorf(format, src, o, "block %s is never closed", s[o:t.end])
	}
	flush(end)
	if has {
		msgs = append(msgs, cur)
	}
	return msgs, nil
}

// mediaKind is the part kind of a media type: image/… and audio/…, else a
// file.
func mediaKind(ct string) promptfmt.Kind {
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
			from = i + 2
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

// layout is what Parse keeps in Document.Layout: the texts as read. They
// are template source, which Write writes as it is; any other text is
// what the model is to receive, and is escaped.
type layout struct{ set map[string]bool }

func newLayout(msgs []promptfmt.Message) *layout {
	l := &layout{set: map[string]bool{}}
	for _, m := range msgs {
		for _, p := range m.Content {
			if p.Kind == promptfmt.KindText {
				l.set[p.Value] = true
			}
		}
	}
	return l
}

func (l *layout) isSource(s string) bool { return l != nil && l.set[s] }
