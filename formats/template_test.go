package formats_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/formats"
	"github.com/stretchr/testify/require"
)

// The template formats show one face: Load, then Render with inputs into
// the document a model receives; a canceled context stops a rendering
// that would otherwise run long.
func TestTemplates(t *testing.T) {
	var templates []promptfmt.TemplateFormat
	for _, f := range formats.All() {
		if tf, ok := f.(promptfmt.TemplateFormat); ok {
			templates = append(templates, tf)
		}
	}
	require.Len(t, templates, 3, "pdl, prompty and dotprompt")

	for _, tc := range []struct {
		format, file, inputs string
		inputNames           []string
	}{
		{"pdl", "../testdata/examples/pick.pdl", "../testdata/examples/pick.json", nil},
		{"prompty", "../testdata/examples/chat.prompty", "../testdata/examples/inputs.json", []string{"customer", "order", "history", "question"}},
		{"dotprompt", "../testdata/examples/joke.prompt", "../testdata/examples/inputs.json", []string{"subject", "style"}},
	} {
		f, err := formats.ByName(tc.format)
		require.NoError(t, err)
		tf := f.(promptfmt.TemplateFormat)
		src, err := os.ReadFile(tc.file)
		require.NoError(t, err)
		tpl, err := tf.Load(src, promptfmt.FS(os.DirFS("../testdata/examples")))
		require.NoError(t, err, tc.file)
		require.Equal(t, tc.inputNames, tpl.Inputs())
		inputs := readJSON(t, tc.inputs)
		doc, err := tpl.Render(context.Background(), inputs)
		require.NoError(t, err, tc.file)
		require.NotEmpty(t, doc.LLMMessages(), tc.file)
	}

	// A rendering that would take long stops when its context is canceled.
	loops := map[string]string{
		"pdl":     "<|user|>\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}x\n",
		"prompty": "---\nname: x\n---\nuser:\n{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}x\n",
		// raymond cannot be stopped midway: the context is checked before.
		"dotprompt": "{{#each a}}{{#each b}}{{/each}}{{/each}}x",
	}
	for name, src := range loops {
		f, _ := formats.ByName(name)
		tpl, err := f.(promptfmt.TemplateFormat).Load([]byte(src))
		require.NoError(t, err, name)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err = tpl.Render(ctx, nil)
		var pe *promptfmt.ParseError
		require.True(t, errors.As(err, &pe), "%s: %v", name, err)
		require.Contains(t, pe.Msg, "canceled", name)
	}
}

func readJSON(t *testing.T, name string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(name)
	require.NoError(t, err)
	var v map[string]any
	require.NoError(t, json.Unmarshal(data, &v))
	return v
}
