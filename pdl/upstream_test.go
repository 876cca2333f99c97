package pdl

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// readInputs reads a JSON context (the Inputs) as the command does (integers int64).
func readInputs(t testing.TB, name string) map[string]any {
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	v, err := jsonvalue.Decode(b)
	require.NoError(t, err)
	return v.(map[string]any)
}

// TestRagitPrompts renders and parses ragit's 9 prompts with the contexts
// in testdata/contexts, as ragit fills them.
func TestRagitPrompts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		roles  string // the messages' roles, first letters
		schema string // the rendered schema text
		check  func(t *testing.T, doc *promptfmt.Document)
	}{
		{name: "agent", roles: "suauauauauauauau"},
		{name: "answer_query", roles: "suauauauau", check: func(t *testing.T, doc *promptfmt.Document) {
			// The pre-escaped chunk text goes through | safe: its literal
			// tokens stay text, its raw_media token is an image.
			require.Contains(t, doc.Messages[3].Text(), "<|this is literal text|>")
			c := doc.Messages[5].Content
			require.Len(t, c, 3)
			require.Equal(t, promptfmt.KindImage, c[1].Kind)
			require.Equal(t, "image/png", c[1].MediaType)
			require.Equal(t, "What does `rag gc` remove?", doc.Messages[len(doc.Messages)-1].Text())
		}},
		{name: "describe_image", roles: "su", schema: "{ extracted_text: str, explanation: str }", check: func(t *testing.T, doc *promptfmt.Document) {
			require.Equal(t, []promptfmt.ContentPart{{Kind: promptfmt.KindImage, MediaType: "image/png", Value: readInputs(t, "testdata/contexts/describe_image.json")["image_bytes"].(string)}}, doc.Messages[1].Content)
		}},
		{name: "extract_keyword", roles: "suauau", schema: "{ keywords: [str], extra: [str] }", check: func(t *testing.T, doc *promptfmt.Document) {
			require.Equal(t, "How do I make `rag build` use 8 threads & skip PDFs?", doc.Messages[5].Text())
		}},
		{name: "multi_turn", roles: "suauauauau", schema: "{ is_query: boolean, in_context: boolean, query: str }", check: func(t *testing.T, doc *promptfmt.Document) {
			last := doc.Messages[len(doc.Messages)-1].Text()
			require.Contains(t, last, `"How do I install ragit?"`, "quotes are not HTML-escaped")
		}},
		{name: "raw", roles: "suauau", check: func(t *testing.T, doc *promptfmt.Document) {
			require.Equal(t, "What's a <|knowledge-base|>?", doc.Messages[3].Text())
			require.Equal(t, "A directory ragit indexed: chunks, summaries & images.", doc.Messages[4].Text())
		}},
		{name: "rerank_summary", roles: "su", schema: "[int { min: 1, max: 3 }] { len_max: 2 }"},
		{name: "summarize", roles: "suau", schema: "{ title: str, summary: str { len_min: 200, len_max: 1000 } }", check: func(t *testing.T, doc *promptfmt.Document) {
			require.Contains(t, doc.Messages[3].Text(), "summarises each with the model & indexes")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := LoadFile(testdata, "upstream/prompts/"+tc.name+".pdl", Inputs(readInputs(t, "testdata/contexts/"+tc.name+".json")))
			require.NoError(t, err)
			var roles strings.Builder
			for _, m := range p.Document.Messages {
				roles.WriteByte(m.Role[0])
				require.NotEmpty(t, m.Content, "message %d (line %d) is empty", len(roles.String()), m.Line)
			}
			require.Equal(t, tc.roles, roles.String())
			if tc.schema == "" {
				require.Nil(t, p.Schema)
			} else {
				require.Equal(t, tc.schema, p.SchemaText)
				require.NotNil(t, p.Schema)
				requireSchemaHome(t, p)
			}
			if tc.check != nil {
				tc.check(t, p.Document)
			}
			// Every message comes from a separator line of the file.
			for _, m := range p.Document.Messages {
				require.Positive(t, m.Line)
			}
			// And what was read, written, reads back the same.
			thisFormat.RoundTrip(t, p.Document)
		})
	}
	// summarize_chunks.pdl is one comment: empty, as upstream says.
	_, err := LoadFile(testdata, "upstream/prompts/summarize_chunks.pdl")
	require.ErrorContains(t, err, "A pdl file is empty.")
}

