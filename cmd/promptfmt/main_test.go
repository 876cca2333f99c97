package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const example = "../../testdata/examples/support.prompty"

// runCmd runs the command in process.
func runCmd(t *testing.T, stdin string, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errOut bytes.Buffer
	status = run(args, strings.NewReader(stdin), &out, &errOut)
	return out.String(), errOut.String(), status
}

// headlines drops the source excerpts (indented lines) from diagnostics.
func headlines(stderr string) string {
	var keep []string
	for _, line := range strings.SplitAfter(stderr, "\n") {
		if !strings.HasPrefix(line, " ") {
			keep = append(keep, line)
		}
	}
	return strings.Join(keep, "")
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
	return p
}

func TestMessagesExample(t *testing.T) {
	out, errOut, status := runCmd(t, "", "messages", example)
	require.Equal(t, 0, status, errOut)
	var msgs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &msgs))
	require.Len(t, msgs, 4)
	assert.Equal(t, "system", msgs[0]["role"])
	assert.Equal(t, "Ross", msgs[3]["name"])
	assert.Nil(t, msgs[3]["metadata"], "what a model receives: no metadata (parse shows it)")
	assert.Contains(t, out, `"value": "My card was charged twice`)
	assert.NotContains(t, out, `\u003c`, "no HTML escaping")
}

func TestParseCommand(t *testing.T) {
	out, _, status := runCmd(t, "", "parse", example)
	require.Equal(t, 0, status)
	var doc map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.Equal(t, "support-triage", doc["agent"].(map[string]any)["name"], "a .prompty file is a template: its agent")
	assert.Len(t, doc["messages"], 4)
	assert.Equal(t, map[string]any{"ticket": "T-2291"}, doc["messages"].([]any)[3].(map[string]any)["metadata"])

	out, _, status = runCmd(t, "", "parse", "../../testdata/examples/review.md")
	require.Equal(t, 0, status)
	require.NoError(t, json.Unmarshal([]byte(out), &doc))
	assert.NotNil(t, doc["messages"])

	// Flags after the file, stdin with -f, and [] when there are no messages.
	out, _, status = runCmd(t, "   \n", "messages", "-", "-f", "prompty")
	require.Equal(t, 0, status)
	assert.Equal(t, "[]\n", out)
}

func TestErrorsAndStatus(t *testing.T) {
	bad := writeFile(t, "bad.prompty", "---\nname: x\nuser:\nhi\n")
	for _, tc := range []struct {
		args   []string
		stdin  string
		status int
		stderr string
	}{
		{[]string{"messages", bad}, "", 1, bad + ":1:1: front matter opened here is never closed (want a --- line)\n"},
		{[]string{"parse", "-f", "prompty"}, "user:\nok \xff", 1, "<stdin>:2:4: invalid UTF-8 (byte 0xff)\n"},
		{[]string{"messages", writeFile(t, "x.txt", "hi")}, "", 2, "x.txt from its extension: give -f FORMAT"},
		{[]string{"messages", "-"}, "", 2, "cannot tell the format of standard input"},
		{[]string{"messages", "-f", "yaml", "x"}, "", 2, `unknown format "yaml" (want prapti, stf, pdl, promptfile, prompty, dotprompt, openai, openai-responses, anthropic, gemini)`},
		{[]string{"messages", "chat.pdl"}, "", 1, "no such file"},
		{[]string{"messages", "-f", "stf"}, ";user\nok\n;bogus", 1, "<stdin>:3:2: unknown command \"bogus\""},
		{[]string{"convert", "-t", "pdl", example}, "", 1, "pdl: message 2 (line 14): the name"},
		{[]string{"convert", example}, "", 2, "convert needs -t FORMAT"},
		{[]string{"messages", "a.prompty", "b.prompty"}, "", 2, "give one file"},
		{[]string{"messages", "missing.prompty"}, "", 1, "no such file"},
		{[]string{"frobnicate"}, "", 2, `unknown command "frobnicate"`},
		{[]string{"messages", "-x"}, "", 2, "flag provided but not defined: -x\nUsage: promptfmt messages"},
		{nil, "", 2, "Usage: promptfmt COMMAND"},
	} {
		_, errOut, status := runCmd(t, tc.stdin, tc.args...)
		assert.Equal(t, tc.status, status, "%v: %s", tc.args, errOut)
		assert.Contains(t, errOut, tc.stderr, "%v", tc.args)
	}
}

