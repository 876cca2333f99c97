package provider

import (
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
)

// readResponses reads a Responses request body: instructions, then the
// input items, as messages; the settings into the Request; every other
// member into Meta.
func readResponses(r *reader, root *jsontree.Value) {
	rl := &responsesLayout{}
	lay := &layout{format: nameOpenAIResponses, responses: rl}
	r.doc.Layout = lay
	if !r.is(root, jsontree.Object, "a Responses body") {
		return
	}
	ins := root.Get("instructions")
	if root.Get("input") == nil && ins == nil {
		r.errorf(root, "a Responses body needs input or instructions")
	}
	r.doc.Messages = []promptfmt.Message{}
	if ins != nil && ins.Kind == jsontree.String {
		// Decision 5 of the mapping: the API's "system (or developer)
		// message", first; its line is set in order below.
		r.doc.Messages = append(r.doc.Messages, promptfmt.NewMessage("system", ins.Str))
		rl.instructions = true
	}
	req := &r.doc.Request
	for i := range root.Members {
		m := &root.Members[i]
		v := &m.Value
		if v.Kind == jsontree.Null && m.Key != "input" {
			r.keep(m, lay) // a setting left to the API's default, as written
			continue
		}
		field := ""
		switch m.Key {
		case "instructions":
			if _, ok := r.str(v, "instructions"); ok {
				r.doc.Messages[0].Line = r.lineOf(v.Off)
			}
			continue
		case "input":
			r.responsesInput(v, lay)
			continue
		case "model":
			req.Model, _ = r.str(v, "model")
			field = promptfmt.FieldModel
		case "tools":
			tools, loose, ok := responsesTools(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.Tools, rl.looseTools, field = tools, loose, promptfmt.FieldTools
		case "tool_choice":
			choice, ok := responsesToolChoice(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.ToolChoice, field = choice, promptfmt.FieldToolChoice
		case "text":
			out, ok := responsesText(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.Output, field = out, promptfmt.FieldOutput
		default:
			if field = responsesSettings[m.Key]; field == "" {
				r.keep(m, lay)
				continue
			}
			r.setting(req, field, v, m.Key)
		}
		r.setLine(field, m.KeyOff)
	}
}

// responsesTools reads tools when each is a function tool the model holds
// exactly; ok is false for any other list (built-in tools, a null
// strict), which Meta keeps as written. loose are the tools without
// "strict": the API makes a function strict unless it says strict: false.
func responsesTools(v *jsontree.Value) (tools []promptfmt.Tool, loose map[int]bool, ok bool) {
	if v.Kind != jsontree.Array {
		return nil, nil, false
	}
	tools = make([]promptfmt.Tool, 0, len(v.Elems))
	for i := range v.Elems {
		t := &v.Elems[i]
		if t.Kind != jsontree.Object || stringMember(t, "type") != "function" ||
			!onlyMembers(t, "type", "name", "description", "parameters", "strict") {
			return nil, nil, false
		}
		tool, ok := functionTool(t, "parameters")
		if !ok {
			return nil, nil, false
		}
		switch s := t.Get("strict"); {
		case s == nil:
			tool.Strict = true
			if loose == nil {
				loose = map[int]bool{}
			}
			loose[i] = true
		case s.Kind != jsontree.Bool:
			return nil, nil, false
		default:
			tool.Strict = s.Str == "true"
		}
		tools = append(tools, tool)
	}
	return tools, loose, true
}

// responsesToolChoice reads "auto", "none", "required" or a named
// function ({"type": "function", "name"}).
func responsesToolChoice(v *jsontree.Value) (*promptfmt.ToolChoice, bool) {
	switch {
	case v.Kind == jsontree.String && (v.Str == "auto" || v.Str == "none" || v.Str == "required"):
		return &promptfmt.ToolChoice{Mode: v.Str}, true
	case v.Kind == jsontree.Object && onlyMembers(v, "type", "name") && stringMember(v, "type") == "function" &&
		stringMember(v, "name") != "":
		return &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired, Tool: stringMember(v, "name")}, true
	}
	return nil, false
}

// responsesText reads text: {format: a json_schema or json_object format}
// and nothing else (a verbosity, the plain text format: Meta keeps them).
func responsesText(v *jsontree.Value) (*promptfmt.Output, bool) {
	if v.Kind != jsontree.Object || !onlyMembers(v, "format") {
		return nil, false
	}
	f := v.Get("format")
	if f == nil || f.Kind != jsontree.Object {
		return nil, false
	}
	switch stringMember(f, "type") {
	case "json_object":
		if onlyMembers(f, "type") {
			return &promptfmt.Output{}, true
		}
	case "json_schema":
		return jsonSchemaOutput(f, "type")
	}
	return nil, false
}

// itemReader is the state of reading the input items: the message a
// function_call joins.
type itemReader struct {
	r   *reader
	lay *layout
	// join is the index of the assistant message that the item before
	// made (a message item or a function_call), else -1.
	join int
}

// responsesInput reads the input: a string (one user message) or items.
func (r *reader) responsesInput(v *jsontree.Value, lay *layout) {
	switch v.Kind {
	case jsontree.String:
		lay.responses.input = "string"
		msg := promptfmt.NewMessage("user", v.Str)
		msg.Line = r.lineOf(v.Off)
		r.doc.Messages = append(r.doc.Messages, msg)
		return
	case jsontree.Array:
		lay.responses.input = "array"
	default:
		r.errorf(v, "input must be a string or an array of items, not %s", v.Kind)
		return
	}
	r.doc.Messages = slices.Grow(r.doc.Messages, len(v.Elems))
	ir := itemReader{r: r, lay: lay, join: -1}
	for i := range v.Elems {
		ir.item(&v.Elems[i])
	}
}

// item reads one input item.
func (ir *itemReader) item(v *jsontree.Value) {
	r := ir.r
	join := ir.join
	ir.join = -1
	if !r.is(v, jsontree.Object, "an input item") {
		return
	}
	typ := v.Get("type")
	if typ == nil {
		if v.Get("role") == nil {
			r.errorf(v, "an input item without a type or role")
			return
		}
		ir.message(v, false)
		return
	}
	t, ok := r.str(typ, "type")
	if !ok {
		return
	}
	switch t {
	case "message":
		ir.message(v, true)
	case "function_call":
		ir.call(v, join)
	case "function_call_output":
		ir.output(v)
	case "reasoning":
		ir.reasoning(v)
	default:
		r.errorf(typ, "unknown input item type %q (promptfmt reads message, function_call, function_call_output and reasoning items)", t)
	}
}

// message reads a message item; typed is whether it says "type": "message".
func (ir *itemReader) message(v *jsontree.Value, typed bool) {
	r, rl := ir.r, ir.lay.responses
	role, ok := r.role(v, "the Responses API's are user, assistant, system and developer", "user", "assistant", "system", "developer")
	if !ok {
		return
	}
	i := len(r.doc.Messages)
	msg := promptfmt.Message{Role: role, Line: r.lineOf(v.Off)}
	var content *jsontree.Value
	for k := range v.Members {
		m := &v.Members[k]
		switch m.Key {
		case "type", "role":
		case "content":
			content = &m.Value
		default:
			r.metadata(&msg, m.Key, &m.Value, ir.lay)
		}
	}
	if content != nil {
		ir.content(content, &msg, i)
	}
	if len(msg.Content) == 0 {
		msg.Content = []promptfmt.ContentPart{promptfmt.Text("")}
	}
	if typed {
		rl.typed = setIndex(rl.typed, i)
	}
	r.doc.Messages = append(r.doc.Messages, msg)
	if role == "assistant" {
		ir.join = i
	}
}

func setIndex(set map[int]bool, i int) map[int]bool {
	if set == nil {
		set = map[int]bool{}
	}
	set[i] = true
	return set
}

// textType is the type of a text part in a message of role: what the API
// takes (output_text is what an assistant wrote).
func textType(role string) string {
	if role == "assistant" {
		return "output_text"
	}
	return "input_text"
}

// content reads a message item's content (message i): a string, or parts.
func (ir *itemReader) content(v *jsontree.Value, msg *promptfmt.Message, i int) {
	r, rl := ir.r, ir.lay.responses
	switch v.Kind {
	case jsontree.String:
		msg.Content = append(msg.Content, promptfmt.Text(v.Str))
		return
	case jsontree.Array:
		msg.Content = make([]promptfmt.ContentPart, 0, len(v.Elems))
	default:
		r.errorf(v, "content must be a string or an array of parts, not %s", v.Kind)
		return
	}
	for p, t := range r.typed(v, "a content part") {
		typ := p.Get("type")
		j := len(msg.Content)
		var part promptfmt.ContentPart
		var own []string
		switch t {
		case "input_text", "output_text":
			own = []string{"type", "text"}
			tv := p.Get("text")
			if tv == nil {
				r.errorf(p, "a text part without text")
				continue
			}
			s, ok := r.str(tv, "text")
			if !ok {
				continue
			}
			part = promptfmt.Text(s)
			if t != textType(msg.Role) {
				if rl.textTypes == nil {
					rl.textTypes = map[[2]int]string{}
				}
				rl.textTypes[[2]int{i, j}] = t
			}
		case "input_image", "input_file":
			if msg.Role == "assistant" {
				r.errorf(typ, "an %s part in an assistant message (the Responses API takes media in user, system and developer messages)", t)
				continue
			}
			var ok bool
			if part, own, ok = r.responsesMedia(p, t); !ok {
				continue
			}
		case "refusal":
			r.errorf(typ, "a refusal part (the model holds no refusals)")
			continue
		default:
			r.errorf(typ, "unknown content part type %q (the Responses API's are input_text, output_text, input_image and input_file)", t)
			continue
		}
		for n := range p.Members {
			if mk := p.Members[n].Key; !contains(own, mk) {
				r.metadata(msg, partKey(j, mk), &p.Members[n].Value, ir.lay)
			}
		}
		msg.Content = append(msg.Content, part)
	}
	if len(v.Elems) == 1 && len(msg.Content) == 1 && msg.Content[0].Kind == promptfmt.KindText {
		rl.arrays = setIndex(rl.arrays, i)
	}
}

// optString reads member key of v, a string or absent (""); null is
// absent too, as the API takes it. ok is false for another type.
func (r *reader) optString(v *jsontree.Value, key, what string) (string, bool) {
	m := v.Get(key)
	if m == nil || m.Kind == jsontree.Null {
		return "", true
	}
	return r.str(m, what+"."+key)
}

// responsesMedia reads an input_image or input_file part. own are the
// members it read, the others being kept in metadata.
func (r *reader) responsesMedia(p *jsontree.Value, t string) (promptfmt.ContentPart, []string, bool) {
	var names []string
	if t == "input_image" {
		names = []string{"image_url", "file_id", "detail"}
	} else {
		names = []string{"file_data", "file_url", "file_id", "filename", "detail"}
	}
	vals := make(map[string]string, len(names))
	for _, n := range names {
		s, ok := r.optString(p, n, t)
		if !ok {
			return promptfmt.ContentPart{}, nil, false
		}
		vals[n] = s
	}
	var sources []string // the members that give the file, set
	for _, n := range names[:len(names)-1] {
		if n != "filename" && vals[n] != "" {
			sources = append(sources, n)
		}
	}
	switch {
	case len(sources) == 0 && t == "input_image":
		r.errorf(p, "an input_image part with neither image_url nor file_id")
		return promptfmt.ContentPart{}, nil, false
	case len(sources) == 0:
		r.errorf(p, "an input_file part with none of file_data, file_url and file_id")
		return promptfmt.ContentPart{}, nil, false
	case len(sources) > 1:
		r.errorf(p, "an %s part with both %s and %s (give one)", t, sources[0], sources[1])
		return promptfmt.ContentPart{}, nil, false
	}
	part := promptfmt.ContentPart{Kind: promptfmt.KindImage, Detail: vals["detail"]}
	if t == "input_file" {
		part.Kind, part.Filename = promptfmt.KindFile, vals["filename"]
	}
	src := sources[0]
	if src == "file_id" {
		part.ID = vals[src]
	} else {
		// What the value is decides where it is written back: a data: URI
		// or base64 data is file_data (an image's image_url), any other
		// URL image_url or file_url.
		part.Value = vals[src]
		scheme, _, isURL := cutScheme(part.Value)
		data := !isURL || strings.EqualFold(scheme, "data")
		switch {
		case src == "file_data" && !data:
			r.errorf(p.Get(src), "file_data holds a URL (give it as file_url)")
			return promptfmt.ContentPart{}, nil, false
		case src == "file_url" && data:
			r.errorf(p.Get(src), "file_url holds no URL (give data as file_data)")
			return promptfmt.ContentPart{}, nil, false
		case src == "image_url" && !isURL:
			r.errorf(p.Get(src), "image_url holds no URL (give data as a data: URI)")
			return promptfmt.ContentPart{}, nil, false
		}
		if data {
			md, problem := readMedia(&part)
			if problem == "" && md.mediaType == "" && part.Kind == promptfmt.KindImage {
				problem = "a data: URI without a media type"
			}
			if problem != "" {
				r.errorf(p.Get(src), "%s: %s", src, problem)
				return promptfmt.ContentPart{}, nil, false
			}
		}
	}
	own := []string{"type"}
	for _, n := range names {
		if m := p.Get(n); m != nil && m.Kind != jsontree.Null {
			own = append(own, n)
		}
	}
	return part, own, true
}

// call reads a function_call: a tool_call part of the assistant message
// the item before made (join), else of a new one.
func (ir *itemReader) call(v *jsontree.Value, join int) {
	r := ir.r
	id, ok1 := r.requiredString(v, "call_id", "a function_call")
	name, ok2 := r.requiredString(v, "name", "a function_call")
	args := v.Get("arguments")
	if args == nil {
		r.errorf(v, "a function_call without arguments")
		return
	}
	a, ok3 := r.str(args, "arguments")
	if !ok1 || !ok2 || !ok3 {
		return
	}
	if join < 0 {
		join = len(r.doc.Messages)
		r.doc.Messages = append(r.doc.Messages, promptfmt.Message{Role: "assistant", Line: r.lineOf(v.Off)})
	}
	msg := &r.doc.Messages[join]
	j := len(msg.Content)
	for k := range v.Members {
		if mk := v.Members[k].Key; !contains(responsesCallOwn, mk) {
			r.metadata(msg, partKey(j, mk), &v.Members[k].Value, ir.lay)
		}
	}
	msg.Content = append(msg.Content, promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: a, ID: id, ToolName: name})
	ir.join = join
}

// output reads a function_call_output: a tool message of one tool_result.
func (ir *itemReader) output(v *jsontree.Value) {
	r := ir.r
	id, ok := r.requiredString(v, "call_id", "a function_call_output")
	if !ok {
		return
	}
	out := v.Get("output")
	switch {
	case out == nil:
		r.errorf(v, "a function_call_output without output")
		return
	case out.Kind == jsontree.Array:
		r.errorf(out, "a function_call_output whose output is an array of content (the model's tool results are text)")
		return
	case out.Kind != jsontree.String:
		r.errorf(out, "output must be a string, not %s", out.Kind)
		return
	}
	name, ok := r.optString(v, "name", "a function_call_output")
	if !ok {
		return
	}
	msg := promptfmt.Message{Role: "tool", Line: r.lineOf(v.Off),
		Content: []promptfmt.ContentPart{{Kind: promptfmt.KindToolResult, Value: out.Str, ID: id, ToolName: name}}}
	for k := range v.Members {
		m := &v.Members[k]
		if !responsesOutputOwn[m.Key] && (m.Key != "name" || m.Value.Kind == jsontree.Null) {
			r.metadata(&msg, m.Key, &m.Value, ir.lay) // a null name too, as written
		}
	}
	r.doc.Messages = append(r.doc.Messages, msg)
}

// reasoning reads a reasoning item: a hidden message (never sent to a
// model) holding the item's members in its metadata.
func (ir *itemReader) reasoning(v *jsontree.Value) {
	r := ir.r
	msg := promptfmt.Message{Role: reasoningRole, Line: r.lineOf(v.Off), Content: []promptfmt.ContentPart{promptfmt.Text("")}}
	for k := range v.Members {
		if m := &v.Members[k]; m.Key != "type" {
			r.metadata(&msg, m.Key, &m.Value, ir.lay)
		}
	}
	r.doc.Messages = append(r.doc.Messages, msg)
}