type upstreamCase struct {
	Name          string          `json:"name"`
	PDL           string          `json:"pdl"`
	Context       json.RawMessage `json:"context"`
	BrokenContext json.RawMessage `json:"broken_context"`
	Expected      *struct {
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Text  *string `json:"text"`
				Image *struct {
					Type        string `json:"type"`
					BytesBase64 string `json:"bytes_base64"`
					File        string `json:"file"`
				} `json:"image"`
			} `json:"content"`
		} `json:"messages"`
	} `json:"expected"`
	RenderedSchema string `json:"expected_rendered_schema"`
}

// TestUpstreamCases runs every PDL document of upstream's tests.
func TestUpstreamCases(t *testing.T) {
	b, err := os.ReadFile("testdata/upstream/extracted/pdl_cases.extract.json")
	require.NoError(t, err)
	var file struct{ Cases []upstreamCase }
	require.NoError(t, json.Unmarshal(b, &file))
	require.Len(t, file.Cases, 19)
	webp, err := os.ReadFile("testdata/upstream/images/hello_world.webp")
	require.NoError(t, err)
	emptyPNG, err := os.ReadFile("testdata/upstream/images/empty.png")
	require.NoError(t, err)

	for _, c := range file.Cases {
		t.Run(c.Name, func(t *testing.T) {
			dir := t.TempDir()
			vars := decode(t, c.Context)
			inputs := Inputs(vars)
			parse := func(opts ...promptfmt.Option) (*Prompt, error) {
				return Load([]byte(c.PDL), append([]promptfmt.Option{inputs, promptfmt.FS(os.DirFS(dir))}, opts...)...)
			}
			switch c.Name {
			case "media_relative_to_pdl_file":
				// Upstream reads ../images/ from the file's directory. We
				// confine media to the file system given.
				pdlDir := filepath.Join(dir, "pdl")
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "images"), 0o755))
				require.NoError(t, os.MkdirAll(pdlDir, 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "images", "sample.webp"), webp, 0o644))
				file := filepath.Join(pdlDir, "sample1.pdl")
				require.NoError(t, os.WriteFile(file, []byte(c.PDL), 0o644))
				_, err := LoadFile(os.DirFS(pdlDir), "sample1.pdl")
				require.ErrorContains(t, err, "outside", "deviation: confined to the file system")
				p, err := LoadFile(os.DirFS(dir), "pdl/sample1.pdl") // one that holds both
				require.NoError(t, err)
				requireImageMessage(t, p, webp, "image/webp")
				_, err = Load([]byte(c.PDL), promptfmt.FS(os.DirFS(dir)))
				require.ErrorContains(t, err, "outside", "Load reads from the root of the file system")
				return
			case "media_relative_to_cwd":
				require.NoError(t, os.MkdirAll(filepath.Join(dir, "__tmp_pdl_test", "images"), 0o755))
				require.NoError(t, os.WriteFile(filepath.Join(dir, "__tmp_pdl_test", "images", "sample.webp"), webp, 0o644))
				p, err := parse()
				require.NoError(t, err)
				requireImageMessage(t, p, webp, "image/webp")
				return
			case "cli_test2_media":
				_, err := parse()
				require.ErrorContains(t, err, "sample.webp: no such file")
				require.NoError(t, os.WriteFile(filepath.Join(dir, "sample.webp"), webp, 0o644))
				p, err := parse()
				require.NoError(t, err)
				require.Equal(t, promptfmt.KindImage, p.Document.Messages[0].Content[1].Kind)
				return
			case "escape_no_filter":
				_, err := parse()
				require.Error(t, err, "| safe lets <|schema|> through as a separator")
				return
			case "escape_no_filter_media":
				_, err := parse()
				require.ErrorContains(t, err, "empty.png")
				require.NoError(t, os.WriteFile(filepath.Join(dir, "empty.png"), emptyPNG, 0o644))
				p, err := parse()
				require.NoError(t, err)
				requireImageMessage(t, p, emptyPNG, "image/png")
				return
			}
			p, err := parse()
			require.NoError(t, err)
			doc := p.Document
			if c.Expected != nil {
				require.Len(t, doc.Messages, len(c.Expected.Messages))
				for i, want := range c.Expected.Messages {
					got := doc.Messages[i]
					require.Equal(t, want.Role, got.Role)
					require.Len(t, got.Content, len(want.Content))
					for j, part := range want.Content {
						switch {
						case part.Text != nil:
							require.Equal(t, promptfmt.Text(*part.Text), got.Content[j])
						case part.Image.BytesBase64 != "":
							require.Equal(t, promptfmt.ContentPart{Kind: promptfmt.KindImage, MediaType: "image/" + part.Image.Type, Value: part.Image.BytesBase64}, got.Content[j])
						}
					}
				}
			}
			if c.RenderedSchema != "" {
				require.Equal(t, c.RenderedSchema, p.SchemaText)
				require.NotNil(t, p.Schema)
				requireSchemaHome(t, p)
			}
			switch c.Name {
			case "escape_filter":
				text := doc.Messages[0].Text()
				for _, s := range vars["contents"].([]any) {
					require.Contains(t, text, s.(string))
				}
			case "escape_html_passthrough":
				require.Contains(t, doc.Messages[0].Text(), `<a href="wherever">Hello!</a>`)
				p, err := Load([]byte(strings.ReplaceAll(c.PDL, "{{content}}", "{{content|safe}}")), inputs)
				require.NoError(t, err)
				require.Contains(t, p.Document.Messages[0].Text(), `<a href="wherever">Hello!</a>`)
			case "cli_test4_tera_context":
				require.Equal(t, "user", doc.Messages[len(doc.Messages)-1].Role, "the empty last <|assistant|> is dropped")
				require.Contains(t, doc.Messages[0].Text(), "- Bae: 29 years old")
				_, err := Load([]byte(c.PDL), Inputs(decode(t, c.BrokenContext)))
				require.ErrorContains(t, err, "template")
				p, err := Load([]byte(c.PDL), Inputs(decode(t, c.BrokenContext)), NonStrict())
				require.NoError(t, err)
				require.Contains(t, p.Document.Messages[0].Text(), "{{customer1.name}}", "the source as written")
			case "schema_bool", "schema_yesno", "schema_code", "tasklist_issue17", "cli_test1_schema_object", "cli_test3_plain":
				require.NotEmpty(t, doc.LLMMessages())
			}
		})
	}
}

