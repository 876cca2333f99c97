package provider

import (
	"fmt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/wire"
)

// The members of a Chat Completions request body (wire.OpenAIBody: the
// official SDK's, checked by the test module sdktest). Those the Request
// holds are read into it; the rest are kept in Meta.
var openAIBodyMembers = keys(wire.OpenAIBody...)

// openAIOwn are the body members the mapping writes from the messages and
// the Request: Meta may not hold them.
var openAIOwn = keys("messages", "model", "temperature", "top_p", "max_completion_tokens", "max_tokens",
	"stop", "seed", "frequency_penalty", "presence_penalty", "tools", "tool_choice", "response_format")

// The members of a message beyond role, name, content, tool_calls and
// tool_call_id (wire.OpenAIMessage). Kept in metadata, written back.
var openAIMessageMembers = keys(wire.OpenAIMessage...)

var openAIMessageOwn = keys("role", "name", "content", "tool_calls", "tool_call_id")

// readOpenAI reads a Chat Completions body: an object with messages, or a
// bare array of messages.
func readOpenAI(r *reader, root *jsontree.Value) {
	lay := &layout{format: nameOpenAI}
	r.doc.Layout = lay
	if root.Kind == jsontree.Array {
		r.openAIMessages(root, lay)
		return
	}
	if !r.is(root, jsontree.Object, "a Chat Completions body") {
		return
	}
	if root.Get("messages") == nil {
		r.errorf(root, "a Chat Completions body needs messages")
	}
	req := &r.doc.Request
	for i := range root.Members {
		m := &root.Members[i]
		v := &m.Value
		field := ""
		switch m.Key {
		case "messages":
			r.openAIMessages(v, lay)
		case "model":
			req.Model, _ = r.str(v, "model")
			field = promptfmt.FieldModel
		case "max_completion_tokens", "max_tokens":
			if lay.maxTokens != "" {
				r.errorAt(m.KeyOff, "both max_tokens and max_completion_tokens (give one)")
				continue
			}
			req.MaxTokens, field = r.integer(v, m.Key), promptfmt.FieldMaxTokens
			lay.maxTokens = m.Key
		case "stop":
			req.Stop, lay.stopString = r.stop(v)
			field = promptfmt.FieldStop
		case "tools":
			tools, ok := r.openAITools(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.Tools, field = tools, promptfmt.FieldTools
		case "tool_choice":
			choice, ok := openAIToolChoice(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.ToolChoice, field = choice, promptfmt.FieldToolChoice
		case "response_format":
			out, ok := openAIResponseFormat(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.Output, field = out, promptfmt.FieldOutput
		default:
			if field = openAISettings[m.Key]; field == "" {
				r.keep(m, lay)
				continue
			}
			r.setting(req, field, v, m.Key)
		}
		if field != "" {
			r.setLine(field, m.KeyOff)
		}
	}
}

// keep puts a body member in Meta and notes it was read.
func (r *reader) keep(m *jsontree.Member, lay *layout) {
	r.meta(m)
	lay.readMeta(m.Key)
}

// stop reads a stop sequence or list of them.
func (r *reader) stop(v *jsontree.Value) ([]string, bool) {
	if v.Kind == jsontree.String {
		return []string{v.Str}, true
	}
	s, _ := r.strings(v, "stop")
	return s, false
}

// openAITools reads tools when each is a function tool the model holds
// exactly; ok is false for any other list, which Meta keeps as written.
func (r *reader) openAITools(v *jsontree.Value) ([]promptfmt.Tool, bool) {
	if v.Kind != jsontree.Array {
		return nil, false
	}
	tools := make([]promptfmt.Tool, 0, len(v.Elems))
	for i := range v.Elems {
		t := &v.Elems[i]
		if t.Kind != jsontree.Object || !onlyMembers(t, "type", "function") || stringMember(t, "type") != "function" {
			return nil, false
		}
		fn := t.Get("function")
		if fn == nil || fn.Kind != jsontree.Object || !onlyMembers(fn, "name", "description", "parameters", "strict") {
			return nil, false
		}
		tool, ok := functionTool(fn, "parameters")
		if !ok {
			return nil, false
		}
		if s := fn.Get("strict"); s != nil {
			if s.Kind != jsontree.Bool || s.Str != "true" {
				return nil, false // strict: false or null is not the model's zero value as written
			}
			tool.Strict = true
		}
		tools = append(tools, tool)
	}
	return tools, true
}

// functionTool reads a function's name, description and the schema under
// key params; ok is false when they are not of the types the model holds.
func functionTool(fn *jsontree.Value, params string) (promptfmt.Tool, bool) {
	name := fn.Get("name")
	if name == nil || name.Kind != jsontree.String {
		return promptfmt.Tool{}, false
	}
	t := promptfmt.Tool{Name: name.Str}
	if d := fn.Get("description"); d != nil {
		if d.Kind != jsontree.String || d.Str == "" {
			return promptfmt.Tool{}, false
		}
		t.Description = d.Str
	}
	if p := fn.Get(params); p != nil {
		if p.Kind != jsontree.Object {
			return promptfmt.Tool{}, false
		}
		t.Parameters = p.Any().(map[string]any)
	}
	return t, true
}

// openAIToolChoice reads "auto", "none", "required" or a named function.
func openAIToolChoice(v *jsontree.Value) (*promptfmt.ToolChoice, bool) {
	switch {
	case v.Kind == jsontree.String && (v.Str == "auto" || v.Str == "none" || v.Str == "required"):
		return &promptfmt.ToolChoice{Mode: v.Str}, true
	case v.Kind == jsontree.Object && onlyMembers(v, "type", "function") && stringMember(v, "type") == "function":
		fn := v.Get("function")
		if fn != nil && fn.Kind == jsontree.Object && onlyMembers(fn, "name") && stringMember(fn, "name") != "" {
			return &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired, Tool: stringMember(fn, "name")}, true
		}
	}
	return nil, false
}

// openAIResponseFormat reads a json_schema or json_object format.
func openAIResponseFormat(v *jsontree.Value) (*promptfmt.Output, bool) {
	if v.Kind != jsontree.Object {
		return nil, false
	}
	switch stringMember(v, "type") {
	case "json_object":
		if onlyMembers(v, "type") {
			return &promptfmt.Output{}, true
		}
	case "json_schema":
		js := v.Get("json_schema")
		if !onlyMembers(v, "type", "json_schema") || js == nil || js.Kind != jsontree.Object {
			return nil, false
		}
		return jsonSchemaOutput(js)
	}
	return nil, false
}

// jsonSchemaOutput reads a JSON schema format's name, description, schema
// and strict, as both OpenAI APIs write them (Chat's json_schema object,
// Responses' text.format beside its type, one of also): ok is false for
// any other member, or values the Output does not hold exactly.
func jsonSchemaOutput(js *jsontree.Value, also ...string) (*promptfmt.Output, bool) {
	if !onlyMembers(js, append([]string{"name", "description", "schema", "strict"}, also...)...) {
		return nil, false
	}
	name := js.Get("name")
	if name == nil || name.Kind != jsontree.String || name.Str == "" {
		return nil, false
	}
	out := &promptfmt.Output{Name: name.Str}
	if d := js.Get("description"); d != nil {
		if d.Kind != jsontree.String || d.Str == "" {
			return nil, false
		}
		out.Description = d.Str
	}
	s := js.Get("schema")
	if s == nil || s.Kind != jsontree.Object {
		return nil, false // a json_schema format without a schema is not JSON mode as written
	}
	out.Schema = s.Any().(map[string]any)
	if st := js.Get("strict"); st != nil {
		if st.Kind != jsontree.Bool || st.Str != "true" {
			return nil, false
		}
		out.Strict = true
	}
	return out, true
}

// onlyMembers reports whether object v has no member but names.
func onlyMembers(v *jsontree.Value, names ...string) bool {
	for i := range v.Members {
		found := false
		for _, n := range names {
			if v.Members[i].Key == n {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// stringMember returns member key of v when it is a string, else "".
func stringMember(v *jsontree.Value, key string) string {
	if m := v.Get(key); m != nil && m.Kind == jsontree.String {
		return m.Str
	}
	return ""
}

// openAIMessages reads the messages array.
func (r *reader) openAIMessages(v *jsontree.Value, lay *layout) {
	if !r.is(v, jsontree.Array, "messages") {
		return
	}
	r.doc.Messages = make([]promptfmt.Message, 0, len(v.Elems))
	for i := range v.Elems {
		r.openAIMessage(&v.Elems[i], lay)
	}
}

// openAIMessage reads one message.
func (r *reader) openAIMessage(v *jsontree.Value, lay *layout) {
	if !r.is(v, jsontree.Object, "a message") {
		return
	}
	role, ok := r.role(v, "OpenAI's are system, developer, user, assistant and tool", "system", "developer", "user", "assistant", "tool")
	if !ok {
		return
	}
	msg := promptfmt.Message{Role: role, Line: r.lineOf(v.Off)}
	var content, calls, callID *jsontree.Value
	for i := range v.Members {
		m := &v.Members[i]
		switch m.Key {
		case "role":
		case "name":
			msg.Name, _ = r.str(&m.Value, "name")
		case "content":
			content = &m.Value
		case "tool_calls":
			if role != "assistant" {
				r.errorAt(m.KeyOff, "tool_calls in a %s message (only an assistant calls tools)", role)
				continue
			}
			calls = &m.Value
		case "tool_call_id":
			if role != "tool" {
				r.errorAt(m.KeyOff, "tool_call_id in a %s message (only a tool message answers a call)", role)
				continue
			}
			callID = &m.Value
		default:
			r.metadata(&msg, m.Key, &m.Value, lay)
		}
	}
	if role == "tool" {
		r.openAIToolMessage(v, &msg, content, callID)
		r.doc.Messages = append(r.doc.Messages, msg)
		return
	}
	if content != nil && content.Kind != jsontree.Null {
		r.openAIContent(content, &msg, role, lay)
	}
	if calls != nil {
		r.openAIToolCalls(calls, &msg)
	}
	if len(msg.Content) == 0 { // no content, and no calls either
		msg.Content = []promptfmt.ContentPart{promptfmt.Text("")}
	}
	r.doc.Messages = append(r.doc.Messages, msg)
}

// metadata keeps a message member the model has no field for.
func (r *reader) metadata(msg *promptfmt.Message, key string, v *jsontree.Value, lay *layout) {
	if msg.Metadata == nil {
		msg.Metadata = map[string]any{}
		msg.KeyLines = map[string]int{}
	}
	msg.Metadata[key] = v.Any()
	msg.KeyLines[key] = r.lineOf(v.Off)
	lay.readMetadata(key)
}

// openAIContent reads a content string or array of parts.
func (r *reader) openAIContent(v *jsontree.Value, msg *promptfmt.Message, role string, lay *layout) {
	switch v.Kind {
	case jsontree.String:
		msg.Content = append(msg.Content, promptfmt.Text(v.Str))
		return
	case jsontree.Array:
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
		case "text":
			own = []string{"type", "text"}
			tv := p.Get("text")
			if tv == nil {
				r.errorf(p, "a text part without text")
				continue
			}
			s, _ := r.str(tv, "text")
			part = promptfmt.Text(s)
		case "image_url", "input_audio", "file":
			if role != "user" {
				r.errorf(typ, "%s part in %s message (OpenAI takes media in user messages)", articleFor(t), roleNoun(role))
				continue
			}
			own = []string{"type", t}
			var ok bool
			part, ok = r.openAIMedia(p, t)
			if !ok {
				continue
			}
		default:
			r.errorf(typ, "unknown content part type %q (OpenAI's are text, image_url, input_audio and file)", t)
			continue
		}
		for k := range p.Members {
			if mk := p.Members[k].Key; !contains(own, mk) {
				r.metadata(msg, partKey(j, mk), &p.Members[k].Value, lay)
			}
		}
		msg.Content = append(msg.Content, part)
	}
}

func articleFor(t string) string {
	if t == "image_url" || t == "input_audio" {
		return "an " + t
	}
	return "a " + t
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// openAIMedia reads an image_url, input_audio or file part.
func (r *reader) openAIMedia(p *jsontree.Value, t string) (promptfmt.ContentPart, bool) {
	body := p.Get(t)
	if body == nil {
		r.errorf(p, "%s part without its %q member", articleFor(t), t)
		return promptfmt.ContentPart{}, false
	}
	if !r.is(body, jsontree.Object, t) {
		return promptfmt.ContentPart{}, false
	}
	field := func(name string) (string, bool) {
		v := body.Get(name)
		if v == nil {
			return "", true
		}
		return r.str(v, t+"."+name)
	}
	for k := range body.Members {
		if !contains(openAIMediaMembers[t], body.Members[k].Key) {
			r.errorAt(body.Members[k].KeyOff, "unknown member %q of %s", body.Members[k].Key, t)
			return promptfmt.ContentPart{}, false
		}
	}
	switch t {
	case "image_url":
		url, ok1 := field("url")
		detail, ok2 := field("detail")
		if !ok1 || !ok2 {
			return promptfmt.ContentPart{}, false
		}
		if url == "" {
			r.errorf(body, "an image_url without a url")
			return promptfmt.ContentPart{}, false
		}
		return promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: url, Detail: detail}, true
	case "input_audio":
		data, ok1 := field("data")
		format, ok2 := field("format")
		if !ok1 || !ok2 {
			return promptfmt.ContentPart{}, false
		}
		mt, known := openAIAudioTypes[format]
		if !known {
			r.errorf(body, "input_audio of format %q (OpenAI's are wav and mp3)", format)
			return promptfmt.ContentPart{}, false
		}
		if err := checkBase64(data); err != nil {
			at := body.Get("data")
			if at == nil {
				at = body
			}
			r.errorf(at, "input_audio data is not valid base64: %v", err)
			return promptfmt.ContentPart{}, false
		}
		return promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: data, MediaType: mt}, true
	default: // file
		data, ok1 := field("file_data")
		id, ok2 := field("file_id")
		name, ok3 := field("filename")
		if !ok1 || !ok2 || !ok3 {
			return promptfmt.ContentPart{}, false
		}
		switch {
		case data == "" && id == "":
			r.errorf(body, "a file part with neither file_data nor file_id")
			return promptfmt.ContentPart{}, false
		case data != "" && id != "":
			r.errorf(body, "a file part with both file_data and file_id")
			return promptfmt.ContentPart{}, false
		case data != "":
			p := promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: data, Filename: name}
			if _, problem := readMedia(&p); problem != "" {
				r.errorf(body.Get("file_data"), "file_data: %s", problem)
				return promptfmt.ContentPart{}, false
			}
			return p, true
		}
		return promptfmt.ContentPart{Kind: promptfmt.KindFile, ID: id, Filename: name}, true
	}
}

var openAIMediaMembers = map[string][]string{
	"image_url":   {"url", "detail"},
	"input_audio": {"data", "format"},
	"file":        {"file_data", "file_id", "filename"},
}

// openAIAudioTypes are the media types of OpenAI's audio formats
// (decision 2 of the import mapping: MIME types, not bare words).
var openAIAudioTypes = map[string]string{"wav": "audio/wav", "mp3": "audio/mpeg"}

// openAIToolCalls reads an assistant's tool_calls into tool_call parts.
func (r *reader) openAIToolCalls(v *jsontree.Value, msg *promptfmt.Message) {
	if !r.is(v, jsontree.Array, "tool_calls") {
		return
	}
	for i := range v.Elems {
		c := &v.Elems[i]
		if !r.is(c, jsontree.Object, "a tool call") {
			continue
		}
		if !onlyMembers(c, "id", "type", "function") {
			for k := range c.Members {
				if !contains([]string{"id", "type", "function"}, c.Members[k].Key) {
					r.errorAt(c.Members[k].KeyOff, "unknown member %q of a tool call", c.Members[k].Key)
				}
			}
			continue
		}
		if typ := stringMember(c, "type"); typ != "function" {
			r.errorf(c, "a tool call of type %q (the model holds function calls)", typ)
			continue
		}
		id, _ := r.requiredString(c, "id", "a tool call")
		fn := c.Get("function")
		if fn == nil || !r.is(fn, jsontree.Object, "function") {
			if fn == nil {
				r.errorf(c, "a tool call without its function")
			}
			continue
		}
		name, ok := r.requiredString(fn, "name", "a tool call's function")
		args := fn.Get("arguments")
		if !ok || args == nil {
			if args == nil {
				r.errorf(fn, "a tool call's function without arguments")
			}
			continue
		}
		a, ok := r.str(args, "arguments")
		if !ok {
			continue
		}
		msg.Content = append(msg.Content, promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: a, ID: id, ToolName: name})
	}
}

// requiredString reads member key of v, which must be a non-empty string.
func (r *reader) requiredString(v *jsontree.Value, key, what string) (string, bool) {
	m := v.Get(key)
	if m == nil {
		r.errorf(v, "%s without %s", what, key)
		return "", false
	}
	s, ok := r.str(m, key)
	if ok && s == "" {
		r.errorf(m, "%s with an empty %s", what, key)
		return "", false
	}
	return s, ok
}

// openAIToolMessage reads a tool message: one tool_result part.
func (r *reader) openAIToolMessage(v *jsontree.Value, msg *promptfmt.Message, content, callID *jsontree.Value) {
	if callID == nil {
		r.errorf(v, "a tool message without tool_call_id")
		return
	}
	id, ok := r.str(callID, "tool_call_id")
	if !ok {
		return
	}
	if msg.Name != "" {
		r.errorf(v, "a name on a tool message (the model's tool results have none)")
	}
	result := ""
	switch {
	case content == nil || content.Kind == jsontree.Null:
	case content.Kind == jsontree.String:
		result = content.Str
	case content.Kind == jsontree.Array && len(content.Elems) == 1 && content.Elems[0].Kind == jsontree.Object &&
		onlyMembers(&content.Elems[0], "type", "text") && stringMember(&content.Elems[0], "type") == "text" &&
		content.Elems[0].Get("text") != nil && content.Elems[0].Get("text").Kind == jsontree.String:
		result = content.Elems[0].Get("text").Str
	default:
		r.errorf(content, "a tool message's content must be a string or one text part (%s)", describe(content))
		return
	}
	msg.Content = []promptfmt.ContentPart{{Kind: promptfmt.KindToolResult, Value: result, ID: id}}
}

// describe names a value for an error: "an array of 3".
func describe(v *jsontree.Value) string {
	if v.Kind == jsontree.Array {
		return fmt.Sprintf("an array of %d", len(v.Elems))
	}
	return v.Kind.String()
}
