package yamlmeta

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

var flatCases = append([]string{
	"prompt-id: P17\ncreated-at: \"2025-06-28T14:37:22Z\"\nsha1-hash: 3b2189c5f76e8b8d7b2e0b4f9c7e3d3a3b2189c5\n",
	"name: stall\n",
	"name:   two words\nmodel: gpt-4o\n",
	"a: 1\n", "a: 0x1f\n", "a: 1e5\n", "a: 12abc\n", "a: 0b101\n", "a: 0b12\n", "a: 1_000\n", "a: 9e9e9\n",
	"a: true\n", "a: yes\n", "a: Null\n", "a: no\n", "true: x\n", "a: x\na: y\n", "a: \"x\\\"y\"\n", "a: \"\"\n",
	"a: x #c\n", "a: x\n\n", "a:\n", "a: 'q'\n", "a: x \n", "a: x  y\n", "a: ~\n", "k-1_b: v.1+2\n", "a: 2025-06-28\n",
	"a: 18446744073709551615\n", "a: 99999999999999999999\n", "a: 1.5\n", "a: .5\n", "a: 3b\n",
},
	// The longest key yaml.v3 reads plain, and one longer (FuzzFlat's find).
	strings.Repeat("k", 1024)+": A\n", strings.Repeat("k", 1025)+": A\n",
)

// Wherever flat answers, it answers as yaml.v3 does: the same node.
func checkFlat(t *testing.T, src string) {
	node, ok := flat([]byte(src))
	if !ok {
		return
	}
	var want yaml.Node
	if err := yaml.Unmarshal([]byte(src), &want); err != nil {
		t.Fatalf("flat read %q, which yaml.v3 refuses: %v", src, err)
	}
	if !reflect.DeepEqual(*node, want) {
		t.Fatalf("flat(%q) differs from yaml.v3\ngot:  %s\nwant: %s", src, dump(node), dump(&want))
	}
}

func dump(n *yaml.Node) string {
	s := fmt.Sprintf("{Kind %d Style %d Tag %q Value %q Line %d Column %d Comments %q %q %q Anchor %q [", n.Kind, n.Style, n.Tag, n.Value, n.Line, n.Column,
		n.HeadComment, n.LineComment, n.FootComment, n.Anchor)
	for _, c := range n.Content {
		s += dump(c)
	}
	return s + "]}"
}

func TestFlat(t *testing.T) {
	answered := 0
	for _, src := range flatCases {
		checkFlat(t, src)
		if _, ok := flat([]byte(src)); ok {
			answered++
		}
	}
	if answered < 8 {
		t.Errorf("flat answered %d cases: the fast path is not taken", answered)
	}
	// A prompt file's front matter is flat, and costs a third of the allocations yaml.v3 makes (71).
	src := []byte(flatCases[0])
	if n := testing.AllocsPerRun(100, func() { Decode("x", src, 0, len(src)) }); n > 24 {
		t.Errorf("%v allocations to decode a prompt file's front matter", n)
	}
}

func FuzzFlat(f *testing.F) {
	for _, s := range flatCases {
		f.Add(s)
	}
	f.Fuzz(checkFlat)
}
