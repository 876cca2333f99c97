package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readAll reads every record of src.
func readAll(t *testing.T, d *Dataset, src []byte, opts ...promptfmt.Option) []Record {
	t.Helper()
	r := d.NewReader(bytes.NewReader(src), opts...)
	var recs []Record
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return recs
		}
		require.NoError(t, err)
		rec.Raw = bytes.Clone(rec.Raw)
		recs = append(recs, rec)
	}
}

// writeAll writes records, failing on any refusal.
func writeAll(t *testing.T, d *Dataset, recs []Record, opts ...promptfmt.Option) []byte {
	t.Helper()
	var out bytes.Buffer
	w := d.NewWriter(&out, opts...)
	for _, rec := range recs {
		require.NoError(t, w.Write(rec), "line %d", rec.Line)
	}
	return out.Bytes()
}

// The real lines of OpenAI's docs and cookbook read; written back, each
// is the same JSON value but for the one form Write gives a meaning (as
// for single bodies), reads back as the same record, and writing is a
// fixed point.
func TestJSONLDocs(t *testing.T) {
	for _, tc := range []struct {
		file string
		d    *Dataset
		n    int
	}{
		{"toy_chat_fine_tuning.jsonl", OpenAIJSONL, 5},
		{"guide.jsonl", OpenAIJSONL, 5},
		{"batch.jsonl", OpenAIBatch, 2},
		{"batch-reference.jsonl", OpenAIBatch, 1},
	} {
		t.Run(tc.file, func(t *testing.T) {
			src, err := os.ReadFile("testdata/jsonl/" + tc.file)
			require.NoError(t, err)
			for _, d := range []*Dataset{OpenAIJSONL, OpenAIBatch} {
				assert.Equal(t, d == tc.d, d.Sniff(src), "%s.Sniff", d.Name())
			}
			recs := readAll(t, tc.d, src)
			require.Len(t, recs, tc.n)
			for i, rec := range recs {
				require.NoError(t, rec.Err)
				require.Equal(t, i+1, rec.Line)
				for _, m := range rec.Doc.Messages {
					require.Equal(t, rec.Line, m.Line, "a message's line is its record's")
				}
			}
			out := writeAll(t, tc.d, recs)
			outLines := strings.SplitAfter(string(out), "\n")
			srcLines := strings.SplitAfter(string(src), "\n")
			for i := range recs {
				require.True(t, sameJSON(t, []byte(srcLines[i]), []byte(outLines[i])), "line %d written back:\n%s", i+1, outLines[i])
				require.NotContains(t, strings.TrimSuffix(outLines[i], "\n"), "\n")
			}
			back := readAll(t, tc.d, out)
			require.Len(t, back, len(recs))
			for i := range recs {
				require.NoError(t, back[i].Err)
				require.True(t, promptfmt.Equal(recs[i].Doc, back[i].Doc), "line %d read back changed", i+1)
				require.Equal(t, recs[i].ID, back[i].ID)
				require.Equal(t, recs[i].URL, back[i].URL)
			}
			require.Equal(t, string(out), string(writeAll(t, tc.d, back)), "fixed point")
		})
	}
}

// What the records of the docs hold: a fine-tuning record's weight is a
// message's metadata, parallel_tool_calls the document's Meta, tools its
// Request; a batch request's custom_id and url are the record's, its body
// the document.
func TestJSONLDocsContent(t *testing.T) {
	src, err := os.ReadFile("testdata/jsonl/guide.jsonl")
	require.NoError(t, err)
	recs := readAll(t, OpenAIJSONL, src)
	assert.Equal(t, map[string]any{"weight": int64(0)}, recs[0].Doc.Messages[2].Metadata)
	assert.Equal(t, promptfmt.KindImage, recs[3].Doc.Messages[2].Content[0].Kind)
	assert.Equal(t, "https://upload.wikimedia.org/wikipedia/commons/3/36/Danbo_Cheese.jpg", recs[3].Doc.Messages[2].Content[0].Value)
	tools := recs[4].Doc
	assert.Equal(t, map[string]any{"parallel_tool_calls": false}, tools.Meta)
	require.Len(t, tools.Request.Tools, 1)
	assert.Equal(t, "get_current_weather", tools.Request.Tools[0].Name)
	assert.Equal(t, promptfmt.ContentPart{Kind: promptfmt.KindToolCall, ID: "call_id", ToolName: "get_current_weather",
		Value: `{"location": "San Francisco, USA", "format": "celsius"}`}, tools.Messages[1].Content[0])
	assert.Empty(t, recs[0].ID+recs[0].URL, "a fine-tuning record has no custom_id or url")

	src, err = os.ReadFile("testdata/jsonl/batch.jsonl")
	require.NoError(t, err)
	recs = readAll(t, OpenAIBatch, src)
	assert.Equal(t, "request-2", recs[1].ID)
	assert.Equal(t, "/v1/chat/completions", recs[1].URL)
	assert.Equal(t, "gpt-3.5-turbo-0125", recs[1].Doc.Request.Model)
	assert.Equal(t, int64(1000), *recs[1].Doc.Request.MaxTokens)
	assert.Equal(t, "You are an unhelpful assistant.", recs[1].Doc.Messages[0].Text())
}

