package stf

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/json5"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// This file maps content parts both ways: ;call and ;embed lines, and the
// message objects of ;raw blocks.

// callPart reads ";call name=TOOL id=ID" and its line of JSON arguments.
func (p *parser) callPart(args []arg, value string, off int) (promptfmt.ContentPart, error) {
	part := promptfmt.ContentPart{Kind: promptfmt.KindToolCall, Value: value}
	for _, a := range args {
		s, ok := a.text()
		switch {
		case a.key != "name" && a.key != "id":
			return part, p.errAt(a.off, ";call takes name= and id=, not %q", a.key)
		case !ok:
			return part, p.errAt(a.off, "argument %q must be a string, not %s", a.key, jsonvalue.Describe(a.value()))
		case a.key == "name":
			part.ToolName = s
		default:
			part.ID = s
		}
	}
	if !json.Valid(p.src[off : off+len(value)]) {
		return part, p.errAt(off, "the line after ;call must be the tool call's arguments as JSON, such as {\"city\": \"Paris\"}")
	}
	// The arguments are JSON the model's values can hold: no number
	// beyond a float64, no nesting deeper than the values' limit.
	var je *jsonvalue.Error
	if errors.As(jsonvalue.Check(p.src[off:off+len(value)]), &je) {
		return part, p.hintAt(off+je.Offset, je.Hint, "tool call arguments: %s", je.Msg)
	}
	return part, nil
}

// embedPart reads ";embed kind=KIND type=MEDIA/TYPE" and its line.
func (p *parser) embedPart(args []arg, value string, off, pos int) (promptfmt.ContentPart, error) {
	var part promptfmt.ContentPart
	for _, a := range args {
		s, ok := a.text()
		if a.key != "kind" && a.key != "type" && a.key != "detail" {
			return part, p.errAt(a.off, ";embed takes kind=, type= and detail=, not %q", a.key)
		}
		if !ok {
			return part, p.errAt(a.off, "argument %q must be a string, not %s", a.key, jsonvalue.Describe(a.value()))
		}
		switch a.key {
		case "kind":
			part.Kind = promptfmt.Kind(s)
			if !isMedia(part.Kind) {
				return part, p.errAt(a.off, "kind=%s: an embed is an image, audio or file", s)
			}
		case "type":
			part.MediaType = s
		case "detail":
			part.Detail = s
		}
	}
	if part.Kind == "" {
		return part, p.errAt(pos, ";embed needs kind=image, kind=audio or kind=file")
	}
	if !embeddable(value) {
		return part, p.errAt(off, "the line after ;embed must hold a URL, a data: URI or base64, without blanks")
	}
	part.Value = value
	return part, nil
}

func isMedia(k promptfmt.Kind) bool {
	return k == promptfmt.KindImage || k == promptfmt.KindAudio || k == promptfmt.KindFile
}

// embeddable reports whether v can be the line after ;embed.
func embeddable(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] <= ' ' || v[i] == 0x7f {
			return false
		}
	}
	return true
}

// callable reports whether v can be the line after ;call.
func callable(v string) bool {
	return !strings.Contains(v, "\n") && !strings.HasSuffix(v, "\r") && json.Valid([]byte(v))
}

// rawMessage maps the JSON5 value of a ;raw block to a message. The object
// is upstream's message (role, content as a string or parts, name, id,
// call_id, reasoning, refusal, tool_calls, extra) plus disabled, and parts
// of type tool_call and tool_result besides text, image, audio and file.
func (p *parser) rawMessage(v any, at int) (promptfmt.Message, error) {
	m := promptfmt.Message{Line: p.lines.at(at)}
	fail := func(f string, args ...any) (promptfmt.Message, error) {
		return m, p.errAt(at, ";raw: "+f, args...)
	}
	obj, ok := v.(map[string]any)
	if !ok {
		return fail("the block must hold one message object, not %s", jsonvalue.Describe(v))
	}
	if m.Role, ok = obj["role"].(string); !ok {
		return fail("the message needs a role string")
	}
	var calls []promptfmt.ContentPart
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		x := obj[k]
		switch k {
		case "role", "extra":
		case "name", "id", "call_id", "reasoning", "refusal":
			s, ok := x.(string)
			if !ok {
				return fail("%s must be a string, not %s", k, jsonvalue.Describe(x))
			}
			if k == "name" {
				p.emptyName(s, at)
				m.Name = s
			} else {
				setMeta(&m.Metadata, k, s)
			}
		case "disabled":
			if m.Disabled, ok = x.(bool); !ok {
				return fail("disabled must be true or false, not %s", jsonvalue.Describe(x))
			}
		case "content":
			switch c := x.(type) {
			case string:
				m.Content = append(m.Content, promptfmt.Text(c))
			case []any:
				for i, y := range c {
					part, err := rawPart(y)
					if err != nil {
						return fail("content[%d]: %v", i, err)
					}
					m.Content = append(m.Content, part)
				}
			default:
				return fail("content must be a string or an array of parts, not %s", jsonvalue.Describe(x))
			}
		case "tool_calls":
			list, ok := x.([]any)
			if !ok {
				return fail("tool_calls must be an array, not %s", jsonvalue.Describe(x))
			}
			for i, y := range list {
				part, err := rawToolCall(y)
				if err != nil {
					return fail("tool_calls[%d]: %v", i, err)
				}
				calls = append(calls, part)
			}
		default: // kept, never dropped: the writer puts it back in extra
			setMeta(&m.Metadata, k, x)
		}
	}
	m.Content = append(m.Content, calls...)
	if len(m.Content) == 0 {
		m.Content = []promptfmt.ContentPart{promptfmt.Text("")}
	}
	if x, ok := obj["extra"]; ok {
		merge(&m.Metadata, "extra", x)
	}
	return m, nil
}

