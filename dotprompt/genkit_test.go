package dotprompt_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/promptfmt/promptfmt"
	. "github.com/promptfmt/promptfmt/dotprompt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// loadSample loads a Genkit sample as the command does: partials from its
// directory, named by its file.
func loadSample(t *testing.T, name string) (*Template, error) {
	t.Helper()
	file := filepath.Join("testdata/genkit", name)
	src, err := os.ReadFile(file)
	require.NoError(t, err)
	return Load(src, promptfmt.FS(os.DirFS(filepath.Dir(file))), promptfmt.File(file))
}

func render(t *testing.T, tpl *Template, data map[string]any) *promptfmt.Document {
	t.Helper()
	doc, err := tpl.Render(context.Background(), nil, Data(data))
	require.NoError(t, err)
	return doc
}

func textMsg(role, text string) promptfmt.Message { return promptfmt.NewMessage(role, text) }

// Every Genkit sample is Dotprompt's by its content, parses (but one, whose
// front matter the runtimes do not see), and fmt's output reads back as
// the same document and is its own canonical form.
func TestGenkitSamplesParse(t *testing.T) {
	files, err := filepath.Glob("testdata/genkit/*/*.prompt")
	require.NoError(t, err)
	require.GreaterOrEqual(t, len(files), 8)
	for _, file := range files {
		src, err := os.ReadFile(file)
		require.NoError(t, err)
		doc, err := Parse(src, promptfmt.File(file))
		if filepath.Base(file) == "ex03.prompt" {
			// Its closing --- ends the file: Genkit renders the YAML as
			// the prompt's text.
			assert.ErrorContains(t, err, "ex03.prompt:11:1: front matter is closed by a --- that ends the file with no line break after it")
			continue
		}
		require.NoError(t, err, file)
		if filepath.Base(file) != "_style.prompt" { // a partial: a bare body
			assert.True(t, Format.Sniff(src), file)
		}
		var out bytes.Buffer
		require.NoError(t, Write(&out, doc), file)
		back, err := Parse(out.Bytes())
		require.NoError(t, err, file)
		assert.True(t, promptfmt.Equal(doc, back), "%s: fmt changed the document:\n%s", file, out.String())
		var again bytes.Buffer
		require.NoError(t, Write(&again, back))
		assert.Equal(t, out.String(), again.String(), file)
	}
}

// js/genkit/tests/prompts/kitchensink.prompt: history placed at
// {{history}}, the text after it a model message; every front matter key
// kept; the output schema compiled as the spec has it.
func TestGenkitKitchensink(t *testing.T) {
	tpl, err := loadSample(t, "kitchensink/kitchensink.prompt")
	require.NoError(t, err)
	assert.Equal(t, []string{"subject"}, tpl.Inputs())
	doc := render(t, tpl, map[string]any{
		"input":    map[string]any{"subject": "cats"},
		"messages": []any{map[string]any{"role": "user", "content": "hi"}, map[string]any{"role": "model", "content": "hello"}},
	})
	h := map[string]any{"purpose": "history"}
	want := []promptfmt.Message{textMsg("system", " Hello "), textMsg("user", "hi"), textMsg("assistant", "hello"), textMsg("assistant", " from the prompt file cats")}
	want[1].Metadata, want[2].Metadata = h, h
	assert.True(t, promptfmt.EqualMessages(want, doc.Messages), "%v", doc.Messages)
	for _, k := range []string{"returnToolRequests", "maxTurns", "toolChoice", "metadata"} {
		assert.Contains(t, doc.Meta, k)
	}
	assert.NotEmpty(t, doc.Request.Model, "the settings are the request's")
	assert.NotEmpty(t, doc.Request.Tools)
	assert.Equal(t, "kitchensink", doc.Meta["name"], "named by its file")
	out, err := tpl.OutputSchema(nil)
	require.NoError(t, err)
	want2 := map[string]any{"type": "object", "additionalProperties": false, "required": []any{"arr"}, "properties": map[string]any{
		"obj": map[string]any{"type": []any{"object", "null"}, "description": "a nested object", "additionalProperties": false,
			"properties": map[string]any{"nest1": map[string]any{"type": []any{"string", "null"}}}},
		"arr": map[string]any{"type": "array", "description": "array of objects", "items": map[string]any{"type": "object", "additionalProperties": false,
			"properties": map[string]any{"nest2": map[string]any{"type": []any{"boolean", "null"}}}}},
	}}
	assert.True(t, jsonvalue.Equal(want2, out), "%v", out)
}

