package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/promptfmt/promptfmt/promptfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary is the command itself when PROMPTFMT_MAIN is set, so
// tests can run it as separate processes.
func TestMain(m *testing.M) {
	if os.Getenv("PROMPTFMT_MAIN") != "" {
		main()
	}
	os.Exit(m.Run())
}

func TestPromptFileNew(t *testing.T) {
	dir := t.TempDir()
	out, errOut, status := runCmd(t, "Discard all HTML tags.\n", "promptfile", "new", "-dir", dir, "-generator", "human", "-model", "gpt-x", "-ancestors", "P1, P2")
	require.Equal(t, 0, status, errOut)
	path := filepath.Join(dir, "P1.prompt")
	assert.Equal(t, path+"\n", out)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, promptfile.Verify(src))
	assert.Regexp(t, `^---\nprompt-id: "P1"\ncreated-at: "[0-9T:-]+Z"\nsha1-hash: "[0-9a-f]{40}"\nancestors:\n  - P1\n  - P2\ngenerator: human\nmodel: gpt-x\n---\n\nDiscard all HTML tags.\n$`, string(src))

	body := writeFile(t, "body.txt", "second\r\nprompt")
	out, _, status = runCmd(t, "", "promptfile", "new", "-dir", dir, body)
	require.Equal(t, 0, status)
	assert.Equal(t, filepath.Join(dir, "P2.prompt")+"\n", out)

	for _, tc := range []struct {
		args   []string
		stdin  string
		status int
		stderr string
	}{
		{[]string{"new", "-dir", dir, "-ancestors", "P1,42"}, "x", 2, `-ancestors: "42" is not a prompt ID`},
		{[]string{"new", "-dir", dir}, " \n\n", 1, "<stdin>: the body is empty"},
		{[]string{"new", "-dir", dir}, "bad \xff", 1, "<stdin>:1:5: invalid UTF-8"},
		{[]string{"new", "-dir", filepath.Join(dir, "P1.prompt")}, "x", 1, "not a directory"},
		{[]string{"fix"}, "", 2, "promptfile fix needs files"},
		{[]string{"frob"}, "", 2, `unknown subcommand "frob"`},
		{nil, "", 2, "Subcommands:\n  new"},
	} {
		_, errOut, status := runCmd(t, tc.stdin, append([]string{"promptfile"}, tc.args...)...)
		assert.Equal(t, tc.status, status, "%v", tc.args)
		assert.Contains(t, errOut, tc.stderr, "%v", tc.args)
	}
	out, _, status = runCmd(t, "", "promptfile", "-h")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "verify")
	entries, _ := os.ReadDir(dir)
	assert.Len(t, entries, 4, "P1, P2, .next-id, .next-id.lock: no prompt written by a failed new")
}

// TestPromptFileNewMakesStore: the first prompt starts its store, as the
// -h example does (promptfile new -dir prompts).
func TestPromptFileNewMakesStore(t *testing.T) {
	store := filepath.Join(t.TempDir(), "team", "prompts")
	out, errOut, status := runCmd(t, "Discard all HTML tags.\n", "promptfile", "new", "-dir", store)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, filepath.Join(store, "P1.prompt")+"\n", out)
	_, errOut, status = runCmd(t, "", "promptfile", "verify", store)
	assert.Equal(t, exitOK, status, errOut)

	// Nothing is made for a body refused.
	empty := filepath.Join(t.TempDir(), "prompts")
	_, _, status = runCmd(t, " \n", "promptfile", "new", "-dir", empty)
	assert.Equal(t, exitInvalid, status)
	assert.NoDirExists(t, empty)
}

