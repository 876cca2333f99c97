package prompty

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"testing/fstest"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An option of another format is refused by every entry point, by name;
// so is an option of this package that the entry point does not take.
func TestOptionsRefused(t *testing.T) {
	other := promptfmt.NewOption("stf", "stf.DefaultRole", func(any) { t.Fatal("applied to prompty") })
	a := load(t, "system:\nhi")
	fsys := fstest.MapFS{"a.prompty": {Data: []byte("system:\nhi")}}
	entries := map[string]func(...promptfmt.Option) error{
		"Parse": func(o ...promptfmt.Option) error { _, err := Parse([]byte("user:\nhi"), o...); return err },
		"Write": func(o ...promptfmt.Option) error {
			return Write(&bytes.Buffer{}, &promptfmt.Document{Messages: []promptfmt.Message{msg("user", "hi")}}, o...)
		},
		"Format.Parse": func(o ...promptfmt.Option) error { _, err := Format.Parse([]byte("user:\nhi"), o...); return err },
		"Format.Write": func(o ...promptfmt.Option) error {
			return Format.Write(&bytes.Buffer{}, &promptfmt.Document{Messages: []promptfmt.Message{msg("user", "hi")}}, o...)
		},
		"Load":     func(o ...promptfmt.Option) error { _, err := Load([]byte("system:\nhi"), o...); return err },
		"LoadFile": func(o ...promptfmt.Option) error { _, err := LoadFile(fsys, "a.prompty", o...); return err },
		"Render":   func(o ...promptfmt.Option) error { _, err := Render(a, nil, o...); return err },
		"Prepare":  func(o ...promptfmt.Option) error { _, err := Prepare(a, nil, o...); return err },
	}
	takes := map[string][]string{
		"Parse": {optStrict, optThreads}, "Format.Parse": {optStrict, optThreads},
		"Load": {optLookupEnv}, "LoadFile": {optLookupEnv},
	}
	own := map[string]promptfmt.Option{
		optStrict:    Strict("n"),
		optThreads:   Threads(nil),
		optLookupEnv: LookupEnv(noEnv),
	}
	for name, call := range entries {
		require.NoError(t, call(), name)
		require.ErrorContains(t, call(other), "stf.DefaultRole is an option of stf, not of prompty", name)
		for optName, o := range own {
			err := call(o)
			if slices.Contains(takes[name], optName) {
				if optName != optStrict { // Strict("n") fails on text without the nonce
					require.NoError(t, err, "%s takes %s", name, optName)
				}
				continue
			}
			require.ErrorContains(t, err, optName+" is not an option of prompty.", name)
		}
	}
}

// promptfmt.File names the file in errors and warnings: Parse's, Load's
// and LoadFile's, and Render's and Prepare's for the agent loaded.
func TestOptionsFile(t *testing.T) {
	_, err := Parse([]byte("---\nname: [\n"), promptfmt.File("p.prompty"))
	require.ErrorContains(t, err, "p.prompty:1:1: front matter opened here is never closed")
	doc, err := Format.Parse([]byte(lines.BOM+"user:\nhi"), promptfmt.File("p.prompty"))
	require.NoError(t, err)
	require.Equal(t, "p.prompty", doc.Warnings[0].File)
	assert.Equal(t, "p.prompty:1:1: byte order mark at the start of the file ignored", doc.Warnings[0].String())

	_, err = Load([]byte("---\nname: 1\n---\n"), promptfmt.File("l.prompty"))
	require.EqualError(t, err, "l.prompty:2:7: front matter: name: want a string, not a number")
	_, err = Load([]byte(lines.BOM+"system:\n{{ x +  }}"), promptfmt.File("l.prompty"))
	require.ErrorContains(t, err, "l.prompty:2:", "a syntax error is Load's")
	a, err := Load([]byte(lines.BOM+"system:\n{{ x[0] }}"), promptfmt.File("l.prompty"))
	require.NoError(t, err)
	assert.Equal(t, "l.prompty", a.File)
	assert.Equal(t, "l.prompty", a.Warnings[0].File)
	_, err = Render(a, map[string]any{"x": 1})
	require.ErrorContains(t, err, "l.prompty:2:")
	_, err = Prepare(a, map[string]any{"x": 1})
	require.ErrorContains(t, err, "l.prompty:2:")

	fsys := fstest.MapFS{
		"sub/f.prompty":   {Data: []byte("---\ninputs: {h: {kind: thread}}\ndescription: ${file:missing.txt}\n---\nsystem:\nhi")},
		"sub/g.prompty":   {Data: []byte("---\ninputs: {h: {kind: thread}}\n---\nsystem:\nhi")},
		"sub/bad.prompty": {Data: []byte("---\nname: x\n")},
	}
	_, err = LoadFile(fsys, "sub/f.prompty")
	require.ErrorContains(t, err, "sub/f.prompty:3:14: front matter: description: ${file:missing.txt}")
	_, err = LoadFile(fsys, "sub/bad.prompty", promptfmt.File("shown.prompty"))
	require.ErrorContains(t, err, "shown.prompty:1:1:", "File names it as the caller wants")
	_, err = LoadFile(fsys, "sub/none.prompty")
	require.ErrorIs(t, err, os.ErrNotExist)

	a, err = LoadFile(fsys, "sub/g.prompty")
	require.NoError(t, err)
	var warns []promptfmt.Warning
	_, err = Prepare(a, map[string]any{"h": []any{map[string]any{"role": "user", "content": "x"}}},
		promptfmt.OnWarning(func(w promptfmt.Warning) { warns = append(warns, w) }))
	require.NoError(t, err)
	require.Len(t, warns, 1)
	assert.Equal(t, "sub/g.prompty", warns[0].File)
	assert.Contains(t, warns[0].String(), "sub/g.prompty:4:1: thread input \"h\"")
}

