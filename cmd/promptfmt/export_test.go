package main

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMessagesAs(t *testing.T) {
	const stf = "../../testdata/examples/support.stf"
	out, errOut, status := runCmd(t, "", "messages", "--as", "openai", stf)
	require.Equal(t, exitOK, status, errOut)
	var body map[string][]map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &body))
	msgs := body["messages"]
	assert.Equal(t, "system", msgs[0]["role"])
	assert.Equal(t, "Ross", msgs[1]["name"])
	assert.NotEmpty(t, msgs[2]["tool_calls"], "the ;call becomes a tool call")
	assert.Equal(t, "tool", msgs[3]["role"])

	// Anthropic takes no names: refused, each named, or dropped with --lossy.
	_, errOut, status = runCmd(t, "", "messages", "--as", "anthropic", stf)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, stf+`:12: anthropic: message 2 (line 12): a name ("Ross") cannot be expressed`)
	out, errOut, status = runCmd(t, "", "messages", "--as", "anthropic", "--lossy", stf)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, stf+`:12: change: dropped the name "Ross" (anthropic: `)
	var anth map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &anth))
	assert.Contains(t, anth["system"], "site-reliability")

	// A template: rendered, then exported; Gemini's image is inline data.
	out, errOut, status = runCmd(t, "", "messages", "--as", "gemini", "--context", "../../testdata/examples/pick.json", "../../testdata/examples/pick.pdl")
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, `"system_instruction"`)
	assert.Contains(t, out, `"inline_data": {`)
	assert.Contains(t, out, `"mime_type": "image/png"`)

	_, errOut, status = runCmd(t, "", "messages", "--as", "mistral", stf)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `unknown provider "mistral"`)
	_, _, status = runCmd(t, "", "messages", "--lossy", stf)
	assert.Equal(t, exitUsage, status, "--lossy without --as")
}
