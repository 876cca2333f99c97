package prapti

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

// An option of another format is refused by Parse, Write and Append,
// directly and through Format, with its name; nothing is written or
// appended.
func TestOptionOfAnotherFormat(t *testing.T) {
	other := promptfmt.NewOption("stf", "stf.Something", func(any) { t.Fatal("applied to prapti") })
	const want = "stf.Something is an option of stf, not of prapti"
	src := []byte("### @user:\n\nHi\n")
	doc, err := Parse(src)
	require.NoError(t, err)
	for _, p := range []func([]byte, ...promptfmt.Option) (*promptfmt.Document, error){Parse, Format.Parse} {
		got, err := p(src, promptfmt.File("a.md"), other)
		require.ErrorContains(t, err, want)
		assert.Nil(t, got)
	}
	for _, w := range []func(io.Writer, *promptfmt.Document, ...promptfmt.Option) error{Write, Format.Write} {
		var out bytes.Buffer
		require.ErrorContains(t, w(&out, doc, other), want)
		assert.Empty(t, out.String())
	}
	out, err := Append(src, []promptfmt.Message{promptfmt.NewMessage("assistant", "Hello")}, other)
	require.ErrorContains(t, err, want)
	assert.Nil(t, out)
}

// promptfmt.File names the file on Parse's errors and warnings, and on
// the error Append returns for a file that does not parse.
func TestFileOption(t *testing.T) {
	deep := []byte(strings.Repeat("> ", MaxNesting+1) + "x\n")
	for _, parse := range []func([]byte, ...promptfmt.Option) (*promptfmt.Document, error){Parse, Format.Parse} {
		_, err := parse(deep, promptfmt.File("deep.md"))
		var pe *promptfmt.ParseError
		require.True(t, errors.As(err, &pe), "%v", err)
		assert.Equal(t, "deep.md", pe.File)
		assert.True(t, strings.HasPrefix(err.Error(), "deep.md:1:"), err.Error())

		_, err = parse([]byte("### @user:\n\n\xff"), promptfmt.File("bad.md"))
		assert.True(t, strings.HasPrefix(err.Error(), "bad.md:3:1: "), err.Error())

		doc, err := parse([]byte("\ufeff### @user:\n\n```\nx\n"), promptfmt.File("chat.md"))
		require.NoError(t, err)
		require.Len(t, doc.Warnings, 2) // the byte order mark, the fence never closed
		for _, w := range doc.Warnings {
			assert.Equal(t, "chat.md", w.File)
			assert.True(t, strings.HasPrefix(w.String(), "chat.md:"), w.String())
		}
	}
	_, err := Append([]byte("### @user:\n\n\xff"), []promptfmt.Message{promptfmt.NewMessage("assistant", "Hi")}, promptfmt.File("chat.md"))
	assert.True(t, strings.HasPrefix(err.Error(), "chat.md:3:1: "), err.Error())
	// Without File, the error is as it was.
	_, err = Append([]byte("### @user:\n\n\xff"), []promptfmt.Message{promptfmt.NewMessage("assistant", "Hi")})
	assert.True(t, strings.HasPrefix(err.Error(), "prapti:3:1: "), err.Error())
}

// Options change nothing Parse reads or Write and Append write.
func TestOptionsChangeNoOutput(t *testing.T) {
	src := []byte("% model = \"m\"\n\n### @user/Ross:\n\nHi\n")
	opts := []promptfmt.Option{promptfmt.File("chat.md"), promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 1})}
	a, err := Parse(src)
	require.NoError(t, err)
	b, err := Parse(src, opts...)
	require.NoError(t, err)
	require.Equal(t, a, b)
	var wa, wb bytes.Buffer
	require.NoError(t, Write(&wa, a))
	require.NoError(t, Write(&wb, a, opts...))
	assert.Equal(t, wa.String(), wb.String())
	msgs := []promptfmt.Message{promptfmt.NewMessage("assistant", "Hello"), NextPrompt(src)}
	oa, err := Append(src, msgs)
	require.NoError(t, err)
	ob, err := Append(src, msgs, opts...)
	require.NoError(t, err)
	assert.Equal(t, string(oa), string(ob))
}
