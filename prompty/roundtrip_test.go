package prompty

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// roundTrip checks that doc survives Write and Parse, and that its canonical
// form is a fixed point of Write(Parse(x)).
func roundTrip(t testing.TB, doc *promptfmt.Document) { thisFormat.RoundTrip(t, doc) }

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
