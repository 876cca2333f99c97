package provider

import (
	"bytes"
	"errors"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/stretchr/testify/require"
)

// Random bodies built from the shapes of the providers' docs (valid ones
// and wrong ones, members spelled both ways, extra members) go through
// fuzzBody: what reads is written back as what reads the same.

func pick[T any](r *rand.Rand, xs ...T) T { return xs[r.IntN(len(xs))] }

var propTexts = []any{"hi", "", " ", "a\nb", "<b>&</b>", "é\u2028", "{{ x }}"}

// sometimes adds member k with a value of gen to o, one time in n.
func sometimes(r *rand.Rand, n int, o *object, k string, gen func() any) {
	if r.IntN(n) == 0 {
		o.add(k, gen())
	}
}

func anthropicBody(r *rand.Rand) []byte {
	var body object
	sometimes(r, 2, &body, "model", func() any { return pick(r, "claude-sonnet-4-5", "") })
	sometimes(r, 3, &body, "max_tokens", func() any { return pick[any](r, 1024, 1.0, 512) })
	sometimes(r, 4, &body, "temperature", func() any { return pick[any](r, 0, 0.5, 1.0) })
	sometimes(r, 5, &body, "top_k", func() any { return pick[any](r, 5, 5.0) })
	sometimes(r, 5, &body, "stop_sequences", func() any { return pick[any](r, []any{"END"}, []any{}, []any{"a", "b"}) })
	block := func() any {
		b := object{{"type", "text"}, {"text", pick(r, propTexts...)}}
		sometimes(r, 4, &b, "cache_control", func() any { return object{{"type", "ephemeral"}} })
		return b
	}
	sometimes(r, 2, &body, "system", func() any {
		if r.IntN(2) == 0 {
			return pick(r, propTexts...)
		}
		return []any{block(), block()}[:1+r.IntN(2)]
	})
	msgs := []any{}
	for range r.IntN(5) {
		role := "system" // now and then, which the body does not have
		if r.IntN(20) > 0 {
			role = pick(r, "user", "assistant")
		}
		m := object{{"role", role}}
		content := []any{}
		for range r.IntN(4) {
			k := r.IntN(24)
			if k < 16 && role == "assistant" && k%3 != 0 { // mostly what the role holds
				k = pick(r, 0, 3)
			} else if k < 16 && role == "user" && (k == 3 || k == 10 || k == 11) {
				k = pick(r, 1, 2, 4)
			}
			switch k {
			case 0, 1:
				content = append(content, block())
			case 2, 8, 9:
				src := pick[any](r, object{{"type", "base64"}, {"media_type", pick(r, "image/png", "image/PNG", "text/plain")}, {"data", pick(r, "iVBORw0KGgo=", "iVBORw0KGgo=", "iVBORw0KGgo=", "iVBOR!")}},
					object{{"type", "url"}, {"url", "https://example.com/a.png"}}, object{{"type", "file"}, {"file_id", "file_1"}})
				content = append(content, object{{"type", pick(r, "image", "document")}, {"source", src}})
			case 3, 10, 11:
				b := object{{"type", "tool_use"}, {"id", pick(r, "t1", "t2", "t1", "t2", "")}, {"name", pick(r, "f", "g")},
					{"input", pick[any](r, object{}, object{{"a", 1.0}, {"b", []any{1, math.Copysign(0, -1), "x"}}}, object{{"q", "x"}}, object{}, []any{})}}
				sometimes(r, 4, &b, "caller", func() any { return object{{"type", "direct"}} })
				content = append(content, b)
			case 4, 12, 13:
				b := object{{"type", "tool_result"}, {"tool_use_id", pick(r, "t1", "t2")}}
				sometimes(r, 2, &b, "content", func() any {
					return pick[any](r, pick(r, propTexts...), []any{object{{"type", "text"}, {"text", "r"}}}, []any{})
				})
				sometimes(r, 3, &b, "is_error", func() any { return true })
				content = append(content, b)
			case 5:
				content = append(content, object{{"type", "thinking"}, {"thinking", "hmm"}, {"signature", "s"}})
			default:
				content = append(content, block())
			}
		}
		if r.IntN(3) == 0 && len(content) == 1 {
			m.add("content", pick(r, propTexts...))
		} else {
			m.add("content", content)
		}
		sometimes(r, 6, &m, "id", func() any { return "msg_1" })
		msgs = append(msgs, m)
	}
	body.add("messages", msgs)
	sometimes(r, 3, &body, "tools", func() any {
		return pick[any](r, []any{object{{"name", "f"}, {"input_schema", object{{"type", "object"}, {"x", 2.0}}}}},
			[]any{object{{"type", "custom"}, {"name", "g"}, {"description", "d"}, {"input_schema", object{}}, {"strict", true}}},
			[]any{object{{"type", "web_search_20250305"}, {"name", "web_search"}}}, []any{})
	})
	sometimes(r, 3, &body, "tool_choice", func() any {
		return pick[any](r, object{{"type", "auto"}}, object{{"type", "tool"}, {"name", "f"}}, object{{"type", "any"}, {"disable_parallel_tool_use", true}})
	})
	sometimes(r, 3, &body, "output_config", func() any {
		return pick[any](r, object{{"format", object{{"type", "json_schema"}, {"schema", object{{"type", "object"}}}}}},
			object{{"effort", "low"}, {"format", object{{"type", "json_schema"}, {"schema", object{}}}}}, object{{"effort", "high"}})
	})
	sometimes(r, 4, &body, "metadata", func() any { return object{{"user_id", "u"}, {"n", 1.0}} })
	b, err := object(body).MarshalJSON()
	if err != nil {
		panic(err)
	}
	return b
}

