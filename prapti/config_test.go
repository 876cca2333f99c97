package prapti

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refused parses "### @user:\n" + line and checks that the line is kept
// as a configuration line with an error and no value, with one warning at
// it; the document encodes as JSON.
func refused(t *testing.T, line string) promptfmt.Warning {
	t.Helper()
	doc, err := Parse([]byte("### @user:\n" + line + "\n"))
	require.NoError(t, err)
	require.Len(t, doc.Warnings, 1, "%.80q", line)
	w := doc.Warnings[0]
	assert.Equal(t, 2, w.Line)
	configs, err := Config(&doc.Messages[0])
	require.NoError(t, err)
	require.Len(t, configs, 1)
	assert.Equal(t, w.Msg, configs[0].Error)
	assert.Nil(t, configs[0].Value)
	assert.Empty(t, Assignments(doc), "a refused value is in no assignment")
	_, err = json.Marshal(doc)
	assert.NoError(t, err, "the document encodes as JSON")
	return w
}

// NaN and ±Infinity have no JSON form: a literal too large for a float64
// is refused at its line with values.CheckFloat's message, however deep in
// the value, as NaN and Infinity literals are (they are not JSON).
func TestNonFiniteValues(t *testing.T) {
	for line, want := range map[string]float64{
		"% x = 1e400":                    math.Inf(1),
		"% x = -1e400":                   math.Inf(-1),
		"% x = [1, [2, 1e400]]":          math.Inf(1),
		`% x = {"a": {"b": [-1e400]}}`:   math.Inf(-1),
		"> //% !responders.x.y = 1e999 ": math.Inf(1),
	} {
		w := refused(t, line)
		assert.Contains(t, w.Msg, values.CheckFloat(want), line)
		assert.Equal(t, values.NonFiniteHint, w.Hint, line)
	}
	for _, line := range []string{"% x = NaN", "% x = Infinity", "% x = -Infinity"} {
		assert.Contains(t, refused(t, line).Msg, "is not a JSON literal")
	}
	doc, err := Parse([]byte("% x = 1e308\n% y = [-1.5e-400]\n"))
	require.NoError(t, err)
	assert.Empty(t, doc.Warnings, "large finite numbers and underflow are fine")
	assert.Len(t, Assignments(doc), 2)
}

// A program's configuration line with a value that is not finite does not
// write (its JSON would be empty).
func TestWriteNonFinite(t *testing.T) {
	m := promptfmt.NewMessage("user", "hi")
	m.Metadata = map[string]any{MetaConfig: []any{map[string]any{"kind": KindAssignment, "name": "x", "value": math.Inf(1), "enabled": true}}}
	err := Write(&strings.Builder{}, &promptfmt.Document{Messages: []promptfmt.Message{m}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), values.CheckFloat(math.Inf(1)))
}

func nestedValue(n int) string {
	return strings.Repeat("[", n) + "1" + strings.Repeat("]", n)
}

// Values nest at most values.MaxDepth deep; deeper ones are refused at
// their line before they are decoded. Brackets in strings do not count.
func TestValueDepth(t *testing.T) {
	doc, err := Parse([]byte("% x = " + nestedValue(values.MaxDepth) + "\n% y = [\"" + strings.Repeat("[{", 2*values.MaxDepth) + "\\\"\"]\n"))
	require.NoError(t, err)
	assert.Empty(t, doc.Warnings)
	assert.Len(t, Assignments(doc), 2)

	for _, v := range []string{nestedValue(values.MaxDepth + 1), strings.Repeat(`{"a":`, values.MaxDepth+1) + "1" + strings.Repeat("}", values.MaxDepth+1), strings.Repeat("[", 1<<20)} {
		w := refused(t, "% x = "+v)
		assert.Contains(t, w.Msg, values.DepthMessage())
		assert.Less(t, len(w.Msg), 200, "the message quotes an excerpt of the value")
	}
}

// TestValueDepthIsLinear: reading a value nested n deep, and encoding the
// document, costs work linear in n; beyond values.MaxDepth the value is
// refused.
func TestValueDepthIsLinear(t *testing.T) {
	for _, n := range []int{values.MaxDepth / 4, values.MaxDepth} {
		for name, nest := range map[string]func(n int) string{
			"arrays":  nestedValue,
			"objects": func(n int) string { return strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) },
		} {
			growth.Linear(t, name, n, func(n int) float64 {
				src := []byte("% x = " + nest(n) + "\n")
				return growth.AllocBytes(func() {
					doc, _ := Parse(src)
					json.Marshal(doc)
				})
			})
		}
	}
}

// Messages quote at most an excerpt of a value: a 2 MB value does not
// make a 2 MB warning or error.
func TestExcerpts(t *testing.T) {
	huge := strings.Repeat("x", 2<<20)
	for _, line := range []string{"% x = " + huge, "% x = [" + huge, "% x = 1e400" + strings.Repeat(" ", 1<<20) + "]"} {
		doc, err := Parse([]byte(line + "\n"))
		require.NoError(t, err)
		require.Len(t, doc.Warnings, 1)
		assert.Less(t, len(doc.Warnings[0].Msg), 300)
	}
	m := promptfmt.Message{Role: huge, Name: "-" + huge, Content: []promptfmt.ContentPart{{Kind: promptfmt.Kind(huge)}}, Metadata: map[string]any{huge: 1}}
	err := Write(&strings.Builder{}, &promptfmt.Document{Messages: []promptfmt.Message{m}})
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 2000)
}
