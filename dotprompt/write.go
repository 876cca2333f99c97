package dotprompt

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/picoschema"
	"github.com/promptfmt/promptfmt/internal/promptkind"
	"github.com/promptfmt/promptfmt/internal/slab"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// roleTags are the tags of Dotprompt's role markers, by the model's role.
var roleTags = map[string]string{"user": `role "user"`, "assistant": `role "model"`, "system": `role "system"`, "tool": `role "tool"`}

// A front matter key that makes a .prompt file PromptCritical's: writing
// one would make the file read as a promptfile.
var promptFileKey = regexp.MustCompile(`^(prompt-id|created-at|sha1-hash)$`)

// Write writes doc as a Dotprompt file: front matter from Meta (MetaNode
// as read when it still holds Meta), then each message after its role
// marker, media parts as media helpers. Text Parse read is template source
// and written as it is; other text is escaped ("{{" as "\{{") so that
// Handlebars prints it back. What Dotprompt cannot hold is an
// UnsupportedError each, and nothing is written.
func Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(format, &s, nil, opts); err != nil {
		return err
	}
	var b strings.Builder
	errs := promptfmt.CommentErrors(doc, format)
	fail := func(i int, m *promptfmt.Message, thing promptfmt.Thing, what string) *promptfmt.UnsupportedError {
		e := &promptfmt.UnsupportedError{Format: format, Index: i, Thing: thing, What: what}
		if m != nil {
			e.Line = m.Line
		}
		errs = append(errs, e)
		return e
	}
	meta, rerrs := putRequest(doc)
	errs = append(errs, rerrs...)
	frontMatter := len(meta) > 0
	l, _ := doc.Layout.(*layout)
	// The line breaks the writer makes (header, front matter, the file's
	// last) are the file's: CRLF when every line of the file read ended so
	// (text is written as it is, so LF there would mix the two).
	nl := func(s string) string { return s }
	if l != nil && l.crlf() {
		nl = func(s string) string { return strings.ReplaceAll(s, "\n", "\r\n") }
	}
	if !frontMatter {
		header(doc, meta, fail)
	}
	if frontMatter {
		for k, v := range meta {
			if s, _ := v.(string); promptFileKey.MatchString(k) || k == "id" && promptkind.Of([]byte("---\nid: "+s+"\n---\n")) == promptkind.PromptFile {
				e := fail(-1, nil, promptfmt.ThingMeta, fmt.Sprintf("the key %s makes a .prompt file a PromptCritical prompt file", k))
				e.Key = k
			}
		}
		for _, key := range []string{"input", "output"} {
			v, _ := schemaOf(&promptfmt.Document{Meta: meta, MetaNode: doc.MetaNode}, key)
			if _, _, err := picoschema.Compile(v, nil, anyName); err != nil {
				e := fail(-1, nil, promptfmt.ThingMeta, fmt.Sprintf("%s.schema: %v (Dotprompt's runtimes would refuse it)", key, err))
				e.Key = key
			}
		}
		y, err := yamlmeta.Encode(meta, doc.MetaNode)
		if err != nil {
			fail(-1, nil, promptfmt.ThingMeta, "front matter: "+err.Error())
		}
		b.WriteString(nl(header(doc, meta, fail) + "---\n" + y + "---\n"))
	}
	// The first user message needs no marker when the front matter alone
	// says the file is Dotprompt's and the trimming of the body cannot
	// take its leading white space.
	bare := frontMatter && promptkind.Of([]byte(b.String())) == promptkind.Dotprompt
	b.Grow(slab.Size(doc.Messages, 24)) // {{~role "model"~}} and its line breaks
	var (
		items           = make([]item, 0, 2*len(doc.Messages)) // a marker and a text each, mostly
		escaped, source bool                                   // text was escaped; source text was written
	)
	for i := range doc.Messages {
		m := &doc.Messages[i]
		roleTag, ok := roleTags[m.Role]
		switch {
		case m.Disabled:
			fail(i, m, promptfmt.ThingDisabled, "a disabled message (Dotprompt has no such thing)")
		case !ok:
			fail(i, m, promptfmt.ThingRole, fmt.Sprintf("the role %q (Dotprompt's are system, user, model and tool)", m.Role))
		}
		if m.Name != "" {
			fail(i, m, promptfmt.ThingName, fmt.Sprintf("the name %q (a Dotprompt message has none)", m.Name))
		}
		if len(m.Metadata) > 0 {
			fail(i, m, promptfmt.ThingMetadata, "message metadata (a Dotprompt message has none)")
		}
		if !hasContent(m) {
			fail(i, m, promptfmt.ThingMessages, "a message with no text but white space (Dotprompt skips it)")
			continue
		}
		first := i == 0 && m.Role == "user" && bare && m.Content[0].Kind == promptfmt.KindText && !startsSpace(m.Content[0].Value)
		if !first {
			items = append(items, item{tag: roleTag})
		}
		for j, p := range m.Content {
			last := i == len(doc.Messages)-1 && j == len(m.Content)-1
			switch p.Kind {
			case promptfmt.KindText:
				if j > 0 && m.Content[j-1].Kind == promptfmt.KindText {
					fail(i, m, promptfmt.ThingText, "text parts side by side (Dotprompt reads them back as one)")
				}
				if strings.TrimSpace(p.Value) == "" {
					e := fail(i, m, promptfmt.ThingPart, "a text part of white space only beside media (Dotprompt drops it)")
					e.Part = j
					continue
				}
				it := item{text: p.Value}
				if l.isSource(p.Value) {
					source = true
					it.strip = l.stripOf(i, j, p.Value)
				} else {
					it.plain = true
					if strings.Contains(p.Value, markerText) {
						fail(i, m, promptfmt.ThingText, fmt.Sprintf("%q in text (Dotprompt's runtimes split what a template renders at these markers; no escape keeps them text)", markerText))
					}
					if strings.ContainsAny(p.Value, `{}\`) {
						escaped = true
						it.text = escape(p.Value)
					}
				}
				if last && frontMatter && strings.TrimRightFunc(p.Value, unicode.IsSpace) != p.Value {
					e := fail(i, m, promptfmt.ThingText, "white space at the end of the file's last text (Dotprompt trims the body of a file with front matter)")
					if len(m.Content) == 1 {
						near := strings.TrimRightFunc(p.Value, unicode.IsSpace)
						e.Nearest = &near
					}
				}
				items = append(items, it)
			case promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile:
				if why := mediaProblem(p); why != "" {
					e := fail(i, m, promptfmt.ThingPart, why)
					e.Part = j
					continue
				}
				tag := `media url="` + p.Value + `"`
				if p.MediaType != "" {
					tag += ` contentType="` + p.MediaType + `"`
				}
				items = append(items, item{tag: tag})
			default:
				e := fail(i, m, promptfmt.ThingPart, fmt.Sprintf("a %s part (Dotprompt's messages hold text and media)", p.Kind))
				e.Part = j
			}
		}
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	writeItems(&b, items, nl("\n"))
	if frontMatter && !strings.HasSuffix(b.String(), "\n") {
		b.WriteString(nl("\n")) // trimmed when read
	}
	out := b.String()
	if escaped && !source {
		if err := rendersBack(doc, out); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, out)
	return err
}

// header is the licence header, lines of "#" comments and blanks that
// Parse keeps as doc's Dotprompt comment before its front matter, as
// written; any other Dotprompt comment, or one with no front matter
// after it (where it would be the template's text), is refused.
func header(doc *promptfmt.Document, meta map[string]any, fail func(int, *promptfmt.Message, promptfmt.Thing, string) *promptfmt.UnsupportedError) string {
	out := ""
	for i, c := range doc.Comments {
		if c.Format != format {
			continue // CommentErrors
		}
		why := ""
		switch {
		case c.Message != 0 || c.Part != -1 || out != "":
			why = "a Dotprompt file has comments only before its front matter"
		case len(meta) == 0:
			why = "a header of # lines needs front matter after it (else it is the template's text)"
		case !isHeader(c.Text):
			why = `a header is lines of "#" comments and blanks`
		}
		if why != "" {
			e := fail(-1, nil, promptfmt.ThingComment, fmt.Sprintf("the comment %q: %s", lines.First(c.Text), why))
			e.Line, e.Part = c.Line, i
			continue
		}
		out = c.Text + "\n"
	}
	return out
}

// isHeader: every line of s starts with "#" or is blank.
func isHeader(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if !strings.HasPrefix(line, "#") && strings.Trim(line, " \t") != "" {
			return false
		}
	}
	return true
}

// markerText starts the markers Dotprompt's helpers render to
// (<<<dotprompt:role:user>>>...), which its runtimes split a rendered
// template at.
const markerText = "<<<dotprompt:"

// item is a piece of a file's body: a tag (its inside, without braces) or
// a text as written.
type item struct {
	tag  string
	text string
	// plain: text that is not template source (escaped). strip: how the
	// markers beside source text stripped it, as read.
	plain bool
	strip strip
}

// writeItems writes the tags and texts of a body. Plain text goes on
// lines of its own: a tag before it is written "~}}" and a line break,
// one after it a line break and "{{~", which strip those line breaks
// (Handlebars' white space control), where the text does not start or
// end with white space (which "~" would strip too: Unicode's, as
// handlebars.js reads \s). That also parts a text ending with "{"
// ("{{{" would open a triple stash) or a backslash (it would escape the
// tag), or starting with "}" ("}}}"), from the tag. Source text has the
// stripping markers it was read with, and the white space they strip; one
// that ends with "{" or starts with "}" beside a marker it was not read
// beside (its document was edited) is parted by a space alike.
func writeItems(b *strings.Builder, items []item, nl string) {
	for k, it := range items {
		if it.tag == "" {
			b.WriteString(it.text)
			continue
		}
		open, close, after := "{{", "}}", "" // after: what close strips
		if k > 0 && items[k-1].tag == "" {
			prev := items[k-1]
			switch {
			case prev.strip.right:
				b.WriteString(prev.strip.rws)
				open = "{{~"
			case prev.plain && !endsSpace(prev.text):
				b.WriteString(nl)
				open = "{{~"
			case strings.HasSuffix(prev.text, "{"):
				b.WriteByte(' ')
				open = "{{~"
			}
		}
		if k+1 < len(items) && items[k+1].tag == "" {
			next := items[k+1]
			switch {
			case next.strip.left:
				close, after = "~}}", next.strip.lws
			case next.plain && !startsSpace(next.text):
				close, after = "~}}", nl
			case strings.HasPrefix(next.text, "}"):
				close, after = "~}}", " "
			}
		}
		b.WriteString(open) // piece by piece: no concatenation made for each tag
		b.WriteString(it.tag)
		b.WriteString(close)
		b.WriteString(after)
	}
}

// rendersBack checks that the file out, loaded and rendered, gives the
// document's messages: a last guard that escaping missed no case.
func rendersBack(doc *promptfmt.Document, out string) error {
	unlimited := promptfmt.Limits(promptfmt.TemplateLimits{MaxOutput: -1, MaxSource: -1, MaxSteps: -1, MaxDepth: -1, MaxBytes: -1})
	var got []promptfmt.Message
	tpl, err := Load([]byte(out), unlimited)
	if err == nil {
		var r *promptfmt.Document
		if r, err = tpl.Render(context.Background(), nil, unlimited); err == nil {
			got = r.Messages
		}
	}
	if err != nil {
		return &promptfmt.UnsupportedError{Format: format, Index: -1, What: "the written file does not render: " + err.Error()}
	}
	if promptfmt.EqualMessages(got, doc.Messages) {
		return nil
	}
	for i, m := range doc.Messages {
		if i >= len(got) || !promptfmt.EqualMessages(got[i:i+1], doc.Messages[i:i+1]) {
			e := &promptfmt.UnsupportedError{Format: format, Index: i, Line: m.Line, Thing: promptfmt.ThingText, What: "the message does not render the same"}
			if i < len(got) {
				e.What += fmt.Sprintf(": %q comes back as %q", m.Text(), got[i].Text())
			}
			return e
		}
	}
	return &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMessages, What: fmt.Sprintf("the messages do not render the same (%d, not %d)", len(got), len(doc.Messages))}
}

// startsSpace and endsSpace: s starts (ends) with white space, which
// the trimming of a body with front matter or a marker's "~" would take:
// Unicode's, and the byte order mark that handlebars.js's \s counts too.
func startsSpace(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return s != "" && isSpaceRune(r)
}

func endsSpace(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return s != "" && isSpaceRune(r)
}

func isSpaceRune(r rune) bool { return unicode.IsSpace(r) || r == '\uFEFF' }

// hasContent reports whether m holds something Dotprompt keeps: text that
// is not white space, or a media part.
func hasContent(m *promptfmt.Message) bool {
	for _, p := range m.Content {
		if p.Kind != promptfmt.KindText || strings.TrimSpace(p.Value) != "" {
			return true
		}
	}
	return false
}

// escape returns text written so that Handlebars prints it as it is:
// each "{{" as "\{{" (the lexer takes the "{" after it as text too); a
// "{{" after k backslashes as those, one more and an empty comment, then
// "\{{" (k+1 backslashes before a tag print k). A "}" or "}}" outside a
// tag is text already.
func escape(text string) string {
	var b strings.Builder
	for {
		i := strings.Index(text, "{{")
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		k := 0
		for k < i && text[i-1-k] == '\\' {
			k++
		}
		b.WriteString(text[:i])
		if k > 0 {
			b.WriteString(`\{{!}}`)
		}
		b.WriteString(`\{{`)
		text = text[i+2:]
	}
}

// mediaProblem says why a media part cannot be a media helper, or "".
func mediaProblem(p promptfmt.ContentPart) string {
	switch {
	case p.StrayField() != "" || p.Detail != "" || p.ID != "" || p.Filename != "":
		f := p.StrayField()
		if f == "" {
			f = map[bool]string{true: "detail", false: "id or filename"}[p.Detail != ""]
		}
		return fmt.Sprintf("a %s part's %s (Dotprompt's media helper takes a url and a content type)", p.Kind, f)
	case !strings.Contains(p.Value, ":"):
		return fmt.Sprintf("a %s part holding data, not a URL (Dotprompt's media helper takes a url)", p.Kind)
	case strings.ContainsAny(p.Value+p.MediaType, "\"'\\<> \t\r\n\f\v"):
		// Quotes and backslashes would end or escape the helper's
		// string; white space splits the runtime's media marker, and
		// angle brackets could end or start one.
		return fmt.Sprintf("a %s part whose url or content type holds a quote, backslash, angle bracket or white space", p.Kind)
	case mediaKind(p.Value, p.MediaType) != p.Kind:
		return fmt.Sprintf("a %s part with the content type %q (Dotprompt would read it as a %s)", p.Kind, p.MediaType, mediaKind(p.Value, p.MediaType))
	}
	return ""
}
