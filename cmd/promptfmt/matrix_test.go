package main

import (
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// matrixInputs gives the template examples the inputs they are converted
// with; the others are converted as written.
var matrixInputs = map[string]string{"pick.pdl": "pick.json", "chat.prompty": "inputs.json", "joke.prompt": "joke.json"}

// TestConversionMatrix converts every example to every format and back.
// Where a conversion succeeds without --lossy, the messages a model
// receives are the same after it and after the way back; where it does
// not, the refusal names each thing with its line, and --lossy converts,
// printing one line per change, into a file the target reads.
func TestConversionMatrix(t *testing.T) {
	const dir = "../../testdata/examples"
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	seen := map[string]bool{}
	for _, e := range entries {
		file := filepath.Join(dir, e.Name())
		src, err := lookupFormat("", file)
		if err != nil || slices.Contains(slices.Collect(maps.Values(matrixInputs)), e.Name()) {
			continue // images, inputs
		}
		seen[src.name] = true
		var flags []string
		if inputs, ok := matrixInputs[e.Name()]; ok {
			flags = []string{"--context", filepath.Join(dir, inputs)}
		}
		want := modelMessages(t, file, flags)
		for i := range formats {
			target := &formats[i]
			t.Run(e.Name()+"->"+target.name, func(t *testing.T) {
				flags := flags
				if target.name == "promptfile" { // the ID comes from a store
					flags = append(slices.Clip(flags), "-dir", t.TempDir())
				}
				out, errOut, status := runCmd(t, "", append([]string{"convert", "-t", target.name, file}, flags...)...)
				if status == exitOK {
					if target.name == "promptfile" {
						// A prompt file converted into a store is a new
						// prompt there: its old ID is replaced, and that said.
						errOut = regexp.MustCompile(`(?m)^.*: change: replaced prompt-id "P\d+" by the store's new ID .*\n`).ReplaceAllString(errOut, "")
					}
					assert.Empty(t, errOut)
					got := reparse(t, target, out)
					assert.True(t, promptfmt.EqualMessages(want, got.LLMMessages()), "%s to %s: %v\nwant %v", e.Name(), target.name, got.LLMMessages(), want)
					back := convertBack(t, out, target, src)
					assert.True(t, promptfmt.EqualMessages(want, back), "%s to %s and back: %v", e.Name(), target.name, back)
					return
				}
				require.Equal(t, exitInvalid, status, errOut)
				for _, line := range strings.Split(strings.TrimSpace(headlines(errOut)), "\n") {
					assert.Regexp(t, `^`+regexpQuote(file)+`(:\d+)?: `+target.name+`: (document|message \d+( \(line \d+\))?): `, line)
				}
				out, errOut, status = runCmd(t, "", append([]string{"convert", "--lossy", "-t", target.name, file}, flags...)...)
				require.Equal(t, exitOK, status, "--lossy: %s", errOut)
				require.NotEmpty(t, errOut, "--lossy says what it changed")
				for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
					assert.Regexp(t, `^`+regexpQuote(file)+`(:\d+)?: change: .+ \(`+target.name+`: .+\)$`, line)
				}
				reparse(t, target, out)
			})
		}
	}
	for _, f := range formats {
		assert.True(t, seen[f.name], "testdata/examples has no %s file", f.name)
	}
}

// modelMessages is what a model receives from the file.
func modelMessages(t *testing.T, file string, flags []string) []promptfmt.Message {
	t.Helper()
	args := append([]string{"convert", "-t", "stf", file}, flags...)
	out, errOut, status := runCmd(t, "", args...)
	if status != exitOK && strings.Contains(file, ".prompt") {
		// A prompt file's model is where it came from, which STF's ;meta
		// model would read as the request's: --lossy drops that, and
		// nothing a model receives.
		require.Equal(t, "stf: document: metadata \"model\" would be read as the request's model", strings.TrimSpace(errOut[strings.Index(errOut, "stf: "):]))
		out, errOut, status = runCmd(t, "", append([]string{"convert", "--lossy", "-t", "stf", file}, flags...)...)
	}
	require.Equal(t, exitOK, status, "every example converts to STF: %s", errOut)
	f, _ := lookupFormat("stf", "")
	return reparse(t, f, out).LLMMessages()
}

func reparse(t *testing.T, f *formatInfo, out string) *promptfmt.Document {
	t.Helper()
	doc, err := f.parse([]byte(out))
	require.NoError(t, err, "the %s output reads back:\n%s", f.name, out)
	return doc
}

// convertBack converts out (in format from) to format to, through the
// command, and returns the messages a model receives from the result.
func convertBack(t *testing.T, out string, from, to *formatInfo) []promptfmt.Message {
	t.Helper()
	args := []string{"convert", "-f", from.name, "-t", to.name, "-"}
	if to.name == "promptfile" {
		args = append(args, "-dir", t.TempDir())
	}
	back, errOut, status := runCmd(t, out, args...)
	require.Equal(t, exitOK, status, "the way back, %s to %s: %s", from.name, to.name, errOut)
	return reparse(t, to, back).LLMMessages()
}

func regexpQuote(s string) string {
	return strings.NewReplacer(".", `\.`, "/", `/`).Replace(s)
}

// TestMetadataHomes: what a format says beside its messages goes where the
// target keeps such things, and comes back.
func TestMetadataHomes(t *testing.T) {
	const dir = "../../testdata/examples/"
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-t", "stf", dir + "discard-html.prompt"}, []string{";meta\n", "'prompt-id': 'P42'", "  model: "}},                                        // front matter into ;meta, its model too (the request's is under request)
		{[]string{"-t", "stf", dir + "review.md"}, []string{";msg role=_head\n", "name: 'temperature'"}},                                                    // _head a hidden message, % lines kept
		{[]string{"-t", "stf", "--context", dir + "pick.json", dir + "pick.pdl"}, []string{"request: {\n    output: {\n      schema: {\n        items: {"}}, // the schema into ;meta, as the request's output
		{[]string{"-t", "stf", dir + "support.prompty"}, []string{";user name=Ross ticket=T-2291\n"}},                                                       // attributes into arguments
	} {
		out, errOut, status := runCmd(t, "", append([]string{"convert"}, tc.args...)...)
		require.Equal(t, exitOK, status, errOut)
		for _, w := range tc.want {
			assert.Contains(t, out, w, "%v", tc.args)
		}
	}
	// Settings go from a .prompty file's model.options to STF's ;meta and
	// back; temperature: 0 is the float 0.0 once it is not the file's own.
	stfOut, errOut, status := runCmd(t, "", "convert", "-t", "stf", dir+"support.prompty")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, stfOut, "temperature: 0.0,")
	back, errOut, status := runCmd(t, stfOut, "convert", "-f", "stf", "-t", "prompty", "-")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, back, "  options:\n    maxOutputTokens: 200\n    temperature: 0.0\n")
	// The schema comes back from STF into a PDL schema turn.
	stf, _, status := runCmd(t, "", "convert", "-t", "stf", "--context", dir+"pick.json", dir+"pick.pdl")
	require.Equal(t, exitOK, status)
	assert.Contains(t, stf, "output: {")
	pdlOut, errOut, status := runCmd(t, stf, "convert", "-f", "stf", "-t", "pdl", "-")
	require.Equal(t, exitOK, status, errOut)
	assert.True(t, strings.HasPrefix(pdlOut, "<|schema|>\n\n[int"), pdlOut)
}
