package stf

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An option of another format is refused by Parse and Write, directly and
// through Format, with its name; Write then writes nothing.
func TestOptionOfAnotherFormat(t *testing.T) {
	other := promptfmt.NewOption("pdl", "pdl.Something", func(any) { t.Fatal("applied to stf") })
	src := []byte(";user\nHi\n")
	doc, err := Parse(src)
	require.NoError(t, err)
	for _, p := range []func([]byte, ...promptfmt.Option) (*promptfmt.Document, error){Parse, Format.Parse} {
		got, err := p(src, DefaultRole("user"), other)
		require.ErrorContains(t, err, "pdl.Something is an option of pdl, not of stf")
		assert.Nil(t, got)
	}
	for _, w := range []func(io.Writer, *promptfmt.Document, ...promptfmt.Option) error{Write, Format.Write} {
		var out bytes.Buffer
		require.ErrorContains(t, w(&out, doc, other), "pdl.Something is an option of pdl, not of stf")
		assert.Empty(t, out.String())
	}
}

// promptfmt.File names the file on Parse's errors, at any depth of the
// joined error, and on its warnings.
func TestFileOption(t *testing.T) {
	_, err := Parse([]byte(";user\nHi\n;usr\n"), promptfmt.File("chat.stf"))
	require.Error(t, err)
	assert.True(t, strings.HasPrefix(err.Error(), "chat.stf:3:2: unknown command"), err.Error())
	var pe *promptfmt.ParseError
	require.True(t, errors.As(err, &pe))
	assert.Equal(t, "chat.stf", pe.File)

	_, err = Format.Parse([]byte("\xff"), promptfmt.File("bad.stf"))
	assert.True(t, strings.HasPrefix(err.Error(), "bad.stf:1:1: "), err.Error())

	doc, err := Format.Parse([]byte("\ufeff;user name=\"\"\nx"), promptfmt.File("chat.stf"))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 2)
	for _, w := range doc.Warnings {
		assert.Equal(t, "chat.stf", w.File)
		assert.True(t, strings.HasPrefix(w.String(), "chat.stf:1:"), w.String())
	}
}

// DefaultRole, now a promptfmt.Option, still starts a message for data
// before any, through Format too (which refused every option before); and
// Write, which takes Parse's options, writes the same with it.
func TestDefaultRoleOption(t *testing.T) {
	src := []byte("Hello\n;ai\nHi\n")
	_, err := Format.Parse(src)
	require.ErrorContains(t, err, "text outside a message")
	doc, err := Format.Parse(src, DefaultRole("user"))
	require.NoError(t, err)
	require.True(t, promptfmt.EqualMessages([]promptfmt.Message{msg("user", "Hello"), msg("assistant", "Hi")}, doc.Messages), js(doc))
	var a, b bytes.Buffer
	require.NoError(t, Write(&a, doc))
	require.NoError(t, Format.Write(&b, doc, DefaultRole("user"), promptfmt.File("x.stf")))
	assert.Equal(t, a.String(), b.String())
}
