package provider

import (
	"encoding/json"

	"github.com/promptfmt/promptfmt"
)

// GeminiRequest is the message part of a generateContent request body:
// {"system_instruction": ..., "contents": [...]}, with SystemInstruction nil
// (left out) when there is no system prompt.
type geminiRequest struct {
	SystemInstruction *geminiContent  `json:"system_instruction,omitempty"`
	Contents          []geminiContent `json:"contents"`
}

// GeminiContent is one turn, role "user" or "model", or the system
// instruction, which has no role.
type geminiContent struct {
	Role  string       `json:"role,omitempty"`
	Parts []geminiPart `json:"parts"`
}

// GeminiPart is one part; exactly one of its fields is set.
type geminiPart struct {
	Text             string                  `json:"text,omitempty"`
	InlineData       *geminiBlob             `json:"inline_data,omitempty"`
	FileData         *geminiFileData         `json:"file_data,omitempty"`
	FunctionCall     *geminiFunctionCall     `json:"function_call,omitempty"`
	FunctionResponse *geminiFunctionResponse `json:"function_response,omitempty"`
}

// GeminiBlob is media sent inline: base64 data and its media type.
type geminiBlob struct {
	MIMEType string `json:"mime_type"`
	Data     string `json:"data"`
}

// GeminiFileData is media by URI, with its media type when known.
type geminiFileData struct {
	MIMEType string `json:"mime_type,omitempty"`
	FileURI  string `json:"file_uri"`
}

// GeminiFunctionCall is a call the model made: the call id (when known),
// the function's name and its arguments, a JSON object.
type geminiFunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// GeminiFunctionResponse is a function's result: the call id (when known),
// the function's name and the result, a JSON object.
type geminiFunctionResponse struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response"`
}

// Gemini maps msgs to the system instruction and contents of a
// generateContent request, as the package documentation describes. When
// something cannot be expressed it returns nil and every problem, joined.
func exportGemini(msgs []promptfmt.Message) (*geminiRequest, error) {
	m := newMapper(nameGemini, "Gemini", msgs)
	req := &geminiRequest{Contents: make([]geminiContent, 0, len(msgs))}
	var system []geminiPart
	started := false
	for i := range msgs {
		msg := &msgs[i]
		m.checkMessage(i)
		m.noName(i)
		var role string
		switch msg.Role {
		case "system", "developer":
			if started {
				m.fail(i, promptfmt.ThingRole, "a %s message after the conversation has started cannot be expressed (Gemini's system instruction comes before it)", msg.Role)
				continue
			}
			for _, t := range m.systemTexts(i) {
				system = append(system, geminiPart{Text: t})
			}
			continue
		case "user", "tool":
			role = "user"
		case "assistant":
			role = "model"
		default:
			m.badRole(i)
			started = true
			continue
		}
		started = true
		var parts []geminiPart
		if msg.Role == "tool" {
			parts = m.geminiTool(i)
		} else {
			parts = m.geminiParts(i)
		}
		if n := len(req.Contents); n > 0 && req.Contents[n-1].Role == role {
			req.Contents[n-1].Parts = append(req.Contents[n-1].Parts, parts...)
		} else {
			req.Contents = append(req.Contents, geminiContent{Role: role, Parts: parts})
		}
	}
	if err := m.err(); err != nil {
		return nil, err
	}
	if system != nil {
		req.SystemInstruction = &geminiContent{Parts: system}
	}
	return req, nil
}

