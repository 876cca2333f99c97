package main

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every command of the README's "Try it" block runs as written, from the
// repository's root, and exits 0.
func TestReadmeTryIt(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	require.NoError(t, err)
	block := regexp.MustCompile("(?s)## Try it.*?```sh\n(.*?)```").FindSubmatch(readme)
	require.NotNil(t, block, "no Try it block")
	t.Chdir("../..")
	n := 0
	for _, line := range strings.Split(string(block[1]), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		args, ok := strings.CutPrefix(strings.TrimSpace(cmd), "go run ./cmd/promptfmt ")
		if !ok {
			continue
		}
		n++
		_, errOut, status := runCmd(t, "", strings.Fields(args)...)
		assert.Equal(t, exitOK, status, "promptfmt %s: %s", args, errOut)
	}
	require.Greater(t, n, 5, "too few commands found")
}
