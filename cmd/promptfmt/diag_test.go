package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt/promptfile"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDiagnosticExcerpt(t *testing.T) {
	bad := writeFile(t, "bad.stf", ";user\nhello\n;usr\n")
	_, errOut, status := runCmd(t, "", "check", bad)
	require.Equal(t, exitInvalid, status)
	assert.Equal(t, bad+`:3:2: unknown command "usr" (known: `+strings.SplitN(strings.SplitN(errOut, "(known: ", 2)[1], "\n", 2)[0]+"\n"+
		"   3 | ;usr\n"+
		"     |  ^\n"+
		"  hint: a text line that starts with ';' is written ';;' (the first ';' is dropped)\n", errOut)

	// Tabs line up; a long line is cut around the column; a CRLF file's
	// lines are found as Position counts them.
	assert.Equal(t, "   7 | \tab x\n     | \t   ^\n", excerpt("\tab x", 7, 5))
	long := strings.Repeat("a", 100) + "X" + strings.Repeat("b", 100)
	ex := excerpt(long, 1, 101)
	assert.Equal(t, "   1 | ..."+strings.Repeat("a", 50)+"X"+strings.Repeat("b", 49)+"...\n     |    "+strings.Repeat(" ", 50)+"^\n", ex)
	line, ok := sourceLine([]byte("a\r\nb\rc\nd"), 3)
	assert.True(t, ok)
	assert.Equal(t, "c", line)
	assert.Equal(t, "  12 | é!\n     |  ^\n", excerpt("é!", 12, 3), "the caret counts characters, not bytes")

	// Invalid UTF-8 and a body edited after hashing carry hints too.
	latin := writeFile(t, "latin.stf", ";user\ncaf\xe9\n")
	_, errOut, _ = runCmd(t, "", "check", latin)
	assert.Contains(t, errOut, latin+":2:4: invalid UTF-8 (byte 0xe9)\n")
	assert.Contains(t, errOut, "hint: save the file as UTF-8")
	prapti := writeFile(t, "p.md", "### @user:\n\n% = 1\n")
	_, errOut, _ = runCmd(t, "", "check", prapti)
	assert.Contains(t, errOut, `hint: a text line that starts with "%" is written "\%"`)
	edited := writeFile(t, "e.prompt", "---\nprompt-id: P1\ncreated-at: 2022-08-17T14:37:22Z\nsha1-hash: 3b215be875d3e5c583e1a4bd80a358243b4747b1\n---\n\nchanged\n")
	_, errOut, _ = runCmd(t, "", "check", edited)
	assert.Contains(t, errOut, "   4 | sha1-hash: 3b215be875d3e5c583e1a4bd80a358243b4747b1\n     |            ^\n  hint: if the edit was meant, bless it: promptfmt promptfile fix -rehash FILE")
}

func TestDiagnosticJSON(t *testing.T) {
	bad := writeFile(t, "bad.stf", ";user\nhello\n;usr\n")
	good := writeFile(t, "good.stf", ";user\nhi\n")
	out, errOut, status := runCmd(t, "", "check", "--json", good, bad)
	require.Equal(t, exitInvalid, status)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 1, "one JSON line per diagnostic, on stdout for check")
	var d map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &d))
	assert.Equal(t, bad, d["file"])
	assert.Equal(t, 3.0, d["line"])
	assert.Equal(t, 2.0, d["col"])
	assert.Equal(t, "error", d["severity"])
	assert.Equal(t, "stf", d["format"])
	assert.Contains(t, d["message"], `unknown command "usr"`)
	assert.Contains(t, d["hint"], "';;'")
	assert.Equal(t, "promptfmt: checked 2 files, 1 with problems\n", errOut)

	// convert: diagnostics on stderr (stdout is the output), changes too.
	review := "../../testdata/examples/review.md"
	out, errOut, status = runCmd(t, "", "convert", "--json", "--lossy", "-t", "pdl", review)
	require.Equal(t, exitOK, status, errOut)
	assert.True(t, strings.HasPrefix(out, "<|system|>"), out)
	for _, line := range strings.Split(strings.TrimSpace(errOut), "\n") {
		require.NoError(t, json.Unmarshal([]byte(line), &d), line)
		assert.Equal(t, "change", d["severity"])
		assert.Equal(t, "pdl", d["format"])
	}
}

