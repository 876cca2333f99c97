package promptfile

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entryPoints calls each function that takes options, on a file with
// findings, and returns its error.
var entryPoints = map[string]func(src []byte, opts ...promptfmt.Option) error{
	"Parse": func(src []byte, opts ...promptfmt.Option) error { _, err := Parse(src, opts...); return err },
	"Write": func(_ []byte, opts ...promptfmt.Option) error {
		return Write(io.Discard, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi\n")}}, opts...)
	},
	"Verify":     func(src []byte, opts ...promptfmt.Option) error { return Verify(src, opts...) },
	"VerifyHeld": func(src []byte, opts ...promptfmt.Option) error { _, err := VerifyHeld(src, opts...); return err },
	"Fix": func(src []byte, opts ...promptfmt.Option) error {
		_, _, err := Fix(src, append(opts, IDFrom(func() (string, error) { return "P1", nil }))...)
		return err
	},
	"Format.Parse": func(src []byte, opts ...promptfmt.Option) error { _, err := Format.Parse(src, opts...); return err },
	"Format.Write": func(_ []byte, opts ...promptfmt.Option) error {
		return Format.Write(io.Discard, &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("user", "hi\n")}}, opts...)
	},
}

// Another format's option is refused by every entry point, by its name:
// never ignored.
func TestOptionOfAnotherFormat(t *testing.T) {
	other := promptfmt.NewOption("stf", "stf.DefaultRole", func(any) { t.Fatal("applied") })
	for name, call := range entryPoints {
		err := call([]byte("body\n"), other)
		assert.ErrorContains(t, err, "stf.DefaultRole is an option of stf, not of promptfile", name)
	}
}

// Fix's options given to another function are refused, not ignored.
func TestFixOptionElsewhere(t *testing.T) {
	for _, name := range []string{"Parse", "Write", "Verify", "VerifyHeld", "Format.Parse", "Format.Write"} {
		err := entryPoints[name]([]byte("body\n"), Rehash(), CreatedAt(fixNow))
		assert.ErrorContains(t, err, "promptfile.Rehash, promptfile.CreatedAt is an option of promptfile.Fix, not of promptfile.", name)
	}
	// Format's functions are Parse and Write.
	assert.ErrorContains(t, entryPoints["Format.Parse"]([]byte("body\n"), Rehash()), "not of promptfile.Parse")
	assert.ErrorContains(t, entryPoints["Format.Write"](nil, Rehash()), "not of promptfile.Write")
}

// promptfmt.File names the file in every error and every warning: the
// error of Parse and Fix, each of Verify's failures, Parse's warnings and
// Fix's changes.
func TestFile(t *testing.T) {
	file := promptfmt.File("notes/p.prompt")
	unclosed := []byte("---\nprompt-id: P1\n")
	for name, call := range entryPoints {
		if name == "Write" || name == "Format.Write" {
			continue
		}
		err := call(unclosed, file)
		var pe *promptfmt.ParseError
		require.True(t, errors.As(err, &pe), "%s: %v", name, err)
		assert.Equal(t, "notes/p.prompt", pe.File, name)
		assert.Contains(t, err.Error(), "notes/p.prompt:1:1: front matter opened here is never closed", name)
	}

	// A BOM, and all three keys missing: four warnings, three failures.
	lacking := []byte("\uFEFFbody\n")
	doc, err := Parse(lacking, file)
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 4)
	for _, w := range doc.Warnings {
		assert.Equal(t, "notes/p.prompt", w.File, w.Msg)
	}
	doc, err = Format.Parse(lacking, file)
	require.NoError(t, err)
	assert.Equal(t, "notes/p.prompt", doc.Warnings[3].File)

	for _, verify := range []func() error{
		func() error { return Verify(lacking, file) },
		func() error { _, err := VerifyHeld(lacking, file); return err },
	} {
		err := verify()
		joined, ok := err.(interface{ Unwrap() []error })
		require.True(t, ok, "%v", err)
		require.Len(t, joined.Unwrap(), 3)
		for _, e := range joined.Unwrap() {
			assert.Equal(t, "notes/p.prompt", e.(*promptfmt.ParseError).File, e.Error())
		}
	}

	_, changes, err := Fix(lacking, file, IDFrom(func() (string, error) { return "P3", nil }), CreatedAt(fixNow))
	require.NoError(t, err)
	require.Len(t, changes, 3)
	for _, w := range changes {
		assert.Equal(t, "notes/p.prompt", w.File, w.Msg)
	}
	_, _, err = Fix([]byte(idFile("prompt-id: P1\nid: P2\n")), file)
	assert.ErrorContains(t, err, "notes/p.prompt:3:5: id \"P2\" and prompt-id \"P1\"")

	// Without File, the format names the place, as before.
	doc, _ = Parse(lacking)
	assert.Empty(t, doc.Warnings[0].File)
	assert.ErrorContains(t, Verify(lacking), "promptfile:1:1: missing prompt-id")
}

// Without CreatedAt, Fix stamps the time it runs (FixOptions.Now's zero
// value stamped the year 1).
func TestFixCreatedAtDefault(t *testing.T) {
	before := time.Now().UTC().Truncate(time.Second)
	out, _, err := Fix([]byte("body\n"), IDFrom(func() (string, error) { return "P1", nil }))
	after := time.Now().UTC()
	require.NoError(t, err)
	doc, err := Parse(out)
	require.NoError(t, err)
	got, err := time.Parse(time.RFC3339, doc.Meta[KeyCreated].(string))
	require.NoError(t, err)
	assert.False(t, got.Before(before) || got.After(after), "created-at %s, run between %s and %s", got, before, after)
}

// Each Fix option does what its FixOptions field did; the last given wins.
func TestFixOptions(t *testing.T) {
	src := []byte("---\nsha1-hash: " + Hash("other\n") + "\n---\n\nbody\n")
	_, _, err := Fix(src, IDFrom(func() (string, error) { return "P5", nil }))
	assert.ErrorContains(t, err, "does not match the body", "no Rehash: a mismatch is refused")
	out, _, err := Fix(src, IDFrom(func() (string, error) { return "P5", nil }), CreatedAt(time.Unix(0, 0)), CreatedAt(fixNow), Rehash())
	require.NoError(t, err)
	want := "---\nprompt-id: \"P5\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \"" + Hash("body\n") + "\"\n---\n\nbody\n"
	assert.Equal(t, want, string(out))
	assert.NoError(t, Verify(out))
	assert.True(t, bytes.Contains(out, []byte(Timestamp(fixNow))))
}

// Timestamp is a created-at: UTC, to the second, whatever the zone.
func TestTimestamp(t *testing.T) {
	assert.Equal(t, "2026-11-21T08:30:00Z", Timestamp(fixNow.Add(999*time.Millisecond)))
	assert.True(t, timePattern.MatchString(Timestamp(time.Now())))
}
