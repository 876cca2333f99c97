package provider

import (
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/wire"
)

// The members of a Messages request body (wire.AnthropicBody: the
// official SDK's MessageNewParams', and stream). Those the Request holds
// are read into it; the rest are kept in Meta.
var anthropicBodyMembers = keys(wire.AnthropicBody...)

// anthropicRequestMembers are the body members the mapping writes from
// the Request.
var anthropicRequestMembers = keys("model", "max_tokens", "temperature", "top_p", "top_k", "stop_sequences",
	"tools", "tool_choice", "output_config")

// anthropicMessageOwn are a message's members the mapping writes itself
// (wire.AnthropicMessage: the SDK's MessageParam has no other).
var anthropicMessageOwn = keys(wire.AnthropicMessage...)

// readAnthropic reads a Messages body: an object with messages, and the
// system prompt before them.
func readAnthropic(r *reader, root *jsontree.Value) {
	lay := &layout{format: nameAnthropic}
	r.doc.Layout = lay
	if !r.is(root, jsontree.Object, "a Messages body") {
		return
	}
	if root.Get("messages") == nil {
		r.errorf(root, "a Messages body needs messages")
	}
	req := &r.doc.Request
	for i := range root.Members {
		m := &root.Members[i]
		v := &m.Value
		field := ""
		switch m.Key {
		case "system":
			// Read where it is, so that lines are counted in one pass;
			// the first message wherever it is.
			if msg, ok := r.anthropicSystem(v, lay); ok {
				r.doc.Messages = slices.Insert(r.doc.Messages, 0, msg)
			}
			continue
		case "messages":
			r.anthropicMessages(v, lay)
			continue
		case "model":
			req.Model, _ = r.str(v, "model")
			field = promptfmt.FieldModel
		case "tools":
			tools, ok := anthropicTools(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.Tools, field = tools, promptfmt.FieldTools
		case "tool_choice":
			choice, ok := anthropicToolChoice(v)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.ToolChoice, field = choice, promptfmt.FieldToolChoice
		case "output_config":
			if !r.anthropicOutput(m, lay) {
				continue
			}
			field = promptfmt.FieldOutput
		default:
			if field = anthropicSettings[m.Key]; field == "" {
				r.keep(m, lay)
				continue
			}
			r.setting(req, field, v, m.Key)
		}
		r.setLine(field, m.KeyOff)
	}
	if r.doc.Messages == nil {
		r.doc.Messages = []promptfmt.Message{}
	}
}

// anthropicSystem reads the system prompt, a string or an array of text
// blocks, as the first message: one system message whatever its form.
func (r *reader) anthropicSystem(v *jsontree.Value, lay *layout) (promptfmt.Message, bool) {
	msg := promptfmt.Message{Role: "system", Line: r.lineOf(v.Off)}
	switch v.Kind {
	case jsontree.String:
		msg.Content = []promptfmt.ContentPart{promptfmt.Text(v.Str)}
	case jsontree.Array:
		for i := range v.Elems {
			b := &v.Elems[i]
			if !r.is(b, jsontree.Object, "a system block") {
				continue
			}
			t, ok := r.blockType(b)
			if !ok {
				continue
			}
			if t != "text" {
				r.errorf(b.Get("type"), "a system block of type %q (Anthropic's system prompt is text blocks)", t)
				continue
			}
			if part, ok := r.anthropicText(b); ok {
				r.partExtras(&msg, len(msg.Content), b, lay, "type", "text")
				msg.Content = append(msg.Content, part)
			}
		}
		if len(msg.Content) == 0 {
			msg.Content = []promptfmt.ContentPart{promptfmt.Text("")}
		}
	default:
		r.errorf(v, "system must be a string or an array of text blocks, not %s", v.Kind)
		return msg, false
	}
	return msg, true
}

// blockType returns a content block's type.
func (r *reader) blockType(b *jsontree.Value) (string, bool) {
	typ := b.Get("type")
	if typ == nil {
		r.errorf(b, "a content block without a type")
		return "", false
	}
	return r.str(typ, "type")
}

// anthropicText reads a text block's text.
func (r *reader) anthropicText(b *jsontree.Value) (promptfmt.ContentPart, bool) {
	tv := b.Get("text")
	if tv == nil {
		r.errorf(b, "a text block without text")
		return promptfmt.ContentPart{}, false
	}
	s, ok := r.str(tv, "text")
	return promptfmt.Text(s), ok
}

// partExtras keeps the members of block b beyond own in msg's metadata,
// as those of its part j.
func (r *reader) partExtras(msg *promptfmt.Message, j int, b *jsontree.Value, lay *layout, own ...string) {
	for k := range b.Members {
		if mk := b.Members[k].Key; !contains(own, mk) {
			r.metadata(msg, partKey(j, mk), &b.Members[k].Value, lay)
		}
	}
}

// anthropicMessages reads the messages array.
func (r *reader) anthropicMessages(v *jsontree.Value, lay *layout) {
	if !r.is(v, jsontree.Array, "messages") {
		return
	}
	if r.doc.Messages == nil {
		r.doc.Messages = make([]promptfmt.Message, 0, len(v.Elems))
	}
	for i := range v.Elems {
		r.anthropicMessage(&v.Elems[i], lay)
	}
}

// anthropicMessage reads one turn.
func (r *reader) anthropicMessage(v *jsontree.Value, lay *layout) {
	if !r.is(v, jsontree.Object, "a message") {
		return
	}
	role, ok := r.role(v, "Anthropic's are user and assistant; the system prompt is the body's system", "user", "assistant")
	if !ok {
		return
	}
	msg := promptfmt.Message{Role: role, Line: r.lineOf(v.Off)}
	var content *jsontree.Value
	for i := range v.Members {
		m := &v.Members[i]
		switch m.Key {
		case "role":
		case "content":
			content = &m.Value
		default:
			r.metadata(&msg, m.Key, &m.Value, lay)
		}
	}
	if content == nil {
		r.errorf(v, "a message without content")
		return
	}
	switch content.Kind {
	case jsontree.String:
		msg.Content = []promptfmt.ContentPart{promptfmt.Text(content.Str)}
	case jsontree.Array:
		msg.Content = make([]promptfmt.ContentPart, 0, len(content.Elems))
		for i := range content.Elems {
			r.anthropicBlock(&content.Elems[i], &msg, lay)
		}
	default:
		r.errorf(content, "content must be a string or an array of content blocks, not %s", content.Kind)
		return
	}
	if len(msg.Content) == 0 {
		msg.Content = []promptfmt.ContentPart{promptfmt.Text("")}
	}
	r.doc.Messages = append(r.doc.Messages, msg)
}

// anthropicBlock reads one content block of msg.
func (r *reader) anthropicBlock(b *jsontree.Value, msg *promptfmt.Message, lay *layout) {
	if !r.is(b, jsontree.Object, "a content block") {
		return
	}
	t, ok := r.blockType(b)
	if !ok {
		return
	}
	typ := b.Get("type")
	var part promptfmt.ContentPart
	var own []string
	switch t {
	case "text":
		own = []string{"type", "text"}
		part, ok = r.anthropicText(b)
	case "image", "document":
		if msg.Role != "user" {
			r.errorf(typ, "%s block in an assistant turn (Anthropic takes images and documents in user turns)", articleA(t))
			return
		}
		own = []string{"type", "source"}
		if t == "document" {
			own = append(own, "title")
		}
		part, ok = r.anthropicMedia(b, t)
	case "tool_use":
		if msg.Role != "assistant" {
			r.errorf(typ, "a tool_use block in a user turn (only the assistant uses tools)")
			return
		}
		own = []string{"type", "id", "name", "input"}
		part, ok = r.anthropicToolUse(b)
	case "tool_result":
		if msg.Role != "user" {
			r.errorf(typ, "a tool_result block in an assistant turn (results go in a user turn)")
			return
		}
		own = []string{"type", "tool_use_id", "content"}
		part, ok = r.anthropicToolResult(b)
	case "thinking", "redacted_thinking":
		r.errorf(typ, "a %s block (the model has no place for a model's reasoning)", t)
		return
	default:
		r.errorf(typ, "unknown content block type %q (the model holds text, image, document, tool_use and tool_result)", t)
		return
	}
	if !ok {
		return
	}
	r.partExtras(msg, len(msg.Content), b, lay, own...)
	msg.Content = append(msg.Content, part)
}

// articleA names a block type with its article: "an image".
func articleA(t string) string {
	if t == "image" {
		return "an image"
	}
	return "a " + t
}

// anthropicMedia reads an image or document block's source (and a
// document's title): base64 data and its media type, a URL, or a file id.
func (r *reader) anthropicMedia(b *jsontree.Value, t string) (promptfmt.ContentPart, bool) {
	part := promptfmt.ContentPart{Kind: promptfmt.KindImage}
	if t == "document" {
		part.Kind = promptfmt.KindFile
		if title := b.Get("title"); title != nil {
			s, ok := r.str(title, "title")
			if !ok {
				return part, false
			}
			part.Filename = s
		}
	}
	src := b.Get("source")
	if src == nil {
		r.errorf(b, "%s block without a source", articleA(t))
		return part, false
	}
	if !r.is(src, jsontree.Object, "source") {
		return part, false
	}
	st, ok := r.requiredString(src, "type", "a source")
	if !ok {
		return part, false
	}
	var fields []string
	switch st {
	case "base64":
		fields = []string{"type", "media_type", "data"}
	case "url":
		fields = []string{"type", "url"}
	case "file":
		fields = []string{"type", "file_id"}
	default:
		r.errorf(src.Get("type"), "a source of type %q (the model holds base64, url and file sources)", st)
		return part, false
	}
	for k := range src.Members {
		if !contains(fields, src.Members[k].Key) {
			r.errorAt(src.Members[k].KeyOff, "unknown member %q of a %s source", src.Members[k].Key, st)
			return part, false
		}
	}
	switch st {
	case "base64":
		mt, ok1 := r.requiredString(src, "media_type", "a base64 source")
		data, ok2 := r.requiredString(src, "data", "a base64 source")
		if !ok1 || !ok2 {
			return part, false
		}
		if err := checkBase64(data); err != nil {
			r.errorf(src.Get("data"), "%s data is not valid base64: %v", t, err)
			return part, false
		}
		part.Value, part.MediaType = data, mt
	case "url":
		url, ok := r.requiredString(src, "url", "a url source")
		if !ok {
			return part, false
		}
		part.Value = url
	default:
		id, ok := r.requiredString(src, "file_id", "a file source")
		if !ok {
			return part, false
		}
		part.ID = id
	}
	return part, true
}

// anthropicToolUse reads a tool_use block: its input, a JSON object, as
// compact JSON text.
func (r *reader) anthropicToolUse(b *jsontree.Value) (promptfmt.ContentPart, bool) {
	id, ok1 := r.requiredString(b, "id", "a tool_use block")
	name, ok2 := r.requiredString(b, "name", "a tool_use block")
	input := b.Get("input")
	if input == nil {
		r.errorf(b, "a tool_use block without input")
		return promptfmt.ContentPart{}, false
	}
	if !r.is(input, jsontree.Object, "input") || !ok1 || !ok2 {
		return promptfmt.ContentPart{}, false
	}
	return promptfmt.ContentPart{Kind: promptfmt.KindToolCall, ID: id, ToolName: name, Value: r.compact(input)}, true
}

// anthropicToolResult reads a tool_result block: its content, a string or
// one text block ("" when it has none).
func (r *reader) anthropicToolResult(b *jsontree.Value) (promptfmt.ContentPart, bool) {
	id, ok := r.requiredString(b, "tool_use_id", "a tool_result block")
	if !ok {
		return promptfmt.ContentPart{}, false
	}
	value := ""
	switch c := b.Get("content"); {
	case c == nil:
	case c.Kind == jsontree.String:
		value = c.Str
	case c.Kind == jsontree.Array && len(c.Elems) == 1 && c.Elems[0].Kind == jsontree.Object &&
		onlyMembers(&c.Elems[0], "type", "text") && stringMember(&c.Elems[0], "type") == "text" &&
		c.Elems[0].Get("text") != nil && c.Elems[0].Get("text").Kind == jsontree.String:
		value = c.Elems[0].Get("text").Str
	default:
		r.errorf(c, "a tool_result's content must be a string or one text block, not %s (the model's result is one text)", describe(c))
		return promptfmt.ContentPart{}, false
	}
	return promptfmt.ContentPart{Kind: promptfmt.KindToolResult, ID: id, Value: value}, true
}

// anthropicTools reads tools when each is a custom tool the model holds
// exactly: a name, a description, an input_schema object and strict;
// ok is false for any other list, which Meta keeps as written.
func anthropicTools(v *jsontree.Value) ([]promptfmt.Tool, bool) {
	if v.Kind != jsontree.Array {
		return nil, false
	}
	tools := make([]promptfmt.Tool, 0, len(v.Elems))
	for i := range v.Elems {
		t := &v.Elems[i]
		if t.Kind != jsontree.Object || !onlyMembers(t, "type", "name", "description", "input_schema", "strict") {
			return nil, false
		}
		if typ := t.Get("type"); typ != nil && (typ.Kind != jsontree.String || typ.Str != "custom") {
			return nil, false // a server tool (web_search_20250305, ...)
		}
		if s := t.Get("input_schema"); s == nil {
			return nil, false // the API needs one: written back as read
		}
		tool, ok := functionTool(t, "input_schema")
		if !ok {
			return nil, false
		}
		if s := t.Get("strict"); s != nil {
			if s.Kind != jsontree.Bool || s.Str != "true" {
				return nil, false
			}
			tool.Strict = true
		}
		tools = append(tools, tool)
	}
	return tools, true
}

// anthropicToolChoice reads {"type": "auto" | "any" | "none"} or
// {"type": "tool", "name"}; with any other member (disable_parallel_tool_use)
// ok is false.
func anthropicToolChoice(v *jsontree.Value) (*promptfmt.ToolChoice, bool) {
	if v.Kind != jsontree.Object {
		return nil, false
	}
	switch stringMember(v, "type") {
	case "auto":
		return &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceAuto}, onlyMembers(v, "type")
	case "any":
		return &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired}, onlyMembers(v, "type")
	case "none":
		return &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceNone}, onlyMembers(v, "type")
	case "tool":
		name := stringMember(v, "name")
		return &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired, Tool: name}, name != "" && onlyMembers(v, "type", "name")
	}
	return nil, false
}