// A batch of /v1/responses requests (the cookbook's) reads as the
// Responses body does, and writes back as the same records.
func TestJSONLResponsesBatch(t *testing.T) {
	src, err := os.ReadFile("testdata/jsonl/responses-batch.jsonl")
	require.NoError(t, err)
	require.True(t, OpenAIBatch.Sniff(src))
	recs := readAll(t, OpenAIBatch, src, promptfmt.File("qa.jsonl"))
	require.Len(t, recs, 2)
	for i, rec := range recs {
		require.NoError(t, rec.Err)
		assert.Equal(t, fmt.Sprintf("qa-T-00%d", i+1), rec.ID)
		assert.Equal(t, "/v1/responses", rec.URL)
		assert.Equal(t, "gpt-5.4-nano", rec.Doc.Request.Model)
		assert.Equal(t, int64(160), *rec.Doc.Request.MaxTokens)
		require.Len(t, rec.Doc.Messages, 2, "instructions, then the input string")
		assert.Equal(t, "Return concise internal support QA tags and a one-sentence summary.", rec.Doc.Messages[0].Text())
		assert.Equal(t, "user", rec.Doc.Messages[1].Role)
	}
	out := writeAll(t, OpenAIBatch, recs)
	srcLines, outLines := strings.SplitAfter(string(src), "\n"), strings.SplitAfter(string(out), "\n")
	for i := range recs {
		require.True(t, sameJSON(t, []byte(srcLines[i]), []byte(outLines[i])), "line %d written back:\n%s", i+1, outLines[i])
	}
	back := readAll(t, OpenAIBatch, out)
	for i := range recs {
		require.True(t, promptfmt.Equal(recs[i].Doc, back[i].Doc))
		require.Equal(t, "/v1/responses", back[i].URL)
	}
}