// TestMissingInput: a file or directory that is not there is reported as
// such by every command, not as a format the command cannot tell from the
// name; a directory where one file is wanted is named as one.
func TestMissingInput(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "prompts")
	for _, args := range [][]string{
		{"messages", missing},
		{"parse", missing + ".txt"},
		{"messages", missing + ".stf"},
		{"check", missing},
		{"fmt", missing + "/"},
		{"convert", "-t", "stf", missing},
		{"convert", "-t", "stf", "-o", t.TempDir(), missing},
		{"convert", "-t", "promptfile", "-o", t.TempDir(), missing},
		{"promptfile", "verify", missing},
		{"promptfile", "fix", missing},
	} {
		_, errOut, status := runCmd(t, "", args...)
		assert.Equal(t, exitInvalid, status, "%v", args)
		assert.Contains(t, errOut, missing, "%v", args)
		assert.Contains(t, errOut, ": no such file or directory\n", "%v", args)
		assert.NotContains(t, errOut, "cannot tell the format", "%v", args)
	}
	dir := t.TempDir()
	_, errOut, status := runCmd(t, "", "messages", dir)
	assert.Equal(t, exitUsage, status)
	assert.Equal(t, "promptfmt: "+dir+" is a directory: give a file\n", errOut)
}

func TestHelp(t *testing.T) {
	for _, cmd := range []string{"parse", "messages", "convert", "check", "fmt"} {
		out, errOut, status := runCmd(t, "", cmd, "-h")
		assert.Equal(t, 0, status)
		assert.Empty(t, errOut)
		assert.Equal(t, 1, strings.Count(out, "Usage: promptfmt "+cmd), out)
		assert.Contains(t, out, "Example:\n  promptfmt "+cmd)
	}
	out, _, status := runCmd(t, "", "help")
	assert.Equal(t, 0, status)
	assert.Contains(t, out, "prapti, stf, pdl, promptfile, prompty")
}

func TestCheck(t *testing.T) {
	good := writeFile(t, "good.prompty", "user:\nhi\n")
	warn := writeFile(t, "warn.prompty", "user:\nhi\nuser[a=1, a=2]:\n")
	broken := writeFile(t, "broken.prompty", "---\n")
	_, errOut, status := runCmd(t, "", "check", good)
	assert.Equal(t, 0, status)
	assert.Empty(t, errOut)
	_, errOut, status = runCmd(t, "", "check", good, warn, broken)
	assert.Equal(t, 1, status)
	assert.Equal(t, warn+":3:1: attribute a is given twice; the line is read as content, not as a role marker\n"+
		broken+":1:1: front matter opened here is never closed (want a --- line)\n"+
		"promptfmt: checked 3 files, 2 with problems\n", headlines(errOut))
	// messages still succeeds on a file with warnings, and says them.
	_, errOut, status = runCmd(t, "", "messages", warn)
	assert.Equal(t, 0, status)
	assert.Contains(t, errOut, warn+":3:1: warning: attribute a is given twice")
}

