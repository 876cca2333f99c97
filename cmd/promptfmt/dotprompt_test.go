package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A Dotprompt file renders with --inputs, Dotprompt's data argument: its
// input over input.default, roles split, nothing HTML-escaped; a key the
// data argument has not is an error.
func TestMessagesDotprompt(t *testing.T) {
	inputs := writeFile(t, "data.json", `{"input": {"subject": "dogs <&>"}}`)
	file := writeFile(t, "joke.prompt", "---\nmodel: m\ninput:\n  default:\n    subject: cats\n    style: pun\n---\n{{role \"system\"}}\nA {{style}}.\n{{role \"user\"}}\nJoke about {{subject}}.")
	out, errOut, status := runCmd(t, "", "messages", "--inputs", inputs, file)
	if status != 0 {
		t.Fatalf("status %d: %s", status, errOut)
	}
	for _, want := range []string{`"role": "system"`, `"value": "\nA pun.\n"`, `"role": "user"`, `"value": "\nJoke about dogs <&>."`} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %s in\n%s", want, out)
		}
	}
	_, errOut, status = runCmd(t, "", "messages", "--inputs", writeFile(t, "plain.json", `{"subject": "x"}`), file)
	if status == 0 || !strings.Contains(errOut, `unknown key "subject"`) {
		t.Errorf("status %d: %s", status, errOut)
	}
}

// A partial is read beside the file, as _name.prompt.
func TestMessagesDotpromptPartial(t *testing.T) {
	file := writeFile(t, "p.prompt", "---\nmodel: m\n---\n{{> sign}} ok")
	require.NoError(t, os.WriteFile(filepath.Join(filepath.Dir(file), "_sign.prompt"), []byte("Signed"), 0o600))
	out, errOut, status := runCmd(t, "", "messages", file)
	if status != 0 || !strings.Contains(out, `"value": "Signed ok"`) {
		t.Errorf("status %d: %s%s", status, out, errOut)
	}
}

// An error in a partial is at its place in the partial's file, and no
// line of the file named is shown under it.
func TestDotpromptPartialError(t *testing.T) {
	file := writeFile(t, "p.prompt", "---\nmodel: m\n---\n{{> sign}} ok")
	partial := filepath.Join(filepath.Dir(file), "_sign.prompt")
	require.NoError(t, os.WriteFile(partial, []byte("Signed\n{{name}"), 0o600))
	_, errOut, status := runCmd(t, "", "messages", file)
	if status != 1 || !strings.HasPrefix(errOut, partial+":2:7: ") || strings.Contains(errOut, "model: m") {
		t.Errorf("status %d: %s", status, errOut)
	}
}

// A rendered Dotprompt file as each provider's request body: system
// apart where the provider keeps it apart, "model" as the provider's
// assistant role, a media part from an input.
func TestMessagesAsDotprompt(t *testing.T) {
	file := writeFile(t, "look.prompt", "---\nmodel: googleai/gemini-2.5-flash\ninput:\n  schema:\n    photo: string\n---\n"+
		"{{role \"system\"}}Be brief.{{role \"user\"}}What is this? {{media url=photo}}{{role \"model\"}}A cat.{{role \"user\"}}Sure?")
	inputs := writeFile(t, "in.json", `{"input": {"photo": "https://x/cat.png"}}`)
	for _, c := range []struct {
		as   string
		want []string
	}{
		{"openai", []string{`"role": "system"`, `"content": "Be brief."`, `"type": "image_url"`, `"url": "https://x/cat.png"`, `"role": "assistant"`}},
		{"anthropic", []string{`"system": "Be brief."`, `"type": "image"`, `"type": "url"`, `"role": "assistant"`, `"text": "Sure?"`}},
		{"gemini", []string{`"system_instruction"`, `"file_uri": "https://x/cat.png"`, `"role": "model"`, `"text": "Sure?"`}},
	} {
		out, errOut, status := runCmd(t, "", "messages", "--as", c.as, "--inputs", inputs, file)
		require.Equal(t, exitOK, status, "%s: %s", c.as, errOut)
		for _, w := range c.want {
			assert.Contains(t, out, w, c.as)
		}
	}
}

// check, fmt and convert on Dotprompt files: check passes a good file and
// points at a bad schema; fmt writes the canonical form (markers
// respelled, the licence header and white space control kept) and -w
// rewrites; convert -t dotprompt writes text escaped, which messages
// renders back.
func TestDotpromptCheckFmtConvert(t *testing.T) {
	good := writeFile(t, "good.prompt", "# Copyright 2026 Ann\n---\nmodel: m # which one\n---\n{{ role 'system' ~}}\n  Be brief.\n{{role \"user\"}}Hi {{name}}\n")
	_, errOut, status := runCmd(t, "", "check", good)
	assert.Equal(t, exitOK, status, errOut)
	bad := writeFile(t, "bad.prompt", "---\ninput:\n  schema:\n    tags(list): string\n---\nHi")
	_, errOut, status = runCmd(t, "", "check", bad)
	assert.Equal(t, exitInvalid, status)
	assert.Contains(t, errOut, bad+`:4:5: input.schema: tags(list): "list" is not a modifier`)

	out, errOut, status := runCmd(t, "", "fmt", good)
	require.Equal(t, exitOK, status, errOut)
	want := "# Copyright 2026 Ann\n---\nmodel: m # which one\n---\n{{role \"system\"~}}\n  Be brief.\n{{role \"user\"}}Hi {{name}}\n"
	assert.Equal(t, want, out)
	_, errOut, status = runCmd(t, "", "fmt", "-w", good)
	require.Equal(t, exitOK, status, errOut)
	got, err := os.ReadFile(good)
	require.NoError(t, err)
	assert.Equal(t, want, string(got))

	stf := writeFile(t, "c.stf", ";sys\nQuote {{ x }} and \\{{ y }} as they are.\n;user\n}} {{{{\n")
	out, errOut, status = runCmd(t, "", "convert", "-t", "dotprompt", stf)
	require.Equal(t, exitOK, status, errOut)
	converted := writeFile(t, "c.prompt", out)
	msgs, errOut, status := runCmd(t, "", "messages", converted)
	require.Equal(t, exitOK, status, errOut)
	want2, _, _ := runCmd(t, "", "messages", stf)
	assert.JSONEq(t, want2, msgs, "converted:\n%s", out)
}
