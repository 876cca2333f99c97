package stf

import (
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// requestHomes are the ;meta keys of the Request's fields: each under its
// JSON name, in the Request's JSON shape (and the model at model.id too).
var requestHomes = func() []homes.Home {
	// model is also an object's id, so that a model's other keys
	// (Prompty's provider, apiType, connection) stay beside it in Meta.
	hs := []homes.Home{
		{Field: promptfmt.FieldModel, Path: []string{promptfmt.FieldModel}, Read: notObject},
		{Field: promptfmt.FieldModel, Path: []string{promptfmt.FieldModel, "id"}},
	}
	for _, f := range []string{promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldTopK,
		promptfmt.FieldMaxTokens, promptfmt.FieldStop, promptfmt.FieldSeed, promptfmt.FieldFrequencyPenalty,
		promptfmt.FieldPresencePenalty, promptfmt.FieldTools, promptfmt.FieldToolChoice, promptfmt.FieldOutput} {
		hs = append(hs, homes.Home{Field: f, Path: []string{f}})
	}
	return hs
}()

// notObject leaves an object to the home inside it.
func notObject(v any) (any, error) {
	if _, ok := v.(map[string]any); ok {
		return nil, homes.ErrSkip
	}
	return v, nil
}

// takeRequest moves the settings of the ;meta blocks into the Request; a
// key of a setting's name whose value the Request cannot hold stays in
// Meta, with a warning at its ;meta line.
func (p *parser) takeRequest() {
	if len(p.doc.Meta) == 0 {
		return
	}
	rest, kept, problems := homes.Take(p.doc.Meta, requestHomes, &p.doc.Request, func(path []string) int {
		return p.doc.KeyLines[path[0]]
	})
	for _, f := range p.doc.Request.Fields() {
		delete(p.doc.KeyLines, f)
	}
	if len(p.doc.KeyLines) == 0 {
		p.doc.KeyLines = nil
	}
	p.doc.Meta, p.layout.kept = rest, kept
	for _, pr := range problems {
		w := promptfmt.Warning{Format: format, Line: p.doc.KeyLines[pr.Field], Col: 1,
			Msg: "meta key " + pr.Field + " is not read as the request's " + pr.Field + ": " + pr.Err.Error()}
		w.Offset = lines.Start(p.src, w.Line)
		w.Hint = "write it in the Request's JSON shape (" + shapes[pr.Field] + ")"
		p.doc.Warnings = append(p.doc.Warnings, w)
	}
}

// shapes says how each setting is written, for a warning's hint.
var shapes = map[string]string{
	promptfmt.FieldModel:            `model: "gpt-4o"`,
	promptfmt.FieldTemperature:      "temperature: 0.2",
	promptfmt.FieldTopP:             "topP: 0.9",
	promptfmt.FieldTopK:             "topK: 40",
	promptfmt.FieldMaxTokens:        "maxTokens: 512",
	promptfmt.FieldStop:             `stop: ["END"]`,
	promptfmt.FieldSeed:             "seed: 7",
	promptfmt.FieldFrequencyPenalty: "frequencyPenalty: 0.5",
	promptfmt.FieldPresencePenalty:  "presencePenalty: 0.5",
	promptfmt.FieldTools:            `tools: [{name: "f", description: "...", parameters: {type: "object"}, strict: true}]`,
	promptfmt.FieldToolChoice:       `toolChoice: {mode: "required", tool: "f"}`,
	promptfmt.FieldOutput:           `output: {name: "answer", schema: {type: "object"}, strict: true}`,
}

// putRequest is doc's Meta with its Request put back under the keys
// takeRequest read them from (as read while unchanged), and what cannot
// go there: a value no file holds (NaN), or a Meta key of a setting's
// name that would read back as the setting.
func putRequest(doc *promptfmt.Document, l *layout) (map[string]any, []error) {
	return homes.Put(format, doc.Meta, &doc.Request, requestHomes, l.kept)
}
