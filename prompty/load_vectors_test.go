package prompty

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// vector is an upstream load or render conformance vector.
type vector struct {
	Name  string `json:"name"`
	Input struct {
		Fixture        string            `json:"fixture"`
		Env            map[string]string `json:"env"`
		Frontmatter    map[string]any    `json:"frontmatter"`
		FrontmatterRaw string            `json:"frontmatter_raw"`
		Files          map[string]any    `json:"files"`
		AgentSubdir    string            `json:"agent_subdir"`
		Inputs         map[string]any    `json:"inputs"`
		Template       string            `json:"template"`
		Engine         string            `json:"engine"`
	} `json:"input"`
	Expected map[string]any `json:"expected"`
}

func loadVectors(t *testing.T, operation string) []vector {
	t.Helper()
	var out []vector
	for _, raw := range upstreamVectors(t, operation) {
		var vec vector
		require.NoError(t, decodeNumbers(raw, &vec))
		out = append(out, vec)
	}
	return out
}

// decodeNumbers decodes JSON with integers as int64, as our inputs are.
func decodeNumbers(data []byte, v *vector) error {
	if err := json.Unmarshal(data, v); err != nil {
		return err
	}
	raw, err := jsonvalue.Decode(data)
	if err != nil {
		return err
	}
	in := raw.(map[string]any)["input"].(map[string]any)
	if m, ok := in["inputs"].(map[string]any); ok {
		v.Input.Inputs = m
	}
	if m, ok := in["frontmatter"].(map[string]any); ok {
		v.Input.Frontmatter = m
	}
	return nil
}

// loadDeviations are the upstream load vectors whose expectation we do not
// share, and why. The tests check what we do instead.
var loadDeviations = map[string]string{
	"template_string_invalid": "section 2.8 of the specification (and our issue) make a string template the format kind's shorthand; the vector, newer than the text, rejects it. We follow the specification: template: jinja2 loads as {format: jinja2, parser: prompty}.",
}

// ourError is the message (or sentinel) of our error for each upstream
// error tag.
var ourError = map[string]string{
	"Environment variable 'NONEXISTENT' not set": "Environment variable 'NONEXISTENT' not set",
	"outside allowed roots":                      "outside allowed roots",
	"invalid frontmatter":                        "front matter:",
	"Missing required input":                     "Missing required input: ",
}

func TestUpstreamLoadVectors(t *testing.T) {
	vectors := loadVectors(t, "load")
	require.Len(t, vectors, 28)
	// The legacy catalogue has one load vector the current one lacks.
	var legacy []vector
	src, err := os.ReadFile("testdata/upstream/legacy_load_vectors.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(src, &legacy))
	for _, v := range legacy {
		if v.Name == "tools_prompty_load" {
			vectors = append(vectors, v)
		}
	}
	require.Len(t, vectors, 29)

	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			a, err := loadVectorAgent(t, v)
			if why, ok := loadDeviations[v.Name]; ok {
				t.Log("deviation: " + why)
				require.NoError(t, err)
				require.Equal(t, "jinja2", a.Template.Format)
				require.Equal(t, "prompty", a.Template.Parser)
				return
			}
			if v.Input.Inputs != nil {
				require.NoError(t, err)
				var got map[string]any
				got, err = validateInputs(a, v.Input.Inputs)
				if want, ok := v.Expected["validated_inputs"]; ok {
					require.NoError(t, err)
					require.Equal(t, want, any(got))
					return
				}
			}
			if tag, ok := v.Expected["error"].(string); ok {
				require.Error(t, err)
				if tag == "FileNotFoundError" {
					require.ErrorIs(t, err, fs.ErrNotExist)
					return
				}
				require.Contains(t, ourError, tag, "no known equivalent for upstream error %q", tag)
				require.ErrorContains(t, err, ourError[tag])
				if field, ok := v.Expected["error_field"].(string); ok {
					require.ErrorContains(t, err, field)
				}
				return
			}
			require.NoError(t, err)
			b, err := json.Marshal(a)
			require.NoError(t, err)
			var got map[string]any
			require.NoError(t, json.Unmarshal(b, &got))
			want := jsonRoundTrip(t, v.Expected)
			requireSubset(t, want, got, "agent")
		})
	}
}

func jsonRoundTrip(t *testing.T, v any) map[string]any {
	b, err := json.Marshal(v)
	require.NoError(t, err)
	var out map[string]any
	require.NoError(t, json.Unmarshal(b, &out))
	return out
}

