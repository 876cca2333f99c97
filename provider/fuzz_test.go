package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/require"
)

// fuzzInput turns fuzz bytes into messages: each byte picks among values
// that reach the mappings' branches, or starts a run of raw bytes.
type fuzzInput struct{ b []byte }

func (in *fuzzInput) next() byte {
	if len(in.b) == 0 {
		return 0
	}
	c := in.b[0]
	in.b = in.b[1:]
	return c
}

// pick returns one of choices, or (for a byte of 0xf0 and up) up to 15 raw
// bytes of the input, which may not be UTF-8.
func (in *fuzzInput) pick(choices ...string) string {
	c := in.next()
	if c >= 0xf0 {
		n := min(int(c-0xf0), len(in.b))
		s := string(in.b[:n])
		in.b = in.b[n:]
		return s
	}
	return choices[int(c)%len(choices)]
}

var fuzzValues = []string{
	"", " ", "x", "Hi <b>&</b>", "{}", `{"a":1}`, `{"a":`, "[1]", "null", "42",
	"iVBORw0KGgo=", "iVBORw0KGgo", "iVBO\nRw0KGgo=", "TR==", "/9j/4AAQ", "UklGRiQAAABXQVZF", "JVBERi0xLjcK",
	"data:image/png;base64,iVBORw0KGgo=", "data:;base64,iVBORw0KGgo=", "data:application/pdf;base64,JVBERi0xLjcK",
	"data:text/plain,hi", "data:image/png;base64,", "data:", "https://example.com/a.png", "http://x",
	"gs://bucket/o", "file:///etc/passwd", "a:b", "\xff\xfe", "é",
}

func (in *fuzzInput) messages() []promptfmt.Message {
	msgs := make([]promptfmt.Message, int(in.next())%6)
	for i := range msgs {
		m := &msgs[i]
		m.Role = in.pick("user", "assistant", "system", "developer", "tool", "critic", "_head", "")
		m.Name = in.pick("", "", "", "Ross", "Zoë", "\xff")
		m.Line = int(in.next()) % 3 * 10
		flags := in.next()
		m.Disabled = flags&0x80 != 0
		if flags&0x40 != 0 {
			m.Metadata = map[string]any{"call_id": in.pick("c1", "c2", "", "\xff")}
		}
		if flags&0x20 != 0 {
			if m.Metadata == nil {
				m.Metadata = map[string]any{}
			}
			m.Metadata["tool_call_id"] = in.pick("c1", "c2", "")
		}
		m.Content = make([]promptfmt.ContentPart, int(in.next())%5)
		for j := range m.Content {
			m.Content[j] = promptfmt.ContentPart{
				Kind:      promptfmt.Kind(in.pick("text", "text", "image", "audio", "file", "tool_call", "tool_result", "video")),
				Value:     in.pick(fuzzValues...),
				MediaType: in.pick("", "", "", "image/png", "image/PNG", "audio/wav", "audio/mpeg", "application/pdf", "mp3", "png", "text/csv"),
				Detail:    in.pick("", "", "", "high"),
				ID:        in.pick("", "", "c1", "c2", "file-1"),
				ToolName:  in.pick("", "", "f", "g"),
				Filename:  in.pick("", "", "", "a.pdf"),
			}
		}
	}
	return msgs
}

// FuzzExport: no panic; a mapping either fails with UnsupportedErrors that
// point at messages, or returns a request that encodes to valid UTF-8 JSON,
// the same each time, holding every non-empty text.
func FuzzExport(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{3, 0, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0, 0, 1, 0, 2, 0, 0, 0, 1, 5, 10, 0, 0, 0, 0})
	f.Add([]byte{2, 1, 0, 0, 0, 2, 5, 5, 0, 0, 2, 2, 4, 1, 0, 6, 0, 0, 6, 3, 0, 0, 6, 3, 0})
	f.Add([]byte{4, 0, 3, 1, 0, 3, 2, 17, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 11, 3, 3, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 4, 0, 0, 0x40, 0, 1, 0, 2, 0, 0, 0, 0, 0})
	f.Add([]byte{2, 0, 0xf3, 'a', 0xff, 'b', 0, 0, 1, 0xf2, 0xc3, 0x28, 0, 0, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		msgs := (&fuzzInput{b: data}).messages()
		for _, name := range exportNames() {
			v, err := export(name, msgs)
			if err != nil {
				require.True(t, v == nil, "%s: a request with an error", name)
				checkErrors(t, name, msgs, err)
				continue
			}
			out, err := json.Marshal(v)
			require.NoError(t, err, name)
			require.True(t, json.Valid(out), "%s: invalid JSON %s", name, out)
			require.True(t, utf8.Valid(out), "%s: JSON that is not UTF-8 %q", name, out)
			plain, err := marshal(v)
			require.NoError(t, err, name)
			require.True(t, json.Valid(plain), "%s: invalid JSON %s", name, plain)
			for i := range msgs {
				if msgs[i].Role == "tool" {
					continue // a result that is a JSON object is sent as one
				}
				for _, p := range msgs[i].Content {
					if p.Kind == promptfmt.KindText && p.Value != "" {
						want, err := marshal(p.Value)
						require.NoError(t, err)
						require.True(t, bytes.Contains(plain, want), "%s: text %s was dropped: %s", name, want, plain)
					}
				}
			}
			again, err := export(name, msgs)
			require.NoError(t, err)
			out2, err := json.Marshal(again)
			require.NoError(t, err)
			require.True(t, bytes.Equal(out, out2), "%s: not deterministic", name)
		}
	})
}

// FuzzParseOpenAI: any text either reads, and then writes (strictly) what
// reads back as the same document, or is refused by the writer with its
// UnsupportedErrors only; or it is a ParseError inside the text.
func FuzzParseOpenAI(f *testing.F) {
	files, _ := filepath.Glob("testdata/openai/*.json")
	for _, name := range files {
		src, _ := os.ReadFile(name)
		f.Add(src)
	}
	f.Add([]byte(`[{"role":"user","content":[{"type":"text","text":"a","x":1}]}]`))
	f.Add([]byte(`{"messages":[{"role":"tool","tool_call_id":"c","content":null}],"stop":"x"}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := OpenAI.Parse(src)
		if err != nil {
			for _, e := range formattest.Flatten(err) {
				var pe *promptfmt.ParseError
				require.True(t, errors.As(e, &pe), "%T: %v", e, e)
				require.True(t, pe.Offset >= 0 && pe.Offset <= len(src), "offset %d of %d", pe.Offset, len(src))
				line, col := lines.Position(src, pe.Offset)
				require.Equal(t, [2]int{line, col}, [2]int{pe.Line, pe.Col}, "%v", e)
			}
			return
		}
		var out bytes.Buffer
		if err := OpenAI.Write(&out, doc); err != nil {
			for _, e := range formattest.Flatten(err) {
				var ue *promptfmt.UnsupportedError
				require.True(t, errors.As(e, &ue), "%T: %v", e, e)
			}
			return
		}
		back, err := OpenAI.Parse(out.Bytes())
		require.NoError(t, err, "%s", out.String())
		require.True(t, promptfmt.Equal(doc, back), "read back changed:\n%s", out.String())
	})
}
