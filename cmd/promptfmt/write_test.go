package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt/promptfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	messySTF     = ";user\n  hi\n;assistant\nyo\n"
	canonicalSTF = ";user\n  hi\n;ai\nyo\n"
	badSTF       = ";bogus\nx\n"
)

func putFile(t *testing.T, name, content string, perm os.FileMode) string {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(content), 0o600))
	require.NoError(t, os.Chmod(name, perm))
	return name
}

func readString(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return string(b)
}

func isLink(t *testing.T, name string) bool {
	li, err := os.Lstat(name)
	require.NoError(t, err)
	return li.Mode()&fs.ModeSymlink != 0
}

// fmt -w through a symbolic link rewrites the target and keeps the link
// (before, the link became a regular file and the target was unchanged).
func TestFmtWriteThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	target := putFile(t, filepath.Join(dir, "real", "m.stf"), messySTF, 0o640)
	link := filepath.Join(dir, "link.stf")
	require.NoError(t, os.Symlink("real/m.stf", link))
	_, errOut, status := runCmd(t, "", "fmt", "-w", link)
	require.Equal(t, exitOK, status, errOut)
	assert.True(t, isLink(t, link), "the link is still a link")
	assert.Equal(t, canonicalSTF, readString(t, target))
	fi, _ := os.Stat(target)
	assert.Equal(t, os.FileMode(0o640), fi.Mode().Perm(), "the target keeps its mode")
}

// A read-only file is refused, by the mode, even as root; --force rewrites
// it and it stays read-only.
func TestFmtReadOnly(t *testing.T) {
	name := putFile(t, filepath.Join(t.TempDir(), "ro.stf"), messySTF, 0o444)
	_, errOut, status := runCmd(t, "", "fmt", "-w", name)
	assert.Equal(t, exitInvalid, status)
	assert.Equal(t, name+": cannot write: read-only (use --force)\n", errOut)
	assert.Equal(t, messySTF, readString(t, name), "refused: untouched")

	_, errOut, status = runCmd(t, "", "fmt", "--force", name)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "--force applies with -w")

	_, errOut, status = runCmd(t, "", "fmt", "-w", "--force", name)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, canonicalSTF, readString(t, name))
	fi, _ := os.Stat(name)
	assert.Equal(t, os.FileMode(0o444), fi.Mode().Perm(), "still read-only")
}

// The class, over a tree: a symbolic link (to a file outside it), a
// read-only file, a bad file, files to rewrite and files already canonical.
// Each file is reported at most once (the refused and the bad exactly
// once), the summary counts each once, and every file not rewritten is
// byte-identical.
func TestFmtTreePolicy(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	target := putFile(t, filepath.Join(outside, "target.stf"), messySTF, 0o644)
	files := map[string]string{ // relative name: content
		"good.stf":         canonicalSTF,
		"messy.stf":        messySTF,
		"ro.stf":           messySTF,
		"ro-canonical.stf": canonicalSTF,
		"bad.stf":          badSTF,
		"sub/messy.stf":    messySTF,
		"sub/good.stf":     canonicalSTF,
	}
	for rel, content := range files {
		perm := os.FileMode(0o644)
		if strings.HasPrefix(rel, "ro") {
			perm = 0o444
		}
		putFile(t, filepath.Join(root, rel), content, perm)
	}
	link := filepath.Join(root, "sub", "link.stf")
	require.NoError(t, os.Symlink(target, link))
	// A temporary file a killed run left, of our pattern, and one not ours.
	stale := putFile(t, filepath.Join(root, ".messy.stf.promptfmt-4242.tmp"), "half", 0o600)
	notOurs := putFile(t, filepath.Join(root, ".messy.stf.tmp4242"), "keep", 0o600)
	old := time.Now().Add(-time.Hour)
	require.NoError(t, os.Chtimes(stale, old, old))
	require.NoError(t, os.Chtimes(notOurs, old, old))

	_, errOut, status := runCmd(t, "", "fmt", "-w", root)
	assert.Equal(t, exitInvalid, status)
	reported := map[string]int{}
	for _, line := range strings.Split(headlines(errOut), "\n") {
		if name, _, ok := strings.Cut(line, ":"); ok && name != "promptfmt" && !strings.HasPrefix(line, "  ") {
			reported[name]++
		}
	}
	assert.Equal(t, map[string]int{filepath.Join(root, "ro.stf"): 1, filepath.Join(root, "bad.stf"): 1}, reported, errOut)
	assert.Contains(t, errOut, filepath.Join(root, "ro.stf")+": cannot write: read-only (use --force)\n")
	assert.True(t, strings.HasSuffix(errOut, "promptfmt: formatted 8 files, 3 changed, 2 failed\n"), errOut)

	for rel, content := range files {
		want := content
		if rel == "messy.stf" || rel == "sub/messy.stf" {
			want = canonicalSTF
		}
		assert.Equal(t, want, readString(t, filepath.Join(root, rel)), rel)
	}
	assert.True(t, isLink(t, link), "the link is still a link")
	assert.Equal(t, canonicalSTF, readString(t, target), "written through the link")
	_, err := os.Stat(stale)
	assert.ErrorIs(t, err, fs.ErrNotExist, "the stale temporary file is removed")
	assert.Equal(t, "keep", readString(t, notOurs), "a file not of our naming stays")
	leftovers, _ := filepath.Glob(filepath.Join(root, "*", ".*promptfmt-*"))
	assert.Empty(t, leftovers)
}