// decode reads a context as the command does: integers as int64.
func decode(t *testing.T, raw json.RawMessage) map[string]any {
	if len(raw) == 0 {
		return nil
	}
	v, err := jsonvalue.Decode(raw)
	require.NoError(t, err)
	return v.(map[string]any)
}

func requireImageMessage(t *testing.T, p *Prompt, img []byte, mediaType string) {
	t.Helper()
	var found bool
	for _, part := range p.Document.Messages[len(p.Document.Messages)-1].Content {
		if part.Kind == promptfmt.KindImage {
			require.Equal(t, mediaType, part.MediaType)
			require.Equal(t, base64.StdEncoding.EncodeToString(img), part.Value)
			found = true
		}
	}
	require.True(t, found, "an image part")
}

// requireSchemaHome checks where a parsed schema went: the Request's
// output when it has a JSON Schema (the schema's own), else Meta, as
// written.
func requireSchemaHome(t *testing.T, p *Prompt) {
	t.Helper()
	if j, ok := p.Schema.JSONSchema(); ok {
		require.NotContains(t, p.Document.Meta, SchemaKey)
		require.Equal(t, &promptfmt.Output{Schema: j}, p.Document.Request.Output)
		return
	}
	require.Equal(t, p.SchemaText, p.Document.Meta[SchemaKey])
	require.Nil(t, p.Document.Request.Output)
}
