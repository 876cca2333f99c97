package provider

import (
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/values"
)

func quote(s string) string { return strconv.Quote(s) }

// checkRequest reports what no provider can send of req: text that is not
// UTF-8 (JSON would replace it), a number that is not finite, a tool
// without a name, a schema that is not JSON-like data.
func checkRequest(format string, req *promptfmt.Request) []error {
	var errs []error
	bad := func(f string, what string, args ...any) *promptfmt.UnsupportedError {
		e := requestError(format, f, fmt.Sprintf(what, args...))
		errs = append(errs, e)
		return e
	}
	if !utf8.ValidString(req.Model) {
		bad(promptfmt.FieldModel, "a model name that is not valid UTF-8")
	}
	for f, p := range map[string]*float64{promptfmt.FieldTemperature: req.Temperature, promptfmt.FieldTopP: req.TopP,
		promptfmt.FieldFrequencyPenalty: req.FrequencyPenalty, promptfmt.FieldPresencePenalty: req.PresencePenalty} {
		if p != nil && (math.IsNaN(*p) || math.IsInf(*p, 0)) {
			bad(f, "a %s of %v (%s)", f, *p, values.CheckFloat(*p))
		}
	}
	for _, s := range req.Stop {
		if !utf8.ValidString(s) {
			bad(promptfmt.FieldStop, "a stop sequence that is not valid UTF-8")
			break
		}
	}
	for i, t := range req.Tools {
		switch {
		case t.Name == "":
			bad(promptfmt.FieldTools, "tool %d has no name", i+1).Part = i
		case !utf8.ValidString(t.Name) || !utf8.ValidString(t.Description):
			bad(promptfmt.FieldTools, "tool %d: text that is not valid UTF-8", i+1).Part = i
		case schemaProblem(t.Parameters) != "":
			bad(promptfmt.FieldTools, "tool %q: its parameters %s", t.Name, schemaProblem(t.Parameters)).Part = i
		}
	}
	if c := req.ToolChoice; c != nil && (!utf8.ValidString(c.Tool) || !utf8.ValidString(c.Mode)) {
		bad(promptfmt.FieldToolChoice, "a tool choice that is not valid UTF-8")
	}
	if o := req.Output; o != nil {
		switch {
		case !utf8.ValidString(o.Name) || !utf8.ValidString(o.Description):
			bad(promptfmt.FieldOutput, "an output name or description that is not valid UTF-8")
		case schemaProblem(o.Schema) != "":
			bad(promptfmt.FieldOutput, "an output schema that %s", schemaProblem(o.Schema))
		}
	}
	return errs
}

// wrapDepth is how deep any provider's body nests what a document gives
// it (a tool's schema under tools, a function declaration, a message's
// member under contents and parts), at most: a value is refused when it
// would put the body past the depth reading allows (values.MaxDepth), so
// that what is written reads back.
const wrapDepth = 8

// schemaProblem says what keeps a schema from being sent as JSON, "" for
// nothing.
func schemaProblem(s map[string]any) string {
	if err := homes.Check(s, wrapDepth); err != nil {
		return "holds " + err.Error()
	}
	return ""
}