// js/testapps/prompt-file: a partial read from _style.prompt with a hash
// argument, its role markers splitting the messages; a variant named by
// its file (recipe.robot.prompt); a custom helper ({{list}}) refused; a
// named output schema (Recipe) given by the caller.
func TestGenkitPromptFile(t *testing.T) {
	tpl, err := loadSample(t, "prompt-file/story.prompt")
	require.NoError(t, err)
	doc := render(t, tpl, map[string]any{"input": map[string]any{"subject": "a cat", "personality": "a poet"}})
	assert.True(t, promptfmt.EqualMessages([]promptfmt.Message{
		textMsg("system", "\nYou should speak as if you are a a poet.\n"), textMsg("user", "\nTell me a story about a cat."),
	}, doc.Messages), "%v", doc.Messages)
	doc = render(t, tpl, map[string]any{"input": map[string]any{"subject": "a cat"}})
	assert.Equal(t, "\nYou should speak as if you are a pirate.\n", doc.Messages[0].Text())

	tpl, err = loadSample(t, "prompt-file/recipe.robot.prompt")
	require.NoError(t, err)
	doc = render(t, tpl, map[string]any{"input": map[string]any{"food": "bolts"}})
	assert.Equal(t, "recipe", doc.Meta["name"])
	assert.Equal(t, "robot", doc.Meta["variant"])
	assert.Contains(t, doc.Messages[0].Text(), "Generate a recipe for bolts.")
	out, err := tpl.OutputSchema(nil)
	require.NoError(t, err)
	assert.Equal(t, []any{"title", "ingredients", "steps"}, out["required"], "in the file's order")

	_, err = loadSample(t, "prompt-file/recipe.prompt")
	assert.ErrorContains(t, err, "recipe.prompt:17:1: {{list ingredients}} calls list")
	src, err := os.ReadFile("testdata/genkit/prompt-file/recipe.prompt")
	require.NoError(t, err)
	parsed, err := Parse(src)
	require.NoError(t, err)
	recipe := map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}}}
	out, err = Schema(parsed.Meta["output"].(map[string]any)["schema"], map[string]any{"Recipe": recipe})
	require.NoError(t, err)
	assert.Equal(t, recipe, out)
}

// go/samples: {{ role "system" }} written with spaces; media whose url and
// content type are inputs (a video: a file part); a named input schema,
// whose inputs are then unknown; {{#each}} with @last.
func TestGenkitGoSamples(t *testing.T) {
	tpl, err := loadSample(t, "go-prompts/multi-msg.prompt")
	require.NoError(t, err)
	doc := render(t, tpl, map[string]any{"input": map[string]any{"videoUrl": "https://x/v.mp4", "contentType": "video/mp4"}})
	require.Len(t, doc.Messages, 2)
	assert.Equal(t, "system", doc.Messages[0].Role)
	assert.Equal(t, []promptfmt.ContentPart{promptfmt.Text("\n\nGive me a summary of this video\n"), {Kind: promptfmt.KindFile, Value: "https://x/v.mp4", MediaType: "video/mp4"}}, doc.Messages[1].Content)

	tpl, err = loadSample(t, "go-basic/recipe.prompt")
	require.NoError(t, err)
	assert.Nil(t, tpl.Inputs())
	doc = render(t, tpl, map[string]any{"input": map[string]any{"cuisine": "Thai", "dish": "curry", "servingSize": 2, "maxPrepMinutes": 30, "dietaryRestrictions": []any{"vegan", "nut-free"}}})
	assert.Equal(t, "\nCreate a Thai curry recipe for 2 people that takes under 30 minutes to prepare.\nDietary restrictions: vegan, nut-free.\n", doc.Messages[1].Text())
	_, err = tpl.InputSchema(nil)
	assert.ErrorContains(t, err, `recipe.prompt:7:11: input.schema: "RecipeRequest" is not a type`)
}

// js/doc-snippets ex07: no front matter (a blank first line); the history
// given goes where {{history}} is, each message marked as history.
func TestGenkitHistory(t *testing.T) {
	tpl, err := loadSample(t, "doc-snippets/ex07.prompt")
	require.NoError(t, err)
	doc := render(t, tpl, map[string]any{"messages": []any{map[string]any{"role": "user", "content": "earlier"}}})
	var roles []string
	for _, m := range doc.Messages {
		roles = append(roles, m.Role)
	}
	assert.Equal(t, []string{"system", "user", "user", "assistant", "user"}, roles)
	assert.Equal(t, "earlier", doc.Messages[1].Text())
	assert.True(t, slices.ContainsFunc(doc.Messages, func(m promptfmt.Message) bool { return m.Metadata["purpose"] == "history" }))
}