// anthropicOutput reads output_config: its format, a JSON schema, is the
// Request's Output, and its other members (effort) are kept in Meta under
// output_config, written back beside it. ok is false when the format is
// not one the Output holds exactly: then Meta keeps it all as written.
func (r *reader) anthropicOutput(m *jsontree.Member, lay *layout) bool {
	v := &m.Value
	f := v.Get("format")
	if v.Kind != jsontree.Object || f == nil || f.Kind != jsontree.Object || !onlyMembers(f, "type", "schema") ||
		stringMember(f, "type") != "json_schema" || f.Get("schema") == nil || f.Get("schema").Kind != jsontree.Object {
		r.keep(m, lay)
		return false
	}
	// Decision: Anthropic's structured output always holds the answer to
	// the schema (constrained decoding; there is no switch): Strict.
	r.doc.Request.Output = &promptfmt.Output{Schema: f.Get("schema").Any().(map[string]any), Strict: true}
	r.restMeta(m, lay, "format")
	return true
}

// restMeta keeps the members of object member m but held in Meta under
// m's key, when there are any: a member the Request holds part of.
func (r *reader) restMeta(m *jsontree.Member, lay *layout, held ...string) {
	rest := map[string]any{}
	for i := range m.Value.Members {
		if c := &m.Value.Members[i]; !contains(held, c.Key) {
			rest[c.Key] = c.Value.Any()
		}
	}
	if len(rest) == 0 && len(m.Value.Members) > 0 {
		return // an empty object is kept: "generationConfig": {}
	}
	if r.doc.Meta == nil {
		r.doc.Meta = map[string]any{}
		r.doc.KeyLines = map[string]int{}
	}
	r.doc.Meta[m.Key] = rest
	r.doc.KeyLines[m.Key] = r.lineOf(m.KeyOff)
	lay.readMeta(m.Key)
}
