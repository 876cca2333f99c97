package main

import (
	"encoding/json"
	"io"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	registry "github.com/promptfmt/promptfmt/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const exampleDir = "../../testdata/examples/"

// request --as prints a whole body: the file's settings and the messages
// a model receives; a body's other members go with it to its own
// provider.
func TestRequest(t *testing.T) {
	out, errOut, status := runCmd(t, "", "request", "--as", "openai", exampleDir+"weather.json")
	require.Equal(t, exitOK, status, errOut)
	openai, err := registry.ByName("openai")
	require.NoError(t, err)
	doc, err := openai.Parse([]byte(out))
	require.NoError(t, err)
	want, _, status := runCmd(t, "", "parse", exampleDir+"weather.json")
	require.Equal(t, exitOK, status)
	var orig promptfmt.Document
	require.NoError(t, json.Unmarshal([]byte(want), &orig))
	assert.Equal(t, "gpt-4o", doc.Request.Model)
	assert.Equal(t, 0.3, *doc.Request.Temperature)
	assert.Equal(t, int64(300), *doc.Request.MaxTokens)
	assert.Len(t, doc.Request.Tools, 1)
	assert.Equal(t, "user-1234", doc.Meta["user"], "a member of the body goes with it")

	// Flags set what the file does not say, or says otherwise.
	out, errOut, status = runCmd(t, "", "request", "--as", "openai", "--model", "gpt-5", "--max-tokens", "64", exampleDir+"support.stf")
	require.Equal(t, exitOK, status, errOut)
	doc, err = openai.Parse([]byte(out))
	require.NoError(t, err)
	assert.Equal(t, "gpt-5", doc.Request.Model)
	assert.Equal(t, int64(64), *doc.Request.MaxTokens)
	msgs, _, _ := runCmd(t, "", "messages", "--as", "openai", exampleDir+"support.stf")
	fromMessages, err := openai.Parse([]byte(msgs))
	require.NoError(t, err)
	assert.True(t, promptfmt.EqualMessages(fromMessages.Messages, doc.Messages), "the messages of request and of messages --as agree")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"request", exampleDir + "weather.json"}, "request needs --as PROVIDER"},
		{[]string{"request", "--as", "mistral", exampleDir + "weather.json"}, `unknown provider "mistral"`},
		{[]string{"request", "--as", "openai", "--max-tokens", "-3", exampleDir + "weather.json"}, "--max-tokens takes a positive number"},
		{[]string{"request", "--as", "openai", "--inputs", exampleDir + "inputs.json", exampleDir + "support.stf"}, "--inputs applies to template formats only"},
	} {
		_, errOut, status := runCmd(t, "", c.args...)
		assert.Equal(t, exitUsage, status, "%v", c.args)
		assert.Contains(t, errOut, c.want, "%v", c.args)
	}

	// What the API requires of a request, the file or a flag sets; a body
	// without it is refused, not printed.
	for _, c := range []struct {
		as, file string
		want     []string
	}{
		{"openai", "support.stf", []string{"the openai API needs model in a request, which the file does not set: give --model M"}},
		{"anthropic", "support.stf", []string{"needs model", "the anthropic API needs max_tokens in a request, which the file does not set: give --max-tokens N"}},
		{"anthropic", "joke.prompt", []string{"needs max_tokens"}},
	} {
		out, errOut, status := runCmd(t, "", "request", "--as", c.as, exampleDir+c.file)
		assert.Equal(t, exitInvalid, status, "%s %s", c.as, c.file)
		assert.Empty(t, out)
		for _, w := range c.want {
			assert.Contains(t, errOut, w, "%s %s", c.as, c.file)
		}
	}
	out, errOut, status = runCmd(t, "", "request", "--as", "gemini", "--lossy", exampleDir+"support.stf")
	assert.Equal(t, exitOK, status, "Gemini's URL names the model: %s", errOut)
	assert.NotContains(t, out, `"model":`)
	_, errOut, status = runCmd(t, "", "request", "--as", "anthropic", "--model", "claude-sonnet-4-5", "--max-tokens", "512", "--lossy", exampleDir+"support.stf")
	assert.Equal(t, exitOK, status, errOut)
}

