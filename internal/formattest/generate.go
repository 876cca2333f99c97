package formattest

import (
	"math"
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
// Texts. WithRequest gives it settings.
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

// schemas are the JSON Schemas Request gives tools and outputs: each some
// format can hold and others cannot, and hostile ones no format holds.
var schemas = []map[string]any{
	// A PDL schema's ({ n: int { min: 1 } }), not a property list's.
	{"type": "object", "properties": map[string]any{"n": map[string]any{"type": "integer", "minimum": int64(1)}},
		"required": []any{"n"}, "additionalProperties": false},
	// A Prompty property list's, not a PDL schema's.
	{"type": "object", "properties": map[string]any{
		"city": map[string]any{"type": "string", "description": "City"},
		"unit": map[string]any{"type": []any{"string", "null"}, "enum": []any{"c", "f", nil}},
		"tags": map[string]any{"type": "array", "items": map[string]any{"type": "string"}, "examples": []any{[]any{"a"}}},
	}, "required": []any{"city"}},
	{"type": "object", "properties": map[string]any{}},
	// A PDL array, not an object.
	{"type": "array", "items": map[string]any{"type": "string", "maxLength": int64(10)}, "maxItems": int64(3)},
	{"type": "object"},
	{"type": "object", "properties": map[string]any{"x": map[string]any{"type": "string", "format": "date"}}},
	// Hostile: not finite, not the model's types, nested past every bound.
	{"type": "number", "maximum": math.NaN()},
	{"type": "integer", "minimum": 1}, // an int, not an int64
	deepSchema(600),
}

func deepSchema(n int) map[string]any {
	s := map[string]any{"type": "string"}
	for range n {
		s = map[string]any{"type": "object", "properties": map[string]any{"a": s}, "required": []any{"a"}, "additionalProperties": false}
	}
	return s
}

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

// WithRequest sets doc's Request to a random one, or none (one time in
// three), with lines after the document's. Its own generator r leaves the
// documents Document makes from another alone.
func WithRequest(doc *promptfmt.Document, r *rand.Rand) *promptfmt.Document {
	doc.Request = promptfmt.Request{}
	if r.IntN(3) > 0 {
		line := 1
		if n := len(doc.Messages); n > 0 {
			line = doc.Messages[n-1].Line + 3 + strings.Count(doc.Messages[n-1].Text(), "\n")
		}
		doc.Request = Request(r, line)
	}
	return doc
}

// Request returns a random request whose every field may be set, from
// line on (Lines holds each field's), with values a format holds and
// hostile ones: NaN and infinities, integers past 2^53, text with line
// breaks, markers and ${env:} references, text that is not UTF-8, tools
// without a name, tool choices no provider knows, schemas of every kind
// above.
func Request(r *rand.Rand, line int) promptfmt.Request {
	var q promptfmt.Request
	maybe := func() bool { return r.IntN(3) == 0 }
	f64 := func(xs ...float64) *float64 { v := pick(r, xs...); return &v }
	i64 := func(xs ...int64) *int64 { v := pick(r, xs...); return &v }
	if maybe() {
		q.Model = pick(r, "gpt-4o", "claude-sonnet-4", "a b", "two\nlines", "${env:MODEL}", ";user", "\xff", "{{ model }}")
	}
	if maybe() {
		q.Temperature = f64(0.2, 0, 1, 2.5e-7, math.NaN(), math.Inf(1), -1e308)
	}
	if maybe() {
		q.TopP = f64(0.9, 1)
	}
	if maybe() {
		q.TopK = i64(40, -1, math.MaxInt64)
	}
	if maybe() {
		q.MaxTokens = i64(512, 0, 1<<60)
	}
	if maybe() {
		q.Stop = pick(r, []string{}, []string{"END"}, []string{"\n", ";user", ""}, []string{"\xff"})
	}
	if maybe() {
		q.Seed = i64(7, math.MinInt64)
	}
	if maybe() {
		q.FrequencyPenalty = f64(0.5, -2)
	}
	if maybe() {
		q.PresencePenalty = f64(-0.5, math.Inf(-1))
	}
	if maybe() {
		q.Tools = []promptfmt.Tool{}
		for range r.IntN(3) {
			t := promptfmt.Tool{Name: pick(r, "get_weather", "lookup", "", "a b"), Strict: r.IntN(2) == 0}
			if r.IntN(2) == 0 {
				t.Description = pick(r, "Weather now", "two\nlines", "${file:x}")
			}
			if r.IntN(4) > 0 {
				t.Parameters = pick(r, schemas...)
			}
			q.Tools = append(q.Tools, t)
		}
	}
	if maybe() {
		q.ToolChoice = pick(r, &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceAuto}, &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceNone},
			&promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired, Tool: "lookup"}, &promptfmt.ToolChoice{Mode: "any"},
			&promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceAuto, Tool: "lookup"})
	}
	if maybe() {
		o := &promptfmt.Output{Schema: pick(r, schemas...)}
		switch r.IntN(4) {
		case 0:
			o.Name, o.Description, o.Strict = "answer", "The answer.", true
		case 1:
			o.Schema = nil // any JSON object
		}
		q.Output = o
	}
	for _, f := range q.Fields() {
		if q.Lines == nil {
			q.Lines = map[string]int{}
		}
		q.Lines[f] = line
		line++
	}
	return q
}
