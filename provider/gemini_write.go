package provider

import (
	"fmt"
	"io"
	"math"
	"strings"

	"github.com/promptfmt/promptfmt"
)

// writeGemini writes doc as a generateContent request body.
func writeGemini(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(nameGemini, &s, nil, opts); err != nil {
		return err
	}
	lay := layoutOf(nameGemini, doc.Layout)
	g := &geminiMapper{mapper: newMapper(nameGemini, "Gemini", doc.Messages), lay: lay}
	g.send = s.Send
	system, contents := g.messages(lay.metadata)
	var body object
	req := &doc.Request
	if req.Model != "" {
		body.add("model", req.Model)
	}
	if system != nil {
		body.add(g.key("systemInstruction"), system)
	}
	if len(contents) == 1 && lay.contentsObject {
		body.add("contents", contents[0])
	} else {
		body.add("contents", contents)
	}
	meta := metaOf(nameGemini, doc, geminiBack)
	reqErrs := append(checkRequest(nameGemini, req), g.request(&body, req, meta)...)
	free := meta.free(body, geminiRequestMembers)
	rest, metaErrs := bodyMeta(nameGemini, "Gemini", &promptfmt.Document{Meta: free}, geminiBodyMembers,
		ownMembers(body, "contents", "systemInstruction", "system_instruction"), lay.meta)
	body = append(body, rest...)
	if err := joinErrs(g.errs, reqErrs, meta.errs, metaErrs, promptfmt.CommentErrors(doc, nameGemini)); err != nil {
		return err
	}
	return writeBody(w, body)
}

// geminiBack reads a member of a generateContent body alone.
var geminiBack = readBack(nameGemini, "contents", readGemini)