func TestPromptFileFixAndVerify(t *testing.T) {
	dir := t.TempDir()
	put := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	const body = "Find more precise way to state this instruction:\nDiscard all HTML tags.\n"
	seed := put("seed.prompt", "---\n# imported\nid: 42\ngenerated-at: 2022-08-17T14:37:22Z\nsha1-hash: 7fd8e8e70235bc6fd5c1\n---\n\n"+body)
	bare := put("bare.prompt", "Just a body\r\n")
	put("sub/good.prompt", "---\nprompt-id: P9\ncreated-at: 2022-08-17T14:37:22Z\nsha1-hash: "+promptfile.Hash(body)+"\n---\n\n"+body)
	put(".hidden/bad.prompt", "skipped: hidden")
	put("notes.txt", "not a prompt file")

	_, errOut, status := runCmd(t, "", "promptfile", "verify", dir)
	assert.Equal(t, 1, status)
	assert.Equal(t, strings.Join([]string{
		bare + ":1:1: missing prompt-id: want P followed by digits, such as P42",
		bare + ":1:1: missing created-at: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z",
		bare + ":1:1: missing sha1-hash: want 40 hexadecimal digits; the body hashes to " + promptfile.Hash("Just a body\n"),
		seed + `:3:5: id "42" is malformed: want P followed by digits, such as P42`,
		seed + ":1:1: missing created-at: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z",
		seed + `:5:12: sha1-hash "7fd8e8e70235bc6fd5c1" is malformed: want 40 hexadecimal digits; the body hashes to 3b215be875d3e5c583e1a4bd80a358243b4747b1`,
		"",
	}, "\n"), headlines(errOut), "every failure, files in lexical order, good.prompt silent")

	before, _ := os.ReadFile(seed)
	_, errOut, status = runCmd(t, "", "promptfile", "fix", dir)
	assert.Equal(t, 1, status, "a refused file fails the run")
	assert.Contains(t, errOut, bare+":1:1: fixed: missing prompt-id set to P1\n")
	assert.Contains(t, errOut, seed+":5:12: sha1-hash 7fd8e8e70235bc6fd5c1 does not match the body")
	after, _ := os.ReadFile(seed)
	assert.Equal(t, string(before), string(after), "a refused file is left alone")
	src, _ := os.ReadFile(bare)
	assert.True(t, strings.HasSuffix(string(src), "---\r\n\r\nJust a body\r\n"), "the body's bytes kept: %q", src)

	_, errOut, status = runCmd(t, "", "promptfile", "fix", "-rehash", seed)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, errOut, seed+`:3:5: fixed: id "42" set to P2`)
	src, _ = os.ReadFile(seed)
	assert.Contains(t, string(src), "# imported\nprompt-id: \"P2\"\n", "comment kept, the next ID drawn")
	assert.Contains(t, string(src), "generated-at: 2022-08-17T14:37:22Z\n")

	_, errOut, status = runCmd(t, "", "promptfile", "verify", dir)
	assert.Equal(t, 0, status, errOut)
	_, errOut, status = runCmd(t, "", "check", dir)
	assert.Equal(t, 0, status, errOut)

	// Fixing again changes nothing; verify reads standard input too.
	_, errOut, status = runCmd(t, "", "promptfile", "fix", dir)
	assert.Equal(t, 0, status)
	assert.Empty(t, errOut)
	_, errOut, status = runCmd(t, strings.Replace(string(src), "HTML", "XML", 1), "promptfile", "verify")
	assert.Equal(t, 1, status)
	assert.Contains(t, errOut, "<stdin>:6:12: the body does not match its hash")
}

// TestPromptFileNewProcesses runs the command as separate processes, all
// adding to one store at once.
func TestPromptFileNewProcesses(t *testing.T) {
	dir := t.TempDir()
	const n = 24
	var wg sync.WaitGroup
	paths := make([]string, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "promptfile", "new", "-dir", dir)
			cmd.Env = append(os.Environ(), "PROMPTFMT_MAIN=1")
			cmd.Stdin = strings.NewReader(fmt.Sprintf("prompt %d\n", i))
			var out, errOut bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &errOut
			if err := cmd.Run(); err != nil {
				t.Errorf("process %d: %v: %s", i, err, errOut.String())
			}
			paths[i] = strings.TrimSpace(out.String())
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for _, p := range paths {
		assert.False(t, seen[p], "%s handed out twice", p)
		seen[p] = true
	}
	for i := 1; i <= n; i++ {
		assert.True(t, seen[filepath.Join(dir, fmt.Sprintf("P%d.prompt", i))], "P%d", i)
	}
	_, errOut, status := runCmd(t, "", "promptfile", "verify", dir)
	assert.Equal(t, 0, status, errOut)
}

// A Dotprompt file is read as Dotprompt by its content: check reports no
// PromptCritical key missing, and promptfile fix and verify refuse it,
// leaving it byte for byte as it was.
func TestDotpromptFileNotAPromptFile(t *testing.T) {
	src := "---\nmodel: googleai/gemini-2.0-flash\n---\n{{role \"system\"}}\nBe brief.\n{{role \"user\"}}\nHi {{name}}\n"
	name := filepath.Join(t.TempDir(), "hi.prompt")
	require.NoError(t, os.WriteFile(name, []byte(src), 0o644))
	out, errOut, status := runCmd(t, "", "check", name)
	assert.Equal(t, exitOK, status, errOut)
	assert.NotContains(t, out+errOut, "prompt-id")
	out, errOut, status = runCmd(t, "", "messages", name)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, out, `"role": "system"`)
	for _, cmd := range []string{"fix", "verify"} {
		_, errOut, status = runCmd(t, "", "promptfile", cmd, name)
		assert.Equal(t, exitInvalid, status, cmd)
		assert.Contains(t, errOut, name+": not a PromptCritical prompt file by its content", cmd)
	}
	got, err := os.ReadFile(name)
	require.NoError(t, err)
	assert.Equal(t, src, string(got), "left untouched")
}
