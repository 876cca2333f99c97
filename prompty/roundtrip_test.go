package prompty

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// roundTrip checks that doc survives Write and Parse, and that its canonical
// form is a fixed point of Write(Parse(x)).
func roundTrip(t testing.TB, doc *promptfmt.Document) {
	t.Helper()
	var out bytes.Buffer
	require.NoError(t, Write(&out, doc))
	back, err := Parse(out.Bytes())
	require.NoError(t, err, "re-parse of\n%s", out.String())
	require.True(t, promptfmt.Equal(doc, back), "round trip changed the document\nwritten:\n%s\nbefore: %+v\nafter:  %+v", out.String(), doc, back)
	var again bytes.Buffer
	require.NoError(t, Write(&again, back))
	require.Equal(t, out.String(), again.String(), "canonical form is not stable")
}

// canonicalFiles returns the golden files of canonical Prompty, by name.
func canonicalFiles(tb testing.TB) map[string][]byte {
	tb.Helper()
	names, err := filepath.Glob("testdata/canonical/*.prompty")
	require.NoError(tb, err)
	require.NotEmpty(tb, names)
	files := map[string][]byte{}
	for _, name := range names {
		src, err := os.ReadFile(name)
		require.NoError(tb, err)
		files[filepath.Base(name)] = src
	}
	return files
}
