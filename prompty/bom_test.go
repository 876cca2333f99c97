package prompty

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var bomWarning = promptfmt.Warning{Format: format, Line: 1, Col: 1, Offset: 0, Msg: lines.BOMWarning}

// A leading byte order mark is skipped with a warning: the front matter is
// still found, no text keeps it, and positions are the file's (its bytes
// count in the offsets and in the byte columns of line 1).
func TestParseBOM(t *testing.T) {
	doc, err := Parse([]byte(lines.BOM + "---\nname: x\n---\nuser:\nhi\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"name": "x"}, doc.Meta)
	assert.Equal(t, []promptfmt.Message{msg("user", "hi")}, stripLines(doc.Messages))
	assert.Equal(t, []promptfmt.Warning{bomWarning}, doc.Warnings)

	doc, err = Parse([]byte(lines.BOM + "hello\nuser[a=1, a=2]:\nx"))
	require.NoError(t, err)
	assert.Equal(t, []promptfmt.Message{msg("system", "hello\nuser[a=1, a=2]:\nx")}, stripLines(doc.Messages))
	require.Len(t, doc.Warnings, 2)
	assert.Equal(t, bomWarning, doc.Warnings[0])
	assert.Equal(t, [3]int{2, 1, 9}, [3]int{doc.Warnings[1].Line, doc.Warnings[1].Col, doc.Warnings[1].Offset})

	_, err = Parse([]byte(lines.BOM + "---\nname: [\n---\n"))
	require.Error(t, err)
	assert.Regexp(t, `^prompty:[23]:\d+: front matter: `, err.Error())
	_, err = Parse([]byte(lines.BOM + "---\nname: x\n"))
	assert.EqualError(t, err, "prompty:1:4: front matter opened here is never closed (want a --- line)")
}

func TestLoadBOM(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.prompty")
	require.NoError(t, os.WriteFile(path, []byte(lines.BOM+"---\nname: x\n---\nsystem:\nHi {{q}}\n"), 0o600))
	a, err := loadPath(path)
	require.NoError(t, err)
	assert.Equal(t, "x", a.Name)
	assert.Equal(t, "system:\nHi {{q}}", a.Instructions)
	assert.Equal(t, 4, a.InstructionsLine)
	named := bomWarning
	named.File = "a.prompty" // LoadFile's name
	assert.Equal(t, []promptfmt.Warning{named}, a.Warnings)
	msgs, err := Prepare(a, map[string]any{"q": "Ann"})
	require.NoError(t, err)
	assert.Equal(t, []promptfmt.Message{msg("system", "Hi Ann")}, stripLines(msgs))

	// Errors keep their places.
	_, err = Load([]byte(lines.BOM + "---\nname: 1\n---\n"))
	assert.EqualError(t, err, "prompty:2:7: front matter: name: want a string, not a number")
	a, err = Load([]byte(lines.BOM + "no front matter"))
	require.NoError(t, err)
	assert.Equal(t, "no front matter", a.Instructions)
	assert.Equal(t, []promptfmt.Warning{bomWarning}, a.Warnings)
}
