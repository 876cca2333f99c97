package stf

import (
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// requestKey is the one ;meta key the Request's fields are kept under,
// so that they never take the place of another format's metadata (a
// prompt file's model, Prompty's model object, Dotprompt's output).
const requestKey = "request"

// requestHomes are the Request's fields in ;meta: each under request, by
// its JSON name, in the Request's JSON shape.
var requestHomes = func() []homes.Home {
	var hs []homes.Home
	for _, f := range []string{promptfmt.FieldModel, promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldTopK,
		promptfmt.FieldMaxTokens, promptfmt.FieldStop, promptfmt.FieldSeed, promptfmt.FieldFrequencyPenalty,
		promptfmt.FieldPresencePenalty, promptfmt.FieldTools, promptfmt.FieldToolChoice, promptfmt.FieldOutput} {
		hs = append(hs, homes.Home{Field: f, Path: []string{requestKey, f}})
	}
	return hs
}()

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
	line := p.doc.KeyLines[requestKey]
	if _, left := rest[requestKey]; !left {
		delete(p.doc.KeyLines, requestKey)
	}
	if len(p.doc.KeyLines) == 0 {
		p.doc.KeyLines = nil
	}
	p.doc.Meta, p.layout.kept = rest, kept
	for _, pr := range problems {
		w := promptfmt.Warning{Format: format, Line: line, Col: 1,
			Msg: "meta key request." + pr.Field + " is not read as the request's " + pr.Field + ": " + pr.Err.Error()}
		w.Offset = lines.Start(p.src, w.Line)
		w.Hint = "write it in the Request's JSON shape (" + shapes[pr.Field] + ")"
		p.doc.Warnings = append(p.doc.Warnings, w)
	}
}

// shapes says how each setting is written, for a warning's hint.
var shapes = map[string]string{
	promptfmt.FieldModel:            `request: {model: "gpt-4o"}`,
	promptfmt.FieldTemperature:      "request: {temperature: 0.2}",
	promptfmt.FieldTopP:             "request: {topP: 0.9}",
	promptfmt.FieldTopK:             "request: {topK: 40}",
	promptfmt.FieldMaxTokens:        "request: {maxTokens: 512}",
	promptfmt.FieldStop:             `request: {stop: ["END"]}`,
	promptfmt.FieldSeed:             "request: {seed: 7}",
	promptfmt.FieldFrequencyPenalty: "request: {frequencyPenalty: 0.5}",
	promptfmt.FieldPresencePenalty:  "request: {presencePenalty: 0.5}",
	promptfmt.FieldTools:            `request: {tools: [{name: "f", description: "...", parameters: {type: "object"}, strict: true}]}`,
	promptfmt.FieldToolChoice:       `request: {toolChoice: {mode: "required", tool: "f"}}`,
	promptfmt.FieldOutput:           `request: {output: {name: "answer", schema: {type: "object"}, strict: true}}`,
}

// putRequest is doc's Meta with its Request put back under the keys
// takeRequest read them from (as read while unchanged), and what cannot
// go there: a value no file holds (NaN), or a Meta key of a setting's
// name that would read back as the setting.
func putRequest(doc *promptfmt.Document, l *layout) (map[string]any, []error) {
	return homes.Put(format, doc.Meta, &doc.Request, requestHomes, l.kept)
}
