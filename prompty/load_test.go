package prompty

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/confined"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func noEnv(string) (string, bool) { return "", false }

// inDir is the option that lets a loaded file read the files of dir (and
// nothing outside it, through links either), as the command's is.
func inDir(dir string) promptfmt.Option { return promptfmt.FS(confined.DirFS(dir)) }

// loadPath loads the file at p, reading the files beside it.
func loadPath(p string, opts ...promptfmt.Option) (*Agent, error) {
	return LoadFile(confined.DirFS(filepath.Dir(p)), filepath.Base(p), opts...)
}

func load(t *testing.T, src string) *Agent {
	t.Helper()
	a, err := Load([]byte(src), LookupEnv(noEnv))
	require.NoError(t, err)
	return a
}

// The four normative splitting vectors of section 2.2, and our rules
// beyond them.
func TestLoadSplit(t *testing.T) {
	for _, tc := range []struct{ name, src, fmName, body string }{
		{"standard", "---\nname: test\n---\nHello world", "test", "Hello world"},
		{"none", "Just a prompt with no frontmatter", "", "Just a prompt with no frontmatter"},
		{"empty front matter", "---\n---\nBody only", "", "Body only"},
		{"white space before the delimiter", "  ---\nname: test\n---\nBody", "test", "Body"},
		{"plus delimiters, mixed", "+++\nname: test\n---\n\n\nBody\n\n", "test", "Body"},
		{"body keeps its indentation", "---\nname: x\n---\n\n  indented\nnext\n", "x", "  indented\nnext"},
		{"CRLF", "---\r\nname: x\r\n---\r\nsystem:\r\nHi\r\n", "x", "system:\r\nHi"},
		{"a --- inside the body is text", "---\nname: x\n---\nA\n---\nB", "x", "A\n---\nB"},
		{"--- not on its own line opens nothing", "---name: x\nbody", "", "---name: x\nbody"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := load(t, tc.src)
			assert.Equal(t, tc.fmName, a.Name)
			assert.Equal(t, tc.body, a.Instructions)
		})
	}
	_, err := Load([]byte("---\nname: x\nno end"))
	require.ErrorContains(t, err, "never closed")
}

func TestLoadInstructionsLine(t *testing.T) {
	a := load(t, "---\nname: x\n---\n\n\nsystem:\nHi")
	assert.Equal(t, 6, a.InstructionsLine)
	assert.Equal(t, 1, load(t, "system:\nHi").InstructionsLine)
}

func TestLoadKeys(t *testing.T) {
	a := load(t, `---
name: n
displayName: Nice Name
description: d
metadata: {tags: [a]}
model: gpt-4o
inputs:
  zeta: Jane
  alpha: 5
  mid: 1.5
  flag: true
  list: [1]
  full:
    kind: thread
    description: history
    required: true
  nokind:
    default: 3
    example: 4
    enumValues: [3, 4]
    custom: kept
outputs:
  - name: answer
    kind: string
template:
  format: {kind: mustache, strict: false, options: {x: 1}}
  parser: prompty
future: kept too
---
body`)
	assert.Equal(t, "Nice Name", a.DisplayName)
	assert.Equal(t, map[string]any{"tags": []any{"a"}}, a.Metadata)
	assert.Equal(t, &Model{ID: "gpt-4o"}, a.Model)
	var names, kinds []string
	for _, p := range a.Inputs {
		names, kinds = append(names, p.Name), append(kinds, p.Kind)
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid", "flag", "list", "full", "nokind"}, names, "the author's order")
	assert.Equal(t, []string{"string", "integer", "float", "boolean", "array", "thread", "integer"}, kinds)
	zeta, _ := a.Input("zeta")
	assert.Equal(t, Property{Name: "zeta", Kind: "string", Default: "Jane", HasDefault: true}, *zeta)
	full, _ := a.Input("full")
	assert.True(t, full.Required)
	nokind, _ := a.Input("nokind")
	assert.Equal(t, Property{Name: "nokind", Kind: "integer", Default: int64(3), HasDefault: true, Example: int64(4),
		EnumValues: []any{int64(3), int64(4)}, Extra: map[string]any{"custom": "kept"}}, *nokind)
	assert.Equal(t, []Property{{Name: "answer", Kind: "string"}}, a.Outputs)
	assert.Equal(t, "mustache", a.Template.Format)
	assert.False(t, a.Template.IsStrict())
	assert.Equal(t, map[string]any{"x": int64(1)}, a.Template.FormatOptions)
	assert.Equal(t, map[string]any{"future": "kept too"}, a.Extra)
	b, err := json.Marshal(a)
	require.NoError(t, err)
	assert.Contains(t, string(b), `"future":"kept too"`, "unknown keys are written back")

	a = load(t, "---\nmodel:\n  id: m\n  options: {temperature: 1, maxOutputTokens: 100.0, stopSequences: [x], allowMultipleToolCalls: true, other: 1}\n  region: eu\n---\n")
	o := a.Model.Options
	assert.Equal(t, 1.0, *o.Temperature)
	assert.Equal(t, int64(100), *o.MaxOutputTokens)
	assert.Equal(t, []string{"x"}, o.StopSequences)
	assert.True(t, *o.AllowMultipleToolCalls)
	assert.Equal(t, map[string]any{"other": int64(1)}, o.Extra)
	assert.Equal(t, map[string]any{"region": "eu"}, a.Model.Extra)
	assert.True(t, load(t, "x").Template.IsStrict(), "strict by default")
	assert.Equal(t, Template{Format: "jinja2", Parser: "prompty"}, load(t, "x").Template)
}

func TestLoadErrorsArePositioned(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"---\nname: [1]\n---\n", "prompty:2:7: front matter: name: want a string, not a list"},
		{"---\nmodel:\n  id: m\n  options:\n    temperature: hot\n---\n", "prompty:5:18: front matter: model.options.temperature: want a number, not a string"},
		{"---\ninputs:\n  - kind: string\n---\n", "prompty:3:5: front matter: inputs[0]: a property in a list needs a name"},
		{"---\ninputs:\n  - name: a\n  - name: a\n---\n", "prompty:4:5: front matter: inputs[1]: a second property named \"a\""},
		{"---\ntemplate: {format: {kind: jinja2, strict: maybe}}\n---\n", "prompty:2:43: front matter: template.format.strict: want true or false, not a string"},
		{"---\ntemplate: {format: {strict: true}}\n---\n", "prompty:2:20: front matter: template.format: missing kind"},
		{"---\nmodel:\n  connection:\n    apiKey: ${env:KEY}\n---\n", "prompty:4:13: front matter: model.connection.apiKey: Environment variable 'KEY' not set"},
		{"---\nname: x\nname: y\n---\n", "prompty:3:1: front matter"},
	} {
		_, err := Load([]byte(tc.src), LookupEnv(noEnv))
		require.Error(t, err, tc.src)
		assert.Contains(t, err.Error(), tc.want)
		var pe *promptfmt.ParseError
		assert.True(t, errors.As(err, &pe))
	}
}

