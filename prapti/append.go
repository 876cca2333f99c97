package prapti

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// RoleCompletion is the role of a text completion: Append adds its text
// as it is, with no heading, continuing the file's last line.
const RoleCompletion = "completion"

// Append returns existing with msgs added the way upstream adds a reply
// to a conversation file: before each heading the newlines that make it
// start a line after at least one blank line (none in an empty file), the
// heading, a blank line, then the text stripped of surrounding white space
// and a line feed (only the blank line when there is no text). A message of
// role completion is added raw. To end with the prompt for the next turn,
// pass NextPrompt(existing) last.
//
// Each message reads back as exactly one message with exactly its text,
// whatever the text holds: lines that would read as a heading or a
// configuration line, or open a code fence or an HTML block that would
// swallow what follows, get a backslash that Parse removes, as Write
// escapes them (see the package documentation). Line ends are written as
// the file's last line ends (LF, CRLF or CR; LF in a file without one),
// whatever the text's, and the white space around the text is trimmed, as
// Parse reads any Prapti file. What a Prapti message cannot hold is an error naming it
// (promptfmt.UnsupportedError): parts other than text (images, tool
// calls), metadata, more than one text part, a role or name that is not
// letters, digits and _ (a role in lower case). Append reads the result
// back and returns an error rather than a file in which existing or msgs
// read otherwise (existing ending in a fence that is never closed
// swallows what is added), or an error of Parse for existing.
//
// Append takes Parse's options: promptfmt.File names existing on the
// errors Parse returns for it; an option of another format is an error.
func Append(existing []byte, msgs []promptfmt.Message, opts ...promptfmt.Option) ([]byte, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	var errs []error
	for i := range msgs {
		errs = append(errs, appendable(i, &msgs[i])...)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	before, err := c.Finish(parseFile(existing))
	if err != nil {
		return nil, err
	}
	// What is added is laid out with LF line ends after the file read
	// with LF line ends (lf), as Parse reads it, then written with the
	// file's own.
	out, lf := bytes.Clone(existing), []byte(lines.ToLF(string(existing)))
	eol := lineEnd(existing)
	var add []byte
	for i := range msgs {
		m := &msgs[i]
		text := lines.ToLF(m.Text())
		add = add[:0]
		if m.Role == RoleCompletion {
			add = append(add, escape(text)...)
		} else {
			add = append(add, separator(lf)...)
			add = append(add, "### "...)
			if m.Disabled {
				add = append(add, "//"...)
			}
			add = append(add, "@"+m.Role...)
			if m.Name != "" {
				add = append(add, "/"+m.Name...)
			}
			add = append(add, ":\n"...)
			if t := trimSpace(text); t != "" {
				add = append(add, '\n')
				add = append(add, escape(t)...)
			}
			add = append(add, '\n')
		}
		lf = append(lf, add...)
		if eol == "\n" {
			out = append(out, add...)
		} else {
			out = append(out, bytes.ReplaceAll(add, []byte("\n"), []byte(eol))...)
		}
		after, err := parseFile(out)
		if err != nil {
			// existing parsed: the message is at fault (blocks nested
			// too deep).
			return nil, &promptfmt.UnsupportedError{Format: format, Index: i, Line: m.Line, Thing: promptfmt.ThingText,
				What: fmt.Sprintf("text that does not read back: %v", err)}
		}
		if err := readsBackAppended(i, m, text, before, after); err != nil {
			return nil, err
		}
		before = after
	}
	return out, nil
}

// escape is text with a backslash before each line that needs one, as
// Write escapes a message's text.
func escape(text string) string {
	body, _, _, _ := messageBody(text, nil, 0)
	if strings.HasSuffix(text, "\n") {
		body += "\n" // messageBody's lines end before it
	}
	return body
}

// appendable reports what of message i Append cannot write.
func appendable(i int, m *promptfmt.Message) []error {
	var errs []error
	bad := func(t promptfmt.Thing, msg string, args ...any) *promptfmt.UnsupportedError {
		e := &promptfmt.UnsupportedError{Format: format, Index: i, Line: m.Line, What: fmt.Sprintf(msg, args...), Thing: t}
		errs = append(errs, e)
		return e
	}
	if m.Role == RoleCompletion {
		if m.Name != "" {
			bad(promptfmt.ThingName, "a completion with a name (it is added as raw text)")
		}
		if m.Disabled {
			bad(promptfmt.ThingDisabled, "a disabled completion (it is added as raw text)")
		}
	} else {
		checkHeading(m, bad)
	}
	texts := checkParts(m, bad)
	for _, p := range m.Content {
		if p.Kind == promptfmt.KindText && !utf8.ValidString(p.Value) {
			bad(promptfmt.ThingText, "text that is not UTF-8")
		}
	}
	if texts > 1 {
		bad(promptfmt.ThingText, "%d text parts (a Prapti message is one text)", texts)
	}
	for k := range m.Metadata {
		bad(promptfmt.ThingMetadata, "message metadata %q (an appended message has none)", excerpt(k)).Key = k
	}
	return errs
}

// readsBackAppended checks that after, the file with message i (m, with
// text) appended, reads as before and m: the messages of before the same,
// and one more message with m's role, name and text; a completion only
// adds text to the last message.
func readsBackAppended(i int, m *promptfmt.Message, text string, before, after *promptfmt.Document) error {
	fail := func(what string) error {
		return &promptfmt.UnsupportedError{Format: format, Index: i, Line: m.Line, Thing: promptfmt.ThingOther,
			What: what + " once appended, so nothing is appended"}
	}
	old, got := withoutLines(before.Messages), withoutLines(after.Messages)
	if m.Role == RoleCompletion {
		t := trimSpace(text)
		switch {
		case len(old) == 0 && t == "" && len(got) == 0:
			return nil
		case len(old) == 0 && len(got) == 1 && got[0].Role == HeadRole && got[0].Text() == t && got[0].Metadata == nil:
			return nil
		case len(got) != len(old) || len(old) == 0:
			return fail("the completion reads as other messages")
		}
		last, prev := got[len(got)-1], old[len(old)-1]
		if !promptfmt.EqualMessages(old[:len(old)-1], got[:len(got)-1]) || last.Role != prev.Role || last.Name != prev.Name ||
			last.Disabled != prev.Disabled || fmt.Sprint(last.Metadata) != fmt.Sprint(prev.Metadata) ||
			!strings.HasPrefix(last.Text(), prev.Text()) || !strings.HasSuffix(last.Text(), t) {
			return fail("the completion does not read as text added to the last message")
		}
		return nil
	}
	want := promptfmt.Message{Role: m.Role, Name: m.Name, Disabled: m.Disabled, Content: []promptfmt.ContentPart{promptfmt.Text(trimSpace(text))}}
	if len(got) != len(old)+1 || !promptfmt.EqualMessages(old, got[:len(old)]) {
		return fail("the file's messages read otherwise (does it end inside a code fence or HTML block that is never closed?)")
	}
	if !promptfmt.EqualMessages([]promptfmt.Message{want}, got[len(old):]) {
		return fail("the message reads otherwise")
	}
	return nil
}

// lineEnd is the line end src uses, for what Append adds to it: that of
// its last line (LF, CRLF or a lone CR), or LF if it has none.
func lineEnd(src []byte) string {
	i := bytes.LastIndexAny(src, "\r\n")
	switch {
	case i < 0:
		return "\n"
	case src[i] == '\r':
		return "\r"
	case i > 0 && src[i-1] == '\r':
		return "\r\n"
	}
	return "\n"
}

// separator is what goes before a heading appended to b: a line feed if
// the last line has none, then one more unless the last line is blank to
// CommonMark (spaces and tabs only). Upstream counts a line of any white
// space blank, but a line of U+00A0 or U+001C continues an HTML block
// that would swallow the heading.
func separator(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	sep := ""
	if b[len(b)-1] != '\n' {
		sep = "\n"
	} else {
		b = b[:len(b)-1]
	}
	if last := b[bytes.LastIndexByte(b, '\n')+1:]; len(bytes.Trim(last, " \t")) > 0 {
		sep += "\n"
	}
	return sep
}

// NextPrompt is the message upstream adds after a reply, ready for the
// user's next turn: role user, named like the last user message in src
// (no name when src does not parse). It takes no options: see the
// package documentation.
func NextPrompt(src []byte) promptfmt.Message {
	m := promptfmt.Message{Role: "user"}
	if doc, err := parseFile(src); err == nil {
		for _, x := range doc.Messages {
			if x.Role == "user" {
				m.Name = x.Name
			}
		}
	}
	return m
}