// fields reads the string fields of a raw part object into the pointers
// of want, and refuses any other field.
func fields(obj map[string]any, kind string, want map[string]*string) error {
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if k == "type" {
			continue
		}
		dst, ok := want[k]
		if !ok {
			return fmt.Errorf("a %s part has no field %q", kind, k)
		}
		s, ok := obj[k].(string)
		if !ok {
			return fmt.Errorf("%s must be a string, not %s", k, jsonvalue.Describe(obj[k]))
		}
		*dst = s
	}
	return nil
}

func rawPart(v any) (promptfmt.ContentPart, error) {
	var part promptfmt.ContentPart
	obj, ok := v.(map[string]any)
	if !ok {
		return part, fmt.Errorf("a part must be an object, not %s", jsonvalue.Describe(v))
	}
	typ, ok := obj["type"].(string)
	if !ok {
		return part, fmt.Errorf("a part needs a type string")
	}
	part.Kind = promptfmt.Kind(typ)
	switch part.Kind {
	case promptfmt.KindText:
		if _, ok := obj["text"]; !ok {
			return part, fmt.Errorf("a text part needs text")
		}
		return part, fields(obj, typ, map[string]*string{"text": &part.Value})
	case promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile:
		var url, data string
		if err := fields(obj, typ, map[string]*string{"url": &url, "data": &data, "format": &part.MediaType,
			"detail": &part.Detail, "file_id": &part.ID, "name": &part.Filename}); err != nil {
			return part, err
		}
		if url != "" && data != "" {
			return part, fmt.Errorf("a %s part has both url and data", typ)
		}
		part.Value = url + data
		return part, nil
	case promptfmt.KindToolCall:
		return part, fields(obj, typ, map[string]*string{"id": &part.ID, "name": &part.ToolName, "arguments": &part.Value})
	case promptfmt.KindToolResult:
		return part, fields(obj, typ, map[string]*string{"id": &part.ID, "name": &part.ToolName, "content": &part.Value})
	}
	return part, fmt.Errorf("unknown part type %q (want text, image, audio, file, tool_call or tool_result)", typ)
}

// rawToolCall reads one entry of upstream's tool_calls list.
func rawToolCall(v any) (promptfmt.ContentPart, error) {
	part := promptfmt.ContentPart{Kind: promptfmt.KindToolCall}
	obj, ok := v.(map[string]any)
	if !ok {
		return part, fmt.Errorf("a tool call must be an object, not %s", jsonvalue.Describe(v))
	}
	var callID string
	if err := fields(obj, "tool call", map[string]*string{"id": &part.ID, "call_id": &callID, "name": &part.ToolName, "arguments": &part.Value}); err != nil {
		return part, err
	}
	switch {
	case part.ID == "":
		part.ID = callID
	case callID != "" && callID != part.ID:
		return part, fmt.Errorf("a tool call with an id and a different call_id has one id in this model")
	}
	return part, nil
}

// rawFields are the metadata keys a ;raw message object holds at its top
// level when their values are strings; other metadata goes in extra.
var rawFields = []string{"id", "call_id", "reasoning", "refusal"}

// appendRaw writes m as a ;raw block.
func appendRaw(b []byte, m *promptfmt.Message) ([]byte, error) {
	b = append(b, ";raw\n{\n  role: "...)
	b = json5.AppendString(b, m.Role)
	b = append(b, ",\n"...)
	var ferr error
	field := func(k string, v any) {
		b = append(append(append(b, "  "...), k...), ": "...)
		var err error
		if b, err = json5.AppendIndent(b, v, 1); err != nil && ferr == nil {
			ferr = fmt.Errorf("%s: %w", k, err)
		}
		b = append(b, ",\n"...)
	}
	if m.Name != "" {
		field("name", m.Name)
	}
	extra := map[string]any{}
	for k, v := range m.Metadata {
		extra[k] = v
	}
	for _, k := range rawFields {
		if s, ok := extra[k].(string); ok {
			field(k, s)
			delete(extra, k)
		}
	}
	if m.Disabled {
		field("disabled", true)
	}
	if len(m.Content) == 1 && m.Content[0].Kind == promptfmt.KindText {
		field("content", m.Content[0].Value)
	} else {
		parts := make([]any, len(m.Content))
		for i, part := range m.Content {
			parts[i] = partObject(part)
		}
		field("content", parts)
	}
	if len(extra) > 0 {
		field("extra", extra)
	}
	return append(b, "}\n;end\n"...), ferr
}

// partObject is the ;raw form of a part; empty fields are left out.
func partObject(part promptfmt.ContentPart) map[string]any {
	o := map[string]any{"type": string(part.Kind)}
	set := func(k, v string) {
		if v != "" {
			o[k] = v
		}
	}
	switch part.Kind {
	case promptfmt.KindText:
		o["text"] = part.Value
	case promptfmt.KindToolCall:
		o["arguments"] = part.Value
		set("id", part.ID)
		set("name", part.ToolName)
	case promptfmt.KindToolResult:
		o["content"] = part.Value
		set("id", part.ID)
		set("name", part.ToolName)
	default:
		if hasScheme(part.Value) {
			set("url", part.Value)
		} else {
			set("data", part.Value)
		}
		set("format", part.MediaType)
		set("detail", part.Detail)
		set("file_id", part.ID)
		set("name", part.Filename)
	}
	return o
}

// hasScheme reports whether v starts like a URL ("https:", "data:").
func hasScheme(v string) bool {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return true
		default:
			return false
		}
	}
	return false
}
