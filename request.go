package promptfmt

import (
	"maps"
	"slices"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Request is what a document asks of a model beyond its messages: the
// settings a provider's request body carries. It is the one home of these
// settings in the model, whichever format they were read from (Prompty's
// model.options, Dotprompt's config, STF's ;meta, a provider's body) and
// whichever they are written to: a format keeps in Meta only what is not
// here. Each field is left out (nil, "") when the document does not say.
type Request struct {
	Model            string   `json:"model,omitempty"`
	Temperature      *float64 `json:"temperature,omitempty"`
	TopP             *float64 `json:"topP,omitempty"`
	TopK             *int64   `json:"topK,omitempty"`
	MaxTokens        *int64   `json:"maxTokens,omitempty"` // the most tokens the answer may have
	Stop             []string `json:"stop,omitempty"`      // stop sequences
	Seed             *int64   `json:"seed,omitempty"`
	FrequencyPenalty *float64 `json:"frequencyPenalty,omitempty"`
	PresencePenalty  *float64 `json:"presencePenalty,omitempty"`
	// Tools are the functions the model may call.
	Tools []Tool `json:"tools,omitempty"`
	// ToolChoice says whether the model must call a tool, and which.
	ToolChoice *ToolChoice `json:"toolChoice,omitempty"`
	// Output is the form the answer must take: JSON matching a schema.
	Output *Output `json:"output,omitempty"`
	// Lines is the source line of each field the parser read, by the
	// field's name as [Request.Fields] gives it (see [Locate]). It is not
	// part of the value.
	Lines map[string]int `json:"-"`
}

// Tool is a function the model may call.
type Tool struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is the JSON Schema of the arguments (an object schema);
	// nil when the file names the tool and its host defines it.
	Parameters map[string]any `json:"parameters,omitempty"`
	// Strict asks the provider to hold the arguments to the schema
	// exactly (OpenAI's and Anthropic's strict).
	Strict bool `json:"strict,omitempty"`
}

// ToolChoice says whether and which tools the model must call.
type ToolChoice struct {
	// Mode is "auto" (the model decides), "none" (no tool) or "required"
	// (at least one tool; Anthropic's and Gemini's "any").
	Mode string `json:"mode"`
	// Tool, with Mode "required", is the one tool the model must call.
	Tool string `json:"tool,omitempty"`
}

// The modes of a ToolChoice.
const (
	ToolChoiceAuto     = "auto"
	ToolChoiceNone     = "none"
	ToolChoiceRequired = "required"
)

// Output asks for an answer in JSON.
type Output struct {
	Name        string `json:"name,omitempty"` // the schema's name, where a provider asks for one
	Description string `json:"description,omitempty"`
	// Schema is the JSON Schema the answer must match; nil for any JSON
	// object (a provider's JSON mode).
	Schema map[string]any `json:"schema,omitempty"`
	Strict bool           `json:"strict,omitempty"` // hold the answer to the schema exactly
}

// The names of the Request's fields, as [UnsupportedError].Key names one
// with [ThingRequest] and as Lines and JSON key them.
const (
	FieldModel            = "model"
	FieldTemperature      = "temperature"
	FieldTopP             = "topP"
	FieldTopK             = "topK"
	FieldMaxTokens        = "maxTokens"
	FieldStop             = "stop"
	FieldSeed             = "seed"
	FieldFrequencyPenalty = "frequencyPenalty"
	FieldPresencePenalty  = "presencePenalty"
	FieldTools            = "tools"
	FieldToolChoice       = "toolChoice"
	FieldOutput           = "output"
)

// Fields returns the names of the fields r sets, in the order the struct
// declares them.
func (r Request) Fields() []string {
	var out []string
	add := func(set bool, name string) {
		if set {
			out = append(out, name)
		}
	}
	add(r.Model != "", FieldModel)
	add(r.Temperature != nil, FieldTemperature)
	add(r.TopP != nil, FieldTopP)
	add(r.TopK != nil, FieldTopK)
	add(r.MaxTokens != nil, FieldMaxTokens)
	add(r.Stop != nil, FieldStop)
	add(r.Seed != nil, FieldSeed)
	add(r.FrequencyPenalty != nil, FieldFrequencyPenalty)
	add(r.PresencePenalty != nil, FieldPresencePenalty)
	add(r.Tools != nil, FieldTools)
	add(r.ToolChoice != nil, FieldToolChoice)
	add(r.Output != nil, FieldOutput)
	return out
}

// IsZero reports whether r sets no field.
func (r Request) IsZero() bool { return len(r.Fields()) == 0 }

