package provider

import (
	"io"
	"strings"

	"github.com/promptfmt/promptfmt"
)

// writeAnthropic writes doc as a Messages request body.
func writeAnthropic(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(nameAnthropic, &s, nil, opts); err != nil {
		return err
	}
	lay := layoutOf(nameAnthropic, doc.Layout)
	m := newMapper(nameAnthropic, "Anthropic", doc.Messages)
	m.send = s.Send
	system, turns := m.anthropicMessages(lay.metadata)
	var body object
	req := &doc.Request
	if req.Model != "" {
		body.add("model", req.Model)
	}
	if req.MaxTokens != nil {
		body.add("max_tokens", *req.MaxTokens)
	}
	if system != nil {
		body.add("system", system)
	}
	body.add("messages", turns)
	meta := metaOf(nameAnthropic, doc, anthropicBack)
	reqErrs := append(checkRequest(nameAnthropic, req), anthropicRequest(&body, req, meta, s.Send)...)
	free := meta.free(body, anthropicRequestMembers)
	rest, metaErrs := bodyMeta(nameAnthropic, "Anthropic", &promptfmt.Document{Meta: free}, anthropicBodyMembers,
		ownMembers(body, "system", "messages"), lay.meta)
	body = append(body, rest...)
	if err := joinErrs(m.errs, reqErrs, meta.errs, metaErrs, promptfmt.CommentErrors(doc, nameAnthropic)); err != nil {
		return err
	}
	return writeBody(w, body)
}

// anthropicBack reads a member of a Messages body alone.
var anthropicBack = readBack(nameAnthropic, "messages", readAnthropic)

// anthropicRequest adds the Request's settings, but model and max_tokens,
// under Anthropic's names.
func anthropicRequest(body *object, req *promptfmt.Request, meta *metaMerge, send bool) []error {
	var errs []error
	refuse := func(f, what string) *promptfmt.UnsupportedError {
		e := requestError(nameAnthropic, f, what)
		errs = append(errs, e)
		return e
	}
	if req.Temperature != nil {
		body.add("temperature", *req.Temperature)
	}
	if req.TopP != nil {
		body.add("top_p", *req.TopP)
	}
	if req.TopK != nil {
		body.add("top_k", *req.TopK)
	}
	if req.Stop != nil {
		body.add("stop_sequences", req.Stop)
	}
	if req.Seed != nil {
		refuse(promptfmt.FieldSeed, "a seed (Anthropic's Messages API has none)")
	}
	if req.FrequencyPenalty != nil {
		refuse(promptfmt.FieldFrequencyPenalty, "a frequency penalty (Anthropic's Messages API has none)")
	}
	if req.PresencePenalty != nil {
		refuse(promptfmt.FieldPresencePenalty, "a presence penalty (Anthropic's Messages API has none)")
	}
	if req.Tools != nil {
		tools := make([]object, 0, len(req.Tools))
		var bare []string // the tools without parameters
		near := req.Clone()
		for i, t := range req.Tools {
			o := object{{"name", t.Name}}
			if t.Description != "" {
				o.add("description", t.Description)
			}
			if t.Parameters == nil {
				// The API needs input_schema; the nearest tool takes an
				// object with no declared members.
				bare = append(bare, quote(t.Name))
				near.Tools[i].Parameters = map[string]any{"type": "object"}
				continue
			}
			o.add("input_schema", t.Parameters)
			if t.Strict {
				o.add("strict", true)
			}
			tools = append(tools, o)
		}
		if bare != nil {
			// One refusal for them all, so that its nearest request is
			// every tool changed.
			e := refuse(promptfmt.FieldTools, "tools without parameters, "+strings.Join(bare, ", ")+" (Anthropic's tools need an input_schema)")
			e.Part, e.NearestRequest = -1, &near
		}
		body.add("tools", tools)
	}
	if c := req.ToolChoice; c != nil {
		switch {
		case c.Tool != "" && c.Mode == promptfmt.ToolChoiceRequired:
			body.add("tool_choice", object{{"type", "tool"}, {"name", c.Tool}})
		case c.Tool == "" && c.Mode == promptfmt.ToolChoiceRequired:
			body.add("tool_choice", object{{"type", "any"}})
		case c.Tool == "" && (c.Mode == promptfmt.ToolChoiceAuto || c.Mode == promptfmt.ToolChoiceNone):
			body.add("tool_choice", object{{"type", c.Mode}})
		default:
			refuse(promptfmt.FieldToolChoice, badChoice(c))
		}
	}
	if o := req.Output; o != nil {
		near := req.Clone()
		near.Output.Name, near.Output.Description, near.Output.Strict = "", "", true
		switch {
		case o.Schema == nil:
			refuse(promptfmt.FieldOutput, "an output of JSON without a schema (Anthropic's structured output needs one)")
		case o.Name != "" || o.Description != "":
			refuse(promptfmt.FieldOutput, "an output schema's name or description (Anthropic's structured output has neither)").NearestRequest = &near
		case !o.Strict && !send:
			refuse(promptfmt.FieldOutput, "an output schema not held strictly cannot be kept (Anthropic's structured output always holds the answer to it)").NearestRequest = &near
		default:
			format := object{{"type", "json_schema"}, {"schema", o.Schema}}
			key, config := meta.merge(object{{"format", format}}, req, []string{promptfmt.FieldOutput}, "output_config")
			body.add(key, config)
		}
	}
	return errs
}
