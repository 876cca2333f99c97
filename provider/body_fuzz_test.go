package provider

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/require"
)

// fuzzBody checks f on src: no panic; a refusal is ParseErrors positioned
// in src, and nothing; what reads is written (strict) or refused with f's
// UnsupportedErrors only, and what is written reads back as the same
// document and is written again the same.
func fuzzBody(t *testing.T, f promptfmt.Format, src []byte) {
	doc, err := f.Parse(src)
	if err != nil {
		require.Nil(t, doc)
		for _, e := range formattest.Flatten(err) {
			var pe *promptfmt.ParseError
			require.True(t, errors.As(e, &pe), "%T: %v", e, e)
			require.True(t, pe.Offset >= 0 && pe.Offset <= len(src), "%v: offset %d of %d", e, pe.Offset, len(src))
			line, col := lines.Position(src, pe.Offset)
			require.Equal(t, [2]int{line, col}, [2]int{pe.Line, pe.Col}, "%v", e)
		}
		return
	}
	var out bytes.Buffer
	if err := f.Write(&out, doc); err != nil {
		require.Empty(t, out.Bytes(), "a refused write writes nothing")
		for _, e := range formattest.Flatten(err) {
			var ue *promptfmt.UnsupportedError
			require.True(t, errors.As(e, &ue), "%T: %v", e, e)
			require.Equal(t, f.Name(), ue.Format)
		}
		return
	}
	back, err := f.Parse(out.Bytes())
	require.NoError(t, err, "%s", out.Bytes())
	require.True(t, promptfmt.Equal(doc, back), "read back changed:\n%s\nfrom\n%s", out.Bytes(), src)
	var again bytes.Buffer
	require.NoError(t, f.Write(&again, back))
	require.Equal(t, out.String(), again.String())
}

// addSeeds adds the format's payloads and examples to the corpus.
func addSeeds(f *testing.F, format string, extra ...string) {
	files, _ := filepath.Glob(filepath.Join("testdata", format, "*.json"))
	files = append(files, extra...)
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
}

func FuzzParseAnthropic(f *testing.F) {
	addSeeds(f, nameAnthropic, "../testdata/examples/review-claude.json")
	f.Add([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"a","cache_control":{"type":"ephemeral"}},{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"r"}]}]}],"system":[{"type":"text","text":"s"}]}`))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBody(t, Anthropic, src) })
}

func FuzzParseGemini(f *testing.F) {
	addSeeds(f, nameGemini, "../testdata/examples/weather-gemini.json")
	f.Add([]byte(`{"contents":{"parts":{"text":"a"}},"generation_config":{"topK":1,"candidateCount":2},"tool_config":{"function_calling_config":{"mode":"any","allowed_function_names":["f"]}}}`))
	f.Fuzz(func(t *testing.T, src []byte) { fuzzBody(t, Gemini, src) })
}
