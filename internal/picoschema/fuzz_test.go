package picoschema

import (
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// FuzzCompile: any front matter's s key compiles or is refused with an
// *Error, never a panic; what compiles is a mapping.
func FuzzCompile(f *testing.F) {
	for _, s := range []string{"s: string, x", "s:\n  a?(enum, e): [1, null]\n  b(array):\n    c: Foo\n  (*): any", "s:\n  type: object", "s: {properties: {a: 1}}", "s: &a {x: *a}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var n yaml.Node
		if yaml.Unmarshal([]byte(src), &n) != nil {
			return
		}
		m, err := yamlmeta.DecodeNode(&n)
		if err != nil || m == nil {
			return
		}
		_, sn := child(deref(&n), "s")
		named := func(name string) (map[string]any, bool) { return map[string]any{"title": name}, len(name)%2 == 0 }
		out, _, err := Compile(m["s"], sn, named)
		if err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("%T %v", err, err)
			}
			return
		}
		if out == nil && m["s"] != nil && m["s"] != "" {
			t.Fatalf("no schema for %v", m["s"])
		}
	})
}
