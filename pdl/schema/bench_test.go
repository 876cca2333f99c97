package schema

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// prose returns about n bytes of model reasoning: sentences with numbers,
// hyphens, punctuation and a little non-ASCII text, but no brackets.
func prose(n int) string {
	words := []string{"the", "model", "considers", "step", "3", "of", "the", "plan,", "a", "well-known", "approach",
		"that", "costs", "1.5", "units.", "Then", "it", "checks", "gpt-4o", "results", "and", "the", "user's",
		"question:", "why", "did", "the", "roll-out", "stall", "after", "42", "minutes?", "Perhaps", "naïve",
		"caching", "—", "or", "a", "race", "in", "the", "scheduler.", "Let", "me", "think", "again.\n\n"}
	var b strings.Builder
	b.Grow(n + 64)
	for i := 0; b.Len() < n; i++ {
		b.WriteString(words[(i*7)%len(words)])
		b.WriteByte(' ')
	}
	return b.String()
}

var benchAnswer = func() map[string]string {
	reasoning := prose(1 << 20)
	obj := `{"title": "Rollout stalled", "summary": "The canary failed its readiness probe [twice] after 42 minutes.", "keywords": ["canary", "readiness", "probe"], "confidence": 0.82}`
	arr := `[3, 1, 4, 1, 5, 9, 2, 6]`
	list := "- [x] check the probe\n- [ ] roll back\n- [ ] write the postmortem"
	return map[string]string{
		"object":   reasoning + "\n\nAnswer:\n" + obj + "\n",
		"array":    reasoning + "\n\nRanking: " + arr + "\n",
		"code":     reasoning + "\n\n```go\nfunc main() {\n\tprintln(\"hi\")\n}\n```\n",
		"tasklist": reasoning + "\n\n" + list + "\n",
		"bool":     reasoning + "\n\nSo the answer is: true",
	}
}()

var benchSchemas = map[string]string{
	"object":   "{ title: str, summary: str { max: 500 }, keywords: [str] { max: 5 }, confidence: float { min: 0, max: 1 } }",
	"array":    "[int { min: 1, max: 9 }] { max: 10 }",
	"code":     "code",
	"tasklist": "tasklist { max: 5 }",
	"bool":     "bool",
}

// BenchmarkExtract extracts from a ~1 MB answer: prose, then one value.
func BenchmarkExtract(b *testing.B) {
	for _, name := range []string{"object", "array", "code", "tasklist", "bool"} {
		b.Run(name, func(b *testing.B) {
			s := mustParse(b, benchSchemas[name])
			in := benchAnswer[name]
			if _, err := s.Extract(in); err != nil {
				b.Fatal(err)
			}
			b.SetBytes(int64(len(in)))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := s.Extract(in); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkExtractBaseline is what the same input costs without us: a
// plain byte loop that looks at every byte, and json.Valid over the answer
// written as one JSON string.
func BenchmarkExtractBaseline(b *testing.B) {
	in := benchAnswer["object"]
	b.Run("byteloop", func(b *testing.B) {
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		n := 0
		for b.Loop() {
			for i := 0; i < len(in); i++ {
				if special[in[i]] {
					n++
				}
			}
		}
		_ = n
	})
	b.Run("json.Valid", func(b *testing.B) {
		quoted := []byte(strconv.Quote(in))
		b.SetBytes(int64(len(in)))
		b.ReportAllocs()
		for b.Loop() {
			if !json.Valid(quoted) {
				b.Fatal("invalid")
			}
		}
	})
}

// BenchmarkParse parses a realistic schema.
func BenchmarkParse(b *testing.B) {
	src := benchSchemas["object"]
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse([]byte(src)); err != nil {
			b.Fatal(err)
		}
	}
}
