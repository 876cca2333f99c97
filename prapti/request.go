package prapti

import (
	"errors"
	"fmt"
	"slices"
	"strings"

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

// request is the Request doc's configuration lines make, as Prapti
// would run them, and the lines that set a field to what it cannot hold.
func request(doc *promptfmt.Document) (promptfmt.Request, []problem) {
	var r promptfmt.Request
	var problems []problem
	assignments := Assignments(doc)
	// The last assignment of each variable: vars.NAME, or NAME unscoped.
	vars := map[string]ConfigLine{}
	for _, c := range assignments {
		if name, ok := strings.CutPrefix(c.Name, "vars."); ok {
			vars[name] = c
		} else if !strings.Contains(c.Name, ".") {
			vars[c.Name] = c
		}
	}
	for _, s := range settings {
		// The responder's field, assignment by assignment: a value, or a
		// binding to a variable (model and temperature are bound to
		// theirs from the start). An assignment of a value that does not
		// fit leaves the field as it was, as upstream's validation does.
		var value *ConfigLine
		bound, by := "", -1 // the variable, and the assignment that bound it
		if s.bound {
			bound = s.name
		}
		for i, c := range assignments {
			switch {
			case c.Name != "responders."+responder+"."+s.name:
			case c.Var != "":
				bound, by = c.Var, i
			case fits(s.field, c.Value) != nil:
				problems = append(problems, problem{c, fits(s.field, c.Value).Error()})
			default:
				value, bound = &assignments[i], ""
			}
		}
		// A bound field takes its variable's value, when it has one (the
		// binding is resolved when the responder runs), else keeps its own.
		if bound != "" {
			c, ref, ok, msg := resolve(vars, bound)
			if by >= 0 && ref.Source == "" {
				ref = assignments[by]
			}
			switch {
			case msg != "":
				problems = append(problems, problem{ref, msg})
			case !ok && ref.Source != "":
				// Upstream leaves the field as it was, without a word.
				problems = append(problems, problem{ref, fmt.Sprintf("var(%s) is never assigned", ref.Var)})
			case ok && fits(s.field, c.Value) != nil:
				problems = append(problems, problem{c, fits(s.field, c.Value).Error()})
			case ok:
				value = &c
			}
		}
		if value == nil || value.Value == nil { // null: the responder's default
			continue
		}
		_ = homes.Set(&r, s.field, shape(s.field, value.Value)) // fits said it does
		if value.Line > 0 {
			if r.Lines == nil {
				r.Lines = map[string]int{}
			}
			r.Lines[s.field] = value.Line
		}
	}
	return r, problems
}

// resolve follows a variable's var() references to the assignment of a
// value: ok is false when one is never assigned, ref is the last line
// whose var() was followed (none when the variable holds a value), and
// msg says when the references go round or too deep.
func resolve(vars map[string]ConfigLine, name string) (c, ref ConfigLine, ok bool, msg string) {
	for n := 0; ; n++ {
		if c, ok = vars[name]; !ok || c.Var == "" {
			return c, ref, ok, ""
		}
		if n == maxVarChain {
			return c, c, false, fmt.Sprintf("var() references go more than %d deep", maxVarChain)
		}
		ref, name = c, c.Var
	}
}

// shape is v as the Request's field takes it: openai.chat's stop is a
// string or a list of strings.
func shape(field string, v any) any {
	if s, ok := v.(string); ok && field == promptfmt.FieldStop {
		return []any{s}
	}
	return v
}

// fits says why openai.chat's field cannot take v, as the Request holds
// it: null only where the responder allows it (max_tokens and stop, for
// no limit), else a value of the field's type.
func fits(field string, v any) error {
	if v == nil {
		if field == promptfmt.FieldMaxTokens || field == promptfmt.FieldStop {
			return nil
		}
		return errors.New("null is not a value of this setting")
	}
	var r promptfmt.Request
	return homes.Set(&r, field, shape(field, v))
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
