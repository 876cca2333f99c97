package picoschema

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// frontMatter is a spec template's YAML.
var frontMatter = regexp.MustCompile(`(?s)^---\r?\n(.*?)\r?\n---\r?\n`)

// decode reads YAML as front matter is read: its node, and its values.
func decode(t *testing.T, src string) (*yaml.Node, map[string]any) {
	t.Helper()
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(src), &n); err != nil {
		t.Fatal(err)
	}
	m, err := yamlmeta.DecodeNode(&n)
	if err != nil {
		t.Fatal(err)
	}
	return &n, m
}

// field is key k of mapping node n, and of its values m.
func field(n *yaml.Node, m map[string]any, k string) (*yaml.Node, any) {
	_, vn := child(deref(n), k)
	return vn, m[k]
}

// Every case of Dotprompt's spec: the input and output schemas of its
// template, compiled with its named schemas, are the JSON Schema it
// expects, "required" in the order written.
func TestSpec(t *testing.T) {
	src, err := os.ReadFile("testdata/picoschema.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name     string         `yaml:"name"`
		Template string         `yaml:"template"`
		Schemas  map[string]any `yaml:"schemas"`
		Tests    []struct {
			Expect map[string]any `yaml:"expect"`
		} `yaml:"tests"`
	}
	if err := yaml.Unmarshal(src, &cases); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			m := frontMatter.FindStringSubmatch(c.Template)
			if m == nil {
				t.Fatal("no front matter")
			}
			node, meta := decode(t, strings.ReplaceAll(m[1], "\r\n", "\n"))
			named := func(name string) (map[string]any, bool) {
				s, ok := c.Schemas[name].(map[string]any)
				return s, ok
			}
			for _, tc := range c.Tests {
				for _, io := range []string{"input", "output"} {
					want, ok := tc.Expect[io].(map[string]any)
					if !ok {
						continue
					}
					n++
					ionode, iov := field(node, meta, io)
					sn, sv := field(ionode, iov.(map[string]any), "schema")
					got, _, err := Compile(sv, sn, named)
					if err != nil {
						t.Fatalf("%s: %v", io, err)
					}
					if !jsonvalue.Equal(got, want["schema"]) {
						t.Errorf("%s schema\ngot  %s\nwant %s", io, show(got), show(want["schema"]))
					}
				}
			}
		})
	}
	if n < 18 {
		t.Errorf("only %d schemas compared", n)
	}
}

func show(v any) string {
	b, _ := jsonvalue.Encode(v)
	return string(b)
}

// Cases of our own: what each rule gives, and the property names in the
// order written.
func TestCompile(t *testing.T) {
	for _, c := range []struct {
		yaml  string
		want  string
		props []string
	}{
		{"any, anything", `{"description":"anything"}`, nil},
		{"'null'", `{"type":"null"}`, nil},
		{"string,", `{"type":"string"}`, nil},
		{"b: integer\na?: any\n", `{"additionalProperties":false,"properties":{"a":{},"b":{"type":"integer"}},"required":["b"],"type":"object"}`, []string{"b", "a"}},
		{"tags?(array, labels (short)): string", `{"additionalProperties":false,"properties":{"tags":{"description":"labels (short)","items":{"type":"string"},"type":["array","null"]}},"type":"object"}`, []string{"tags"}},
		{"k?(enum): [a, null]", `{"additionalProperties":false,"properties":{"k":{"enum":["a",null]}},"type":"object"}`, []string{"k"}},
		{"o(object):\n  (*): string\n", `{"additionalProperties":false,"properties":{"o":{"additionalProperties":{"type":"string"},"properties":{},"type":"object"}},"required":["o"],"type":"object"}`, []string{"o"}},
		{"type: array\nitems: {type: string}", `{"items":{"type":"string"},"type":"array"}`, nil},
		{"properties:\n  z: {type: string}\n  y: {type: string}", `{"properties":{"y":{"type":"string"},"z":{"type":"string"}},"type":"object"}`, []string{"z", "y"}},
		// A mapping whose "type" is not a JSON Schema type is Picoschema:
		// a property named type.
		{"type: string, the kind", `{"additionalProperties":false,"properties":{"type":{"description":"the kind","type":"string"}},"required":["type"],"type":"object"}`, []string{"type"}},
	} {
		node, meta := decode(t, "s:"+indent(c.yaml))
		sn, sv := field(node, meta, "s")
		got, props, err := Compile(sv, sn, nil)
		if err != nil {
			t.Errorf("%q: %v", c.yaml, err)
			continue
		}
		if show(got) != c.want || fmt.Sprint(props) != fmt.Sprint(c.props) {
			t.Errorf("%q:\ngot  %s %q\nwant %s %q", c.yaml, show(got), props, c.want, c.props)
		}
	}
}

// indent is s as the value of a key on the line before.
func indent(s string) string {
	return "\n  " + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n  ") + "\n"
}

// What the compiler refuses: each an *Error at its path and node.
func TestErrors(t *testing.T) {
	for _, c := range []struct {
		yaml, msg string
		line      int
	}{
		{"strng", `"strng" is not a type`, 2},
		{"a:\n  b: Address, where", `a.b: "Address" is not a type (string, number, integer, boolean, null, any) nor a named schema`, 3},
		{"a: |\n  string, one\n  two\n", "a description cannot span lines", 2},
		{"a(list): string", `a(list): "list" is not a modifier (want array, object or enum)`, 2},
		{"a(array: string", `opens a ( it does not close`, 2},
		{"?: string", `the key "?" names no property`, 2},
		{"a(enum): red", "an enum's values are a list, not a string", 2},
		{"a:\n", "a: Picoschema is made of strings and mappings, not null", 2},
		{"a: 5", "not a number", 2},
		{"- a", "a schema is a string or a mapping, not a list", 2},
	} {
		node, meta := decode(t, "s:"+indent(c.yaml))
		sn, sv := field(node, meta, "s")
		_, _, err := Compile(sv, sn, nil)
		e, ok := err.(*Error)
		if !ok || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: %v, want %q", c.yaml, err, c.msg)
			continue
		}
		if e.Node == nil || e.Node.Line != c.line {
			t.Errorf("%q: at %v, want line %d", c.yaml, e.Node, c.line)
		}
	}
	// A named schema is looked up, and one not found named.
	_, _, err := Compile("Foo", nil, func(string) (map[string]any, bool) { return nil, false })
	if e, ok := err.(*Error); !ok || e.Name != "Foo" {
		t.Errorf("unknown name: %v", err)
	}
}

// Hostile nesting is bounded: mappings nested past values.MaxDepth, a
// mapping holding itself, and one named many times over.
func TestBounds(t *testing.T) {
	deep := map[string]any{"x": "string"}
	for range values.MaxDepth - 1 {
		deep = map[string]any{"a": deep}
	}
	if _, _, err := Compile(deep, nil, nil); err != nil {
		t.Errorf("at the bound: %v", err)
	}
	if _, _, err := Compile(map[string]any{"a": deep}, nil, nil); err == nil || !strings.Contains(err.Error(), "nested deeper than") {
		t.Errorf("deep: %v", err)
	}
	self := map[string]any{}
	self["a"] = self
	if _, _, err := Compile(self, nil, nil); err == nil || !strings.Contains(err.Error(), "nested deeper than") {
		t.Errorf("self: %v", err)
	}
	wide := map[string]any{"x": "string"}
	for range 40 {
		wide = map[string]any{"a": wide, "b": wide}
	}
	if _, _, err := Compile(wide, nil, nil); err == nil || !strings.Contains(err.Error(), "more than") {
		t.Errorf("wide: %v", err)
	}
}