func TestLoadReferences(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "conn.yaml"), []byte("kind: key\nendpoint: https://e\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "about.txt"), []byte("plain text"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "n.json"), []byte(`{"n": 30, "f": 1.5}`), 0o644))
	env := LookupEnv(func(k string) (string, bool) { return map[string]string{"SET": "v"}[k], k == "SET" })
	a, err := Load([]byte(`---
description: ${file:about.txt}
metadata:
  set: ${env:SET}
  fallback: ${env:UNSET:https://api.example.com/v1}
  empty: ${env:UNSET:}
  literal: ${not a reference}
  inside: text ${env:SET} text
  nums: ${file:n.json}
model:
  id: m
  connection: ${file:conn.yaml}
---
`), inDir(dir), env)
	require.NoError(t, err)
	assert.Equal(t, "plain text", a.Description)
	assert.Equal(t, map[string]any{"set": "v", "fallback": "https://api.example.com/v1", "empty": "",
		"literal": "${not a reference}", "inside": "text ${env:SET} text",
		"nums": map[string]any{"n": int64(30), "f": 1.5}}, a.Metadata)
	assert.Equal(t, map[string]any{"kind": "key", "endpoint": "https://e"}, a.Model.Connection)

	for _, ref := range []string{"../x.json", "/etc/passwd", "sub/../../x.json"} {
		_, err := Load([]byte("---\ndescription: ${file:"+ref+"}\n---\n"), inDir(dir))
		require.ErrorContains(t, err, "outside allowed roots", ref)
	}
	_, err = Load([]byte("---\ndescription: ${file:about.txt}\n---\n"))
	require.ErrorContains(t, err, "no file system")
	_, err = Load([]byte("---\ndescription: ${file:missing.txt}\n---\n"), inDir(dir))
	require.ErrorContains(t, err, "prompty:2:14")
}

func TestLoadWarnsAboutMarkerLikeLines(t *testing.T) {
	a := load(t, "---\nname: x\n---\nsystem:\nok\nuser[a=1, a=2]:\nhi")
	require.Len(t, a.Warnings, 1)
	assert.Equal(t, 6, a.Warnings[0].Line)
	assert.Contains(t, a.Warnings[0].Msg, "attribute a is given twice")
}

// Load warns of lines shaped like role markers as parsing the body does,
// without parsing its messages.
func TestMarkerWarnings(t *testing.T) {
	warned := 0
	for _, src := range []string{
		"user[a=1, a=2]:\nhi\n\nassistant[x=\"y]:\n",
		"---\nname: x\n---\n\nsystem:\nbe\nuser[name=\"a\" b=1]:\r\nq\r\n  assistant [k=v] x:\n",
		"no markers at all\n", "",
	} {
		var doc promptfmt.Document
		require.NoError(t, parseBody(&doc, []byte(src), 0, &config{}))
		assert.Equal(t, doc.Warnings, markerWarnings([]byte(src), 0), src)
		warned += len(doc.Warnings)
	}
	assert.GreaterOrEqual(t, warned, 3)
}