// Clear unsets field name (a Fields name) and reports whether it was set.
func (r *Request) Clear(name string) bool {
	if !slices.Contains(r.Fields(), name) {
		return false
	}
	r.copyField(Request{}, name)
	delete(r.Lines, name)
	return true
}

// copyField sets field name of r to from's (which r then shares) and
// reports whether name is a field.
func (r *Request) copyField(from Request, name string) bool {
	switch name {
	case FieldModel:
		r.Model = from.Model
	case FieldTemperature:
		r.Temperature = from.Temperature
	case FieldTopP:
		r.TopP = from.TopP
	case FieldTopK:
		r.TopK = from.TopK
	case FieldMaxTokens:
		r.MaxTokens = from.MaxTokens
	case FieldStop:
		r.Stop = from.Stop
	case FieldSeed:
		r.Seed = from.Seed
	case FieldFrequencyPenalty:
		r.FrequencyPenalty = from.FrequencyPenalty
	case FieldPresencePenalty:
		r.PresencePenalty = from.PresencePenalty
	case FieldTools:
		r.Tools = from.Tools
	case FieldToolChoice:
		r.ToolChoice = from.ToolChoice
	case FieldOutput:
		r.Output = from.Output
	default:
		return false
	}
	return true
}

// Clone returns a deep copy of r.
func (r Request) Clone() Request {
	c := r
	c.Temperature = clonePtr(r.Temperature)
	c.TopP = clonePtr(r.TopP)
	c.TopK = clonePtr(r.TopK)
	c.MaxTokens = clonePtr(r.MaxTokens)
	c.Seed = clonePtr(r.Seed)
	c.FrequencyPenalty = clonePtr(r.FrequencyPenalty)
	c.PresencePenalty = clonePtr(r.PresencePenalty)
	c.Stop = slices.Clone(r.Stop)
	if r.Tools != nil {
		c.Tools = make([]Tool, len(r.Tools))
		for i, t := range r.Tools {
			t.Parameters = cloneMap(t.Parameters)
			c.Tools[i] = t
		}
	}
	c.ToolChoice = clonePtr(r.ToolChoice)
	if r.Output != nil {
		o := *r.Output
		o.Schema = cloneMap(o.Schema)
		c.Output = &o
	}
	c.Lines = maps.Clone(r.Lines)
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func cloneMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	return cloneValue(m).(map[string]any)
}

// EqualRequests reports whether a and b hold the same settings. Lines are
// ignored, NaN equals NaN, and schemas compare as JSON values; a nil Stop
// or Tools differs from an empty one (a body may say "stop": []).
func EqualRequests(a, b Request) bool {
	return a.Model == b.Model &&
		equalFloat(a.Temperature, b.Temperature) && equalFloat(a.TopP, b.TopP) &&
		equalPtr(a.TopK, b.TopK) && equalPtr(a.MaxTokens, b.MaxTokens) &&
		(a.Stop == nil) == (b.Stop == nil) && slices.Equal(a.Stop, b.Stop) &&
		equalPtr(a.Seed, b.Seed) &&
		equalFloat(a.FrequencyPenalty, b.FrequencyPenalty) && equalFloat(a.PresencePenalty, b.PresencePenalty) &&
		(a.Tools == nil) == (b.Tools == nil) &&
		slices.EqualFunc(a.Tools, b.Tools, func(x, y Tool) bool {
			return x.Name == y.Name && x.Description == y.Description && x.Strict == y.Strict &&
				equalSchema(x.Parameters, y.Parameters)
		}) &&
		equalPtr(a.ToolChoice, b.ToolChoice) &&
		(a.Output == nil) == (b.Output == nil) &&
		(a.Output == nil || a.Output.Name == b.Output.Name && a.Output.Description == b.Output.Description &&
			a.Output.Strict == b.Output.Strict && equalSchema(a.Output.Schema, b.Output.Schema))
}

func equalPtr[T comparable](a, b *T) bool {
	return a == nil && b == nil || a != nil && b != nil && *a == *b
}

// equalFloat is equalPtr with NaN equal to itself, as jsonvalue.Equal
// has it: a request holding NaN is the same request.
func equalFloat(a, b *float64) bool {
	return a == nil && b == nil || a != nil && b != nil && jsonvalue.Equal(*a, *b)
}

// equalSchema: nil (no schema) equals only nil. jsonvalue.Equal alone
// would tell two nil maps apart.
func equalSchema(a, b map[string]any) bool {
	return a == nil && b == nil || a != nil && b != nil && jsonvalue.Equal(a, b)
}