// Each way a line can be bad is one record's error at FILE:LINE:COL of the
// file; the records before and after it read.
func TestJSONLBadLines(t *testing.T) {
	good := `{"messages":[{"role":"user","content":"hi"}]}`
	goodBatch := `{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":` + good + `}`
	for _, tc := range []struct {
		name string
		d    *Dataset
		line string
		want string // the error, after "data.jsonl:2:"
	}{
		{"invalid JSON", OpenAIJSONL, `{"messages": [}`, `15: unexpected '}', want a value`},
		{"not closed", OpenAIJSONL, `{"messages": []`, `16: unexpected end of JSON text, want ',' or '}' in an object`},
		{"two values", OpenAIJSONL, good + ` {}`, `47: text after the JSON value`},
		{"no role", OpenAIJSONL, `{"messages": [{"content": "hi"}]}`, `15: a message without a role`},
		{"unknown role", OpenAIJSONL, `{"messages": [{"role": "critic", "content": "hi"}]}`, `24: unknown role "critic" (OpenAI's are system, developer, user, assistant and tool)`},
		{"no messages", OpenAIJSONL, `{"prompt": "a", "completion": "b"}`, `1: a fine-tuning record needs "messages"`},
		{"preference", OpenAIJSONL, `{"input": {"messages": []}, "preferred_output": []}`, `1: a fine-tuning record needs "messages" (a preference record, {"input", "preferred_output", ...}, is not read)`},
		{"an array", OpenAIJSONL, `[{"role": "user", "content": "hi"}]`, `1: a fine-tuning record must be an object, not an array`},
		{"bad UTF-8", OpenAIJSONL, "{\"messages\": [{\"role\": \"user\", \"content\": \"h\xffi\"}]}", `45: invalid UTF-8 (byte 0xff)`},
		{"BOM after line 1", OpenAIJSONL, "\uFEFF" + good, `1: unexpected '\ufeff', want a value`},
		{"named twice", OpenAIJSONL, `{"messages": [], "messages": []}`, `18: the member "messages" is named twice in one object`},
		{"unknown url", OpenAIBatch, `{"custom_id": "a", "method": "POST", "url": "/v2/chat", "body": {}}`, `45: unknown url "/v2/chat" (read: /v1/chat/completions, /v1/responses)`},
		{"embeddings", OpenAIBatch, `{"custom_id": "a", "method": "POST", "url": "/v1/embeddings", "body": {"input": "x"}}`, `45: a batch request to /v1/embeddings: an embeddings request holds no conversation (read: /v1/chat/completions, /v1/responses)`},
		{"no custom_id", OpenAIBatch, `{"method": "POST", "url": "/v1/chat/completions", "body": ` + good + `}`, `1: a batch request without custom_id`},
		{"empty custom_id", OpenAIBatch, `{"custom_id": "", "method": "POST", "url": "/v1/chat/completions", "body": ` + good + `}`, `15: an empty custom_id (it names the request's result)`},
		{"GET", OpenAIBatch, `{"custom_id": "a", "method": "GET", "url": "/v1/chat/completions", "body": ` + good + `}`, `30: method "GET" (a batch request's method is POST)`},
		{"unknown member", OpenAIBatch, `{"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": ` + good + `, "x": 1}`, `124: unknown member "x" of a batch request (its members are custom_id, method, url and body)`},
		{"body not an object", OpenAIBatch, `{"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": []}`, `77: body must be an object, not an array`},
		{"body's message", OpenAIBatch, `{"custom_id": "a", "method": "POST", "url": "/v1/chat/completions", "body": {"messages": [{"content": "x"}]}}`, `91: a message without a role`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first := good
			if tc.d == OpenAIBatch {
				first = goodBatch
			}
			src := first + "\n" + tc.line + "\n" + first + "\n"
			recs := readAll(t, tc.d, []byte(src), promptfmt.File("data.jsonl"))
			require.Len(t, recs, 3)
			require.NoError(t, recs[0].Err)
			require.NoError(t, recs[2].Err, "the reading goes on after a bad record")
			require.Equal(t, 3, recs[2].Line)
			require.Nil(t, recs[1].Doc)
			require.EqualError(t, recs[1].Err, "data.jsonl:2:"+tc.want)
			var pe *promptfmt.ParseError
			require.True(t, errors.As(recs[1].Err, &pe))
			require.Equal(t, len(first)+1+pe.Col-1, pe.Offset, "Offset is the file's")
			require.Equal(t, tc.line, string(recs[1].Raw))
		})
	}
}

// A line over the limit is a record's error at the first byte past it,
// read through without being held: the reader's buffer stays small.
func TestJSONLLongLine(t *testing.T) {
	long := `{"messages":[{"role":"user","content":"` + strings.Repeat("a", 4<<20) + `"}]}`
	good := `{"messages":[{"role":"user","content":"hi"}]}`
	src := good + "\n" + long + "\n" + good + "\n" + long // the last without a line break
	r := OpenAIJSONL.NewReader(strings.NewReader(src), promptfmt.File("big.jsonl"), MaxLine(1000))
	var errs []string
	n := 0
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		n++
		if rec.Err != nil {
			errs = append(errs, rec.Err.Error())
			require.Nil(t, rec.Raw)
		}
	}
	require.Equal(t, 4, n)
	want := "big.jsonl:%d:1001: a line longer than 1000 bytes (the limit of a record: provider.MaxLine raises it)"
	require.Equal(t, []string{fmt.Sprintf(want, 2), fmt.Sprintf(want, 4)}, errs)
	require.Less(t, cap(r.buf), 4096, "a long line is not held")

	// The limit counts the line, not its line break.
	exact := strings.Repeat(" ", 1000-len(good)) + good
	recs := readAll(t, OpenAIJSONL, []byte(exact+"\r\n"+exact+"\n"+exact), MaxLine(1000))
	require.Len(t, recs, 3)
	for _, rec := range recs {
		require.NoError(t, rec.Err)
	}
	recs = readAll(t, OpenAIJSONL, []byte(" "+exact+"\r\n"), MaxLine(1000))
	require.EqualError(t, recs[0].Err, "openai-jsonl:1:1001: a line longer than 1000 bytes (the limit of a record: provider.MaxLine raises it)")
}

