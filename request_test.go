package promptfmt

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

func ptr[T any](v T) *T { return &v }

// fullRequest sets every field, so that a test over it sees them all.
func fullRequest() Request {
	return Request{
		Model: "gpt-4o", Temperature: ptr(0.2), TopP: ptr(0.9), TopK: ptr(int64(40)), MaxTokens: ptr(int64(512)),
		Stop: []string{"END"}, Seed: ptr(int64(7)), FrequencyPenalty: ptr(0.5), PresencePenalty: ptr(-0.5),
		Tools: []Tool{{Name: "get_weather", Description: "Weather now", Strict: true,
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"city": map[string]any{"type": "string"}}}}},
		ToolChoice: &ToolChoice{Mode: ToolChoiceRequired, Tool: "get_weather"},
		Output:     &Output{Name: "answer", Schema: map[string]any{"type": "object"}, Strict: true},
		Lines:      map[string]int{FieldModel: 2},
	}
}

func TestRequestFields(t *testing.T) {
	r := fullRequest()
	want := []string{FieldModel, FieldTemperature, FieldTopP, FieldTopK, FieldMaxTokens, FieldStop, FieldSeed,
		FieldFrequencyPenalty, FieldPresencePenalty, FieldTools, FieldToolChoice, FieldOutput}
	if got := r.Fields(); !slices.Equal(got, want) {
		t.Fatalf("Fields = %v", got)
	}
	// The names are the JSON keys, so that Key, Lines and the printed
	// document agree.
	b, err := jsonvalue.Encode(r)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := jsonvalue.Decode(b)
	for _, f := range want {
		if _, ok := m.(map[string]any)[f]; !ok {
			t.Errorf("field %s is not a JSON key of %s", f, b)
		}
	}
	if (Request{}).IsZero() != true || r.IsZero() {
		t.Error("IsZero")
	}
	for _, f := range want {
		c := r.Clone()
		if !c.Clear(f) || slices.Contains(c.Fields(), f) || len(c.Fields()) != len(want)-1 {
			t.Errorf("Clear(%s) left %v", f, c.Fields())
		}
		if c.Clear(f) {
			t.Errorf("Clear(%s) twice", f)
		}
	}
	if !EqualRequests(r, fullRequest()) {
		t.Error("the full request does not equal itself")
	}
}

func TestRequestCloneAndEqual(t *testing.T) {
	r := fullRequest()
	c := r.Clone()
	*c.Temperature = 1
	c.Stop[0] = "x"
	c.Tools[0].Parameters["type"] = "array"
	c.ToolChoice.Tool = "other"
	c.Output.Schema["type"] = "array"
	c.Lines[FieldModel] = 9
	if !EqualRequests(r, fullRequest()) || r.Lines[FieldModel] != 2 {
		t.Fatal("changing a clone changed the original")
	}
	for name, change := range map[string]func(*Request){
		"model":       func(r *Request) { r.Model = "x" },
		"temperature": func(r *Request) { *r.Temperature = 0.3 },
		"top p nil":   func(r *Request) { r.TopP = nil },
		"top k":       func(r *Request) { *r.TopK = 1 },
		"max tokens":  func(r *Request) { *r.MaxTokens = 1 },
		"stop":        func(r *Request) { r.Stop = append(r.Stop, "y") },
		"stop empty":  func(r *Request) { r.Stop = []string{} },
		"seed":        func(r *Request) { *r.Seed = 1 },
		"frequency":   func(r *Request) { *r.FrequencyPenalty = 1 },
		"presence":    func(r *Request) { *r.PresencePenalty = 1 },
		"tool name":   func(r *Request) { r.Tools[0].Name = "x" },
		"tool strict": func(r *Request) { r.Tools[0].Strict = false },
		"tool schema": func(r *Request) { r.Tools[0].Parameters = nil },
		"tools empty": func(r *Request) { r.Tools = []Tool{} },
		"choice":      func(r *Request) { r.ToolChoice.Mode = ToolChoiceAuto },
		"output name": func(r *Request) { r.Output.Name = "x" },
		"output":      func(r *Request) { r.Output.Schema = map[string]any{"type": "object", "x": int64(1)} },
	} {
		c := fullRequest()
		change(&c)
		if EqualRequests(fullRequest(), c) || EqualRequests(c, fullRequest()) {
			t.Errorf("%s: still equal", name)
		}
	}
	c = fullRequest()
	c.Tools[0].Parameters, c.Output.Schema = nil, nil
	if d := c.Clone(); !EqualRequests(c, d) {
		t.Error("a request without schemas differs from its clone")
	}
	c = fullRequest()
	c.Lines = nil
	if !EqualRequests(fullRequest(), c) {
		t.Error("Lines are part of the value")
	}
	if nan := (Request{Temperature: ptr(math.NaN())}); !EqualRequests(nan, nan.Clone()) {
		t.Error("NaN is not the same request")
	}
	// No schema equals no schema (jsonvalue.Equal tells nil maps apart).
	x, y := Request{Tools: []Tool{{Name: "f"}}, Output: &Output{}}, Request{Tools: []Tool{{Name: "f"}}, Output: &Output{}}
	if !EqualRequests(x, y) {
		t.Error("a tool or output without a schema differs from itself")
	}
	y.Output.Schema = map[string]any{}
	if EqualRequests(x, y) {
		t.Error("no schema equals an empty one")
	}
	// Without schemas: a tool its host defines, JSON mode.
	bare := Request{Tools: []Tool{{Name: "f"}}, Output: &Output{}}
	if !EqualRequests(bare, bare.Clone()) {
		t.Error("a request without schemas does not equal itself")
	}
	a, b := &Document{Request: fullRequest()}, &Document{}
	if Equal(a, b) {
		t.Error("Equal ignores the Request")
	}
}

