package provider

import (
	"bytes"
	"errors"
	"fmt"
	"iter"
	"math"
	"strconv"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// maxErrors is how many problems a reader reports before it stops: enough
// to fix a file by, never a flood.
const maxErrors = 50

// reader reads one request body into a Document: every problem is a
// ParseError at the value it is about.
type reader struct {
	format string
	src    []byte
	doc    *promptfmt.Document
	errs   []error
	// line counts lines up to offset at, so that the lines of the
	// messages, read in order, cost one pass over the text.
	line, at int
}

// parse reads src as format's body with read, which fills r.doc from
// the tree. It is every provider format's Parse.
func parse(format string, src []byte, opts []promptfmt.Option, read func(r *reader, root *jsontree.Value)) (*promptfmt.Document, error) {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(format, &s, nil, opts); err != nil {
		return nil, err
	}
	if err := diag.CheckUTF8(format, src); err != nil {
		return s.Finish(nil, err)
	}
	r := &reader{format: format, src: src, doc: &promptfmt.Document{}, line: 1}
	text := src
	if n := lines.SkipBOM(src); n > 0 {
		// Spaces in its place: positions count its bytes, as the file has them.
		r.doc.Warnings = append(r.doc.Warnings, diag.Warnf(format, src, 0, "a byte order mark before the JSON text (ignored)"))
		text = append([]byte("   ")[:n:n], src[n:]...)
	}
	root, err := jsontree.Parse(text)
	if err != nil {
		var je *jsonvalue.Error
		if errors.As(err, &je) {
			pe := diag.Errorf(format, src, je.Offset, "%s", je.Msg)
			pe.Hint = je.Hint
			return s.Finish(nil, pe)
		}
		return s.Finish(nil, err)
	}
	read(r, root)
	if len(r.errs) > 0 {
		return s.Finish(nil, errors.Join(r.errs...))
	}
	return s.Finish(r.doc, nil)
}

// errorf records a problem at v.
func (r *reader) errorf(v *jsontree.Value, format string, args ...any) {
	r.errorAt(v.Off, format, args...)
}

// errorAt records a problem at offset off.
func (r *reader) errorAt(off int, format string, args ...any) {
	if len(r.errs) < maxErrors {
		r.errs = append(r.errs, diag.Errorf(r.format, r.src, off, format, args...))
	}
}

var newline = []byte{'\n'}

// lineOf returns the 1-based line of offset off, counting on from the
// last offset asked for when off is past it.
func (r *reader) lineOf(off int) int {
	if off < r.at {
		r.line, r.at = 1, 0
	}
	seg := r.src[r.at:off]
	r.line += bytes.Count(seg, newline)
	if bytes.IndexByte(seg, '\r') >= 0 { // a CR alone ends a line too
		for i, c := range seg {
			if j := r.at + i + 1; c == '\r' && (j >= len(r.src) || r.src[j] != '\n') {
				r.line++
			}
		}
	}
	r.at = off
	return r.line
}

// is reports whether v is of kind k, else records that what should be.
func (r *reader) is(v *jsontree.Value, k jsontree.Kind, what string) bool {
	if v.Kind == k {
		return true
	}
	r.errorf(v, "%s must be %s, not %s", what, k, v.Kind)
	return false
}

// str returns v's text when v is a string, else records the problem.
func (r *reader) str(v *jsontree.Value, what string) (string, bool) {
	if !r.is(v, jsontree.String, what) {
		return "", false
	}
	return v.Str, true
}

// float reads a number field into *float64.
func (r *reader) float(v *jsontree.Value, what string) *float64 {
	if !r.is(v, jsontree.Number, what) {
		return nil
	}
	f, err := strconv.ParseFloat(v.Str, 64)
	if err != nil { // jsontree has refused what does not fit
		r.errorf(v, "%s: %v", what, err)
		return nil
	}
	return &f
}

// The members of each body that are Request settings read as they are
// (see reader.setting); the others each have a case of their own.
var (
	openAISettings = map[string]string{"temperature": promptfmt.FieldTemperature, "top_p": promptfmt.FieldTopP,
		"seed": promptfmt.FieldSeed, "frequency_penalty": promptfmt.FieldFrequencyPenalty, "presence_penalty": promptfmt.FieldPresencePenalty}
	anthropicSettings = map[string]string{"max_tokens": promptfmt.FieldMaxTokens, "temperature": promptfmt.FieldTemperature,
		"top_p": promptfmt.FieldTopP, "top_k": promptfmt.FieldTopK, "stop_sequences": promptfmt.FieldStop}
	responsesSettings = map[string]string{"temperature": promptfmt.FieldTemperature, "top_p": promptfmt.FieldTopP,
		"max_output_tokens": promptfmt.FieldMaxTokens}
	geminiSettings = map[string]string{"temperature": promptfmt.FieldTemperature, "topP": promptfmt.FieldTopP,
		"topK": promptfmt.FieldTopK, "maxOutputTokens": promptfmt.FieldMaxTokens, "stopSequences": promptfmt.FieldStop,
		"seed": promptfmt.FieldSeed, "presencePenalty": promptfmt.FieldPresencePenalty, "frequencyPenalty": promptfmt.FieldFrequencyPenalty}
)

// setting reads v, the member key, into req's numeric or stop field
// field (a provider's settings table names it).
func (r *reader) setting(req *promptfmt.Request, field string, v *jsontree.Value, key string) {
	if field == promptfmt.FieldStop {
		req.Stop, _ = r.strings(v, key)
		return
	}
	switch f, i := numeric(req, field); {
	case f != nil:
		*f = r.float(v, key)
	case i != nil:
		*i = r.integer(v, key)
	}
}

// numeric is where req keeps its numeric setting field: a float's place
// or an integer's (the other nil; both for another field).
func numeric(req *promptfmt.Request, field string) (**float64, **int64) {
	switch field {
	case promptfmt.FieldTemperature:
		return &req.Temperature, nil
	case promptfmt.FieldTopP:
		return &req.TopP, nil
	case promptfmt.FieldFrequencyPenalty:
		return &req.FrequencyPenalty, nil
	case promptfmt.FieldPresencePenalty:
		return &req.PresencePenalty, nil
	case promptfmt.FieldTopK:
		return nil, &req.TopK
	case promptfmt.FieldMaxTokens:
		return nil, &req.MaxTokens
	case promptfmt.FieldSeed:
		return nil, &req.Seed
	}
	return nil, nil
}

// integer reads an integer field into *int64.
func (r *reader) integer(v *jsontree.Value, what string) *int64 {
	if !r.is(v, jsontree.Number, what) {
		return nil
	}
	i, err := strconv.ParseInt(v.Str, 10, 64)
	if err != nil {
		// 1e3 and 2.0 are integers written as floats; the APIs take them.
		f, ferr := strconv.ParseFloat(v.Str, 64)
		if ferr != nil || f != math.Trunc(f) || math.Abs(f) > 1<<53 {
			r.errorf(v, "%s must be an integer, not %s", what, v.Str)
			return nil
		}
		i = int64(f)
	}
	return &i
}

// strings reads an array of strings.
func (r *reader) strings(v *jsontree.Value, what string) ([]string, bool) {
	if !r.is(v, jsontree.Array, what) {
		return nil, false
	}
	out := make([]string, 0, len(v.Elems))
	for i := range v.Elems {
		s, ok := r.str(&v.Elems[i], fmt.Sprintf("%s[%d]", what, i))
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// meta keeps a body member the mapping has no field for in Meta, as read.
func (r *reader) meta(m *jsontree.Member) {
	if r.doc.Meta == nil {
		r.doc.Meta = map[string]any{}
		r.doc.KeyLines = map[string]int{}
	}
	r.doc.Meta[m.Key] = m.Value.Any()
	r.doc.KeyLines[m.Key] = r.lineOf(m.KeyOff)
}

// setLine records the line of Request field f, at offset off.
func (r *reader) setLine(f string, off int) {
	if r.doc.Request.Lines == nil {
		r.doc.Request.Lines = map[string]int{}
	}
	r.doc.Request.Lines[f] = r.lineOf(off)
}

// compact returns v's text as compact JSON, as written otherwise: a tool
// call's arguments or input, kept as the model wrote them.
func (r *reader) compact(v *jsontree.Value) string {
	raw := v.Raw(r.src)
	if v.Kind != jsontree.Object && v.Kind != jsontree.Array {
		return string(raw)
	}
	return compactJSON(raw)
}

// compactJSON returns the JSON text raw without the white space between
// its tokens: what a reader keeps of a call's arguments, so what a writer
// must be given to write a body that reads back the same.
func compactJSON(raw []byte) string {
	out := make([]byte, 0, len(raw))
	in := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case in:
			out = append(out, c)
			if c == '\\' && i+1 < len(raw) {
				i++
				out = append(out, raw[i])
			} else if c == '"' {
				in = false
			}
		case c == '"':
			in = true
			out = append(out, c)
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		default:
			out = append(out, c)
		}
	}
	return string(out)
}

// role reads the role of message object v, which must be one of roles;
// known says which they are in the error for another one ("OpenAI's are
// system, ..."). ok is false when a problem was recorded.
func (r *reader) role(v *jsontree.Value, known string, roles ...string) (string, bool) {
	roleV := v.Get("role")
	if roleV == nil {
		r.errorf(v, "a message without a role")
		return "", false
	}
	role, ok := r.str(roleV, "role")
	if !ok {
		return "", false
	}
	if !contains(roles, role) {
		r.errorf(roleV, "unknown role %q (%s)", role, known)
		return "", false
	}
	return role, true
}

// typed yields the elements of the array v that are objects with a string
// "type" (what, for errors: "a content part"), with that type; any other
// element is a problem recorded, and skipped.
func (r *reader) typed(v *jsontree.Value, what string) iter.Seq2[*jsontree.Value, string] {
	return func(yield func(*jsontree.Value, string) bool) {
		for i := range v.Elems {
			p := &v.Elems[i]
			if !r.is(p, jsontree.Object, what) {
				continue
			}
			typ := p.Get("type")
			if typ == nil {
				r.errorf(p, "%s without a type", what)
				continue
			}
			t, ok := r.str(typ, "type")
			if !ok {
				continue
			}
			if !yield(p, t) {
				return
			}
		}
	}
}
