package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMessagesAsOwnProvider: for each example that is a provider's body,
// `promptfmt messages --as P FILE | promptfmt messages -f P -` prints what
// `promptfmt messages FILE` prints, but the messages' metadata, which is
// not sent (Document.ForModel); and for every example, what messages --as
// writes for any provider reads back as that provider's body (sent to
// Anthropic or Gemini, turns of one role are merged and tool messages are
// user turns, so only the text formats' own provider reads back exactly:
// TestMessagesAsReadsBack).
func TestMessagesAsOwnProvider(t *testing.T) {
	const dir = "../../testdata/examples"
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	own := 0
	for _, e := range entries {
		file := filepath.Join(dir, e.Name())
		f, err := lookupFormat("", file)
		if err != nil || isMatrixInput(e.Name()) {
			continue
		}
		var flags []string
		if inputs, ok := matrixInputs[e.Name()]; ok {
			flags = []string{"--context", filepath.Join(dir, inputs)}
		}
		want, errOut, status := runCmd(t, "", append([]string{"messages", file}, flags...)...)
		require.Equal(t, exitOK, status, errOut)
		for _, p := range providerNames() {
			body, errOut, status := runCmd(t, "", append([]string{"messages", "--as", p, file}, flags...)...)
			if status != exitOK {
				require.Equal(t, exitInvalid, status, "%s as %s: %s", e.Name(), p, errOut)
				require.NotEqual(t, f.name, p, "%s: its own provider refuses it: %s", e.Name(), errOut)
				continue
			}
			got, errOut, status := runCmd(t, body, "messages", "-f", p, "-")
			require.Equal(t, exitOK, status, "%s as %s does not read back: %s\n%s", e.Name(), p, errOut, body)
			if p == f.name {
				own++
				require.Equal(t, withoutMetadata(t, want), withoutMetadata(t, got), "%s: messages --as %s | messages -f %s -", e.Name(), p, p)
			}
		}
	}
	require.Equal(t, len(providerNames()), own, "an example of each provider")
}

// withoutMetadata drops the metadata of printed messages.
func withoutMetadata(t *testing.T, printed string) []map[string]any {
	t.Helper()
	var msgs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(printed), &msgs))
	for _, m := range msgs {
		delete(m, "metadata")
	}
	return slices.Clip(msgs)
}