// A refused Request field is dropped by Adapt, one tool when only it is
// refused, or made the nearest request the writer offers; Locate points
// at the field's line.
func TestAdaptRequest(t *testing.T) {
	doc := &Document{Request: fullRequest(), Messages: []Message{NewMessage("user", "hi")}}
	doc.Request.Tools = append(doc.Request.Tools, Tool{Name: "other"})
	doc.Request.Lines = map[string]int{FieldTemperature: 3, FieldTools: 5}
	named := fullRequest()
	named.Output.Name = "output"
	check := func(d *Document) error {
		var errs []error
		if d.Request.Temperature != nil {
			errs = append(errs, &UnsupportedError{Format: "x", Index: -1, Thing: ThingRequest, Key: FieldTemperature, What: "a temperature"})
		}
		for i, tool := range d.Request.Tools {
			if tool.Name == "other" {
				errs = append(errs, &UnsupportedError{Format: "x", Index: -1, Thing: ThingRequest, Key: FieldTools, Part: i, What: "tool other"})
			}
		}
		if d.Request.Output != nil && d.Request.Output.Name != "output" {
			n := d.Request.Clone()
			n.Output.Name = "output"
			errs = append(errs, &UnsupportedError{Format: "x", Index: -1, Thing: ThingRequest, Key: FieldOutput, What: "a name", NearestRequest: &n})
		}
		return errors.Join(errs...)
	}
	got, changes, err := Adapt(doc, check)
	if err != nil {
		t.Fatal(err)
	}
	if got.Request.Temperature != nil || len(got.Request.Tools) != 1 || got.Request.Output.Name != "output" || got.Request.Model != "gpt-4o" {
		t.Errorf("adapted request %+v", got.Request)
	}
	if len(doc.Request.Tools) != 2 || doc.Request.Temperature == nil {
		t.Error("Adapt changed the original")
	}
	var text []string
	for _, c := range changes {
		text = append(text, fmt.Sprintf("%d: %s", c.Line, c))
	}
	joined := strings.Join(text, "\n")
	if len(changes) != 3 {
		t.Errorf("changes:\n%s", joined)
	}
	for _, want := range []string{"3: document: dropped the request's temperature", "5: document: dropped the tool \"other\"", "changed the request's output"} {
		if !strings.Contains(joined, want) {
			t.Errorf("changes %q lack %q", joined, want)
		}
	}
}