// Blank lines are no records but count; CRLF line breaks and a last line
// without one read; a byte order mark starts the file with a warning.
func TestJSONLLines(t *testing.T) {
	good := `{"messages":[{"role":"user","content":"hi"}]}`
	src := "\uFEFF" + good + "\r\n\r\n   \n\t\r\n" + good + "\r\n" + good
	recs := readAll(t, OpenAIJSONL, []byte(src), promptfmt.File("x.jsonl"))
	require.Len(t, recs, 3)
	assert.Equal(t, []int{1, 5, 6}, []int{recs[0].Line, recs[1].Line, recs[2].Line})
	for _, rec := range recs {
		require.NoError(t, rec.Err)
	}
	require.Len(t, recs[0].Doc.Warnings, 1)
	assert.Equal(t, "x.jsonl:1:1: a byte order mark before the first record (ignored)", recs[0].Doc.Warnings[0].String())
	assert.Equal(t, good, string(recs[1].Raw), "Raw is without its line break")

	assert.Empty(t, readAll(t, OpenAIJSONL, nil))
	assert.Empty(t, readAll(t, OpenAIJSONL, []byte("\n\n")))
}

// A failed read ends the reading: Read returns the error, and again.
func TestJSONLReadError(t *testing.T) {
	good := `{"messages":[{"role":"user","content":"hi"}]}` + "\n"
	boom := errors.New("disk on fire")
	r := OpenAIJSONL.NewReader(io.MultiReader(strings.NewReader(good), iotest.ErrReader(boom)))
	rec, err := r.Read()
	require.NoError(t, err)
	require.NoError(t, rec.Err)
	_, err = r.Read()
	require.ErrorIs(t, err, boom)
	_, err = r.Read()
	require.ErrorIs(t, err, boom)

	// Another format's option is refused, not ignored.
	_, err = OpenAIJSONL.NewReader(strings.NewReader(good), promptfmt.NewOption("stf", "stf.X", func(any) {})).Read()
	require.EqualError(t, err, "stf.X is an option of stf, not of jsonl")
	_, err = OpenAI.Parse([]byte(good), MaxLine(10))
	require.EqualError(t, err, "provider.MaxLine is an option of jsonl, not of openai")
}

// The writer's refusals: each leaves nothing written and the writer
// usable; a failed write is sticky.
func TestJSONLWriteErrors(t *testing.T) {
	doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi")}}
	var out bytes.Buffer
	w := OpenAIBatch.NewWriter(&out)
	require.EqualError(t, w.Write(Record{ID: "a"}), "openai-batch: a record without a document")
	require.EqualError(t, w.Write(Record{Doc: doc}), "openai-batch: a batch request needs a custom_id (the record's ID)")
	require.EqualError(t, w.Write(Record{ID: "a", URL: "/v1/embeddings", Doc: doc}), `openai-batch: record "a": unknown url "/v1/embeddings" (written: /v1/chat/completions, /v1/responses)`)
	critic := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("critic", "no")}}
	err := w.Write(Record{ID: "a", Doc: critic})
	var ue *promptfmt.UnsupportedError
	require.True(t, errors.As(err, &ue), "%v", err)
	require.Equal(t, promptfmt.ThingRole, ue.Thing)
	require.Zero(t, out.Len(), "nothing written for a refused record")
	require.NoError(t, w.Write(Record{ID: "a/b", Doc: doc}))
	require.Equal(t, `{"custom_id":"a/b","method":"POST","url":"/v1/chat/completions","body":{"messages":[{"role":"user","content":"hi"}]}}`+"\n", out.String())

	jw := OpenAIJSONL.NewWriter(&out)
	require.EqualError(t, jw.Write(Record{ID: "a", Doc: doc}), `openai-jsonl: a fine-tuning record has no custom_id or url (the record has "a", "")`)

	boom := errors.New("full")
	fw := OpenAIJSONL.NewWriter(failWriter{boom})
	require.ErrorIs(t, fw.Write(Record{Doc: doc}), boom)
	require.ErrorIs(t, fw.Write(Record{Doc: doc}), boom, "sticky")
}

