package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/require"
)

// FuzzParseResponses: Parse never panics; its errors are ParseErrors
// positioned in the source; what it reads, Write writes (strict), or
// refuses with UnsupportedErrors of its own that point at the document
// or a message, writing nothing; what is written reads back the same
// document and is a fixed point; with promptfmt.Send, what is written is
// JSON.
func FuzzParseResponses(f *testing.F) {
	files, _ := filepath.Glob("testdata/openai-responses/*.json")
	files = append(files, "../testdata/examples/paris.json")
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(f, err)
		f.Add(src)
	}
	for _, s := range []string{
		`{"input": [{"role": "assistant", "content": "a"}, {"type": "function_call", "call_id": "c", "name": "f", "arguments": ""}, {"role": "assistant", "content": [{"type": "input_text", "text": "b"}]}]}`,
		`{"instructions": "", "input": [{"role": "system", "content": [{"type": "input_text", "text": "x", "x": 1.0}]}], "metadata": {"n": 2.0, "m": -0.0}}`,
		`{"input": [{"type": "reasoning"}, {"type": "function_call_output", "call_id": "c", "output": "", "name": null}], "tools": [{"type": "function", "name": "f", "parameters": {"minimum": 1.0}}]}`,
		`{"input": [{"role": "user", "content": [{"type": "input_file", "file_data": "data:;base64,TQ==", "detail": "low"}, {"type": "input_image", "image_url": "http://x", "detail": ""}]}]}`,
		"\xef\xbb\xbf{\"input\": \"\\u00e9\\ud83d\\ude00\"}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := OpenAIResponses.Parse(src)
		if err != nil {
			require.Nil(t, doc)
			for _, e := range formattest.Flatten(err) {
				var pe *promptfmt.ParseError
				require.True(t, errors.As(e, &pe), "not a ParseError: %v", e)
				require.True(t, pe.Offset >= 0 && pe.Offset <= len(src), "offset %d of %d: %v", pe.Offset, len(src), e)
				line, col := lines.Position(src, pe.Offset)
				require.Equal(t, [2]int{line, col}, [2]int{pe.Line, pe.Col}, "%v", e)
			}
			return
		}
		var out bytes.Buffer
		if err := OpenAIResponses.Write(&out, doc); err != nil {
			require.Zero(t, out.Len(), "a refused write writes nothing")
			for _, e := range formattest.Flatten(err) {
				var ue *promptfmt.UnsupportedError
				require.True(t, errors.As(e, &ue), "not an UnsupportedError: %v", e)
				require.Equal(t, nameOpenAIResponses, ue.Format)
				require.Less(t, ue.Index, len(doc.Messages))
			}
		} else {
			back, err := OpenAIResponses.Parse(out.Bytes())
			require.NoError(t, err, "%s", out.Bytes())
			require.True(t, promptfmt.Equal(doc, back), "read back changed:\n%s\n%s", src, out.Bytes())
			var again bytes.Buffer
			require.NoError(t, OpenAIResponses.Write(&again, back))
			require.Equal(t, out.String(), again.String(), "not a fixed point")
		}
		var sent bytes.Buffer
		if err := OpenAIResponses.Write(&sent, doc.ForModel(), promptfmt.Send()); err == nil {
			require.True(t, json.Valid(sent.Bytes()), "%s", sent.Bytes())
		} else {
			require.Zero(t, sent.Len())
		}
		_ = OpenAIResponses.Write(io.Discard, doc, promptfmt.Send()) // no panic with metadata either
	})
}
