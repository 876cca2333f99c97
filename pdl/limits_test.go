package pdl

import (
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

func TestRenderLimits(t *testing.T) {
	src := []byte("<|user|>\n\n{% macro f() %}{{ f() }}{% endmacro %}\n{{ f() }}\n")
	_, err := Parse(src)
	require.ErrorContains(t, err, "pdl:3:")
	require.ErrorContains(t, err, "calls nest deeper than 200")

	_, err = Parse([]byte("<|user|>\n\n{{ 'x' * 4000000000 }}\n"))
	require.ErrorContains(t, err, "pdl:3:")
	require.ErrorContains(t, err, "bytes of strings and lists")

	loop := []byte("<|user|>\n\n{% for i in range(100) %}{{ i }}{% endfor %}\n")
	_, err = Parse(loop, promptfmt.Limits(promptfmt.TemplateLimits{MaxSteps: 100}))
	require.ErrorContains(t, err, "more than 100 steps")
	_, err = Parse(loop)
	require.NoError(t, err)

	_, err = Parse([]byte("<|user|>\n\nhello"), promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 5}))
	require.NoError(t, err, "a file without template tags is not a template")
	big := []byte("<|user|>\n\n{{ 'hello' }}")
	_, err = Parse(big, promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 5}))
	require.ErrorContains(t, err, "more than the limit of 5")
	_, err = Check(big, promptfmt.Limits(promptfmt.TemplateLimits{MaxSource: 5}))
	require.ErrorContains(t, err, "more than the limit of 5")
}
