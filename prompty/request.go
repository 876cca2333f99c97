package prompty

import (
	"errors"
	"fmt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// requestHomes are where a .prompty file's front matter keeps the
// Request's fields (see "Settings" in the package documentation). A tool
// choice has none.
var requestHomes = []homes.Home{
	{Field: promptfmt.FieldModel, Path: []string{"model"}, Read: modelShorthand},
	{Field: promptfmt.FieldModel, Path: []string{"model", "id"}, Read: noReference},
	modelOption(promptfmt.FieldTemperature, "temperature"),
	modelOption(promptfmt.FieldTopP, "topP"),
	modelOption(promptfmt.FieldTopK, "topK"),
	modelOption(promptfmt.FieldMaxTokens, "maxOutputTokens"),
	modelOption(promptfmt.FieldStop, "stopSequences"),
	modelOption(promptfmt.FieldSeed, "seed"),
	modelOption(promptfmt.FieldFrequencyPenalty, "frequencyPenalty"),
	modelOption(promptfmt.FieldPresencePenalty, "presencePenalty"),
	{Field: promptfmt.FieldTools, Path: []string{"tools"}, Read: readTools, Write: writeTools},
	{Field: promptfmt.FieldOutput, Path: []string{"outputs"}, Read: readOutputs, Write: writeOutputs},
}

func modelOption(field, key string) homes.Home {
	return homes.Home{Field: field, Path: []string{"model", "options", key}, Read: noReference}
}

// noReference takes a value as it is, unless it holds a ${env:} or
// ${file:} reference: Load knows its value, Parse does not.
func noReference(v any) (any, error) {
	if hasReference(v) {
		return nil, fmt.Errorf("a reference is resolved when loaded: %w", homes.ErrSkip)
	}
	return v, nil
}

// modelShorthand reads model: as a string; a mapping is read at model.id.
func modelShorthand(v any) (any, error) {
	if _, ok := v.(map[string]any); ok {
		return nil, homes.ErrSkip
	}
	if _, ok := v.(string); !ok {
		return nil, fmt.Errorf("want a model id or a mapping, not %s", jsonvalue.Describe(v))
	}
	return noReference(v)
}

// readTools reads a list of function tools.
func readTools(v any) (any, error) {
	if _, err := noReference(v); err != nil {
		return nil, err
	}
	list, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("want a list of tools, not %s", jsonvalue.Describe(v))
	}
	out := make([]any, len(list))
	for i, x := range list {
		t, err := readTool(x)
		if err != nil {
			return nil, fmt.Errorf("tool %d: %w", i+1, err)
		}
		out[i] = t
	}
	return out, nil
}

func readTool(x any) (map[string]any, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("want a tool, not %s", jsonvalue.Describe(x))
	}
	if m["kind"] != "function" {
		return nil, fmt.Errorf("kind %s is not a function tool, which is all a request's tools are", summary(m["kind"]))
	}
	t := map[string]any{}
	for _, k := range jsonvalue.SortedKeys(m) {
		switch v := m[k]; k {
		case "kind":
		case "name":
			if s, ok := v.(string); !ok || s == "" {
				return nil, errors.New("a tool needs a name")
			}
			t[k] = v
		case "description", "strict":
			t[k] = v // homes.Set checks the types
		case "parameters":
			s, err := propertiesSchema(v, 0)
			if err != nil {
				return nil, fmt.Errorf("parameters: %w", err)
			}
			t[k] = s
		default:
			return nil, fmt.Errorf("%s has no place in a request's tool", k)
		}
	}
	return t, nil
}

// writeTools writes the Request's tools as function tools.
func writeTools(v any) (any, error) {
	list := v.([]any) // homes.Value's shape
	out := make([]any, len(list))
	for i, x := range list {
		t := x.(map[string]any)
		name, _ := t["name"].(string)
		if name == "" {
			return nil, &homes.ToolError{Index: i, Err: errors.New("a tool without a name (a Prompty tool has one)")}
		}
		m := map[string]any{"name": name, "kind": "function"}
		if d, ok := t["description"]; ok {
			m["description"] = d
		}
		if t["strict"] == true {
			m["strict"] = true
		}
		if p, ok := t["parameters"].(map[string]any); ok {
			props, err := propertyList(p, 0)
			if err != nil {
				return nil, &homes.ToolError{Index: i, Err: fmt.Errorf("parameters: %w", err)}
			}
			m["parameters"] = props
		}
		out[i] = m
	}
	return out, nil
}

// readOutputs reads outputs as the Request's output schema.
func readOutputs(v any) (any, error) {
	if _, err := noReference(v); err != nil {
		return nil, err
	}
	s, err := propertiesSchema(v, 0)
	if err != nil {
		return nil, err
	}
	return map[string]any{"schema": s}, nil
}

// writeOutputs writes the Request's output schema as outputs; a name,
// description or strict has no place there.
func writeOutputs(v any) (any, error) {
	o := v.(map[string]any) // homes.Value's shape
	s, ok := o["schema"].(map[string]any)
	if !ok {
		return nil, errors.New("an answer in JSON of any shape: outputs are a property list")
	}
	props, err := propertyList(s, 0)
	if err != nil {
		return nil, fmt.Errorf("schema: %w", err)
	}
	if len(o) > 1 {
		return nil, &homes.NearestError{Value: map[string]any{"schema": s},
			Err: errors.New("outputs hold a schema, without a name, description or strict")}
	}
	return props, nil
}

// takeRequest moves the front matter's settings into doc.Request (see
// homes.TakeFrontMatter).
func takeRequest(doc *promptfmt.Document, src []byte, fm frontMatter) *homes.Kept {
	if len(doc.Meta) == 0 {
		return nil
	}
	return homes.TakeFrontMatter(format, doc, src, fm.node.Content[0], fm.yamlStart, requestHomes)
}

// putRequest is doc's Meta with its Request put back into the front
// matter, and what cannot go there. The model is written model: ID, or
// at model.id when something else goes under model (or the file wrote it
// there).
func putRequest(doc *promptfmt.Document) (map[string]any, []error) {
	var kept *homes.Kept
	if l, ok := doc.Layout.(*layout); ok {
		kept = l.kept
	}
	return homes.Put(format, doc.Meta, &doc.Request, requestHomes, kept)
}
