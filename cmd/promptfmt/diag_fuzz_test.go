package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// diagnose reads src every way the command can, as each format, and prints
// every error and warning it gets through the printer given by jsonDiag.
func diagnose(t *testing.T, src []byte, dir string, jsonDiag bool) (stdout, stderr string) {
	var out, errOut bytes.Buffer
	c := &cli{stdout: &out, stderr: &errOut, jsonDiag: jsonDiag, diagStdout: jsonDiag}
	for i := range formats {
		f := &formats[i]
		in := &input{name: "fuzz" + f.ext, src: src, format: f}
		print := func(doc *promptfmt.Document, err error) {
			if err != nil {
				c.report(in, err)
			}
			if doc != nil {
				in.doc = doc
				c.warn(in, "warning")
			}
		}
		print(f.parse(src))
		if f.parseIn != nil {
			print(f.parseIn(src, dir))
		}
		if f.load == nil {
			continue
		}
		tpl, err := f.load(src, filepath.Join(dir, in.name))
		if err != nil {
			print(nil, err)
			continue
		}
		print(&promptfmt.Document{Warnings: tpl.Warnings()}, nil)
		_, err = tpl.Render(nil)
		print(nil, err)
		print(tpl.Document(nil))
	}
	return out.String(), errOut.String()
}

// FuzzDiagnostics prints every error and warning every parser and loader
// returns for any input, through the human printer and the --json one: no
// input may crash the printer, and every position printed must be in the
// source (a line it has, a column at most one past that line's end).
func FuzzDiagnostics(f *testing.F) {
	examples, _ := filepath.Glob("../../testdata/examples/*")
	for _, name := range examples {
		if src, err := os.ReadFile(name); err == nil && len(src) < 4096 {
			f.Add(src)
		}
	}
	for _, s := range diagnosticSeeds {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		_, human := diagnose(t, src, dir, false)
		if strings.Contains(human, "panic") && strings.Contains(human, "goroutine") {
			t.Fatal(human)
		}
		out, _ := diagnose(t, src, dir, true)
		lastLine, _ := lines.Position(src, len(src))
		for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
			if l == "" {
				continue
			}
			var d diagnostic
			if err := json.Unmarshal([]byte(l), &d); err != nil {
				t.Fatalf("not a JSON diagnostic: %v\n%s", err, l)
			}
			if d.Line < 0 || d.Line > lastLine || d.Line == 0 && d.Col != 0 {
				t.Fatalf("line %d of a source of %d lines: %s", d.Line, lastLine, l)
			}
			if d.Line == 0 {
				continue
			}
			line, _ := sourceLine(src, d.Line)
			if d.Col < 0 || d.Col > len(line)+1 {
				t.Fatalf("column %d of line %d, which has %d bytes: %s", d.Col, d.Line, len(line), l)
			}
		}
	})
}

// diagnosticSeeds are inputs whose errors point at the edges of a line:
// one column past its end (a template error at the end of the input, an
// error on a line ended by a lone CR), and lines of every ending.
var diagnosticSeeds = []string{
	"<|user|>\n{{ x",
	"---\nname: x\n---\nuser:\n{{ x",
	";user\rhi\r;usr\r",
	";user\r\nhi\r\n;usr\r\n",
	";user\u2028;usr\n",
	";meta {a: NaN}\n;user\nhi\n",
	";user\n;call f {x: Infinity}\n",
	"---\nx: .nan\n---\nbody\n",
	"---\nx: 1e400\n---\nbody\n",
	"\uFEFF<|user|>\nhi\n",
	"### @user:\n\n% x = 1e400\n",
	";user\n\t\tcaf\xe9 ;x\n",
}

// The printer is total: any line and column, on any line, prints.
func TestExcerptTotal(t *testing.T) {
	lines := []string{"", "a", "\t", "é", "abc\xe9", "\x80\x80", "a\u2028b", "x\x00\x1b[31m", strings.Repeat("é", 300), strings.Repeat("a\t", 200) + "\xff"}
	for _, line := range lines {
		for col := -2; col <= len(line)+3; col++ {
			ex := excerpt(line, 1, col)
			rows := strings.Split(strings.TrimSuffix(ex, "\n"), "\n")
			if len(rows) != 2 || !strings.HasSuffix(rows[1], "^") {
				t.Fatalf("excerpt(%q, %d) = %q", line, col, ex)
			}
			if strings.ContainsAny(ex, "\x00\x1b\u2028") {
				t.Fatalf("excerpt(%q, %d) prints a control character: %q", line, col, ex)
			}
		}
	}
}

func TestExcerptEdges(t *testing.T) {
	for _, c := range []struct {
		line string
		col  int
		want string
	}{
		{"{{ x", 5, "   1 | {{ x\n     |     ^\n"},             // one past the end: the end of the input
		{"{{ x", 9, "   1 | {{ x\n     |     ^\n"},             // beyond: after the last character
		{"{{ x", 0, "   1 | {{ x\n     | ^\n"},                 // before: the first
		{"{{ x", -3, "   1 | {{ x\n     | ^\n"},                //
		{"é!", 2, "   1 | é!\n     | ^\n"},                     // inside a character: that character
		{"caf\xe9 x", 5, "   1 | caf\uFFFD x\n     |     ^\n"}, // an invalid byte is one character
		{"a\u2028b", 2, "   1 | a\uFFFDb\n     |  ^\n"},        // a separator inside the line
	} {
		assert.Equal(t, c.want, excerpt(c.line, 1, c.col), "%q col %d", c.line, c.col)
	}
	line, ok := sourceLine([]byte(";user\rhi\r;usr\r"), 3)
	assert.True(t, ok)
	assert.Equal(t, ";usr", line, "a lone CR ends a line")
	_, ok = sourceLine([]byte("a\nb"), 3)
	assert.False(t, ok, "past the last line")
	_, ok = sourceLine([]byte("a\nb"), 0)
	assert.False(t, ok)

	// A huge line is cut around the column, whatever its length.
	huge := strings.Repeat("a", 2<<20) + "X" + strings.Repeat("b", 2<<20)
	ex := excerpt(huge, 1, 2<<20+1)
	assert.Less(t, len(ex), 400)
	assert.Contains(t, ex, "...aaa")
	assert.Contains(t, ex, "Xbbb")
}

