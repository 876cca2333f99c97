package dotprompt

import (
	"context"
	"maps"
	"os"
	"path"
	"path/filepath"
	"testing"
	"testing/fstest"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// specSuite is one template of Dotprompt's spec suite and its tests.
type specSuite struct {
	Name     string         `yaml:"name"`
	Template string         `yaml:"template"`
	Data     map[string]any `yaml:"data"`
	// Partials and ResolverPartials are given as _name.prompt files.
	Partials         map[string]string `yaml:"partials"`
	ResolverPartials map[string]string `yaml:"resolverPartials"`
	Tests            []struct {
		Desc string         `yaml:"desc"`
		Data map[string]any `yaml:"data"`
		// Options' input.default is given as Data's input, which Render
		// puts under its inputs as it does a file's input.default.
		Options struct {
			Input struct {
				Default map[string]any `yaml:"default"`
			} `yaml:"input"`
		} `yaml:"options"`
		Expect struct {
			Messages []map[string]any `yaml:"messages"`
		} `yaml:"expect"`
	} `yaml:"tests"`
}

// TestSpecSuite renders every test of the spec files kept in testdata/spec
// (Dotprompt's own) and compares the messages with the spec's.
func TestSpecSuite(t *testing.T) {
	files, err := filepath.Glob("testdata/spec/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatal("no spec files", err)
	}
	n := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var suites []specSuite
		if err := yaml.Unmarshal(src, &suites); err != nil {
			t.Fatal(f, err)
		}
		for _, s := range suites {
			for _, tc := range s.Tests {
				n++
				t.Run(filepath.Base(f)+"/"+s.Name+"/"+tc.Desc, func(t *testing.T) {
					// The suite's data under the test's (input merged).
					data := map[string]any{}
					input := map[string]any{}
					for _, d := range []map[string]any{s.Data, tc.Data} {
						for k, v := range d {
							if k == "input" {
								maps.Copy(input, v.(map[string]any))
								continue
							}
							data[k] = v
						}
					}
					data["input"] = input
					fsys := fstest.MapFS{}
					for _, ps := range []map[string]string{s.Partials, s.ResolverPartials} {
						for name, src := range ps {
							dir, base := path.Split(name)
							fsys[dir+"_"+base+".prompt"] = &fstest.MapFile{Data: []byte(src)}
						}
					}
					tpl, err := Load([]byte(s.Template), promptfmt.FS(fsys))
					if err != nil {
						t.Fatal(err)
					}
					var inputs map[string]any
					if d := tc.Options.Input.Default; d != nil {
						inputs, data["input"] = input, d
					}
					doc, err := tpl.Render(context.Background(), inputs, Data(data))
					if err != nil {
						t.Fatal(err)
					}
					var want []promptfmt.Message
					sections := 0
					for _, m := range tc.Expect.Messages {
						msg, n := specMessage(t, m)
						want, sections = append(want, msg), sections+n
					}
					if !promptfmt.EqualMessages(doc.Messages, want) {
						t.Errorf("got  %#v\nwant %#v", doc.Messages, want)
					}
					if len(doc.Warnings) != sections {
						t.Errorf("%d warnings for %d section parts left out: %v", len(doc.Warnings), sections, doc.Warnings)
					}
				})
			}
		}
	}
	if n < 40 {
		t.Errorf("only %d spec tests ran", n)
	}
}

// specMessage is a message as the spec writes it, in this package's
// model, and how many of its parts are a section's (metadata only, which
// Render leaves out with a warning).
func specMessage(t *testing.T, m map[string]any) (promptfmt.Message, int) {
	t.Helper()
	role := m["role"].(string)
	if role == "model" {
		role = "assistant"
	}
	msg := promptfmt.Message{Role: role}
	if md, ok := m["metadata"].(map[string]any); ok {
		msg.Metadata = md
	}
	sections := 0
	for _, c := range m["content"].([]any) {
		p := c.(map[string]any)
		switch {
		case p["text"] != nil:
			msg.Content = append(msg.Content, promptfmt.Text(p["text"].(string)))
		case p["media"] != nil:
			md := p["media"].(map[string]any)
			ct, _ := md["contentType"].(string)
			msg.Content = append(msg.Content, promptfmt.ContentPart{Kind: mediaKind(md["url"].(string), ct), Value: md["url"].(string), MediaType: ct})
		case len(p) == 1 && p["metadata"] != nil && p["metadata"].(map[string]any)["pending"] == true:
			sections++
		default:
			t.Fatalf("part %v is not compared by this test", p)
		}
	}
	return msg, sections
}

// TestSpecSchemas loads every case of the spec's picoschema.yaml (kept
// with the compiler, internal/picoschema) as a file: it renders no
// message, and its input and output schemas, compiled with the case's
// named schemas, are the spec's.
func TestSpecSchemas(t *testing.T) {
	src, err := os.ReadFile("../internal/picoschema/testdata/picoschema.yaml")
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
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			tpl, err := Load([]byte(c.Template))
			if err != nil {
				t.Fatal(err)
			}
			doc, err := tpl.Render(context.Background(), nil)
			if err != nil || len(doc.Messages) != 0 {
				t.Fatalf("rendered %v %v", doc, err)
			}
			for _, tc := range c.Tests {
				for _, io := range []string{"input", "output"} {
					schema := tpl.InputSchema
					if io == "output" {
						schema = tpl.OutputSchema
					}
					got, err := schema(c.Schemas)
					if err != nil {
						t.Fatal(err)
					}
					want, _ := tc.Expect[io].(map[string]any)
					if !jsonvalue.Equal(got, want["schema"]) && (got != nil || want != nil) {
						t.Errorf("%s schema\ngot  %v\nwant %v", io, got, want["schema"])
					}
				}
			}
		})
	}
}