// A Dotprompt file names its model with the Genkit plugin that serves it
// (googleai/gemini-2.0-flash); a provider is asked for the model's own
// name, which parse keeps as written.
func TestRequestGenkitModel(t *testing.T) {
	for _, as := range []string{"gemini", "openai", "anthropic"} {
		out, errOut, status := runCmd(t, "", "request", "--as", as, "--max-tokens", "100", exampleDir+"joke.prompt")
		require.Equal(t, exitOK, status, errOut)
		p, err := registry.ByName(as)
		require.NoError(t, err)
		doc, err := p.Parse([]byte(out))
		require.NoError(t, err, out)
		assert.Equal(t, "gemini-2.0-flash", doc.Request.Model, as)
	}
	out, errOut, status := runCmd(t, "", "request", "--as", "openai", "--model", "openrouter/google/gemini-2.0-flash", exampleDir+"joke.prompt")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, `"model": "openrouter/google/gemini-2.0-flash"`, "--model is given as it is")
	out, _, status = runCmd(t, "", "parse", exampleDir+"joke.prompt")
	require.Equal(t, exitOK, status)
	assert.Contains(t, out, `"model": "googleai/gemini-2.0-flash"`, "parse keeps the reference")
}

// messages --as P FILE | messages -f P - prints what messages FILE
// prints, for every example and every provider that reads its bodies.
func TestMessagesThroughProviders(t *testing.T) {
	files, err := filepath.Glob(exampleDir + "*")
	require.NoError(t, err)
	for _, p := range registry.Providers() {
		if _, err := registry.ByName(p.Name()); err != nil {
			continue // written, not yet read
		}
		compared := 0
		for _, file := range files {
			if _, err := lookupFormat("", file); err != nil || templateInput(file) {
				continue
			}
			var flags []string
			if inputs, ok := matrixInputs[filepath.Base(file)]; ok {
				flags = []string{"--inputs", exampleDir + inputs}
			}
			want, errOut, status := runCmd(t, "", append([]string{"messages"}, append(flags, file)...)...)
			require.Equal(t, exitOK, status, "%s: %s", file, errOut)
			body, errOut, status := runCmd(t, "", append([]string{"messages", "--as", p.Name(), "--lossy"}, append(flags, file)...)...)
			require.Equal(t, exitOK, status, "%s as %s: %s", file, p.Name(), errOut)
			got, errOut2, status := runCmd(t, body, "messages", "-f", p.Name(), "-")
			require.Equal(t, exitOK, status, "%s as %s, read back: %s\n%s", file, p.Name(), errOut2, body)
			if errOut == "" && holdsExactly(t, p, want) { // nothing changed on the way: the same messages
				var w, g []promptfmt.Message
				require.NoError(t, json.Unmarshal([]byte(want), &w))
				require.NoError(t, json.Unmarshal([]byte(got), &g))
				assert.True(t, promptfmt.EqualMessages(w, g), "%s through %s:\n%s\n%s", file, p.Name(), want, got)
				compared++
			}
		}
		assert.GreaterOrEqual(t, compared, 3, "%s: too few examples held exactly to test anything", p.Name())
	}
}

// holdsExactly reports whether format p holds the messages of the JSON
// array msgs exactly: its strict writing takes them.
func holdsExactly(t *testing.T, p promptfmt.Format, msgs string) bool {
	var m []promptfmt.Message
	require.NoError(t, json.Unmarshal([]byte(msgs), &m))
	return p.Write(io.Discard, &promptfmt.Document{Messages: m}) == nil
}

// templateInput reports whether an example file holds a template's inputs.
func templateInput(file string) bool {
	for _, in := range matrixInputs {
		if filepath.Base(file) == in {
			return true
		}
	}
	return false
}
