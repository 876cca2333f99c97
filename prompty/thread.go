package prompty

import (
	"cmp"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
)

const placeholderPrefix = "__PROMPTY_THREAD_"

// expandThreads replaces each placeholder (a key of threads) in a message's
// text by the thread's messages. Text before and after a placeholder stays
// a message of the containing role, name and metadata, trimmed of empty
// lines, and is left out when empty. Placeholders are matched by exact
// string, the longest key first, so nonces of any hex length work; text from
// a thread is never searched again.
func expandThreads(msgs []promptfmt.Message, threads map[string][]promptfmt.Message) []promptfmt.Message {
	keys := make([]string, 0, len(threads))
	for k := range threads {
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
			out = appendPiece(out, m, text[seg:i])
			for _, t := range threads[key] {
				out = append(out, t.Clone())
			}
			i += len(key)
			seg = i
		}
		if !found {
			out = append(out, m)
			continue
		}
		out = appendPiece(out, m, text[seg:])
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

// appendPiece appends a copy of m holding text, unless the text is empty
// once its leading and trailing empty lines are gone.
func appendPiece(out []promptfmt.Message, m promptfmt.Message, text string) []promptfmt.Message {
	text = strings.Trim(text, "\n")
	if text == "" {
		return out
	}
	p := m.Clone()
	p.Content = []promptfmt.ContentPart{promptfmt.Text(text)}
	return append(out, p)
}