func TestConvertTree(t *testing.T) {
	dir := t.TempDir()
	put := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(content), 0o644))
		return p
	}
	put("a.stf", ";user\nhi\n\n") // text "hi\n": a body a prompt file holds as it is
	put("sub/b.prompty", "system:\nbe brief\n\nuser:\nhello\n")
	put("sub/c.stf", ";user\none\n;ai\ntwo\n")
	put(".hidden/d.stf", ";user\nskipped\n")
	out := filepath.Join(t.TempDir(), "out")

	_, errOut, status := runCmd(t, "", "convert", "-t", "prompty", dir)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "needs -o DIR")

	// Into prompt files: new prompts in the store -o names, by ID.
	defer setClock(time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC))()
	stdout, errOut, status := runCmd(t, "", "convert", "-t", "promptfile", "-o", out, dir)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, filepath.Join(dir, "sub/b.prompty")+":4: promptfile: document: 2 messages", "named at the first message too many")
	assert.True(t, strings.HasSuffix(errOut, "promptfmt: converted 3 files, 2 failed\n"), errOut)
	assert.Equal(t, filepath.Join(dir, "a.stf")+"\t"+filepath.Join(out, "P1.prompt")+"\n", stdout)
	got, err := os.ReadFile(filepath.Join(out, "P1.prompt"))
	require.NoError(t, err)
	assert.Equal(t, "---\nprompt-id: \"P1\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \""+promptfile.Hash("hi\n")+"\"\n---\n\nhi\n", string(got))

	_, errOut, status = runCmd(t, "", "convert", "--lossy", "-t", "promptfile", "-o", out, dir)
	require.Equal(t, exitOK, status, errOut)
	got, err = os.ReadFile(filepath.Join(out, "P4.prompt"))
	require.NoError(t, err, "P2, P3 and P4: a.stf, sub/b.prompty, sub/c.stf")
	assert.Equal(t, "---\nprompt-id: \"P4\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \""+promptfile.Hash("one\n\ntwo\n")+"\"\n---\n\none\n\ntwo\n", string(got))
	assert.True(t, strings.HasSuffix(errOut, "promptfmt: converted 3 files\n"), errOut)
	_, err = os.Stat(filepath.Join(out, "P5.prompt"))
	assert.True(t, os.IsNotExist(err), "hidden files are skipped")

	// Two inputs that would land on one output name.
	other := filepath.Join(t.TempDir(), "a.prompty")
	require.NoError(t, os.WriteFile(other, []byte("user:\nx\n"), 0o644))
	_, errOut, status = runCmd(t, "", "convert", "-t", "stf", "-o", out, filepath.Join(dir, "a.stf"), other)
	assert.Equal(t, exitUsage, status)
	assert.Contains(t, errOut, "would both be written to")

	// fmt -w over a tree says how many files it rewrote, and leaves a
	// template alone; named on its own, the template is refused.
	put("sub/messy.stf", ";user\n  hi\n;assistant\nyo\n")
	tpl := put("t.pdl", "<|user|>\n{{ x }}\n")
	_, errOut, status = runCmd(t, "", "fmt", "-w", dir)
	require.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, tpl+": warning: left as it is: a template")
	assert.True(t, strings.HasSuffix(errOut, "promptfmt: formatted 5 files, 1 changed\n"), errOut)
	_, errOut, status = runCmd(t, "", "fmt", tpl)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, "a pdl template")
}