// check loads a template file as messages would: its template's syntax
// and the partials it names are problems, which parsing the messages alone
// does not see.
func TestCheckTemplates(t *testing.T) {
	dir := t.TempDir()
	file := func(name, src string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		return p
	}
	for _, c := range []struct{ name, src, want string }{
		{"if.prompty", "---\nname: x\n---\nuser:\n{% if x %}\nhi\n", ":6:3: Unexpected EOF, expected tag elif or else or endif."},
		{"open.prompt", "---\nmodel: m\n---\n{{foo (}}\n", ":4:8: expected a name"},
		{"partial.prompt", "---\nmodel: m\n---\n{{> missing}}\n", ": partial missing"},
		{"yaml.prompt", "---\nmodel: m\nA: !!binary \n---\nhi\n", ":3:5: Dotprompt's runtime cannot read this front matter"},
		{"file.prompty", "---\ndescription: ${file:missing.txt}\n---\nuser:\nhi\n", ":2:14: front matter: description: ${file:missing.txt}"},
	} {
		f := file(c.name, c.src)
		_, errOut, status := runCmd(t, "", "check", f)
		assert.Equal(t, 1, status, c.name)
		assert.Contains(t, errOut, f+c.want, c.name)
	}
	file("_card.prompt", "{{title}}")
	// A helper Genkit's code may register is no problem of the file
	// (messages refuses it: it cannot be rendered here); an environment
	// variable is the place's, not the file's: one not set here is none.
	helper := file("helper.prompt", "---\nmodel: m\n---\n{{list x}}\n")
	_, errOut, status := runCmd(t, "", "messages", helper)
	assert.Equal(t, 1, status)
	assert.Contains(t, errOut, helper+":4:1: {{list x}} calls list")
	for _, name := range []string{helper, file("fine.prompty", "---\nname: x\nmodel:\n  connection:\n    api_key: ${env:PROMPTFMT_TEST_UNSET}\n---\nuser:\n{% if x %}hi{% endif %}\n"), file("fine.prompt", "---\nmodel: m\n---\n{{> card}} {{#if a}}x{{/if}}\n")} {
		_, errOut, status := runCmd(t, "", "check", name)
		assert.Equal(t, 0, status, errOut)
	}
}

func TestFmtAndConvert(t *testing.T) {
	messy := "# SYSTEM :\r\nBe brief.\r\n\r\n\r\n  user[name=\"Ross\"]:\r\nHi\r\n"
	canonical := "system:\nBe brief.\n\nuser[name=Ross]:\nHi\n"
	f := writeFile(t, "chat.prompty", messy)

	out, _, status := runCmd(t, "", "fmt", f)
	require.Equal(t, 0, status)
	assert.Equal(t, canonical, out)
	got, _ := os.ReadFile(f)
	assert.Equal(t, messy, string(got), "fmt without -w leaves the file")

	_, _, status = runCmd(t, "", "fmt", "-w", f)
	require.Equal(t, 0, status)
	got, _ = os.ReadFile(f)
	assert.Equal(t, canonical, string(got))
	entries, _ := os.ReadDir(filepath.Dir(f))
	assert.Len(t, entries, 1, "no temporary file left behind")

	dst := filepath.Join(t.TempDir(), "out.prompty")
	_, _, status = runCmd(t, "", "convert", "-t", "prompty", "-o", dst, f)
	require.Equal(t, 0, status)
	got, _ = os.ReadFile(dst)
	assert.Equal(t, canonical, string(got))

	out, _, status = runCmd(t, canonical, "convert", "-f", "prompty", "-t", "prompty")
	require.Equal(t, 0, status)
	assert.Equal(t, canonical, out)
}

const stfExample = "../../testdata/examples/support.stf"

func TestSTF(t *testing.T) {
	out, errOut, status := runCmd(t, "", "messages", stfExample)
	require.Equal(t, 0, status, errOut)
	var msgs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &msgs))
	require.Len(t, msgs, 6)
	assert.Equal(t, "tool_call", msgs[2]["content"].([]any)[1].(map[string]any)["kind"])
	assert.Equal(t, "image", msgs[5]["content"].([]any)[1].(map[string]any)["kind"])

	// fmt: comments and the ;meta block stay as written, the canonical
	// form stays as it is.
	canonical, _, status := runCmd(t, "", "fmt", stfExample)
	require.Equal(t, 0, status)
	assert.Contains(t, canonical, ";# A support conversation in STF")
	assert.Contains(t, canonical, ";/*\nNotes for the next editor")
	assert.Contains(t, canonical, ";meta\n{\n  title: 'Stalled rollout, 2026-11-20',\n  tags: ['incident', 'staging'],\n}\n;end\n")
	f := writeFile(t, "chat.stf", canonical)
	again, _, status := runCmd(t, "", "fmt", f)
	require.Equal(t, 0, status)
	assert.Equal(t, canonical, again)

	// Prompty to STF and back gives the same messages.
	stfText, errOut, status := runCmd(t, "", "convert", "-t", "stf", example)
	require.Equal(t, 0, status, errOut)
	back, errOut, status := runCmd(t, stfText, "convert", "-f", "stf", "-t", "prompty", "-")
	require.Equal(t, 0, status, errOut)
	want, _, _ := runCmd(t, "", "messages", example)
	got, _, _ := runCmd(t, back, "messages", "-f", "prompty", "-")
	assert.JSONEq(t, want, got)

	// STF with tool calls and images cannot become Prompty text: each thing
	// is named, nothing is written.
	out, errOut, status = runCmd(t, "", "convert", "-t", "prompty", stfExample)
	assert.Equal(t, 1, status)
	assert.Empty(t, out)
	assert.Contains(t, errOut, "a part of kind tool_call cannot be expressed")
	assert.Contains(t, errOut, "a part of kind image cannot be expressed")
}

