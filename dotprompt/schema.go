package dotprompt

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/picoschema"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// Schema compiles a schema as Dotprompt's front matter writes one
// (input.schema, output.schema) into JSON Schema: Picoschema as
// Dotprompt's spec compiles it, and a JSON Schema (a mapping whose type
// is a JSON Schema type, or that has properties) as it is. v is a value as
// Document.Meta holds it, whose mappings have no order: "required" lists
// the properties sorted (Template's InputSchema and OutputSchema list them
// in the file's order). named holds the named schemas, JSON Schemas by
// name, as Genkit's registry does (ai.defineSchema): a bare name that is
// not a type ("Address, where to ship") is looked up there, and one not
// there is an error naming it. A nil or empty v is no schema: nil.
func Schema(v any, named map[string]any) (map[string]any, error) {
	out, _, err := picoschema.Compile(v, nil, lookup(named))
	if err != nil {
		return nil, &promptfmt.ParseError{Format: format, Msg: "schema: " + err.Error()}
	}
	return out, nil
}

// InputSchema is the file's input.schema compiled by Schema, with the
// named schemas given, "required" in the file's order; nil when the file
// has none. An error is positioned in the file.
func (t *Template) InputSchema(named map[string]any) (map[string]any, error) {
	return t.schema("input", named)
}

// OutputSchema is the file's output.schema, as InputSchema.
func (t *Template) OutputSchema(named map[string]any) (map[string]any, error) {
	return t.schema("output", named)
}

func (t *Template) schema(key string, named map[string]any) (map[string]any, error) {
	v, node := schemaOf(t.doc, key)
	out, _, err := picoschema.Compile(v, node, lookup(named))
	if err != nil {
		_, yamlStart, _, _, _ := frontMatter(t.src, 0)
		e := schemaError(t.src, yamlStart, key, node, err)
		e.File = t.file
		return nil, e
	}
	return out, nil
}

// lookup is named as the compiler looks names up.
func lookup(named map[string]any) picoschema.Named {
	return func(name string) (map[string]any, bool) {
		s, ok := named[name].(map[string]any)
		return s, ok
	}
}

// anyName stands any named schema in for one that is known: Parse and
// Inputs check and read the rest of a schema without them.
func anyName(string) (map[string]any, bool) { return map[string]any{}, true }

// schemaOf is key.schema of doc's front matter (key is input or output),
// and its YAML node (nil when the front matter has none, or the schema is
// not there).
func schemaOf(doc *promptfmt.Document, key string) (any, *yaml.Node) {
	io, ok := doc.Meta[key].(map[string]any)
	if !ok {
		return nil, nil // the runtimes ignore an input or output that is not a mapping
	}
	root, _ := doc.MetaNode.(*yaml.Node)
	return io["schema"], mapValue(mapValue(root, key), "schema")
}

// checkSchemas compiles the schemas of doc's front matter (any name
// standing for a named schema): what the runtimes would refuse is an
// error at its place in src, whose front matter starts at yamlStart.
func checkSchemas(src []byte, yamlStart int, doc *promptfmt.Document) error {
	for _, key := range []string{"input", "output"} {
		v, node := schemaOf(doc, key)
		if _, _, err := picoschema.Compile(v, node, anyName); err != nil {
			return schemaError(src, yamlStart, key, node, err)
		}
	}
	return nil
}

// schemaError is err, from compiling key.schema (written at node), as a
// ParseError at its place in src.
func schemaError(src []byte, yamlStart int, key string, node *yaml.Node, err error) *promptfmt.ParseError {
	var pe *picoschema.Error
	if !errors.As(err, &pe) {
		return &promptfmt.ParseError{Format: format, Msg: key + ".schema: " + err.Error(), Err: err}
	}
	at := pe.Node
	if at == nil {
		at = node
	}
	if at == nil {
		return &promptfmt.ParseError{Format: format, Msg: fmt.Sprintf("%s.schema: %v", key, pe)}
	}
	e := diag.Errorf(format, src, yamlmeta.Offset(src, yamlStart, at), "%s.schema: %v", key, pe)
	if pe.Name != "" {
		e.Hint = "a named schema is registered in Genkit's code (ai.defineSchema); give it to InputSchema or OutputSchema"
	}
	return e
}