// promptfmt.FS replaces the directory: ${file:} and local media are read
// from the file system, beside the file LoadFile read (a ".." that stays
// inside the file system is allowed), and never from outside it.
func TestOptionsFS(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\nfake")
	fsys := fstest.MapFS{
		"shared/about.txt":   {Data: []byte("shared text")},
		"p/about.txt":        {Data: []byte("beside")},
		"p/cat.png":          {Data: png},
		"top.png":            {Data: png},
		"p/chat.prompty":     {Data: []byte("---\ndescription: ${file:about.txt}\nmetadata:\n  shared: ${file:../shared/about.txt}\ninputs: {photo: {kind: image}}\n---\nuser:\n{{photo}}")},
		"p/outside.prompty":  {Data: []byte("---\ndescription: ${file:../../x.txt}\n---\n")},
		"p/absolute.prompty": {Data: []byte("---\ndescription: ${file:/p/about.txt}\n---\n")},
	}
	a, err := LoadFile(fsys, "p/chat.prompty")
	require.NoError(t, err)
	assert.Equal(t, "beside", a.Description)
	assert.Equal(t, map[string]any{"shared": "shared text"}, a.Metadata)
	msgs, err := Prepare(a, map[string]any{"photo": "cat.png"})
	require.NoError(t, err)
	assert.Equal(t, "image/png", msgs[0].Content[0].MediaType, "media beside the file")
	_, err = Prepare(a, map[string]any{"photo": "top.png"})
	require.ErrorContains(t, err, "top.png", "not beside the file")
	msgs, err = Prepare(a, map[string]any{"photo": "top.png"}, promptfmt.FS(fsys))
	require.NoError(t, err, "Prepare's FS: from its top")
	assert.Equal(t, "image/png", msgs[0].Content[0].MediaType)
	for _, name := range []string{"p/outside.prompty", "p/absolute.prompty"} {
		_, err = LoadFile(fsys, name)
		require.ErrorContains(t, err, "outside allowed roots", name)
	}

	// Load reads from the top of promptfmt.FS; without it, from nowhere.
	a, err = Load([]byte("---\ndescription: ${file:p/about.txt}\ninputs: {photo: {kind: image}}\n---\nuser:\n{{photo}}"), promptfmt.FS(fsys))
	require.NoError(t, err)
	assert.Equal(t, "beside", a.Description)
	_, err = Prepare(a, map[string]any{"photo": "top.png"})
	require.NoError(t, err)
	_, err = Load([]byte("---\ndescription: ${file:p/about.txt}\n---\n"))
	require.ErrorContains(t, err, "no file system to read it from")

	// An os directory through the command's confined file system: a link
	// out of it is refused.
	dir := t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret.txt")
	require.NoError(t, os.WriteFile(secret, []byte("secret"), 0o600))
	require.NoError(t, os.Symlink(secret, filepath.Join(dir, "link.txt")))
	_, err = Load([]byte("---\ndescription: ${file:link.txt}\n---\n"), inDir(dir))
	require.ErrorContains(t, err, "outside allowed roots")
}

// LookupEnv, now a promptfmt.Option, still replaces os.LookupEnv.
func TestOptionsLookupEnv(t *testing.T) {
	t.Setenv("PROMPTY_TEST_VAR", "from os")
	a, err := Load([]byte("---\ndescription: ${env:PROMPTY_TEST_VAR}\n---\n"))
	require.NoError(t, err)
	assert.Equal(t, "from os", a.Description)
	a, err = Load([]byte("---\ndescription: ${env:PROMPTY_TEST_VAR}\n---\n"), LookupEnv(func(string) (string, bool) { return "mine", true }))
	require.NoError(t, err)
	assert.Equal(t, "mine", a.Description)
}
