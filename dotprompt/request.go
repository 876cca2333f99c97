package dotprompt

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/invopop/jsonschema"
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/picoschema"
	"go.yaml.in/yaml/v3"
)

// requestHomes are where a Dotprompt file's front matter keeps the
// Request's fields (see "Settings" in the package documentation): the
// model, Genkit's config keys, the tools by name and the output schema.
// A tool choice has none.
var requestHomes = []homes.Home{
	{Field: promptfmt.FieldModel, Path: []string{"model"}},
	config(promptfmt.FieldTemperature, "temperature"),
	config(promptfmt.FieldTopP, "topP"),
	config(promptfmt.FieldTopK, "topK"),
	config(promptfmt.FieldMaxTokens, "maxOutputTokens"),
	config(promptfmt.FieldStop, "stopSequences"),
	config(promptfmt.FieldSeed, "seed"),
	config(promptfmt.FieldFrequencyPenalty, "frequencyPenalty"),
	config(promptfmt.FieldPresencePenalty, "presencePenalty"),
	{Field: promptfmt.FieldTools, Path: []string{"tools"}, Read: readTools, Write: writeTools},
	{Field: promptfmt.FieldOutput, Path: []string{"output", "schema"}, Read: readOutput, Write: writeOutput},
}

func config(field, key string) homes.Home {
	return homes.Home{Field: field, Path: []string{"config", key}}
}

// readTools reads tools, a list of names the host defines.
func readTools(v any) (any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of tool names, not %s", jsonvalue.Describe(v))
	}
	out := make([]any, len(list))
	for i, x := range list {
		name, ok := x.(string)
		if !ok || name == "" {
			return nil, fmt.Errorf("tool %d: want a tool's name, not %s", i+1, jsonvalue.Describe(x))
		}
		out[i] = map[string]any{"name": name}
	}
	return out, nil
}

// writeTools writes the tools' names; a tool the file would have to
// define (a description, parameters, strict) is refused, offering the
// tools by name: Dotprompt names tools its host defines.
func writeTools(v any) (any, error) {
	list := v.([]any) // homes.Value's shape
	names := make([]any, len(list))
	for i, x := range list {
		t := x.(map[string]any)
		name, _ := t["name"].(string)
		if name == "" {
			return nil, &homes.ToolError{Index: i, Err: errors.New("a tool without a name")}
		}
		if len(t) > 1 {
			return nil, &homes.ToolError{Index: i, Err: fmt.Errorf("the tool %q has a definition (a Dotprompt file names its tools; the host defines them)", name)}
		}
		names[i] = name
	}
	return names, nil
}

// readOutput reads output.schema, Picoschema or JSON Schema, as the
// JSON Schema it compiles to. A schema naming a schema the host
// registers is no setting here (its JSON Schema is not in the file).
func readOutput(v any) (any, error) {
	s, err := Schema(v, nil)
	if err != nil {
		var pe *picoschema.Error
		if errors.As(err, &pe) && pe.Name != "" {
			return nil, fmt.Errorf("%w: %v", homes.ErrSkip, err)
		}
		return nil, err
	}
	return map[string]any{"schema": s}, nil
}

// writeOutput writes the output's schema as JSON Schema (Picoschema is
// what an author writes; the front matter keeps it while unchanged). An
// output with no schema, a name, a description or strict has no place
// but the schema's: the nearest is the schema alone.
func writeOutput(v any) (any, error) {
	o := v.(map[string]any) // homes.Value's shape
	s, ok := o["schema"].(map[string]any)
	if !ok {
		return nil, errors.New("an output without a schema (Dotprompt's output.format json is kept as written, not read as the request's)")
	}
	if len(o) > 1 {
		return nil, &homes.NearestError{Value: map[string]any{"schema": s},
			Err: errors.New("an output's name, description or strict (Dotprompt's output has a schema)")}
	}
	if err := runtimeTakes(s); err != nil {
		return nil, err
	}
	return s, nil
}

// runtimeTakes reports why Dotprompt's Go runtime would refuse to load a
// JSON Schema written as output.schema: it reads one into invopop's
// jsonschema.Schema, which has no place for some of JSON Schema (a list of
// types, "type": ["string", "null"]). Written, such a file would not load.
func runtimeTakes(s map[string]any) error {
	b, err := jsonvalue.Encode(s)
	if err != nil {
		return err
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(b, &js); err != nil {
		return fmt.Errorf("a schema Dotprompt's Go runtime cannot load (%v)", err)
	}
	return nil
}

// takeRequest moves the front matter's settings into doc.Request (see
// homes.TakeFrontMatter); a Meta left empty is none. yamlStart is where
// the front matter's YAML starts.
func takeRequest(doc *promptfmt.Document, src []byte, yamlStart int) *homes.Kept {
	root, _ := doc.MetaNode.(*yaml.Node)
	kept := homes.TakeFrontMatter(format, doc, src, root, yamlStart, requestHomes)
	if len(doc.Meta) == 0 {
		doc.Meta = nil
	}
	return kept
}

// putRequest is doc's Meta with its Request put back into the front
// matter, and what cannot go there.
func putRequest(doc *promptfmt.Document) (map[string]any, []error) {
	var kept *homes.Kept
	if l, ok := doc.Layout.(*layout); ok {
		kept = l.kept
	}
	return homes.Put(format, doc.Meta, &doc.Request, requestHomes, kept)
}
