package yamlmeta

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/values"
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
	// yaml.v3 counts columns in characters.
	src = []byte("---\nü: [ä, x]\n---\n")
	node, _, err = Decode("x", src, 4, 16)
	require.NoError(t, err)
	x := node.Content[0].Content[1].Content[1]
	assert.Equal(t, "x", string(src[Offset(src, 4, x)]))

	for in, want := range map[string]string{
		"---\na: [1\n---\n":                                    "x:2:1: front matter: did not find expected ',' or ']'",
		"---\na: 1\na: 2\n---\n":                               `x:3:1: front matter: mapping key "a" already defined at line 2`,
		"---\na: 1\n...\nb: 2\n---\n":                          "x:3:1: front matter: did not find expected <document start>",
		"---\na: 1\n--- x\n---\n":                              "x:3:1: front matter: a second YAML document would be ignored (a '...' or '---' line ended the first)",
		"---\n- 1\n---\n":                                      "x:2:1: front matter: want a mapping of keys to values",
		"---\n? [1]\n: 2\n---\n":                               "x:2:3: front matter: a key written as a sequence or mapping is not a string",
		"---\n1: x\n---\n":                                     "x:2:1: front matter: key 1 is not a string",
		"---\nb:\n  c: 1\n  d: 2\n  c: 3\n---\n":               `x:5:3: front matter: mapping key "c" already defined at line 3`,
		"---\na: &a [*a]\n---\n":                               "x:2:4: front matter: nested deeper than 1000 levels",
		"---\nbase: &base {x: 1}\nm:\n  <<: [*base, 2]\n---\n": "x:4:15: front matter: a merge key (<<) needs a mapping or a list of mappings",
		"---\nm:\n  <<: 1\n---\n":                              "x:3:7: front matter: a merge key (<<) needs a mapping or a list of mappings",
	} {
		_, _, err := Decode("x", []byte(in), 4, len(in)-4)
		assert.EqualError(t, err, want, "%q", in)
	}
	// Merge keys: written keys win, then earlier merges.
	src = []byte("---\nbase: &b {x: 1, y: 1}\nmore: &m {y: 2, z: 2}\nm:\n  <<: [*b, *m]\n  x: 0\n---\n")
	_, meta, err = Decode("x", src, 4, len(src)-4)
	require.NoError(t, err)
	assert.Equal(t, map[string]any{"x": int64(0), "y": int64(1), "z": int64(2)}, meta["m"])

	_, meta, err = Decode("x", []byte("---\n---\n"), 4, 4)
	assert.NoError(t, err)
	assert.Nil(t, meta)
}

// A fresh mapping always reads back as the same values, whatever its
// strings hold.
func TestEncodeFresh(t *testing.T) {
	meta := map[string]any{"tab": "\t2022-08-17T14:37:22Z\n", "num": "0123", "t": "true", "sp": " x ", "nl": "a\nb",
		"f": 2.0, "z": math.Copysign(0, -1), "i": int64(3), "l": []any{nil, "x"}, "m": map[string]any{"k": "v"}}
	out, err := Encode(meta, nil)
	require.NoError(t, err)
	var back yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(out), &back))
	got, err := DecodeNode(&back)
	require.NoError(t, err)
	assert.True(t, promptfmt.Equal(&promptfmt.Document{Meta: meta}, &promptfmt.Document{Meta: got}), out)
	_, err = Encode(map[string]any{"x": struct{}{}}, nil)
	assert.ErrorContains(t, err, "not JSON-like")
	_, err = Encode(map[string]any{"x": []any{1, math.Inf(1)}}, nil)
	assert.EqualError(t, err, "value at .x[1]: "+values.CheckFloat(math.Inf(1)))
}

func TestAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [", i, i)
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "*a%d", i-1)
		}
		b.WriteString("]\n")
	}
	b.WriteString("---\n")
	src := []byte(b.String())
	_, _, err := Decode("x", src, 4, len(src)-4)
	assert.ErrorContains(t, err, "aliases expand to far more than the document holds")
}

// wide is front matter of one mapping with n keys.
func wide(n int) []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	for i := range n {
		fmt.Fprintf(&b, "key%d: value %d\n", i, i)
	}
	b.WriteString("---\n")
	return b.Bytes()
}

func TestWideMapping(t *testing.T) {
	src := wide(100_000)
	_, meta, err := Decode("x", src, 4, len(src)-4)
	require.NoError(t, err)
	assert.Len(t, meta, 100_000)
	assert.Equal(t, "value 99999", meta["key99999"])
}

