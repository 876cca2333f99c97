package formats_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/formats"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Property over every file of the test corpora (the examples and each
// package's upstream and canonical data, not fuzz inputs) that fmt
// formats: fmt keeps the document (parse(fmt(x)) == parse(x), its
// comments and their places included), is idempotent (fmt(fmt(x)) ==
// fmt(x)), and keeps the comments of YAML front matter.
func TestFmtOverCorpora(t *testing.T) {
	var files []string
	for _, root := range []string{"../testdata", "../stf/testdata", "../prapti/testdata", "../pdl/testdata", "../prompty/testdata", "../promptfile/testdata", "../dotprompt/testdata", "../provider/testdata"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "fuzz" {
				return filepath.SkipDir
			}
			if !d.IsDir() {
				files = append(files, path)
			}
			return nil
		})
		if !os.IsNotExist(err) {
			require.NoError(t, err)
		}
	}
	formatted := map[string]int{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		f, err := formats.Detect(path, src)
		if err != nil {
			continue // not a format's file (a golden, a JSON context)
		}
		parse := func(src []byte) (*promptfmt.Document, error) {
			return f.Parse(src, promptfmt.FS(os.DirFS(filepath.Dir(path))))
		}
		doc, err := parse(src)
		if tf, ok := f.(promptfmt.TemplateFormat); err != nil || ok && tf.IsTemplate(src) {
			continue // fmt refuses it, and says why
		}
		var out bytes.Buffer
		if err := f.Write(&out, doc); err != nil {
			t.Errorf("%s: fmt fails on a file its parser reads: %v", path, err)
			continue
		}
		again, err := parse(out.Bytes())
		if !assert.NoError(t, err, "%s: fmt's output does not parse:\n%s", path, out.String()) {
			continue
		}
		assert.True(t, promptfmt.Equal(doc, again), "%s: parse(fmt(x)) != parse(x)\nfmt:\n%s", path, out.String())
		assert.Len(t, again.Comments, len(doc.Comments), "%s: comments", path)
		var out2 bytes.Buffer
		require.NoError(t, f.Write(&out2, again), path)
		assert.Equal(t, out.String(), out2.String(), "%s: fmt is not idempotent", path)
		for _, c := range frontMatterComments(src) {
			assert.Contains(t, out.String(), c, "%s: a front matter comment is gone", path)
		}
		formatted[f.Name()]++
	}
	t.Logf("formatted %v", formatted)
	for _, name := range []string{"stf", "prapti", "pdl", "prompty", "promptfile", "dotprompt"} {
		assert.NotZero(t, formatted[name], "no %s file in the corpora was formatted", name)
	}
}

// frontMatterComments returns the comment lines of src's YAML front
// matter, trimmed.
func frontMatterComments(src []byte) []string {
	s := strings.ReplaceAll(string(src), "\r\n", "\n")
	if !strings.HasPrefix(s, "---\n") {
		return nil
	}
	end := strings.Index(s[4:], "\n---")
	if end < 0 {
		return nil
	}
	var out []string
	for _, line := range strings.Split(s[4:4+end], "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "#") {
			out = append(out, t)
		}
	}
	return out
}
