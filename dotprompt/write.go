package dotprompt

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/promptkind"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// markers maps the model's roles to Dotprompt's role markers.
var markers = map[string]string{"user": "user", "assistant": "model", "system": "system", "tool": "tool"}

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
	frontMatter := len(doc.Meta) > 0
	if frontMatter {
		for k, v := range doc.Meta {
			if s, _ := v.(string); promptFileKey.MatchString(k) || k == "id" && promptkind.Of([]byte("---\nid: "+s+"\n---\n")) == promptkind.PromptFile {
				e := fail(-1, nil, promptfmt.ThingMeta, fmt.Sprintf("the key %s makes a .prompt file a PromptCritical prompt file", k))
				e.Key = k
			}
		}
		y, err := yamlmeta.Encode(doc.Meta, doc.MetaNode)
		if err != nil {
			fail(-1, nil, promptfmt.ThingMeta, "front matter: "+err.Error())
		}
		b.WriteString("---\n" + y + "---\n")
	}
	// The first user message needs no marker when the front matter alone
	// says the file is Dotprompt's and the trimming of the body cannot
	// take its leading white space.
	bare := frontMatter && promptkind.Of([]byte(b.String())) == promptkind.Dotprompt
	l, _ := doc.Layout.(*layout)
	for i := range doc.Messages {
		m := &doc.Messages[i]
		marker, ok := markers[m.Role]
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
			b.WriteString(`{{role "` + marker + `"}}`)
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
				t := p.Value
				if !l.isSource(t) {
					var why string
					t, why = escape(t, !last)
					if why != "" {
						fail(i, m, promptfmt.ThingText, why)
					}
				}
				// Source text too: read first in a file, it had no tag
				// before it.
				if strings.HasPrefix(t, "}") && !(first && j == 0) {
					fail(i, m, promptfmt.ThingText, `a "}" at the start of the text (after the tag before it, Handlebars would read "}}}")`)
				}
				if last && frontMatter && strings.TrimRightFunc(t, isSpaceRune) != t {
					e := fail(i, m, promptfmt.ThingText, "white space at the end of the file's last text (Dotprompt trims the body of a file with front matter)")
					if len(m.Content) == 1 {
						near := strings.TrimRightFunc(p.Value, isSpaceRune)
						e.Nearest = &near
					}
				}
				b.WriteString(t)
			case promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile:
				if why := mediaProblem(p); why != "" {
					e := fail(i, m, promptfmt.ThingPart, why)
					e.Part = j
					continue
				}
				b.WriteString(`{{media url="` + p.Value + `"`)
				if p.MediaType != "" {
					b.WriteString(` contentType="` + p.MediaType + `"`)
				}
				b.WriteString("}}")
			default:
				e := fail(i, m, promptfmt.ThingPart, fmt.Sprintf("a %s part (Dotprompt's messages hold text and media)", p.Kind))
				e.Part = j
			}
		}
	}
	if frontMatter && !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n") // trimmed when read
	}
	if len(errs) > 0 {
		return errors.Join(errs...)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func isSpaceRune(r rune) bool { return r < 0x80 && isSpace(byte(r)) }

func startsSpace(s string) bool { return s != "" && isSpace(s[0]) }

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

// escape returns text written so that Handlebars prints it: each "{{" as
// "\{{". followed says a tag is written right after it. why, when not "",
// is what no escape can write.
func escape(text string, followed bool) (out, why string) {
	switch {
	case strings.Contains(text, "{{"):
		// Escaped ("\{{"), the text reads back as template source; until
		// this package renders a file (and so can give "{{" back), it is
		// refused rather than read back changed.
		return text, `"{{" in text that is not this file's template (rendering Dotprompt files, which would give it back, is not built yet)`
	case strings.Contains(text, `\{{`):
		return text, `a backslash before "{{" (Handlebars reads "\{{" as an escape, and "\\{{" as a tag)`
	case followed && strings.HasSuffix(text, `\`):
		return text, "a backslash at the end of the text (it would escape the tag after it)"
	case followed && strings.HasSuffix(text, "{"):
		return text, `a "{" at the end of the text (with the tag after it, Handlebars would read "{{{")`
	}
	return strings.ReplaceAll(text, "{{", `\{{`), ""
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
	case strings.ContainsAny(p.Value+p.MediaType, "\"' \t\r\n"):
		return fmt.Sprintf("a %s part whose url or content type holds a quote or white space", p.Kind)
	case mediaKind(p.MediaType) != p.Kind:
		return fmt.Sprintf("a %s part with the content type %q (Dotprompt would read it as a %s)", p.Kind, p.MediaType, mediaKind(p.MediaType))
	}
	return ""
}