const fixable = "---\ngenerator: human\n---\n\nDiscard all HTML tags.\n"

// promptfile fix reports a change only once it is written: a refused write
// prints no fixed: line, names the user's file, and leaves it as it was.
func TestPromptfileFixReportsOnlyWhatWasDone(t *testing.T) {
	dir := t.TempDir()
	name := putFile(t, filepath.Join(dir, "a.prompt"), fixable, 0o444)
	_, errOut, status := runCmd(t, "", "promptfile", "fix", name)
	assert.Equal(t, exitInvalid, status)
	assert.Equal(t, name+": cannot write: read-only (use --force)\n", errOut)
	assert.NotContains(t, errOut, "fixed:")
	assert.Equal(t, fixable, readString(t, name))

	_, errOut, status = runCmd(t, "", "promptfile", "fix", "--force", name)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, 3, strings.Count(errOut, ": fixed: "), errOut)
	require.NoError(t, promptfile.Verify([]byte(readString(t, name))))
	fi, _ := os.Stat(name)
	assert.Equal(t, os.FileMode(0o444), fi.Mode().Perm())
}

// promptfile fix through a symbolic link fixes the target, keeps the link,
// and draws the ID from the link's directory, the store named.
func TestPromptfileFixThroughSymlink(t *testing.T) {
	store, elsewhere := t.TempDir(), t.TempDir()
	target := putFile(t, filepath.Join(elsewhere, "real.prompt"), fixable, 0o644)
	link := filepath.Join(store, "linked.prompt")
	require.NoError(t, os.Symlink(target, link))
	_, errOut, status := runCmd(t, "", "promptfile", "fix", link)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, link+":1:1: fixed: missing prompt-id set to P1")
	assert.True(t, isLink(t, link))
	require.NoError(t, promptfile.Verify([]byte(readString(t, target))))
}

