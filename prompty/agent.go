package prompty

import (
	"encoding/json"
	"io/fs"
	"maps"
	"slices"

	"github.com/promptfmt/promptfmt"
)

// Agent is a loaded .prompty file: its front matter as typed fields (the
// keys of sections 2.3 to 2.9 of the Prompty specification) and its body,
// the template, as Instructions. Keys this type does not know are kept in
// Extra, never an error.
type Agent struct {
	Name        string
	DisplayName string
	Description string
	Metadata    map[string]any
	Model       *Model // nil when the file has no model
	Inputs      []Property
	Outputs     []Property
	Tools       []map[string]any // as written (after ${...} references)
	Template    Template
	// Instructions is the body after the front matter, without its leading
	// blank lines and trailing white space.
	Instructions string
	// Extra holds the top-level keys not named above.
	Extra map[string]any

	// File is the file's name: LoadFile's name, or promptfmt.File's.
	// Errors and warnings about the agent carry it.
	File string
	// InstructionsLine is the line of the file where Instructions start.
	InstructionsLine int
	// Warnings are lines of the template that look like role markers but
	// are not (they stay text), positioned in the file.
	Warnings []promptfmt.Warning

	instructionsOffset int    // byte offset of Instructions in the file
	fsys               fs.FS  // where local media inputs are read (nil: nowhere)
	dir                string // where in fsys their relative names start
}

// Model is the model section: a string is shorthand for {id: <string>}.
type Model struct {
	ID       string
	Provider string
	// APIType is chat (the default when empty), embedding, image or
	// responses.
	APIType    string
	Connection map[string]any // by kind: key, reference, remote, ...
	Options    *ModelOptions
	Extra      map[string]any
}

// ModelOptions are the model parameters of section 2.6; a nil field was
// not given.
type ModelOptions struct {
	Temperature            *float64
	MaxOutputTokens        *int64
	TopP                   *float64
	TopK                   *int64
	FrequencyPenalty       *float64
	PresencePenalty        *float64
	Seed                   *int64
	StopSequences          []string
	AllowMultipleToolCalls *bool
	AdditionalProperties   map[string]any
	Extra                  map[string]any
}

// The property kinds of section 2.7. The rich kinds never reach a
// template: Render puts a placeholder in their place.
const (
	KindString  = "string"
	KindInteger = "integer"
	KindFloat   = "float"
	KindBoolean = "boolean"
	KindArray   = "array"
	KindObject  = "object"
	KindThread  = "thread"
	KindImage   = "image"
	KindFile    = "file"
	KindAudio   = "audio"
)

// isRich reports whether kind is thread, image, file or audio.
func isRich(kind string) bool {
	return kind == KindThread || kind == KindImage || kind == KindFile || kind == KindAudio
}

// Property is one input or output.
type Property struct {
	Name        string
	Kind        string
	Description string
	Required    bool
	Default     any
	HasDefault  bool // Default was given (it may be null)
	Example     any  // documentation only: never used as a value
	EnumValues  []any
	Extra       map[string]any
}

// Template selects the template engine and the parser.
type Template struct {
	Format        string // jinja2 (the default) or mustache
	Strict        *bool  // nil means strict
	FormatOptions map[string]any
	Parser        string // prompty (the default)
	ParserOptions map[string]any
}

// IsStrict reports whether rendering uses strict mode: on unless the file
// says strict: false (as upstream's Python and TypeScript runtimes do).
func (t Template) IsStrict() bool { return t.Strict == nil || *t.Strict }

// MarshalJSON writes the agent in the shape of the specification's data
// model (the shape upstream's conformance vectors use): camelCase keys,
// kind "prompt", inputs and outputs as lists, absent sections left out,
// the keys kept in Extra fields written back beside the others. File and
// Warnings are not part of it.
func (a Agent) MarshalJSON() ([]byte, error) { return json.Marshal(agentMap(&a)) }