// A change the target forces (a prompt file's body ends with a line
// break) is refused without --lossy, naming the line, and listed with it.
func TestConvertForcedChange(t *testing.T) {
	src := filepath.Join(t.TempDir(), "a.stf")
	require.NoError(t, os.WriteFile(src, []byte(";user\nhi\n"), 0o644))
	store := t.TempDir()
	defer setClock(time.Date(2026, 11, 21, 8, 30, 0, 0, time.UTC))()
	_, errOut, status := runCmd(t, "", "convert", "-t", "promptfile", "-dir", store, src)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, src+":1: promptfile: message 1 (line 1): text with no line break at its end")
	out, errOut, status := runCmd(t, "", "convert", "--lossy", "-t", "promptfile", "-dir", store, src)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "---\nprompt-id: \"P1\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \""+promptfile.Hash("hi\n")+"\"\n---\n\nhi\n", out, "the refusal spent no ID")
	assert.Contains(t, errOut, "added a line break at the end of its text")
}

// fmt keeps STF comments; convert to a format without them refuses each,
// at its line, and --lossy drops each and says so.
func TestCommentsKeptOrNamed(t *testing.T) {
	src := ";# why this prompt\n;user\nhi\n;// later\nthere\n"
	f := filepath.Join(t.TempDir(), "a.stf")
	require.NoError(t, os.WriteFile(f, []byte(src), 0o644))
	out, errOut, status := runCmd(t, "", "fmt", f)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, src, out)

	_, errOut, status = runCmd(t, "", "convert", "-t", "pdl", f)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, f+`:1: pdl: document: the stf comment ";# why this prompt"`)
	assert.Contains(t, errOut, f+`:4: pdl: document: the stf comment ";// later"`)

	out, errOut, status = runCmd(t, "", "convert", "--lossy", "-t", "pdl", f)
	require.Equal(t, exitOK, status, errOut)
	assert.Equal(t, "<|user|>\n\nhi\nthere\n", out)
	assert.Contains(t, errOut, `dropped the comment ";# why this prompt"`)
	assert.Contains(t, errOut, `dropped the comment ";// later"`)
}

// A refusal names the line of the thing refused, in the file: the first
// message too many, an ;extra block's line.
func TestRefusalLines(t *testing.T) {
	f := filepath.Join(t.TempDir(), "a.stf")
	require.NoError(t, os.WriteFile(f, []byte(";user\nhi\n\n;ai\nanswer\n\n;extra\n{k: 1}\n;end\n"), 0o644))
	store := t.TempDir()
	_, errOut, status := runCmd(t, "", "convert", "-t", "promptfile", "-dir", store, f)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, f+":4: promptfile: document: 2 messages")
	assert.Contains(t, errOut, f+":7: promptfile: message 2 (line 7): message metadata")
	_, errOut, status = runCmd(t, "", "convert", "--lossy", "-t", "promptfile", "-dir", store, f)
	assert.Equal(t, exitOK, status, errOut)
	assert.Contains(t, errOut, f+":7: change: dropped metadata k = 1")
}

// A Prapti head of configuration lines, and a configuration line inside a
// message, are refused at their own lines, not the heading's.
func TestRefusalLinesPrapti(t *testing.T) {
	f := filepath.Join(t.TempDir(), "a.md")
	require.NoError(t, os.WriteFile(f, []byte("% model = \"x\"\n\n### @user:\n\nhello\n\n% temperature = 0.5\n"), 0o644))
	_, errOut, status := runCmd(t, "", "convert", "-t", "pdl", f)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, f+`:1: pdl: message 1 (line 1): role "_head"`)
	assert.Contains(t, errOut, f+":7: pdl: message 2 (line 7): message metadata")
}

// A line of a message's text that the target would misread is named at
// its line in the file, not within the message.
func TestRefusalTextLine(t *testing.T) {
	f := filepath.Join(t.TempDir(), "a.stf")
	require.NoError(t, os.WriteFile(f, []byte(";sys\nbrief\n;user\nhello\nuser:\nthere\n"), 0o644))
	_, errOut, status := runCmd(t, "", "convert", "-t", "prompty", f)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, f+`:5: prompty: message 2 (line 5): line 2 of its text, "user:", would be read as a role boundary`)
}
