package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