// verify names every file that shares an ID with another, at its ID.
func TestPromptfileVerifyDuplicateIDs(t *testing.T) {
	dir := t.TempDir()
	file := func(id string) string {
		body := "x\n"
		return "---\nprompt-id: " + id + "\ncreated-at: \"2022-08-17T14:37:22Z\"\nsha1-hash: " + promptfileHash(body) + "\n---\n\n" + body
	}
	putFile(t, filepath.Join(dir, "P4.prompt"), file("P4"), 0o644)
	putFile(t, filepath.Join(dir, "greeting.prompt"), file("P4"), 0o644)
	putFile(t, filepath.Join(dir, "sub", "padded.prompt"), file("P04"), 0o644)
	putFile(t, filepath.Join(dir, "P5.prompt"), file("P5"), 0o644)
	putFile(t, filepath.Join(dir, "P6.prompt"), file("P6"), 0o644)
	putFile(t, filepath.Join(dir, "copy.prompt"), file("P6"), 0o644)
	_, errOut, status := runCmd(t, "", "promptfile", "verify", dir)
	assert.Equal(t, exitInvalid, status)
	lines := regexp.MustCompile(`(?m)^(\S+):2:12: prompt-id (P0?[46]) is also held by (.*): two prompts`).FindAllStringSubmatch(errOut, -1)
	got := map[string]string{}
	for _, m := range lines {
		got[filepath.Base(m[1])] = m[2] + " / " + m[3]
	}
	p := func(rel string) string { return filepath.Join(dir, rel) }
	assert.Equal(t, map[string]string{
		"P4.prompt":       "P4 / " + p("greeting.prompt") + ", " + p("sub/padded.prompt"),
		"greeting.prompt": "P4 / " + p("P4.prompt") + ", " + p("sub/padded.prompt"),
		"padded.prompt":   "P04 / " + p("P4.prompt") + ", " + p("greeting.prompt"),
		"P6.prompt":       "P6 / " + p("copy.prompt"),
		"copy.prompt":     "P6 / " + p("P6.prompt"),
	}, got, errOut)
	assert.NotContains(t, errOut, "P5.prompt")

	_, errOut, status = runCmd(t, "", "promptfile", "verify", p("P4.prompt"), p("P5.prompt"))
	assert.Equal(t, exitOK, status, errOut)

	// One file named twice, or through a link, is one file.
	require.NoError(t, os.Symlink("P5.prompt", p("link.prompt")))
	_, errOut, status = runCmd(t, "", "promptfile", "verify", p("P5.prompt"), p("P5.prompt"), p("link.prompt"))
	assert.Equal(t, exitOK, status, errOut)
}

func promptfileHash(body string) string { return promptfile.Hash(body) }

// convert -o follows the same policy: a read-only output is refused.
func TestConvertOutputReadOnly(t *testing.T) {
	dir := t.TempDir()
	in := putFile(t, filepath.Join(dir, "m.stf"), messySTF, 0o644)
	out := putFile(t, filepath.Join(dir, "out.stf"), "old\n", 0o444)
	_, errOut, status := runCmd(t, "", "convert", "-t", "stf", "-o", out, in)
	assert.Equal(t, exitInvalid, status)
	assert.Equal(t, out+": cannot write: read-only (use --force)\n", errOut)
	assert.Equal(t, "old\n", readString(t, out))
	_, errOut, status = runCmd(t, "", "convert", "-t", "stf", "--force", "-o", out, in)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, canonicalSTF, readString(t, out))
}

// convert streams the writer's output into the file: a document the
// target refuses leaves an existing file as it was and makes no new one
// (nor its directory), with nothing left beside them; an empty output is
// still a file.
func TestConvertOutputRefused(t *testing.T) {
	dir := t.TempDir()
	bad := putFile(t, filepath.Join(dir, "bad.stf"), ";user\nhi\n;extra\n{a: 1}\n;end\n", 0o644) // PDL has no metadata
	old := putFile(t, filepath.Join(dir, "old.prompty"), "old\n", 0o644)
	_, _, status := runCmd(t, "", "convert", "-t", "pdl", "-o", old, bad)
	assert.Equal(t, exitInvalid, status)
	assert.Equal(t, "old\n", readString(t, old))
	fresh := filepath.Join(dir, "sub", "new.pdl")
	_, _, status = runCmd(t, "", "convert", "-t", "pdl", "-o", fresh, bad)
	assert.Equal(t, exitInvalid, status)
	assert.NoFileExists(t, fresh)
	assert.NoDirExists(t, filepath.Dir(fresh))
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	assert.Len(t, entries, 2, "a temporary file was left")
	empty := filepath.Join(dir, "empty.stf")
	_, errOut, status := runCmd(t, "", "convert", "-f", "prompty", "-t", "stf", "-o", empty, putFile(t, filepath.Join(dir, "e.prompty"), "", 0o644))
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "", readString(t, empty))
}
