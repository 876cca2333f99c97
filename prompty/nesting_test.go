package prompty

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// nests are front matter values nested n deep: flow mappings, flow
// sequences, compact block sequences, and the same under inputs (where a
// property's default is a value) and metadata.
var nests = []struct{ name, open, close, middle, tail string }{
	{"flow mapping", "x: ", "{a: ", "}", ""},
	{"flow sequence", "x: ", "[", "]", ""},
	{"block sequence", "x:\n", "- ", "", ""},
	{"inputs", "inputs: {p: {kind: object, default: ", "{a: ", "}", "}}"},
	{"inputs, a list", "inputs: {p: ", "[", "]", "}"},
	{"metadata", "metadata: ", "{a: ", "}", ""},
}

func nested(i, n int) []byte {
	c := nests[i]
	return []byte("---\n" + c.open + strings.Repeat(c.close, n) + "1" + strings.Repeat(c.middle, n) + c.tail + "\n---\nuser:\nx\n")
}

// Front matter nested n deep is read in time and memory linear in n (the
// key path of an error used to be copied at every level).
func TestFrontMatterNestingIsLinear(t *testing.T) {
	for i, c := range nests {
		t.Run(c.name, func(t *testing.T) {
			src := nested(i, values.MaxDepth-10)
			_, err := Load(src)
			require.NoError(t, err)
			_, err = Parse(src)
			require.NoError(t, err)
			growth.Linear(t, "Load, "+c.name, values.MaxDepth/4-10, func(n int) float64 {
				src := nested(i, n)
				return growth.AllocBytes(func() { _, _ = Load(src) })
			})
			growth.Linear(t, "Parse, "+c.name, values.MaxDepth/4-10, func(n int) float64 {
				src := nested(i, n)
				return growth.AllocBytes(func() { _, _ = Parse(src) })
			})
		})
	}
}

// Deeper than values.MaxDepth is refused, at the value that goes too deep,
// and costs no more than the limit.
func TestFrontMatterTooDeep(t *testing.T) {
	for i, c := range nests {
		t.Run(c.name, func(t *testing.T) {
			src := nested(i, 8000)
			_, err := Load(src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), values.DepthMessage())
			assert.Regexp(t, `^prompty:\d+:\d+: `, err.Error())
			_, err = Parse(src)
			require.Error(t, err)
			assert.Contains(t, err.Error(), values.DepthMessage())
			growth.Linear(t, "Load, too deep, "+c.name, 2000, func(n int) float64 {
				src := nested(i, n)
				return growth.AllocBytes(func() { _, _ = Load(src) })
			})
		})
	}
}

// A ${file:...} reference may not bring in a value that nests deeper than
// values.MaxDepth where it lands.
func TestFileReferenceTooDeep(t *testing.T) {
	dir := t.TempDir()
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.json"), []byte(deep(values.MaxDepth-2)), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "deep.json"), []byte(deep(values.MaxDepth-1)), 0o600))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "deep.yaml"), []byte("a: "+deep(values.MaxDepth)), 0o600))
	// metadata (1), x (2), the file's value (998): at the limit
	_, err := Load([]byte("---\nmetadata:\n  x: ${file:ok.json}\n---\n"), inDir(dir))
	require.NoError(t, err)
	for _, name := range []string{"deep.json", "deep.yaml"} {
		_, err := Load([]byte("---\nmetadata:\n  x: ${file:"+name+"}\n---\n"), inDir(dir))
		require.Error(t, err, name)
		where := "" // the YAML file is too deep on its own: its reader names the line
		if name == "deep.yaml" {
			where = "line 1: "
		}
		assert.Equal(t, "prompty:3:6: front matter: metadata.x: ${file:"+name+"}: "+where+values.DepthMessage(), err.Error())
	}
}
