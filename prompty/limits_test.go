package prompty

import (
	"runtime"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// A hostile template stops at the budget with the file's line, in both
// engines, and the Limits option sets the budget.
func TestRenderLimits(t *testing.T) {
	recursive := load(t, "---\nname: x\n---\nsystem:\n{% macro f() %}{{ f() }}{% endmacro %}\n{{ f() }}\n")
	_, err := Prepare(recursive, nil)
	require.ErrorContains(t, err, "prompty:5:")
	require.ErrorContains(t, err, "calls nest deeper than 200")

	huge := load(t, "---\nname: x\n---\nsystem:\n{{ 'x' * 4000000000 }}\n")
	_, err = Render(huge, nil)
	require.ErrorContains(t, err, "prompty:5:")
	require.ErrorContains(t, err, "bytes of strings and lists")

	loop := load(t, "---\nname: x\n---\nsystem:\n{% for i in range(100) %}{{ i }}{% endfor %}\n")
	_, err = Render(loop, nil, promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 100}))
	require.ErrorContains(t, err, "more than 100 steps")
	_, err = Render(loop, nil)
	require.NoError(t, err)

	mustache := load(t, "---\nname: x\ntemplate: mustache\ninputs:\n  items: {type: array, default: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}\n---\nsystem:\n{{#items}}{{#items}}{{#items}}.{{/items}}{{/items}}{{/items}}\n")
	_, err = Prepare(mustache, nil, promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 500}))
	require.ErrorContains(t, err, "prompty:8:")
	require.ErrorContains(t, err, "more than 500 steps")
	msgs, err := Prepare(mustache, nil)
	require.NoError(t, err)
	require.Len(t, msgs, 1)
}

// Load refuses a template over MaxSource, as its engine would, before it
// copies it.
func TestLoadSourceLimit(t *testing.T) {
	src := []byte("---\nname: x\n---\nsystem:\n" + strings.Repeat("x", 1<<20) + "\n\n")
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := Load(src, promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 1 << 10}))
	runtime.ReadMemStats(&after)
	require.ErrorContains(t, err, "the template is 1048584 bytes, more than the limit of 1024")
	require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(1<<19), "the template is not copied")
	_, err = Load(src, promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 1048584}))
	require.NoError(t, err, "the limit is the template's, its trailing line breaks trimmed")
}
