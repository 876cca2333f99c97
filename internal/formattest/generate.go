package formattest

import (
	"math/rand/v2"
	"strings"

	"github.com/promptfmt/promptfmt"
)

// Texts are pieces of message text that some format reads as structure,
// template syntax or white space it trims.
var Texts = []string{
	"hello", "two words", "", " ", "\n", "a\nb", "line\r\nbreak", "lone\rcr", "  padded  ", "tab\there",
	"### @system:", "% x = 1", ";user", ";;x", "<|user|>", "user:", "system: hi", "---", "```", "{{ order_id }}",
	"{% if x %}y{% endif %}", "{# note #}", "{{{ raw }}}", "<!-- c -->", "&lt;", "\\escaped", "ümlaut ✓", "\u2028sep",
	"\\{{ x }}", "}}", "{{/x}}", "{{! c }}", "{", "}", "\\", "<<<", ">>>",
}

// Document returns a random document whose every message and metadata key
// has a source line, as a parser gives them: roles common and not, names,
// metadata, disabled messages, images, tool calls, and texts joined from
// Texts.
func Document(r *rand.Rand) *promptfmt.Document {
	roles := []string{"user", "user", "assistant", "system", "developer", "tool", "_head", "narrator"}
	doc := &promptfmt.Document{}
	line := 1
	if r.IntN(3) == 0 {
		doc.Meta = map[string]any{}
		doc.KeyLines = map[string]int{}
		for _, k := range []string{"title", "model", "tags"}[:1+r.IntN(3)] {
			doc.Meta[k] = Texts[r.IntN(len(Texts))]
			doc.KeyLines[k] = line
			line++
		}
	}
	for range 1 + r.IntN(4) {
		m := promptfmt.Message{Role: roles[r.IntN(len(roles))], Line: line}
		line++
		m.TextLine = line
		if r.IntN(4) == 0 {
			m.Name = []string{"Ann", "ops_bot", "Zoë x"}[r.IntN(3)]
		}
		if r.IntN(5) == 0 {
			m.Metadata = map[string]any{"ticket": "T-1"}
			m.KeyLines = map[string]int{"ticket": line}
		}
		m.Disabled = r.IntN(8) == 0
		for range 1 + r.IntN(3) {
			switch r.IntN(6) {
			case 0:
				m.Content = append(m.Content, promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: "aGk=", MediaType: "image/png"})
			case 1:
				m.Content = append(m.Content, promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: `{"a": 1}`, ID: "c1", ToolName: "f"})
			default:
				var words []string
				for range 1 + r.IntN(3) {
					words = append(words, Texts[r.IntN(len(Texts))])
				}
				m.Content = append(m.Content, promptfmt.Text(strings.Join(words, []string{"\n", " ", ""}[r.IntN(3)])))
			}
		}
		line += 2 + strings.Count(m.Text(), "\n")
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

// Flatten returns the errors err joins (errors.Join, however nested), or
// err itself: a writer's refusals one by one.
func Flatten(err error) []error {
	j, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range j.Unwrap() {
		out = append(out, Flatten(e)...)
	}
	return out
}