// geminiParts maps the content of user or assistant message i.
func (m *mapper) geminiParts(i int) []geminiPart {
	msg := &m.msgs[i]
	parts := content(msg)
	out := make([]geminiPart, 0, len(parts))
	empty := true
	for j := range parts {
		p := &parts[j]
		if p.Kind != promptfmt.KindText || p.Value != "" {
			empty = false
		}
		if !m.checkPart(i, j, p) {
			continue
		}
		switch {
		case p.Kind == promptfmt.KindText:
			if p.Value != "" {
				out = append(out, geminiPart{Text: p.Value})
			}
		case p.Kind == promptfmt.KindImage || p.Kind == promptfmt.KindAudio || p.Kind == promptfmt.KindFile:
			if part, ok := m.geminiMedia(i, j, p); ok {
				out = append(out, part)
			}
		case p.Kind == promptfmt.KindToolCall && msg.Role == "assistant":
			ok := m.toolCall(i, j, p, false)
			if !jsonObject(p.Value) {
				m.failPart(i, j, "tool_call arguments are not a JSON object: %s", short(p.Value))
				ok = false
			}
			if ok {
				out = append(out, geminiPart{FunctionCall: &geminiFunctionCall{ID: p.ID, Name: p.ToolName, Args: json.RawMessage(p.Value)}})
			}
		case p.Kind == promptfmt.KindToolResult && msg.Role == "user":
			if part, ok := m.geminiResult(i, j, p); ok {
				out = append(out, part)
			}
		default:
			m.misplaced(i, j, p)
		}
	}
	if empty {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (Gemini refuses empty text)")
	}
	return out
}

// geminiTool maps tool message i: its function responses.
func (m *mapper) geminiTool(i int) []geminiPart {
	msg := &m.msgs[i]
	if !hasToolResults(msg) {
		if p, ok := m.toolMessageResult(i); ok {
			if part, ok := m.geminiResult(i, 0, &p); ok {
				return []geminiPart{part}
			}
		}
		return nil
	}
	out := make([]geminiPart, 0, len(msg.Content))
	for j := range msg.Content {
		p := &msg.Content[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind != promptfmt.KindToolResult:
			m.misplaced(i, j, p)
		default:
			if part, ok := m.geminiResult(i, j, p); ok {
				out = append(out, part)
			}
		}
	}
	return out
}

// geminiResult maps a tool_result part: its tool's name, and the result as
// a JSON object.
func (m *mapper) geminiResult(i, j int, p *promptfmt.ContentPart) (geminiPart, bool) {
	name, ok := m.toolResult(i, j, p, false)
	if !ok {
		return geminiPart{}, false
	}
	if name == "" {
		m.failPart(i, j, "a tool_result for call %q names no tool, and no earlier tool_call has that id", p.ID)
		return geminiPart{}, false
	}
	var resp json.RawMessage
	if jsonObject(p.Value) {
		resp = json.RawMessage(p.Value)
	} else {
		var err error
		if resp, err = marshal(struct {
			Output string `json:"output"`
		}{p.Value}); err != nil {
			m.failPart(i, j, "%v", err) // a string always encodes: not reached
			return geminiPart{}, false
		}
	}
	return geminiPart{FunctionResponse: &geminiFunctionResponse{ID: p.ID, Name: name, Response: resp}}, true
}

// geminiMedia maps an image, audio or file part.
func (m *mapper) geminiMedia(i, j int, p *promptfmt.ContentPart) (geminiPart, bool) {
	ok := true
	bad := func(format string, args ...any) {
		m.failPart(i, j, format, args...)
		ok = false
	}
	if p.Detail != "" {
		bad("%s with a detail (%q) cannot be expressed", article(p.Kind), p.Detail)
	}
	if p.ID != "" {
		bad("%s with a file id (%q) cannot be expressed", article(p.Kind), p.ID)
	}
	if p.Filename != "" {
		bad("%s with a filename (%q) cannot be expressed", article(p.Kind), p.Filename)
	}
	if p.ID != "" && p.Value == "" {
		return geminiPart{}, false // the id is all there is
	}
	md, problem := readMedia(p)
	if problem != "" {
		bad("%s", problem)
		return geminiPart{}, false
	}
	if md.url != "" {
		if problem := checkFamily(p.Kind, md.mediaType); problem != "" {
			bad("%s", problem)
		}
		return geminiPart{FileData: &geminiFileData{MIMEType: md.mediaType, FileURI: md.url}}, ok
	}
	if problem := checkMediaType(p.Kind, md.mediaType); problem != "" {
		bad("%s", problem)
	}
	return geminiPart{InlineData: &geminiBlob{MIMEType: md.mediaType, Data: md.data}}, ok
}
