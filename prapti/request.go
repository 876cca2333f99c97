package prapti

import (
	"fmt"
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// responder is the name of the responder whose settings are the Request:
// the one Prapti's fallback configuration creates ("% responder.new
// default openai.chat").
const responder = "default"

// settings are the fields of openai.chat's configuration that the Request
// holds, by their Prapti names; bound are those a responder binds to the
// variable of the same name (vars.model, vars.temperature).
var settings = []setting{
	{promptfmt.FieldModel, "model", true},
	{promptfmt.FieldTemperature, "temperature", true},
	{promptfmt.FieldTopP, "top_p", false},
	{promptfmt.FieldMaxTokens, "max_tokens", false},
	{promptfmt.FieldStop, "stop", false},
	{promptfmt.FieldPresencePenalty, "presence_penalty", false},
	{promptfmt.FieldFrequencyPenalty, "frequency_penalty", false},
}

type setting struct {
	field, name string
	bound       bool
}

// maxVarChain is how many var() references a value may go through, as
// upstream resolves them.
const maxVarChain = 20

// problem is a configuration line that sets a field of the Request to a
// value the Request cannot hold: Request leaves the field unset.
type problem struct {
	line ConfigLine
	msg  string
}

// request is the Request doc's configuration lines make, and the lines
// that say what they set in a way the Request cannot hold.
func request(doc *promptfmt.Document) (promptfmt.Request, []problem) {
	var r promptfmt.Request
	var problems []problem
	type assigned struct {
		c ConfigLine
		n int // its place among the assignments
	}
	last := map[string]assigned{}
	for n, c := range Assignments(doc) {
		last[c.Name] = assigned{c, n}
	}
	// variable returns the last assignment of a variable: vars.NAME, or
	// NAME unscoped, which sets it.
	variable := func(name string) (ConfigLine, bool) {
		a, okA := last[name]
		b, okB := last["vars."+name]
		switch {
		case okB && (!okA || b.n > a.n):
			return b.c, true
		case okA:
			return a.c, true
		}
		return ConfigLine{}, false
	}
	for _, s := range settings {
		a, ok := last["responders."+responder+"."+s.name]
		c := a.c
		if !ok && s.bound {
			c, ok = variable(s.name)
		}
		if !ok {
			continue
		}
		set := c
		for n := 0; set.Var != "" && ok; n++ {
			if n == maxVarChain {
				ok = false
				problems = append(problems, problem{c, fmt.Sprintf("var() references go more than %d deep", maxVarChain)})
				break
			}
			name := set.Var
			if set, ok = variable(name); !ok {
				problems = append(problems, problem{c, fmt.Sprintf("var(%s) is never assigned", name)})
			}
		}
		if !ok || set.Value == nil { // null: the responder's default
			continue
		}
		v := set.Value
		if s.field == promptfmt.FieldStop {
			if str, isString := v.(string); isString {
				v = []any{str} // openai.chat's stop is a string or a list of strings
			}
		}
		if err := homes.Set(&r, s.field, v); err != nil {
			problems = append(problems, problem{c, err.Error()})
			continue
		}
		if c.Line > 0 {
			if r.Lines == nil {
				r.Lines = map[string]int{}
			}
			r.Lines[s.field] = c.Line
		}
	}
	return r, problems
}

// requestErrors refuses each field of doc.Request that its configuration
// lines do not set so (Prapti keeps settings as lines of the
// conversation, which Write does not add): the refusal offers what the
// lines set, when they set it, as the nearest request.
func requestErrors(doc *promptfmt.Document) []error {
	lines, _ := request(doc)
	var errs []error
	fields := doc.Request.Fields()
	for _, f := range lines.Fields() {
		if !slices.Contains(fields, f) {
			fields = append(fields, f)
		}
	}
	for _, f := range fields {
		if homes.SameField(&doc.Request, &lines, f) {
			continue
		}
		e := &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingRequest, Key: f, Part: -1}
		v, set := homes.Value(&lines, f)
		switch {
		case set:
			only := homes.Only(&lines, f)
			e.NearestRequest = &only
			e.What = fmt.Sprintf("the request's %s differs from what the configuration lines set (%s; Write adds no lines)", f, valueText(v))
		case slices.ContainsFunc(settings, func(s setting) bool { return s.field == f }):
			e.What = fmt.Sprintf("the request's %s, which no configuration line sets (Prapti keeps settings as %% lines of messages; Write adds none)", f)
		default:
			e.What = fmt.Sprintf("the request's %s (Prapti's openai.chat responder has no such setting)", f)
		}
		errs = append(errs, e)
	}
	return errs
}

func valueText(v any) string {
	b, err := jsonvalue.Encode(v)
	if err != nil {
		return jsonvalue.Describe(v)
	}
	return excerpt(string(b))
}

// takeRequest sets the Request the configuration lines make, with a
// warning at each line that sets a field to what the Request cannot hold
// (positioned in what Parse reads, as the other warnings are before
// parseFile maps them to the file).
func (p *parse) takeRequest() {
	r, problems := request(p.doc)
	p.doc.Request = r
	if len(problems) == 0 {
		return
	}
	for _, pr := range problems {
		p.doc.Warnings = append(p.doc.Warnings, promptfmt.Warning{Format: format, Line: pr.line.Line, Col: 1,
			Offset: lines.Start([]byte(p.str), pr.line.Line),
			Msg:    fmt.Sprintf("%s is not read as the request's setting: %s", excerpt(pr.line.Source), pr.msg)})
	}
	diag.SortWarnings(p.doc.Warnings)
}
