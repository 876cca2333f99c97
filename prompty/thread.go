package prompty

import (
	"cmp"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
)

const placeholderPrefix = "__PROMPTY_THREAD_"

// slot is what a placeholder stands for: a thread, spliced in as messages,
// or a media part, which stays in its message (none when the input was
// not given: the placeholder goes away).
type slot struct {
	thread []promptfmt.Message
	part   *promptfmt.ContentPart
	media  bool
	owned  bool // thread is ours to hand out once without a copy
}

// expand replaces each placeholder (a key of slots) in a message's text.
// A thread ends the message: the text before it stays a message of the
// containing role, name and metadata, then come the thread's messages with
// their own roles, then a message with the text after it. A media part
// stays in the message between the text before and after it. Text pieces
// lose their leading and trailing empty lines and are left out when empty,
// as is a message left with no content. Placeholders are matched by exact
// string, the longest key first, so nonces of any hex length work; text
// from a thread is never searched again.
func expand(msgs []promptfmt.Message, slots map[string]slot) []promptfmt.Message {
	keys := make([]string, 0, len(slots))
	for k := range slots {
		if strings.HasPrefix(k, placeholderPrefix) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return msgs
	}
	slices.SortFunc(keys, func(a, b string) int { return cmp.Compare(len(b), len(a)) })

	out := make([]promptfmt.Message, 0, len(msgs))
	for _, m := range msgs {
		if len(m.Content) != 1 || m.Content[0].Kind != promptfmt.KindText {
			out = append(out, m)
			continue
		}
		text, seg, found := m.Content[0].Value, 0, false
		var parts []promptfmt.ContentPart
		for i := 0; ; {
			j := strings.Index(text[i:], placeholderPrefix)
			if j < 0 {
				break
			}
			i += j
			key := matchKey(text[i:], keys)
			if key == "" {
				i += len(placeholderPrefix)
				continue
			}
			found = true
			parts = appendText(parts, text[seg:i])
			s := slots[key]
			if s.media {
				if s.part != nil {
					parts = append(parts, *s.part)
				}
			} else {
				out = appendPiece(out, m, parts)
				parts = nil
				if s.owned {
					out = append(out, s.thread...)
					s.owned = false
					slots[key] = s
				} else {
					for _, t := range s.thread {
						out = append(out, t.Clone())
					}
				}
			}
			i += len(key)
			seg = i
		}
		if !found {
			out = append(out, m)
			continue
		}
		out = appendPiece(out, m, appendText(parts, text[seg:]))
	}
	return out
}

func matchKey(s string, keys []string) string {
	for _, k := range keys {
		if strings.HasPrefix(s, k) {
			return k
		}
	}
	return ""
}

// appendText appends text without its leading and trailing empty lines,
// unless nothing is left.
func appendText(parts []promptfmt.ContentPart, text string) []promptfmt.ContentPart {
	if text = strings.Trim(text, "\n"); text != "" {
		parts = append(parts, promptfmt.Text(text))
	}
	return parts
}

// appendPiece appends a copy of m holding parts, unless there are none.
func appendPiece(out []promptfmt.Message, m promptfmt.Message, parts []promptfmt.ContentPart) []promptfmt.Message {
	if len(parts) == 0 {
		return out
	}
	p := m.Clone()
	p.Content = parts
	return append(out, p)
}
