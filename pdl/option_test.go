package pdl

import (
	"bytes"
	"io"
	"testing"
	"testing/fstest"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// An option of another format is refused by every entry point, by name,
// and nothing is written.
func TestOtherFormatsOption(t *testing.T) {
	other := promptfmt.NewOption("stf", "stf.DefaultRole", func(any) { panic("applied to pdl") })
	src := []byte("<|user|>\nhi")
	fsys := fstest.MapFS{"p.pdl": {Data: src}}
	var out bytes.Buffer
	doc := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi")}}
	for name, call := range map[string]func() error{
		"Parse":          func() error { _, err := Parse(src, other); return err },
		"Load":           func() error { _, err := Load(src, other); return err },
		"LoadFile":       func() error { _, err := LoadFile(fsys, "p.pdl", other); return err },
		"Check":          func() error { _, err := Check(src, other); return err },
		"Render":         func() error { _, err := Render(src, other); return err },
		"Write":          func() error { return Write(&out, doc, other) },
		"Format.Parse":   func() error { _, err := Format.Parse(src, other); return err },
		"Format.Write":   func() error { return Format.Write(&out, doc, other) },
		"Check template": func() error { _, err := Check([]byte("<|user|>\n{{ x }}"), other); return err },
	} {
		err := call()
		require.ErrorContains(t, err, "stf.DefaultRole is an option of stf, not of pdl", name)
	}
	require.Empty(t, out.Bytes())
	// Options reach Format's functions.
	d, err := Format.Parse([]byte("<|user|>\n{{ x }}"), Inputs(map[string]any{"x": "y"}))
	require.NoError(t, err)
	require.Equal(t, "y", d.Messages[0].Text())
	require.NoError(t, Format.Write(io.Discard, d, promptfmt.File("x.pdl")))
}

// File names the file on errors and warnings of each entry point, and
// OnWarning is told every warning; LoadFile names its file itself.
func TestFileAndWarnings(t *testing.T) {
	file := promptfmt.File("prompts/a.pdl")
	_, err := Parse([]byte("<|user|>\n<|bogus|>"), file)
	require.ErrorContains(t, err, "prompts/a.pdl:2:1: unknown turn separator")
	_, err = Render([]byte("<|user|>\n{{ x }}"), file)
	require.ErrorContains(t, err, "prompts/a.pdl:2:")
	_, err = Check([]byte("<|user|>\n{% if %}"), file)
	require.ErrorContains(t, err, "prompts/a.pdl: template:")
	_, err = Parse([]byte("\xff"), file)
	require.ErrorContains(t, err, "prompts/a.pdl:1:1:")

	var told []promptfmt.Warning
	tell := promptfmt.OnWarning(func(w promptfmt.Warning) { told = append(told, w) })
	doc, err := Parse([]byte("\uFEFFhello\n<|user|>\nhi"), file, NonStrict(), tell)
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 2)
	require.Equal(t, doc.Warnings, told)
	for _, w := range doc.Warnings {
		require.Equal(t, "prompts/a.pdl", w.File)
	}
	require.Contains(t, told[1].String(), "prompts/a.pdl:1:4: text before the first turn separator")

	told = nil
	doc, err = Check([]byte("\uFEFF<|user|>\n{{ x }}"), file, tell)
	require.NoError(t, err)
	require.Len(t, told, 1)
	require.Equal(t, "prompts/a.pdl", doc.Warnings[0].File)

	fsys := fstest.MapFS{"in/b.pdl": {Data: []byte("<|user|>\n<|bogus|>")}}
	_, err = LoadFile(fsys, "in/b.pdl")
	require.ErrorContains(t, err, "in/b.pdl:2:1:")
	_, err = LoadFile(fsys, "in/b.pdl", promptfmt.File("/abs/b.pdl"))
	require.ErrorContains(t, err, "/abs/b.pdl:2:1:", "File names it otherwise")
}
