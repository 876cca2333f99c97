package yamlmeta

import (
	"bytes"
	"math"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

func TestDecode(t *testing.T) {
	src := []byte("---\nwhen: 2022-08-17T14:37:22Z\nn: 3\nbin: !!binary aGk=\n---\nbody")
	node, meta, err := Decode("x", src, 4, bytes.Index(src, []byte("---\nbody")))
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"when": "2022-08-17T14:37:22Z", "n": int64(3), "bin": "aGk="}, meta)
	assert.Equal(t, 10, Offset(src, 4, node.Content[0].Content[1]))

	for in, want := range map[string]string{
		"---\na: [1\n---\n":           "x:2:1: front matter: did not find expected ',' or ']'",
		"---\na: 1\na: 2\n---\n":      `x:3:1: front matter: mapping key "a" already defined at line 1`,
		"---\na: 1\n...\nb: 2\n---\n": "x:3:1: front matter: did not find expected <document start>",
		"---\na: 1\n--- x\n---\n":     "x:3:1: front matter: a second YAML document would be ignored (a '...' or '---' line ended the first)",
		"---\n- 1\n---\n":             "x:2:1: front matter: want a mapping of keys to values",
		"---\n? [1]\n: 2\n---\n":      "x:2:3: front matter: a key written as a sequence or mapping is not a string",
		"---\n1: x\n---\n":            "x:2:1: front matter: key 1 is not a string",
	} {
		_, _, err := Decode("x", []byte(in), 4, len(in)-4)
		assert.EqualError(t, err, want, "%q", in)
	}
	_, meta, err = Decode("x", []byte("---\n---\n"), 4, 4)
	assert.NoError(t, err)
	assert.Nil(t, meta)
}

// A fresh mapping always reads back as the same values, whatever its
// strings hold.
func TestEncodeFresh(t *testing.T) {
	meta := map[string]any{"tab": "\t2022-08-17T14:37:22Z\n", "num": "0123", "t": "true", "sp": " x ", "nl": "a\nb",
		"f": 2.0, "nan": math.NaN(), "i": int64(3), "l": []any{nil, "x"}, "m": map[string]any{"k": "v"}}
	out, err := Encode(meta, nil)
	require.NoError(t, err)
	var back yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(out), &back))
	got, err := DecodeNode(&back)
	require.NoError(t, err)
	assert.True(t, promptfmt.Equal(&promptfmt.Document{Meta: meta}, &promptfmt.Document{Meta: got}), out)
	_, err = Encode(map[string]any{"x": struct{}{}}, nil)
	assert.ErrorContains(t, err, "not JSON-like")
}