// request adds the Request's settings under Gemini's names: tools,
// toolConfig, and the rest in generationConfig.
func (g *geminiMapper) request(body *object, req *promptfmt.Request, meta *metaMerge) []error {
	var errs []error
	refuse := func(f, what string) *promptfmt.UnsupportedError {
		e := requestError(nameGemini, f, what)
		errs = append(errs, e)
		return e
	}
	if req.Tools != nil {
		decls := make([]object, 0, len(req.Tools))
		var strict []string // the tools held strictly
		near := req.Clone()
		for i, t := range req.Tools {
			if t.Strict {
				strict = append(strict, quote(t.Name))
				near.Tools[i].Strict = false
				continue
			}
			d := object{{"name", t.Name}}
			if t.Description != "" {
				d.add("description", t.Description)
			}
			if t.Parameters != nil {
				// Decision: the schema is JSON Schema (parametersJsonSchema),
				// unless the body read gave it in parameters.
				key := g.key("parametersJsonSchema")
				if g.lay.toolParams[t.Name] != "" {
					key = "parameters"
				}
				d.add(key, t.Parameters)
			}
			decls = append(decls, d)
		}
		if strict != nil {
			// One refusal for them all, so that its nearest request is
			// every tool changed.
			e := refuse(promptfmt.FieldTools, "tools held strictly to their schema, "+strings.Join(strict, ", ")+" (Gemini's function declarations have no strict)")
			e.Part, e.NearestRequest = -1, &near
		}
		tools := []object{}
		if len(req.Tools) > 0 {
			tools = []object{{{g.key("functionDeclarations"), decls}}}
		}
		body.add("tools", tools)
	}
	if c := req.ToolChoice; c != nil {
		mode := ""
		switch {
		case c.Mode == promptfmt.ToolChoiceAuto && c.Tool == "":
			mode = "AUTO"
		case c.Mode == promptfmt.ToolChoiceNone && c.Tool == "":
			mode = "NONE"
		case c.Mode == promptfmt.ToolChoiceRequired:
			mode = "ANY"
		default:
			refuse(promptfmt.FieldToolChoice, badChoice(c))
		}
		if mode != "" {
			if g.lay.modeLower {
				mode = strings.ToLower(mode)
			}
			fcc := object{{"mode", mode}}
			if c.Tool != "" {
				fcc.add(g.key("allowedFunctionNames"), []string{c.Tool})
			}
			key, config := meta.merge(object{{g.key("functionCallingConfig"), fcc}}, req, []string{promptfmt.FieldToolChoice},
				g.key("toolConfig"), otherSpelling(g.key("toolConfig")))
			body.add(key, config)
		}
	}
	var gen object
	var fields []string // those written into it
	add := func(name string, v any) { gen.add(g.key(name), v) }
	// The numbers are protobuf's float and int32: a value out of their
	// range is refused (the API's JSON reader refuses it, genai's types
	// cannot hold it).
	number := func(f, name string) {
		var v any
		switch fp, ip := numeric(req, f); {
		case fp != nil && *fp != nil:
			v = **fp
		case ip != nil && *ip != nil:
			v = **ip
		default:
			return
		}
		if why := geminiRange(req, f); why != "" {
			refuse(f, fmt.Sprintf("%s %v, out of the range of Gemini's %s (%s)", f, v, name, why))
			return
		}
		add(name, v)
		fields = append(fields, f)
	}
	number(promptfmt.FieldTemperature, "temperature")
	number(promptfmt.FieldTopP, "topP")
	number(promptfmt.FieldTopK, "topK")
	number(promptfmt.FieldMaxTokens, "maxOutputTokens")
	if req.Stop != nil {
		add("stopSequences", req.Stop)
		fields = append(fields, promptfmt.FieldStop)
	}
	number(promptfmt.FieldSeed, "seed")
	number(promptfmt.FieldPresencePenalty, "presencePenalty")
	number(promptfmt.FieldFrequencyPenalty, "frequencyPenalty")
	if o := req.Output; o != nil {
		near := req.Clone()
		near.Output.Name, near.Output.Description, near.Output.Strict = "", "", o.Schema != nil
		switch {
		case o.Name != "" || o.Description != "":
			refuse(promptfmt.FieldOutput, "an output schema's name or description (Gemini's structured output has neither)").NearestRequest = &near
		case o.Schema == nil && o.Strict:
			refuse(promptfmt.FieldOutput, "an output of JSON held strictly without a schema (Gemini's JSON mode has nothing to hold it to)").NearestRequest = &near
		case o.Schema != nil && !o.Strict && !g.send:
			refuse(promptfmt.FieldOutput, "an output schema not held strictly cannot be kept (Gemini's structured output always holds the answer to it)").NearestRequest = &near
		default:
			fields = append(fields, promptfmt.FieldOutput)
			add("responseMimeType", "application/json")
			if o.Schema != nil {
				// Decision: JSON Schema (responseJsonSchema), unless the
				// body read gave it in responseSchema (OpenAPI's subset).
				key := g.key("responseJsonSchema")
				if g.lay.outputSchema != "" {
					key = g.key(g.lay.outputSchema)
				}
				gen.add(key, o.Schema)
			}
		}
	}
	key, gen := meta.merge(gen, req, fields, g.key("generationConfig"), otherSpelling(g.key("generationConfig")))
	if len(gen) > 0 || meta.used[key] {
		body.add(key, gen)
	}
	return errs
}

// otherSpelling is a member name in the spelling it is not in.
func otherSpelling(k string) string {
	if c := camelKey(k); c != k {
		return c
	}
	return snakeKey(k)
}

// geminiRange names the protobuf type of req's setting field in Gemini's
// API when the value is past its range (a 32-bit float or integer: the
// API's JSON reader refuses such a value, genai's types cannot hold it),
// else "". The reader refuses what the writer would: a body
// read is a body that can be written. Infinities are checkRequest's.
func geminiRange(req *promptfmt.Request, field string) string {
	switch f, i := numeric(req, field); {
	case f != nil && *f != nil && math.Abs(**f) > math.MaxFloat32 && !math.IsInf(**f, 0):
		return "a 32-bit float"
	case i != nil && *i != nil && (**i < math.MinInt32 || **i > math.MaxInt32):
		return "a 32-bit integer"
	}
	return ""
}