type failWriter struct{ err error }

func (f failWriter) Write([]byte) (int, error) { return 0, f.err }

// Round trip of generated datasets: documents (fitted to what the body
// holds, as convert --lossy fits them) written as a fine-tuning file and
// as batches of each url, read back as the same documents with their ids
// and urls, at their lines.
func TestJSONLRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		d   *Dataset
		url string
	}{
		{OpenAIJSONL, ""},
		{OpenAIBatch, ""},
		{OpenAIBatch, "/v1/responses"},
	} {
		t.Run(tc.d.Name()+tc.url, func(t *testing.T) {
			e, ok := endpointOf(tc.url)
			require.True(t, ok)
			r := rand.New(rand.NewPCG(21, 7))
			var recs []Record
			for i := 0; len(recs) < 300; i++ {
				fitted, _, err := promptfmt.Adapt(formattest.Document(r), func(d *promptfmt.Document) error { return e.format.Write(io.Discard, d) })
				if err != nil {
					continue // nothing of it fits (Adapt says why); the next one
				}
				rec := Record{Doc: fitted, URL: tc.url}
				if tc.d == OpenAIBatch {
					rec.ID = fmt.Sprintf("req-%d\n\"é", i) // any string: JSON-escaped
				}
				recs = append(recs, rec)
			}
			out := writeAll(t, tc.d, recs)
			require.Equal(t, len(recs), bytes.Count(out, []byte("\n")), "one line a record")
			require.True(t, tc.d.Sniff(out))
			back := readAll(t, tc.d, out)
			require.Len(t, back, len(recs))
			for i := range recs {
				require.NoError(t, back[i].Err)
				require.Equal(t, i+1, back[i].Line)
				require.Equal(t, recs[i].ID, back[i].ID)
				if tc.d == OpenAIBatch {
					require.Equal(t, e.url, back[i].URL, "the url, written for \"\" as /v1/chat/completions")
				}
				require.True(t, promptfmt.Equal(recs[i].Doc, back[i].Doc), "record %d changed\nwritten: %s", i, back[i].Raw)
			}
			require.Equal(t, string(out), string(writeAll(t, tc.d, back)), "fixed point")
		})
	}
}

// The compactor gives what a body's indented text is compact, however
// its writes cut the text.
func TestCompactor(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 200 {
		doc := formattest.Document(r)
		compact, err := jsonvalue.Encode(doc)
		require.NoError(t, err)
		var indented bytes.Buffer
		require.NoError(t, jsonvalue.Indent(&indented, compact))
		var c compactor
		text := indented.Bytes()
		for len(text) > 0 {
			n := min(len(text), 1+r.IntN(7))
			c.Write(text[:n])
			text = text[n:]
		}
		require.Equal(t, string(compact), string(c.out), "doc %d", i)
	}
}

// A fine-tuning record's weight, from another format's document (STF's
// ;extra holds it as metadata), is written where OpenAI reads it; a batch
// request's Chat Completions body has no weight, and refuses it.
func TestJSONLWeight(t *testing.T) {
	m := promptfmt.NewMessage("assistant", "Paris")
	m.Metadata = map[string]any{"weight": int64(0)}
	doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "Capital?"), m}, Layout: "another format's"}
	out := writeAll(t, OpenAIJSONL, []Record{{Doc: doc}})
	require.Equal(t, `{"messages":[{"role":"user","content":"Capital?"},{"role":"assistant","content":"Paris","weight":0}]}`+"\n", string(out))
	require.Equal(t, "another format's", doc.Layout, "the document is left as it was")
	back := readAll(t, OpenAIJSONL, out)
	require.True(t, promptfmt.Equal(doc, back[0].Doc))

	err := OpenAIBatch.NewWriter(io.Discard).Write(Record{ID: "a", Doc: doc})
	require.ErrorContains(t, err, `the metadata key "weight" (not a member of OpenAI's message)`)
}