func TestPrapti(t *testing.T) {
	const md = "../../testdata/examples/review.md"
	out, errOut, status := runCmd(t, "", "messages", md)
	require.Equal(t, 0, status, errOut)
	var msgs []map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &msgs))
	require.Len(t, msgs, 4, "head and the disabled message are not sent")
	assert.Equal(t, "system", msgs[0]["role"])
	assert.Contains(t, out, `% model = \"not a configuration line\"`, "code reaches the model as text")
	_, errOut, status = runCmd(t, "", "check", md)
	assert.Equal(t, 0, status, errOut)
	out, _, status = runCmd(t, "", "fmt", md)
	require.Equal(t, 0, status)
	src, _ := os.ReadFile(md)
	assert.Equal(t, string(src), out, "the example is canonical")

	// A line that does not split: messages succeeds with a warning, check fails.
	bad := writeFile(t, "bad.md", "### @user:\n% = 3\nHi\n")
	_, errOut, status = runCmd(t, "", "messages", bad)
	assert.Equal(t, 0, status)
	assert.Contains(t, errOut, bad+":2:1: warning: not a configuration command")
	_, errOut, status = runCmd(t, "", "check", bad)
	assert.Equal(t, 1, status)
	assert.Contains(t, errOut, bad+":2:1: not a configuration command")

	// STF converts to Prapti when its metadata has nowhere to go: an error.
	_, errOut, status = runCmd(t, "", "convert", "-t", "prapti", stfExample)
	assert.Equal(t, 1, status)
	assert.Contains(t, errOut, "prapti: message")
}

func TestPromptFile(t *testing.T) {
	const pf = "../../testdata/examples/discard-html.prompt"
	out, errOut, status := runCmd(t, "", "messages", pf)
	require.Equal(t, 0, status, errOut)
	assert.Contains(t, out, "Discard all HTML tags.")
	_, errOut, status = runCmd(t, "", "check", pf)
	assert.Equal(t, 0, status, errOut)

	// An edited body fails check, with both hashes.
	src, err := os.ReadFile(pf)
	require.NoError(t, err)
	edited := writeFile(t, "p.prompt", strings.Replace(string(src), "HTML", "XML", 1))
	_, errOut, status = runCmd(t, "", "check", edited)
	assert.Equal(t, 1, status)
	assert.Contains(t, errOut, edited+":4:12: the body does not match its hash: sha1-hash is 3b215be875d3e5c583e1a4bd80a358243b4747b1")

	// Two messages cannot become one prompt file.
	_, errOut, status = runCmd(t, "", "convert", "-t", "promptfile", "-dir", t.TempDir(), stfExample)
	assert.Equal(t, 1, status)
	assert.Contains(t, errOut, "6 messages (a prompt file holds exactly one, its body)")
}

func TestNoHTMLEscapes(t *testing.T) {
	out, _, status := runCmd(t, "### @user:\n> a < b && c\n", "parse", "-f", "prapti")
	require.Equal(t, 0, status)
	assert.Contains(t, out, `"> a < b && c"`)
	out, _, _ = runCmd(t, "### @user:\n> a < b && c\n", "messages", "-f", "prapti")
	assert.Contains(t, out, `"> a < b && c"`)
}