func geminiBody(r *rand.Rand) []byte {
	camel := r.IntN(2) == 0
	key := func(name string) string {
		if camel != (r.IntN(8) == 0) { // now and then the other spelling
			return name
		}
		return snakeKey(name)
	}
	list := func(xs []any) any {
		if len(xs) == 1 && r.IntN(3) == 0 {
			return xs[0] // the REST examples' one object
		}
		return xs
	}
	part := func(role string) any {
		var p object
		k := r.IntN(20)
		if role == "model" && k == 5 || role != "model" && k == 4 {
			k = 0 // a call in a model content, a response in a user one
		}
		switch k {
		case 0, 1, 7, 8, 9, 14, 15:
			p = object{{"text", pick(r, propTexts...)}}
			sometimes(r, 5, &p, "thought", func() any { return true })
		case 2, 10, 18:
			p = object{{key("inlineData"), object{{key("mimeType"), pick(r, "image/png", "audio/wav", "application/pdf", "image/png", "")}, {"data", pick(r, "iVBORw0KGgo=", "iVBORw0KGgo=", "iVBORw0KGgo=", "x!")}}}}
		case 3, 11, 19:
			fd := object{{key("fileUri"), pick(r, "gs://b/o", "https://x/y")}}
			sometimes(r, 2, &fd, key("mimeType"), func() any { return pick(r, "image/jpeg", "video/mp4") })
			sometimes(r, 4, &fd, key("displayName"), func() any { return "n" })
			p = object{{key("fileData"), fd}}
		case 4, 12, 16:
			fc := object{{"name", pick(r, "f", "f", "")}}
			sometimes(r, 2, &fc, "id", func() any { return "c1" })
			sometimes(r, 2, &fc, "args", func() any { return pick[any](r, object{}, object{{"a", 1.5}, {"b", 2.0}}) })
			p = object{{key("functionCall"), fc}}
			sometimes(r, 3, &p, key("thoughtSignature"), func() any { return "c2ln" })
		case 5, 13, 17:
			fr := object{{"name", "f"}, {"response", pick[any](r, object{{"output", "r"}}, object{{"output", 1}}, object{{"a", []any{}}})}}
			sometimes(r, 2, &fr, "id", func() any { return "c1" })
			p = object{{key("functionResponse"), fr}}
		default:
			p = object{{key("executableCode"), object{{"code", "1"}}}}
		}
		return p
	}
	var body object
	sometimes(r, 3, &body, "model", func() any { return "models/gemini-2.5-flash" })
	sometimes(r, 2, &body, key("systemInstruction"), func() any {
		s := object{{"parts", list([]any{object{{"text", pick(r, propTexts...)}}, object{{"text", "b"}}}[:1+r.IntN(2)])}}
		sometimes(r, 3, &s, "role", func() any { return "user" })
		return s
	})
	contents := []any{}
	for range r.IntN(4) {
		role := "robot" // now and then, which Gemini does not have
		if r.IntN(20) > 0 {
			role = pick(r, "user", "model", "")
		}
		var c object
		if role != "" {
			c.add("role", role)
		}
		var parts []any
		for range 1 + r.IntN(3) {
			parts = append(parts, part(role))
		}
		c.add("parts", list(parts))
		contents = append(contents, c)
	}
	body.add("contents", list(contents))
	sometimes(r, 2, &body, key("generationConfig"), func() any {
		var g object
		sometimes(r, 2, &g, "temperature", func() any { return pick[any](r, 0, 1.0, 0.5) })
		sometimes(r, 3, &g, key("topK"), func() any { return pick[any](r, 10, 10.0, 10, 10.5) })
		sometimes(r, 3, &g, key("maxOutputTokens"), func() any { return 800 })
		sometimes(r, 3, &g, key("candidateCount"), func() any { return 1 })
		sometimes(r, 2, &g, key("responseMimeType"), func() any { return pick(r, "application/json", "text/x.enum") })
		sometimes(r, 3, &g, key(pick(r, "responseSchema", "responseJsonSchema")), func() any { return object{{"type", "OBJECT"}, {"n", 1.0}} })
		sometimes(r, 4, &g, key("thinkingConfig"), func() any { return object{{key("thinkingBudget"), 0}} })
		return g
	})
	sometimes(r, 3, &body, "tools", func() any {
		d := object{{"name", pick(r, "f", "g")}}
		sometimes(r, 2, &d, "description", func() any { return "d" })
		sometimes(r, 2, &d, key(pick(r, "parameters", "parametersJsonSchema")), func() any { return object{{"type", "object"}} })
		return pick[any](r, []any{object{{key("functionDeclarations"), []any{d}}}}, []any{object{{key("googleSearch"), object{}}}}, []any{})
	})
	sometimes(r, 3, &body, key("toolConfig"), func() any {
		f := object{{"mode", pick(r, "AUTO", "any", "NONE", "Auto", "VALIDATED")}}
		sometimes(r, 2, &f, key("allowedFunctionNames"), func() any { return pick[any](r, []any{"f"}, []any{"f", "g"}) })
		tc := object{{key("functionCallingConfig"), f}}
		sometimes(r, 3, &tc, key("retrievalConfig"), func() any { return object{} })
		return tc
	})
	sometimes(r, 4, &body, key("safetySettings"), func() any { return []any{} })
	b, err := object(body).MarshalJSON()
	if err != nil {
		panic(err)
	}
	return b
}

func TestBodiesRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 7))
	read := map[string]int{}
	for n := range 3000 {
		for _, f := range []promptfmt.Format{Anthropic, Gemini} {
			src := anthropicBody(r)
			if f.Name() == nameGemini {
				src = geminiBody(r)
			}
			if !t.Run(f.Name(), func(t *testing.T) { fuzzBody(t, f, src) }) {
				t.Fatalf("case %d: %s", n, src)
			}
			if _, err := f.Parse(src); err == nil {
				read[f.Name()]++
			}
		}
	}
	// Enough of them read to test anything.
	require.Greater(t, read[nameAnthropic], 1000)
	require.Greater(t, read[nameGemini], 1000)
}

// randomRequest sets some of a Request's fields, to values each provider
// holds and values it does not.
func randomRequest(r *rand.Rand) promptfmt.Request {
	var q promptfmt.Request
	f := func(xs ...float64) *float64 { v := pick(r, xs...); return &v }
	i := func(xs ...int64) *int64 { v := pick(r, xs...); return &v }
	if r.IntN(2) == 0 {
		q.Model = pick(r, "claude-sonnet-4-5", "models/gemini-2.5-flash")
	}
	if r.IntN(2) == 0 {
		q.Temperature = f(0, 0.5, 1, 2)
	}
	if r.IntN(3) == 0 {
		q.TopP = f(0.9, 1)
	}
	if r.IntN(3) == 0 {
		q.TopK = i(1, 40)
	}
	if r.IntN(3) == 0 {
		q.MaxTokens = i(256, 1)
	}
	if r.IntN(3) == 0 {
		q.Stop = pick(r, []string{"END"}, []string{}, []string{"a", "b"})
	}
	if r.IntN(4) == 0 {
		q.Seed = i(7)
	}
	if r.IntN(4) == 0 {
		q.FrequencyPenalty, q.PresencePenalty = f(0.5), f(-0.5)
	}
	if r.IntN(2) == 0 {
		q.Tools = []promptfmt.Tool{}
		for range r.IntN(3) {
			q.Tools = append(q.Tools, promptfmt.Tool{Name: pick(r, "weather", "clock"), Description: pick(r, "", "d"),
				Parameters: pick(r, nil, map[string]any{"type": "object", "n": 1.0}, map[string]any{}), Strict: r.IntN(3) == 0})
		}
	}
	if r.IntN(2) == 0 {
		q.ToolChoice = pick(r, &promptfmt.ToolChoice{Mode: "auto"}, &promptfmt.ToolChoice{Mode: "none"},
			&promptfmt.ToolChoice{Mode: "required"}, &promptfmt.ToolChoice{Mode: "required", Tool: "weather"},
			&promptfmt.ToolChoice{Mode: "auto", Tool: "clock"}, &promptfmt.ToolChoice{Mode: "sometimes"})
	}
	if r.IntN(2) == 0 {
		q.Output = pick(r, &promptfmt.Output{}, &promptfmt.Output{Strict: true},
			&promptfmt.Output{Schema: map[string]any{"type": "object", "x": 2.0}},
			&promptfmt.Output{Schema: map[string]any{"type": "object"}, Strict: true},
			&promptfmt.Output{Name: "answer", Description: "d", Schema: map[string]any{"type": "object"}})
	}
	return q
}