// check DIR goes on past a file whose error used to crash the printer
// (one column past the end of its line) and reports every file.
func TestCheckDirEdgeErrors(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a.pdl":     "<|user|>\n{{ x",
		"b.stf":     ";user\rhi\r;usr\r",
		"good1.stf": ";user\nhi\n",
		"good2.pdl": "<|user|>\nhi\n",
	}
	for name, content := range files {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600))
	}
	_, errOut, status := runCmd(t, "", "check", dir)
	assert.Equal(t, exitInvalid, status, errOut)
	assert.NotContains(t, errOut, "panic")
	for _, bad := range []string{"a.pdl:2:5: template: '}}' expected here\n   2 | {{ x\n     |     ^\n", "b.stf:1:6: "} {
		assert.Contains(t, errOut, filepath.Join(dir, bad))
	}
	assert.True(t, strings.HasSuffix(errOut, "promptfmt: checked 4 files, 2 with problems\n"), errOut)
	assert.Contains(t, errOut, "   1 | ;user\n     |      ^\n", "a lone CR ends the line")

	// parse of a template whose error is at the end of the input.
	tpl := writeFile(t, "c.prompty", "---\nname: x\n---\nuser:\n{{ x")
	_, errOut, status = runCmd(t, "", "parse", tpl)
	assert.Equal(t, exitInvalid, status, errOut)
	assert.Contains(t, errOut, tpl+":5:5: '}}' expected here\n   5 | {{ x\n     |     ^\n")
}

// A diagnostic never echoes a huge value: Errorf and Warnf cut what they
// quote, whichever parser calls them, and the printer bounds any message.
func TestDiagnosticsCutHugeValues(t *testing.T) {
	const mb2 = 2 << 20
	for _, c := range []struct{ name, src, want string }{
		{"command.stf", ";" + strings.Repeat("a", mb2) + "\nhi\n", `... (2097152 bytes) (known:`},
		{"role.stf", ";user role=" + strings.Repeat("r", mb2) + "\nhi\n", "bytes cut"},
		{"id.prompt", "---\nprompt-id: " + strings.Repeat("P", mb2) + "x\n---\n\nbody\n", `... (2097153 bytes) is malformed`},
	} {
		file := writeFile(t, c.name, c.src)
		for _, args := range [][]string{{"check", file}, {"check", "--json", file}} {
			out, errOut, status := runCmd(t, "", args...)
			assert.Equal(t, exitInvalid, status)
			assert.Less(t, len(out)+len(errOut), 8<<10, "%v", args)
			assert.Contains(t, out+errOut, c.want, "%v", args)
		}
	}
}

// One rule for the model's numbers and nesting (internal/values), in every
// format: check, parse and messages all refuse a value JSON cannot hold,
// with the same message at the same place (parse and messages used to fail
// at JSON encoding where check passed).
func TestValuesRuleCommandsAgree(t *testing.T) {
	inf := "Infinity is not a JSON number (or the number is too large for a 64-bit float)"
	for _, c := range []struct{ name, src, want string }{
		{"meta.stf", ";meta\n{a: NaN}\n;end\n;user\nhi\n", ":2:5: ;meta block: NaN is not a JSON number"},
		{"args.stf", ";user {x: Infinity}\nhi\n", ":1:11: JSON5 arguments: " + inf},
		{"call.stf", ";user\nq\n;ai\n;call name=f\n{\"x\": 1e400}\n", ":5:7: tool call arguments: " + inf},
		{"nan.prompt", "---\nx: .nan\n---\nbody\n", ":2:4: front matter: NaN is not a JSON number"},
		{"big.prompt", "---\nx: 1e400\n---\nbody\n", ":2:4: front matter: " + inf},
		{"nan.prompty", "---\nname: t\nx: -.inf\n---\nuser:\nhi\n", ":3:4: front matter: -" + inf},
		{"deep.prompt", "---\nx: " + strings.Repeat("{a: ", 8000) + "1" + strings.Repeat("}", 8000) + "\n---\nbody\n",
			":2:4000: front matter: nested deeper than 1000 levels"},
		{"deep.stf", ";meta\n" + strings.Repeat("[", 8000) + strings.Repeat("]", 8000) + "\n;end\n;user\nhi\n",
			":2:1001: ;meta block: nested deeper than 1000 levels"},
	} {
		file := writeFile(t, c.name, c.src)
		for _, cmd := range []string{"check", "parse", "messages"} {
			out, errOut, status := runCmd(t, "", cmd, file)
			assert.Equal(t, exitInvalid, status, "%s %s: %s", cmd, c.name, out)
			assert.True(t, strings.HasPrefix(errOut, file+c.want+"\n"), "%s %s: %.300s", cmd, c.name, errOut)
			if !strings.Contains(c.want, "nested") {
				assert.Contains(t, errOut, "hint: "+values.NonFiniteHint, "%s %s", cmd, c.name)
			}
			assert.Empty(t, out, "%s %s", cmd, c.name)
		}
	}
}
