package main

import (
	"fmt"
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

// setClock makes converted prompts created at t, until the returned
// function restores the clock.
func setClock(t time.Time) func() {
	old := clock
	clock = func() time.Time { return t }
	return func() { clock = old }
}

var promptName = regexp.MustCompile(`^P[0-9]+\.prompt$`)

// storeFiles returns the ID each .prompt file in dir holds, by file name,
// after checking that it is spec-complete: the three keys, a valid hash,
// named by its ID, passing check and promptfile verify with nothing said.
func specComplete(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	ids := map[string]string{}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".prompt") {
			continue
		}
		path := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		doc, err := promptfile.Parse(src)
		require.NoError(t, err)
		assert.Empty(t, doc.Warnings, "%s", e.Name())
		id, _ := doc.Meta[promptfile.KeyID].(string)
		assert.True(t, promptfile.IsID(id), "%s: prompt-id %q", e.Name(), id)
		assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`, doc.Meta[promptfile.KeyCreated], "%s", e.Name())
		assert.Equal(t, promptfile.Hash(doc.Messages[0].Text()), doc.Meta[promptfile.KeyHash], "%s", e.Name())
		assert.Regexp(t, promptName, e.Name())
		assert.Equal(t, id+".prompt", e.Name(), "named by its ID")
		ids[e.Name()] = id
	}
	_, errOut, status := runCmd(t, "", "check", dir)
	assert.Equal(t, exitOK, status, errOut)
	assert.Equal(t, fmt.Sprintf("promptfmt: checked %d %s\n", len(ids), plural(int64(len(ids)), "file")), errOut, "check says nothing but its summary")
	_, errOut, status = runCmd(t, "", "promptfile", "verify", dir)
	assert.Equal(t, exitOK, status, errOut)
	assert.Empty(t, errOut, "verify says nothing")
	return ids
}

// TestConvertIntoStore: a tree of STF and Prapti files converted into a
// prompt store becomes spec-complete prompt files named by unique IDs, and
// converting again draws new IDs, never one handed out before.
func TestConvertIntoStore(t *testing.T) {
	src := t.TempDir()
	put := func(name, content string) {
		p := filepath.Join(src, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
	}
	put("a.stf", ";user\nDiscard all HTML tags.\n\n")
	put("b.md", "### @user:\n\nKeep the text between HTML tags.\n")
	put("deep/c.stf", ";meta\n{title: 'two turns'}\n;end\n;user\none\n;ai\ntwo\n")
	put("deep/d.md", "### @system:\n\nBe brief.\n\n### @user:\n\nSummarise.\n")
	put("deep/e.prompt", "---\nprompt-id: P3\nid: P3\ncreated-at: 2022-08-17T14:37:22Z\nsha1-hash: 0000000000000000000000000000000000000000\n---\n\nEdited.\n")
	store := filepath.Join(t.TempDir(), "store") // made by convert
	defer setClock(time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC))()

	out, errOut, status := runCmd(t, "", "convert", "--lossy", "-t", "promptfile", "-o", store, src)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, `deep/e.prompt: change: replaced prompt-id "P3" by the store's new ID (promptfile: a prompt's ID is drawn from the store it is in)`)
	assert.Contains(t, errOut, `deep/e.prompt: change: removed id "P3"`)
	assert.Contains(t, errOut, `deep/e.prompt: change: replaced sha1-hash "0000000000000000000000000000000000000000" by the body's hash`)
	first := specComplete(t, store)
	require.Len(t, first, 5)
	// One line per file, SOURCE<tab>PATH, in the files' order, IDs in order.
	var lines []string
	for i, name := range []string{"a.stf", "b.md", "deep/c.stf", "deep/d.md", "deep/e.prompt"} {
		lines = append(lines, filepath.Join(src, name)+"\t"+filepath.Join(store, fmt.Sprintf("P%d.prompt", i+1)))
	}
	assert.Equal(t, strings.Join(lines, "\n")+"\n", out)
	e, err := os.ReadFile(filepath.Join(store, "P5.prompt"))
	require.NoError(t, err)
	assert.Contains(t, string(e), `created-at: "2022-08-17T14:37:22Z"`, "a well-formed created-at is kept")
	c, err := os.ReadFile(filepath.Join(store, "P3.prompt"))
	require.NoError(t, err)
	assert.Contains(t, string(c), "title: two turns\n", "the source's metadata is kept")
	assert.Contains(t, string(c), `created-at: "2026-11-21T08:30:00Z"`, "the clock")

	// Again, into the same store, after a hand-made prompt holding P7 by its
	// front matter and the deletion of P5: P5 and P7 are not reissued.
	require.NoError(t, os.Remove(filepath.Join(store, "P5.prompt")))
	require.NoError(t, os.WriteFile(filepath.Join(store, "P7.prompt"), []byte("---\nprompt-id: \"P7\"\ncreated-at: \"2022-08-17T14:37:22Z\"\nsha1-hash: \""+promptfile.Hash("x\n")+"\"\n---\n\nx\n"), 0o644))
	_, errOut, status = runCmd(t, "", "convert", "--lossy", "-t", "promptfile", "-o", store, src)
	require.Equal(t, exitOK, status, errOut)
	second := specComplete(t, store)
	require.Len(t, second, 4+1+5)
	for _, id := range []string{"P6", "P8", "P9", "P10", "P11"} {
		assert.Equal(t, id, second[id+".prompt"])
	}
	_, reissued := second["P5.prompt"]
	assert.False(t, reissued, "a deleted prompt's ID is not reissued")
}

