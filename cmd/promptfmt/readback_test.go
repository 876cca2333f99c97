package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessagesAsReadsBack: for every example and every provider format
// that reads, what messages --as P prints, read back by messages -f P,
// prints the messages messages prints of the file, as they are sent (see
// asSent), and sending them again prints the same body. Where the API
// has no place for something (a name), the refusal says so, and what
// --lossy prints reads back as the messages without it.
func TestMessagesAsReadsBack(t *testing.T) {
	// The examples with names, which the Responses API has no place for.
	named := map[string]int{"openai": 0, "openai-responses": 4}
	for as, wantLossy := range named {
		t.Run(as, func(t *testing.T) { readsBack(t, as, wantLossy) })
	}
}

func readsBack(t *testing.T, as string, wantLossy int) {
	const dir = "../../testdata/examples"
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	exact, lossy := 0, 0
	for _, e := range entries {
		file := filepath.Join(dir, e.Name())
		if _, err := lookupFormat("", file); err != nil || isMatrixInput(e.Name()) {
			continue // images, a template's inputs
		}
		var flags []string
		if inputs, ok := matrixInputs[e.Name()]; ok {
			flags = []string{"--context", filepath.Join(dir, inputs)}
		}
		t.Run(e.Name(), func(t *testing.T) {
			out, errOut, status := runCmd(t, "", append([]string{"messages", file}, flags...)...)
			require.Equal(t, exitOK, status, errOut)
			var want []promptfmt.Message
			require.NoError(t, json.Unmarshal([]byte(out), &want))
			want = asSent(want, as)

			body, errOut, status := runCmd(t, "", append([]string{"messages", "--as", as, file}, flags...)...)
			if status != exitOK {
				require.Equal(t, exitInvalid, status, errOut)
				for _, line := range strings.Split(strings.TrimSpace(headlines(errOut)), "\n") {
					assert.Regexp(t, `^`+regexpQuote(file)+`:\d+: `+as+`: message \d+ \(line \d+\): a name \(".+"\) cannot be expressed$`, line)
				}
				body, errOut, status = runCmd(t, "", append([]string{"messages", "--as", as, "--lossy", file}, flags...)...)
				require.Equal(t, exitOK, status, errOut)
				for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
					assert.Regexp(t, `: change: dropped the name ".+" \(`+as+`: `, line)
				}
				for i := range want {
					want[i].Name = ""
				}
				lossy++
			} else {
				assert.Empty(t, errOut)
				exact++
			}
			back, errOut, status := runCmd(t, body, "messages", "-f", as, "-")
			require.Equal(t, exitOK, status, "%s\n%s", errOut, body)
			got := sentMessages(t, back)
			assert.True(t, promptfmt.EqualMessages(want, got), "%s:\nwant %v\ngot  %v\n%s", e.Name(), want, got, body)
			again, errOut, status := runCmd(t, body, "messages", "-f", as, "--as", as, "-")
			require.Equal(t, exitOK, status, errOut)
			assert.Equal(t, body, again, "sending what was read sends the same body")
		})
	}
	assert.GreaterOrEqual(t, exact, 5, "examples read back exactly")
	assert.Equal(t, wantLossy, lossy, "examples with a name")
}

// sentMessages reads what messages prints, without the metadata, which
// no provider is sent.
func sentMessages(t *testing.T, out string) []promptfmt.Message {
	t.Helper()
	var msgs []promptfmt.Message
	require.NoError(t, json.Unmarshal([]byte(out), &msgs), out)
	for i := range msgs {
		msgs[i].Metadata = nil
	}
	return msgs
}

func isMatrixInput(name string) bool {
	for _, in := range matrixInputs {
		if in == name {
			return true
		}
	}
	return false
}

// asSent is msgs as a provider is sent them (Document.ForModel: no
// metadata, a tool's reply that names its call a tool_result), with media
// in the form the body keeps (decision 1 of the import mapping): base64
// data and its media type as one data: URI; a URL without the media type,
// which the server reads from the resource. OpenAI's results are tool
// messages of their own (Chat's name only the call): a user message's
// tool_result parts (an Anthropic or Gemini body's) are each one, in
// their place, the user's other parts a user message on either side.
func asSent(msgs []promptfmt.Message, as string) []promptfmt.Message {
	var out []promptfmt.Message
	for _, m := range (&promptfmt.Document{Messages: msgs}).ForModel().Messages {
		for j := range m.Content {
			p := &m.Content[j]
			if p.Kind == promptfmt.KindToolResult && as == "openai" {
				p.ToolName = ""
			}
			if p.MediaType == "" {
				continue
			}
			if !strings.Contains(p.Value, ":") { // base64 data has no scheme
				p.Value = "data:" + p.MediaType + ";base64," + p.Value
			}
			p.MediaType = ""
		}
		if m.Role != "user" {
			out = append(out, m)
			continue
		}
		var run []promptfmt.ContentPart
		for _, p := range m.Content {
			if p.Kind != promptfmt.KindToolResult {
				run = append(run, p)
				continue
			}
			if run != nil {
				out = append(out, promptfmt.Message{Role: m.Role, Name: m.Name, Content: run})
				run = nil
			}
			out = append(out, promptfmt.Message{Role: "tool", Content: []promptfmt.ContentPart{p}})
		}
		if run != nil {
			out = append(out, promptfmt.Message{Role: m.Role, Name: m.Name, Content: run})
		}
	}
	return out
}
