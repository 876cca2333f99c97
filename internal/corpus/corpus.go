// Package corpus builds the realistic conversations that every format's
// benchmarks parse, so that their figures compare: the same messages, each
// format writing them in its own syntax.
package corpus

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/promptfmt/promptfmt"
)

var paragraphs = []string{
	"Could you look at the deployment logs from last night? The rollout stalled at 40% and the on-call engineer rolled it back by hand.",
	"Sure. The canary pods failed their readiness probe after 30s because the new config expects `CACHE_URL`, which is not set in the staging namespace.",
	"Here is the relevant part of the manifest:\n\n```yaml\nenv:\n  - name: CACHE_URL\n    valueFrom:\n      secretKeyRef:\n        name: cache\n        key: url\n```",
	"- check the secret exists\n- re-run the pipeline with `--force`\n- watch the p99 latency for ten minutes",
	"> The release notes say the cache is optional.\n\nThat was true before 2.4; since then the client refuses to start without it.",
	"Thanks! One more thing: what does this error mean?\n\n    panic: runtime error: index out of range [3] with length 3",
	"It means a slice was indexed past its end. In `parseHeader` the loop runs to `len(fields)` inclusive; change `<=` to `<`.",
	"Summarise the incident in three sentences for the status page, in a calm tone, without naming the customer.",
}

var names = []string{"Ross", "Rachel", "ops_bot", "Zoë", "agent"}

// Conversation returns a deterministic conversation of about size bytes of
// text: a system message, then user and assistant turns of one to three
// paragraphs, every third with a name and metadata.
func Conversation(size int) *promptfmt.Document {
	r := rand.New(rand.NewPCG(7, 11))
	doc := &promptfmt.Document{Messages: []promptfmt.Message{
		promptfmt.NewMessage("system", "You are a careful site-reliability assistant.\nAnswer briefly; quote commands exactly."),
	}}
	total := 0
	for i := 0; total < size; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		var parts []string
		for range 1 + r.IntN(3) {
			parts = append(parts, paragraphs[r.IntN(len(paragraphs))])
		}
		m := promptfmt.NewMessage(role, strings.Join(parts, "\n\n"))
		if i%3 == 0 {
			m.Name = names[r.IntN(len(names))]
			m.Metadata = map[string]any{"turn": int64(i), "ticket": fmt.Sprintf("T-%d", 1000+i)}
		}
		total += len(m.Content[0].Value)
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

// sentences are one-line messages of about 120 bytes.
var sentences = []string{
	"Could you look at the deployment logs from last night? The rollout stalled at 40% and on-call rolled it back by hand.",
	"The canary pods failed their readiness probe after 30s because the new config expects CACHE_URL, which staging lacks.",
	"Please summarise the incident in three sentences for the status page, in a calm tone, without naming the customer at all.",
	"It means a slice was indexed past its end: in parseHeader the loop runs to len(fields) inclusive, so change <= to <.",
	"Thanks! One more thing: the p99 latency doubled after the deploy. Is that the cache warming up, or something worse?",
	"Most likely the cache: hit rate starts near zero and climbs over ten minutes. If p99 stays high after that, page me again.",
	"Write a haiku about a pager that goes off at 3am, then explain each line to a new engineer who has never been on call.",
	"Zoë asked whether we can skip the canary for hotfixes. I said no: the canary is what caught this one before customers did.",
}

// Short returns a conversation of about size bytes of text in one-line
// messages of about 120 bytes (150 or so in a file), user and assistant
// in turn, without names or metadata, ending with the user: the
// per-message cost of a parser.
func Short(size int) *promptfmt.Document {
	r := rand.New(rand.NewPCG(3, 5))
	return turns(size, func() string { return sentences[r.IntN(len(sentences))] })
}

// Long returns a conversation of about size bytes of text in messages of
// about 4 KB (20 to 40 paragraphs of Conversation's, with fences,
// lists and quotes), user and assistant in turn, without names or
// metadata, ending with the user: the per-byte cost of a parser.
func Long(size int) *promptfmt.Document {
	r := rand.New(rand.NewPCG(13, 17))
	return turns(size, func() string {
		parts := make([]string, 20+r.IntN(21))
		for i := range parts {
			parts[i] = paragraphs[r.IntN(len(paragraphs))]
		}
		return strings.Join(parts, "\n\n")
	})
}

// turns is user and assistant messages of text() until size bytes, with
// an odd count so that the user has the last word (PDL needs that).
func turns(size int, text func() string) *promptfmt.Document {
	doc := &promptfmt.Document{}
	total := 0
	for i := 0; total < size || i%2 == 0; i++ {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		m := promptfmt.NewMessage(role, text())
		total += len(m.Content[0].Value)
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

// CountLines is the baseline every parser's throughput is set beside: it
// only finds the line breaks of src.
func CountLines(src []byte) int {
	n := 0
	for len(src) > 0 {
		i := bytes.IndexByte(src, '\n')
		if i < 0 {
			return n + 1
		}
		n++
		src = src[i+1:]
	}
	return n
}
