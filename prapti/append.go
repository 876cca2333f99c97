package prapti

import (
	"bytes"
	"strings"

	"github.com/promptfmt/promptfmt"
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
func Append(existing []byte, msgs ...promptfmt.Message) []byte {
	out := bytes.Clone(existing)
	for _, m := range msgs {
		if m.Role == RoleCompletion {
			out = append(out, m.Text()...)
			continue
		}
		out = append(out, separator(out)...)
		out = append(out, "### "...)
		if m.Disabled {
			out = append(out, "//"...)
		}
		out = append(out, "@"+m.Role...)
		if m.Name != "" {
			out = append(out, "/"+m.Name...)
		}
		out = append(out, ":\n"...)
		if t := strings.TrimSpace(m.Text()); t != "" {
			out = append(out, '\n')
			out = append(out, t...)
		}
		out = append(out, '\n')
	}
	return out
}

// separator is what goes before a heading appended to b: a line feed if
// the last line has none, then one more unless the last line is blank
// (white space only).
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
	if last := b[bytes.LastIndexByte(b, '\n')+1:]; len(bytes.TrimSpace(last)) > 0 {
		sep += "\n"
	}
	return sep
}

// NextPrompt is the message upstream adds after a reply, ready for the
// user's next turn: role user, named like the last user message in src.
func NextPrompt(src []byte) promptfmt.Message {
	m := promptfmt.Message{Role: "user"}
	if doc, err := Parse(src); err == nil {
		for _, x := range doc.Messages {
			if x.Role == "user" {
				m.Name = x.Name
			}
		}
	}
	return m
}