// BenchmarkDecodeWide: 50,000 keys in one mapping, which yaml.v3's own
// decoding handles in quadratic time; the baseline parses the same YAML
// into a yaml.Node only.
func BenchmarkDecodeWide(b *testing.B) {
	src := wide(50_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode("x", src, 4, len(src)-4); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDecodeWideBaseline(b *testing.B) {
	src := wide(50_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		var n yaml.Node
		if err := yaml.Unmarshal(src[4:len(src)-4], &n); err != nil {
			b.Fatal(err)
		}
	}
}

// reference decodes as yaml.v3's Node.Decode does, with timestamps and
// binary kept as text and integers made int64: what DecodeNode did before
// it walked the nodes itself.
func reference(root *yaml.Node) (map[string]any, error) {
	var retagged []*yaml.Node
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		if n.Kind == yaml.ScalarNode && (n.Tag == "!!timestamp" || n.Tag == "!!binary") {
			retagged = append(retagged, n)
		}
		for _, c := range n.Content {
			walk(c)
		}
	}
	walk(root)
	tags := make([]string, len(retagged))
	for i, n := range retagged {
		tags[i], n.Tag = n.Tag, "!!str"
	}
	defer func() {
		for i, n := range retagged {
			n.Tag = tags[i]
		}
	}()
	var meta map[string]any
	if err := root.Decode(&meta); err != nil {
		return nil, err
	}
	var norm func(v any) any
	norm = func(v any) any {
		switch v := v.(type) {
		case int:
			return int64(v)
		case map[string]any:
			for k, x := range v {
				v[k] = norm(x)
			}
		case []any:
			for i, x := range v {
				v[i] = norm(x)
			}
		}
		return v
	}
	if meta == nil {
		return nil, nil
	}
	return norm(meta).(map[string]any), nil
}

// FuzzDecodeNode: DecodeNode gives what yaml.v3's own decoding gives,
// wherever both succeed.
func FuzzDecodeNode(f *testing.F) {
	f.Add("a: 1\nb: [x, 2.5, true, ~]\nc: {d: 2022-08-17T14:37:22Z}\n")
	f.Add("base: &b {x: 1, y: 1}\nm:\n  <<: [*b, {z: 3}]\n  x: 0\n")
	f.Add("a: !!binary aGk=\nb: 0x1F\nc: .inf\nd: '1'\ne: |\n  text\n")
	f.Fuzz(func(t *testing.T, src string) {
		var root yaml.Node
		if yaml.Unmarshal([]byte(src), &root) != nil || root.Kind == 0 || root.Content[0].Kind != yaml.MappingNode || nonStringKey(&root) != nil {
			return
		}
		ours, err := DecodeNode(&root)
		theirs, rerr := reference(&root)
		if err != nil || rerr != nil {
			return
		}
		if !promptfmt.Equal(&promptfmt.Document{Meta: ours}, &promptfmt.Document{Meta: theirs}) {
			t.Fatalf("DecodeNode = %#v\nyaml.v3 gives %#v", ours, theirs)
		}
	})
}

// The model's one rule for numbers and nesting (internal/values): refused
// at the node, with the same message and hint as every format.
func TestDecodeRefusesWhatJSONCannotHold(t *testing.T) {
	inf, ninf := values.CheckFloat(math.Inf(1)), values.CheckFloat(math.Inf(-1))
	for in, want := range map[string]string{
		"---\nx: .nan\n---\n":             "x:2:4: front matter: " + values.CheckFloat(math.NaN()),
		"---\nx: [1, .inf]\n---\n":        "x:2:8: front matter: " + inf,
		"---\nx:\n  y: -.Inf\n---\n":      "x:3:6: front matter: " + ninf,
		"---\nx: 1e400\n---\n":            "x:2:4: front matter: " + inf,
		"---\nx: -1_0e400\n---\n":         "x:2:4: front matter: " + ninf,
		"---\nx: !!float 1e400\n---\n":    "x:2:4: front matter: " + inf,
		"---\na: &n .NaN\nb: [*n]\n---\n": "x:2:4: front matter: " + values.CheckFloat(math.NaN()),
	} {
		_, _, err := Decode("x", []byte(in), 4, len(in)-4)
		assert.EqualError(t, err, want, "%q", in)
		var pe *promptfmt.ParseError
		if assert.ErrorAs(t, err, &pe) {
			assert.Equal(t, values.NonFiniteHint, pe.Hint)
		}
	}
	// Quoted, or not a number, it is a string.
	for _, ok := range []string{`x: "1e400"`, `x: '.nan'`, "x: 1e400x", "x: 1.5e300", "x: 1e-400"} {
		in := "---\n" + ok + "\n---\n"
		_, _, err := Decode("x", []byte(in), 4, len(in)-4)
		assert.NoError(t, err, "%q", in)
	}

	deep := func(n int) string { return strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n) }
	in := "---\nx: " + deep(values.MaxDepth) + "\n---\n"
	_, _, err := Decode("x", []byte(in), 4, len(in)-4)
	assert.EqualError(t, err, "x:2:4000: front matter: "+values.DepthMessage(), "the top mapping is a level too")
	in = "---\nx: " + deep(values.MaxDepth-1) + "\n---\n"
	_, _, err = Decode("x", []byte(in), 4, len(in)-4)
	assert.NoError(t, err)
	in = "---\nx: " + deep(8000) + "\n---\n"
	_, _, err = Decode("x", []byte(in), 4, len(in)-4)
	assert.ErrorContains(t, err, values.DepthMessage())
}
