package provider

import (
	"encoding/json"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// writeOpenAI writes doc as a Chat Completions request body.
func writeOpenAI(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(nameOpenAI, &s, nil, opts); err != nil {
		return err
	}
	lay := layoutOf(nameOpenAI, doc.Layout)
	m := newMapper(nameOpenAI, "OpenAI", doc.Messages)
	m.send = s.Send
	msgs := m.openAIMessages(lay.metadata)
	var body object
	req := &doc.Request
	if req.Model != "" {
		body.add("model", req.Model)
	}
	body.add("messages", list[openAIMessage](msgs))
	reqErrs := append(checkRequest(nameOpenAI, req), openAIRequest(&body, req, lay)...)
	meta, metaErrs := bodyMeta(nameOpenAI, "OpenAI", doc, openAIBodyMembers, body.ownNow(openAIOwn, lay.meta), lay.meta)
	body = append(body, meta...)
	if err := joinErrs(m.errs, reqErrs, metaErrs, promptfmt.CommentErrors(doc, nameOpenAI)); err != nil {
		return err
	}
	return writeBody(w, body)
}

// openAIRequest adds the Request's settings under OpenAI's names.
func openAIRequest(body *object, req *promptfmt.Request, lay *layout) []error {
	var errs []error
	if req.Temperature != nil {
		body.add("temperature", number(*req.Temperature))
	}
	if req.TopP != nil {
		body.add("top_p", number(*req.TopP))
	}
	if req.TopK != nil {
		errs = append(errs, requestError(nameOpenAI, promptfmt.FieldTopK, "a top-k setting (OpenAI's Chat Completions has none)"))
	}
	if req.MaxTokens != nil {
		key := "max_completion_tokens" // the current name; max_tokens when the body read had it
		if lay.maxTokens != "" {
			key = lay.maxTokens
		}
		body.add(key, *req.MaxTokens)
	}
	if req.Stop != nil {
		if lay.stopString && len(req.Stop) == 1 {
			body.add("stop", req.Stop[0])
		} else {
			body.add("stop", req.Stop)
		}
	}
	if req.Seed != nil {
		body.add("seed", *req.Seed)
	}
	if req.FrequencyPenalty != nil {
		body.add("frequency_penalty", number(*req.FrequencyPenalty))
	}
	if req.PresencePenalty != nil {
		body.add("presence_penalty", number(*req.PresencePenalty))
	}
	if req.Tools != nil {
		tools := make([]object, 0, len(req.Tools))
		for _, t := range req.Tools {
			var fn object
			fn.add("name", t.Name)
			if t.Description != "" {
				fn.add("description", t.Description)
			}
			if t.Parameters != nil {
				fn.add("parameters", t.Parameters)
			}
			if t.Strict {
				fn.add("strict", true)
			}
			tools = append(tools, object{{"type", "function"}, {"function", fn}})
		}
		body.add("tools", list[object](tools))
	}
	if c := req.ToolChoice; c != nil {
		switch {
		case c.Tool != "" && c.Mode == promptfmt.ToolChoiceRequired:
			body.add("tool_choice", object{{"type", "function"}, {"function", object{{"name", c.Tool}}}})
		case c.Tool == "" && (c.Mode == promptfmt.ToolChoiceAuto || c.Mode == promptfmt.ToolChoiceNone || c.Mode == promptfmt.ToolChoiceRequired):
			body.add("tool_choice", c.Mode)
		default:
			errs = append(errs, requestError(nameOpenAI, promptfmt.FieldToolChoice, badChoice(c)))
		}
	}
	if req.Output != nil {
		js, jsonMode, err := openAIOutput(nameOpenAI, req)
		switch {
		case err != nil:
			errs = append(errs, err)
		case jsonMode:
			body.add("response_format", object{{"type", "json_object"}})
		default:
			body.add("response_format", object{{"type", "json_schema"}, {"json_schema", js}})
		}
	}
	return errs
}

// number is a setting's float written as encoding/json writes it (0.5,
// and 1 for 1.0): the Request holds a float, whichever way it was written.
func number(f float64) json.RawMessage {
	b, err := jsonvalue.Encode(f)
	if err != nil {
		return json.RawMessage("null") // checkRequest has refused it
	}
	return b
}

// openAIOutput is req.Output as both OpenAI APIs take it: the members of
// a json_schema format (name, description, schema, strict), or jsonMode
// for JSON without a schema (json_object); err refuses what neither takes.
func openAIOutput(format string, req *promptfmt.Request) (js object, jsonMode bool, err error) {
	o := req.Output
	switch {
	case o.Schema == nil && o.Name == "" && o.Description == "" && !o.Strict:
		return nil, true, nil
	case o.Schema == nil:
		return nil, false, requestError(format, promptfmt.FieldOutput,
			"an output of JSON without a schema but with a name, description or strict (OpenAI's JSON mode has none of them)")
	case o.Name == "":
		// OpenAI needs a name; the nearest request names it "output".
		e := requestError(format, promptfmt.FieldOutput, "an output schema without a name (OpenAI's json_schema needs one)")
		near := req.Clone()
		near.Output.Name = "output"
		e.NearestRequest = &near
		return nil, false, e
	}
	js.add("name", o.Name)
	if o.Description != "" {
		js.add("description", o.Description)
	}
	js.add("schema", o.Schema)
	if o.Strict {
		js.add("strict", true)
	}
	return js, false, nil
}

// badChoice describes a ToolChoice no provider takes.
func badChoice(c *promptfmt.ToolChoice) string {
	if c.Tool != "" {
		return "a tool choice naming a tool with mode " + quote(c.Mode) + " (a tool is named with mode required)"
	}
	return "a tool choice of mode " + quote(c.Mode) + " (the modes are auto, none and required)"
}
