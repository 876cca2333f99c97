package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryCommandHasHelp: -h on every command and subcommand shows its
// usage with an example, on stdout, and exits 0.
func TestEveryCommandHasHelp(t *testing.T) {
	var calls [][]string
	for _, cmd := range commands {
		calls = append(calls, []string{cmd.name, "-h"})
		if _, err := lookupFormat(cmd.name, ""); err != nil {
			calls = append(calls, []string{"help", cmd.name}) // else help shows the format
		}
	}
	calls = append(calls,
		[]string{"promptfile", "new", "-h"}, []string{"promptfile", "fix", "-h"}, []string{"promptfile", "verify", "-h"},
		[]string{"prompty", "render", "-h"}, []string{"pdl", "render", "-h"})
	for _, args := range calls {
		out, errOut, status := runCmd(t, "", args...)
		assert.Equal(t, exitOK, status, "%v: %s", args, errOut)
		assert.Contains(t, out, "Usage: promptfmt ", "%v", args)
		assert.Contains(t, out, "Example:\n  ", "%v", args)
	}
}

func TestHelpPages(t *testing.T) {
	for _, f := range formats {
		out, errOut, status := runCmd(t, "", "help", f.name)
		require.Equal(t, exitOK, status, errOut)
		pkg := f.name
		if slices.Contains(providerNames(), f.name) {
			pkg = "provider"
		}
		assert.Contains(t, out, "go doc ./"+pkg, "each page says where the whole specification is")
		for _, line := range strings.Split(out, "\n") {
			assert.LessOrEqual(t, len([]rune(line)), 80, "%s: %q", f.name, line)
		}
		assert.LessOrEqual(t, strings.Count(out, "\n"), 60, "%s: one page", f.name)
	}
	_, errOut, status := runCmd(t, "", "help", "yaml")
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, `no help on "yaml"`)
	out, _, status := runCmd(t, "", "help")
	assert.Equal(t, exitOK, status)
	assert.Contains(t, out, "promptfmt help FORMAT")
}