// requireSubset compares as upstream's adapters do: only the keys the
// expectation has; a null expectation means absent.
func requireSubset(t *testing.T, want, got any, at string) {
	t.Helper()
	switch w := want.(type) {
	case nil:
		require.Nil(t, got, at)
	case map[string]any:
		g, ok := got.(map[string]any)
		require.True(t, ok, "%s: want a mapping, got %#v", at, got)
		for k, wv := range w {
			requireSubset(t, wv, g[k], at+"."+k)
		}
	case []any:
		g, ok := got.([]any)
		require.True(t, ok, "%s: want a list, got %#v", at, got)
		require.Len(t, g, len(w), at)
		for i := range w {
			requireSubset(t, w[i], g[i], at)
		}
	default:
		require.Equal(t, want, got, at)
	}
}

// loadVectorAgent builds the vector's .prompty file (from a fixture, its
// front matter, or raw text) with its files and environment, and loads it.
func loadVectorAgent(t *testing.T, v vector) (*Agent, error) {
	env := LookupEnv(func(name string) (string, bool) {
		val, ok := v.Input.Env[name]
		return val, ok
	})
	switch {
	case v.Input.Fixture != "":
		return loadPath(filepath.Join("testdata/upstream/fixtures", v.Input.Fixture), env)
	case v.Input.FrontmatterRaw != "":
		return Load([]byte(v.Input.FrontmatterRaw), inDir(t.TempDir()), env)
	}
	top := t.TempDir()
	dir := filepath.Join(top, v.Input.AgentSubdir)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	for name, content := range v.Input.Files {
		b, err := json.Marshal(content)
		require.NoError(t, err)
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, b, 0o644))
	}
	fm, err := yaml.Marshal(v.Input.Frontmatter)
	require.NoError(t, err)
	file := filepath.Join(dir, "vector.prompty")
	require.NoError(t, os.WriteFile(file, []byte("---\n"+string(fm)+"---\n"), 0o644))
	return loadPath(file, env)
}

// renderDeviations are the render vectors whose expectation we do not
// share exactly.
var renderDeviations = map[string]string{
	"thread_nonce_injection": "the vector pins 8 hex digits in the placeholder, as every upstream runtime emits; sections 5.3 and 6.7 of the specification (and our issue) say 16. We emit 16 and check the vector's pattern with {16}.",
}

func TestUpstreamRenderVectors(t *testing.T) {
	vectors := loadVectors(t, "render")
	require.Len(t, vectors, 23)
	for _, v := range vectors {
		t.Run(v.Name, func(t *testing.T) {
			off := false
			a := &Agent{Instructions: v.Input.Template, Template: Template{Format: v.Input.Engine, Parser: "prompty", Strict: &off}}
			// Upstream's adapter declares a value {"_kind": K, ...} as an
			// input of kind K.
			for name, val := range v.Input.Inputs {
				if m, ok := val.(map[string]any); ok {
					if kind, ok := m["_kind"].(string); ok {
						a.Inputs = append(a.Inputs, Property{Name: name, Kind: kind})
					}
				}
			}
			got, nonces, err := renderN(a, v.Input.Inputs)
			require.NoError(t, err)
			if pattern, ok := v.Expected["nonce_pattern"].(string); ok {
				t.Log("deviation: " + renderDeviations[v.Name])
				pattern = strings.ReplaceAll(pattern, "{8}", "{16}")
				require.Regexp(t, regexp.MustCompile(pattern), got)
				require.Len(t, nonces.rich, 1)
				return
			}
			require.Equal(t, v.Expected["rendered"], got)
			require.Empty(t, nonces.render, "strict mode is off")
		})
	}
}

// Every fixture of the specification loads, and prepares with its
// defaults (and a value for each rich input).
func TestUpstreamFixturesLoad(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/fixtures/*.prompty")
	require.NoError(t, err)
	require.Len(t, files, 13)
	env := LookupEnv(func(name string) (string, bool) { return "test-" + name, true })
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			a, err := loadPath(f, env)
			require.NoError(t, err)
			require.NotEmpty(t, a.Name)
			require.NotEmpty(t, a.Instructions)
			inputs := map[string]any{}
			for _, p := range a.Inputs {
				switch p.Kind {
				case KindThread:
					inputs[p.Name] = []any{map[string]any{"role": "user", "content": "earlier"}}
				case KindImage:
					inputs[p.Name] = "https://example.com/cat.png"
				case KindAudio:
					inputs[p.Name] = "data:audio/wav;base64,UklGRg=="
				}
			}
			msgs, err := Prepare(a, inputs)
			require.NoError(t, err)
			require.NotEmpty(t, msgs)
		})
	}
}