// TestConvertToStoreUsage: a prompt file's ID comes from a store, so
// converting into one needs it named, and -o names a directory.
func TestConvertToStoreUsage(t *testing.T) {
	src := writeFile(t, "a.stf", ";user\nhi\n\n")
	file := writeFile(t, "x.txt", "")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{src}, "convert -t promptfile needs -o STORE"},
		{[]string{"-o", file, src}, "-o names the prompt store, a directory"},
		{[]string{"-o", filepath.Join(t.TempDir(), "out.prompt"), src}, "not the file: each file in it is named by its ID"},
		{[]string{"-o", t.TempDir(), "-dir", t.TempDir(), src}, "-dir applies to standard output only"},
		{[]string{"-o", t.TempDir(), "--force", src}, "--force does not apply to -t promptfile"},
		{[]string{"-dir", t.TempDir(), src, src}, "converting several files needs -o STORE"},
	} {
		_, errOut, status := runCmd(t, "", append([]string{"convert", "-t", "promptfile"}, tc.args...)...)
		assert.Equal(t, exitUsage, status, "%v", tc.args)
		assert.Contains(t, errOut, tc.want, "%v", tc.args)
	}
	_, errOut, status := runCmd(t, "", "convert", "-t", "stf", "-dir", t.TempDir(), src)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "-dir applies with -t promptfile")

	// To standard output: the ID is spent in the store, which gets no file.
	store := t.TempDir()
	out, errOut, status := runCmd(t, "", "convert", "-t", "promptfile", "-dir", store, src)
	require.Equal(t, exitOK, status, errOut)
	require.NoError(t, promptfile.Verify([]byte(out)))
	assert.Contains(t, out, "prompt-id: \"P1\"\n")
	out, _, _ = runCmd(t, "", "convert", "-t", "promptfile", "-dir", store, src)
	assert.Contains(t, out, "prompt-id: \"P2\"\n", "never the same ID twice")
	entries, _ := os.ReadDir(store)
	for _, e := range entries {
		assert.False(t, strings.HasSuffix(e.Name(), ".prompt"), e.Name())
	}
}

// TestCheckAndVerifyAgreeOnID: check and promptfile verify report the same
// findings, at the same places, on files with id, prompt-id, both, both
// different; and exit alike.
func TestCheckAndVerifyAgreeOnID(t *testing.T) {
	body := "Discard all HTML tags.\n"
	rest := "created-at: \"2022-08-17T14:37:22Z\"\nsha1-hash: \"" + promptfile.Hash(body) + "\"\n---\n\n" + body
	for _, tc := range []struct {
		name, ids string
		want      []string // line:col: message, for both
	}{
		{"prompt-id", "prompt-id: P1\n", nil},
		{"id", "id: P1\n", []string{`2:5: missing prompt-id: id "P1" is read in its place (the seed example's spelling); write prompt-id`}},
		{"both", "prompt-id: P1\nid: P1\n", nil},
		{"both different", "prompt-id: P1\nid: P2\n", []string{`3:5: id "P2" and prompt-id "P1" name different IDs: a prompt has one ID`}},
		{"id malformed", "id: 42\n", []string{`2:5: id "42" is malformed: want P followed by digits, such as P42`}},
		{"both, prompt-id malformed", "prompt-id: x\nid: P2\n", []string{
			`2:12: prompt-id "x" is malformed: want P followed by digits, such as P42`,
			`3:5: id "P2" and prompt-id "x" name different IDs: a prompt has one ID`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := writeFile(t, "f.prompt", "---\n"+tc.ids+rest)
			_, checkOut, checkStatus := runCmd(t, "", "check", file)
			_, verifyOut, verifyStatus := runCmd(t, "", "promptfile", "verify", file)
			assert.Equal(t, findings(file, checkOut), findings(file, verifyOut), "check and verify disagree")
			assert.Equal(t, tc.want, findings(file, checkOut))
			assert.Equal(t, checkStatus, verifyStatus)
			assert.Equal(t, len(tc.want) > 0, checkStatus == exitInvalid)
		})
	}
}

// findings are the diagnostics' headlines, without the file name.
func findings(file, stderr string) []string {
	var out []string
	for _, line := range strings.Split(headlines(stderr), "\n") {
		if rest, ok := strings.CutPrefix(line, file+":"); ok {
			out = append(out, rest)
		}
	}
	return out
}
