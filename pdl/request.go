package pdl

import (
	"errors"
	"fmt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/pdl/schema"
)

// requestHomes: the schema turn is the Request's output, when its schema
// has a JSON Schema; no other field has a home in PDL.
var requestHomes = []homes.Home{{Field: promptfmt.FieldOutput, Path: []string{SchemaKey}, Read: readOutput, Write: writeOutput}}

// readOutput reads the schema turn's text as the output's JSON Schema. A
// schema of an extraction mode (yesno, code, tasklist), or one that did
// not parse (non-strict reading warned of it), stays the text it is.
func readOutput(v any) (any, error) {
	text, ok := v.(string)
	if !ok {
		return nil, homes.ErrSkip
	}
	s, err := schema.Parse([]byte(text))
	if err != nil {
		return nil, homes.ErrSkip
	}
	j, ok := s.JSONSchema()
	if !ok {
		return nil, fmt.Errorf("%s is an extraction mode: %w", s, homes.ErrSkip)
	}
	return map[string]any{"schema": j}, nil
}

// writeOutput writes the output's schema as a schema turn's text; a
// name, description or strict has no place there.
func writeOutput(v any) (any, error) {
	o := v.(map[string]any) // homes.Value's shape
	j, ok := o["schema"].(map[string]any)
	if !ok {
		return nil, errors.New("an answer in JSON of any shape: a PDL schema names the answer's type")
	}
	s, err := schema.FromJSONSchema(j)
	if err != nil {
		return nil, fmt.Errorf("its schema: %w", err)
	}
	if len(o) > 1 {
		return nil, &homes.NearestError{Value: map[string]any{"schema": j}, Err: errors.New("a schema turn holds a schema, without a name, description or strict")}
	}
	return s.String(), nil
}

// takeRequest moves a schema turn that has a JSON Schema into the
// Request's output, at the turn's line.
func (p *parser) takeRequest() *homes.Kept {
	if p.doc.Meta == nil {
		return nil
	}
	rest, kept, _ := homes.Take(p.doc.Meta, requestHomes, &p.doc.Request, func([]string) int { return p.schemaLine })
	p.doc.Meta = rest
	return kept
}

// layout is what Parse keeps in Document.Layout: the schema turn's text,
// so that an unchanged output is written as written.
type layout struct{ kept *homes.Kept }

// putRequest is doc's Meta with its Request's output put back as the
// schema turn's text, and what cannot go there.
func putRequest(doc *promptfmt.Document) (map[string]any, []error) {
	var kept *homes.Kept
	if l, ok := doc.Layout.(*layout); ok {
		kept = l.kept
	}
	return homes.Put("pdl", doc.Meta, &doc.Request, requestHomes, kept)
}