// Documents with requests (and metadata that may name request members)
// write as a body that reads back the same, or are refused with
// UnsupportedErrors that Adapt meets; sent, they are written or refused.
func TestRequestsRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 3))
	written := map[string]int{}
	for n := range 1500 {
		for _, f := range []promptfmt.Format{Anthropic, Gemini} {
			doc := formattest.Document(r)
			doc.Request = randomRequest(r)
			if r.IntN(2) == 0 {
				if doc.Meta == nil {
					doc.Meta = map[string]any{}
				}
				doc.Meta[pick(r, "tools", "generationConfig", "output_config", "toolConfig", "metadata", "labels")] =
					pick[any](r, map[string]any{"thinkingConfig": map[string]any{}, "effort": "low"}, []any{map[string]any{"name": "x"}},
						map[string]any{"temperature": 1.0}, "x")
			}
			var out bytes.Buffer
			err := f.Write(&out, doc)
			if err != nil {
				require.Empty(t, out.Bytes())
				for _, e := range formattest.Flatten(err) {
					var ue *promptfmt.UnsupportedError
					require.True(t, errors.As(e, &ue), "case %d: %v", n, e)
				}
				adapted, _, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return f.Write(io.Discard, d) })
				if err != nil {
					continue // something no change fixes (ThingOther)
				}
				doc = adapted
				out.Reset()
				require.NoError(t, f.Write(&out, doc), "case %d: Adapt's document is refused", n)
			}
			back, err := f.Parse(out.Bytes())
			require.NoError(t, err, "case %d: %s", n, out.Bytes())
			require.True(t, promptfmt.Equal(doc, back), "case %d: read back changed:\n%s\n%s\n%s", n, out.Bytes(), show(doc), show(back))
			written[f.Name()]++

			sent := doc.ForModel()
			var s bytes.Buffer
			if err := f.Write(&s, sent, promptfmt.Send()); err != nil {
				for _, e := range formattest.Flatten(err) {
					var ue *promptfmt.UnsupportedError
					require.True(t, errors.As(e, &ue), "case %d: %v", n, e)
				}
			} else {
				_, err := f.Parse(s.Bytes())
				require.NoError(t, err, "case %d: sent body does not read: %s", n, s.Bytes())
			}
		}
	}
	require.Greater(t, written[nameAnthropic], 500)
	require.Greater(t, written[nameGemini], 500)
}

// A document read keeps its layout when it is changed afterwards (a
// message added or dropped, a setting set): what is written then reads
// back as the changed document, and is written again the same.
func TestLayoutAfterChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 8))
	changes := []func(d *promptfmt.Document){
		func(d *promptfmt.Document) { d.Messages = append(d.Messages, msg("assistant", text("Sure."))) },
		func(d *promptfmt.Document) { d.Messages = append(d.Messages, msg("user", text("And?"), text("More."))) },
		func(d *promptfmt.Document) {
			if len(d.Messages) > 1 {
				d.Messages = d.Messages[1:]
			}
		},
		func(d *promptfmt.Document) { n := int64(64); d.Request.MaxTokens = &n },
		func(d *promptfmt.Document) {
			d.Request.Tools = []promptfmt.Tool{{Name: "extra", Parameters: map[string]any{"type": "object"}}}
		},
		func(d *promptfmt.Document) { d.Request.ToolChoice = &promptfmt.ToolChoice{Mode: "required"} },
		func(d *promptfmt.Document) {
			d.Request.Output = &promptfmt.Output{Schema: map[string]any{"type": "object"}, Strict: true}
		},
	}
	for _, f := range []promptfmt.Format{Anthropic, Gemini} {
		for _, name := range docPayloads(t, f) {
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			for range 20 {
				doc, err := f.Parse(src)
				if err != nil {
					break
				}
				for range 1 + r.IntN(3) {
					changes[r.IntN(len(changes))](doc)
				}
				var out bytes.Buffer
				if f.Write(&out, doc) != nil {
					continue // refused: what the change asks the provider cannot take
				}
				back, err := f.Parse(out.Bytes())
				require.NoError(t, err, "%s: %s", name, out.Bytes())
				require.True(t, promptfmt.Equal(doc, back), "%s: read back changed:\n%s", name, out.Bytes())
				var again bytes.Buffer
				require.NoError(t, f.Write(&again, back))
				require.Equal(t, out.String(), again.String(), "%s", name)
			}
		}
	}
}
