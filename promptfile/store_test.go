package promptfile

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt/internal/atomicfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary doubles as the processes the store tests race: with
// PROMPTFILE_HELPER set it acts on the store in PROMPTFILE_DIR and exits.
func TestMain(m *testing.M) {
	if mode := os.Getenv("PROMPTFILE_HELPER"); mode != "" {
		os.Exit(helper(mode, os.Getenv("PROMPTFILE_DIR")))
	}
	os.Exit(m.Run())
}

func helper(mode, dir string) int {
	s, err := OpenStore(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	switch mode {
	case "draw": // draw 250 IDs and print them
		w := bufio.NewWriter(os.Stdout)
		for range 250 {
			id, err := s.NextID()
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			fmt.Fprintln(w, id)
		}
		w.Flush()
	case "write": // create big prompts, and rewrite one, until killed
		bodies := [2]string{strings.Repeat("first version\n", 1<<16), strings.Repeat("second version\n", 1<<16)}
		for i := 0; ; i++ {
			if _, err := s.Create(bodies[i%2], map[string]any{"generator": "crash test"}); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
			if err := rewrite(filepath.Join(dir, "rewritten.prompt"), bodies[i%2]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 1
			}
		}
	}
	return 0
}

// rewrite replaces the file at path as promptfmt promptfile fix does.
func rewrite(path, body string) error {
	src := []byte(promptFile("P1", "2022-08-17T14:37:22Z", Hash(body), "", body))
	return atomicfile.WriteFile(path, src, 0o644)
}

func helperCmd(t *testing.T, mode, dir string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "PROMPTFILE_HELPER="+mode, "PROMPTFILE_DIR="+dir)
	cmd.Stderr = os.Stderr
	return cmd
}

func TestNextIDConcurrentProcesses(t *testing.T) {
	dir := t.TempDir()
	const procs = 8
	var outs [procs]bytes.Buffer
	var cmds [procs]*exec.Cmd
	for i := range cmds {
		cmds[i] = helperCmd(t, "draw", dir)
		cmds[i].Stdout = &outs[i]
		require.NoError(t, cmds[i].Start())
	}
	seen := map[string]int{}
	for i, cmd := range cmds {
		require.NoError(t, cmd.Wait(), "process %d", i)
		for _, id := range strings.Fields(outs[i].String()) {
			seen[id]++
		}
	}
	require.Len(t, seen, procs*250, "distinct IDs")
	for n := 1; n <= procs*250; n++ {
		require.Equal(t, 1, seen["P"+strconv.Itoa(n)], "P%d: IDs are handed out in order, each once", n)
	}
	next, err := os.ReadFile(filepath.Join(dir, NextIDFile))
	require.NoError(t, err)
	assert.Equal(t, strconv.Itoa(procs*250+1)+"\n", string(next))
}

func TestStoreCrashLeavesWholeFiles(t *testing.T) {
	dir := t.TempDir()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 12 {
		cmd := helperCmd(t, "write", dir)
		require.NoError(t, cmd.Start())
		time.Sleep(time.Duration(20+rng.IntN(80)) * time.Millisecond)
		require.NoError(t, cmd.Process.Kill())
		cmd.Wait()
		files, err := filepath.Glob(filepath.Join(dir, "*.prompt"))
		require.NoError(t, err)
		for _, name := range files {
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			require.NoError(t, Verify(src), "round %d: %s after a kill", round, name)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "P*.prompt"))
	if len(files) == 0 {
		t.Fatal("no prompt was ever written: the kills came too early to test anything")
	}
	t.Logf("%d prompts written across 12 killed processes", len(files))
}

func TestNextIDRebuilt(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	id, err := s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P1", id, "an empty store starts at P1")

	put := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	put("P3.prompt", "body\n")
	put("renamed.prompt", promptFile("P10", "2022-08-17T14:37:22Z", Hash("x"), "", "x"))
	put("alias.prompt", "---\nid: P12\n---\nx\n")
	put("P99.txt", "not a prompt")
	put("broken.prompt", "---\nprompt-id: P50\n")
	require.NoError(t, os.Remove(filepath.Join(dir, NextIDFile)))
	id, err = s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P13", id, "rebuilt from the highest ID present (names and prompt-id keys)")

	put("P14.prompt", "copied in by hand\n")
	put("P15.prompt", "copied in by hand\n")
	id, err = s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P16", id, "an ID whose file exists is passed over")

	put(NextIDFile, "twelve\n")
	_, err = s.NextID()
	assert.ErrorContains(t, err, "want a positive whole number")
}

func TestCreate(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	path, err := s.Create("\n  \nDiscard all HTML tags.", map[string]any{"generator": "human", "ancestors": []any{"P1"}})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "P1.prompt"), path)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, Verify(src))
	doc, err := Parse(src)
	require.NoError(t, err)
	assert.Equal(t, "Discard all HTML tags.\n", doc.Messages[0].Text())
	assert.Equal(t, "human", doc.Meta["generator"])
	assert.Equal(t, []any{"P1"}, doc.Meta["ancestors"])
	assert.WithinDuration(t, time.Now(), mustTime(t, doc.Meta[KeyCreated].(string)), time.Minute)

	path, err = s.Create("x", map[string]any{KeyCreated: "2022-08-17T14:37:22Z"})
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "P2.prompt"), path)
	src, _ = os.ReadFile(path)
	assert.Contains(t, string(src), `created-at: "2022-08-17T14:37:22Z"`)

	_, err = s.Create("x", map[string]any{"bad": make(chan int)})
	require.Error(t, err)
	_, err = os.Stat(filepath.Join(dir, "P3.prompt"))
	assert.True(t, os.IsNotExist(err), "nothing written for a document that cannot be")
	id, _ := s.NextID()
	assert.Equal(t, "P3", id, "no ID spent on it either")

	_, err = OpenStore(path)
	assert.ErrorContains(t, err, "not a directory")
}

func mustTime(t *testing.T, s string) time.Time {
	tm, err := time.Parse(time.RFC3339, s)
	require.NoError(t, err)
	return tm
}