// agentMap returns the agent as JSON-like values, as MarshalJSON writes it.
func agentMap(a *Agent) map[string]any {
	m := map[string]any{}
	maps.Copy(m, a.Extra)
	m["kind"] = "prompt"
	put(m, "name", a.Name)
	put(m, "displayName", a.DisplayName)
	put(m, "description", a.Description)
	if a.Metadata != nil {
		m["metadata"] = a.Metadata
	}
	if a.Model != nil {
		m["model"] = modelMap(a.Model)
	}
	if a.Inputs != nil {
		m["inputs"] = propertyMaps(a.Inputs)
	}
	if a.Outputs != nil {
		m["outputs"] = propertyMaps(a.Outputs)
	}
	if a.Tools != nil {
		m["tools"] = anySlice(a.Tools)
	}
	m["template"] = templateMap(a.Template)
	m["instructions"] = a.Instructions
	return m
}

func put(m map[string]any, k, v string) {
	if v != "" {
		m[k] = v
	}
}

// modelMap returns the model as JSON-like values.
func modelMap(md *Model) map[string]any {
	m := map[string]any{}
	maps.Copy(m, md.Extra)
	put(m, "id", md.ID)
	put(m, "provider", md.Provider)
	put(m, "apiType", md.APIType)
	if md.Connection != nil {
		m["connection"] = md.Connection
	}
	if o := md.Options; o != nil {
		om := map[string]any{}
		maps.Copy(om, o.Extra)
		for k, v := range map[string]*float64{"temperature": o.Temperature, "topP": o.TopP,
			"frequencyPenalty": o.FrequencyPenalty, "presencePenalty": o.PresencePenalty} {
			if v != nil {
				om[k] = *v
			}
		}
		for k, v := range map[string]*int64{"maxOutputTokens": o.MaxOutputTokens, "topK": o.TopK, "seed": o.Seed} {
			if v != nil {
				om[k] = *v
			}
		}
		if o.StopSequences != nil {
			om["stopSequences"] = anySlice(o.StopSequences)
		}
		if o.AllowMultipleToolCalls != nil {
			om["allowMultipleToolCalls"] = *o.AllowMultipleToolCalls
		}
		if o.AdditionalProperties != nil {
			om["additionalProperties"] = o.AdditionalProperties
		}
		m["options"] = om
	}
	return m
}

func anySlice[T any](s []T) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// propertyMap returns the property as JSON-like values, name included.
func propertyMap(p *Property) map[string]any {
	m := map[string]any{}
	maps.Copy(m, p.Extra)
	put(m, "name", p.Name)
	put(m, "kind", p.Kind)
	put(m, "description", p.Description)
	if p.Required {
		m["required"] = true
	}
	if p.HasDefault {
		m["default"] = p.Default
	}
	if p.Example != nil {
		m["example"] = p.Example
	}
	if p.EnumValues != nil {
		m["enumValues"] = p.EnumValues
	}
	return m
}

func propertyMaps(ps []Property) []any {
	out := make([]any, len(ps))
	for i := range ps {
		out[i] = propertyMap(&ps[i])
	}
	return out
}

// templateMap returns the template section in its full form.
func templateMap(t Template) map[string]any {
	format := map[string]any{"kind": t.Format}
	if t.Strict != nil {
		format["strict"] = *t.Strict
	}
	if t.FormatOptions != nil {
		format["options"] = t.FormatOptions
	}
	parser := map[string]any{"kind": t.Parser}
	if t.ParserOptions != nil {
		parser["options"] = t.ParserOptions
	}
	return map[string]any{"format": format, "parser": parser}
}

// Input returns the input property named name.
func (a Agent) Input(name string) (*Property, bool) {
	i := slices.IndexFunc(a.Inputs, func(p Property) bool { return p.Name == name })
	if i < 0 {
		return nil, false
	}
	return &a.Inputs[i], true
}
