package provider

import (
	"encoding/json"
	"strings"

	"github.com/promptfmt/promptfmt"
)

// AnthropicRequest is the message part of a Messages request body:
// {"system": ..., "messages": [...]}, with System nil (left out) when there
// is no system prompt.
type anthropicRequest struct {
	System   *anthropicSystem   `json:"system,omitempty"`
	Messages []anthropicMessage `json:"messages"`
}

// AnthropicSystem is the system prompt: the string Text when Blocks is nil,
// else the array of text blocks Blocks.
type anthropicSystem struct {
	Text   string
	Blocks []anthropicBlock
}

// MarshalJSON encodes the system prompt as a string or an array of blocks.
func (s anthropicSystem) MarshalJSON() ([]byte, error) {
	if s.Blocks != nil {
		return marshal(s.Blocks)
	}
	return marshal(s.Text)
}

// AnthropicMessage is one turn: role "user" or "assistant" and its content
// blocks.
type anthropicMessage struct {
	Role    string           `json:"role"`
	Content []anthropicBlock `json:"content"`
}

// AnthropicBlock is one content block; Type says which other fields are
// set: "text" (Text), "image" and "document" (Source, and Title for a
// document), "tool_use" (ID, Name, Input) or "tool_result" (ToolUseID,
// Content).
type anthropicBlock struct {
	Type      string           `json:"type"`
	Text      string           `json:"text,omitempty"`
	Source    *anthropicSource `json:"source,omitempty"`
	Title     string           `json:"title,omitempty"`
	ID        string           `json:"id,omitempty"`
	Name      string           `json:"name,omitempty"`
	Input     json.RawMessage  `json:"input,omitempty"`
	ToolUseID string           `json:"tool_use_id,omitempty"`
	Content   string           `json:"content,omitempty"`
}

// AnthropicSource is where an image or document comes from: Type "base64"
// with MediaType and Data, or Type "url" with URL.
type anthropicSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
}

// anthropicImageTypes are the image media types the API takes.
var anthropicImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// Anthropic maps msgs to the system prompt and messages of a Messages
// request, as the package documentation describes. When something cannot
// be expressed it returns nil and every problem, joined.
func exportAnthropic(msgs []promptfmt.Message) (*anthropicRequest, error) {
	m := newMapper(nameAnthropic, "Anthropic", msgs)
	req := &anthropicRequest{Messages: make([]anthropicMessage, 0, len(msgs))}
	var system []anthropicBlock
	started := false
	for i := range msgs {
		msg := &msgs[i]
		m.checkMessage(i)
		m.noName(i)
		role := msg.Role
		switch role {
		case "system", "developer":
			if started {
				m.fail(i, promptfmt.ThingRole, "a %s message after the conversation has started cannot be expressed (Anthropic's system prompt comes before it)", role)
				continue
			}
			for _, t := range m.systemTexts(i) {
				system = append(system, anthropicBlock{Type: "text", Text: t})
			}
			continue
		case "user", "assistant":
		case "tool":
			role = "user"
		default:
			m.badRole(i)
			started = true
			continue
		}
		started = true
		var blocks []anthropicBlock
		if msg.Role == "tool" {
			blocks = m.anthropicTool(i)
		} else {
			blocks = m.anthropicBlocks(i)
		}
		if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == role {
			req.Messages[n-1].Content = append(req.Messages[n-1].Content, blocks...)
		} else {
			req.Messages = append(req.Messages, anthropicMessage{Role: role, Content: blocks})
		}
	}
	if err := m.err(); err != nil {
		return nil, err
	}
	switch {
	case len(system) == 1:
		req.System = &anthropicSystem{Text: system[0].Text}
	case len(system) > 1:
		req.System = &anthropicSystem{Blocks: system}
	}
	return req, nil
}

// systemTexts returns the texts of system message i: its non-empty text
// parts. A message with nothing else is refused.
func (m *mapper) systemTexts(i int) []string {
	parts := content(&m.msgs[i])
	var texts []string
	empty := true
	for j := range parts {
		p := &parts[j]
		switch {
		case !m.checkPart(i, j, p):
			empty = false
		case p.Kind != promptfmt.KindText:
			empty = false
			m.misplaced(i, j, p)
		case p.Value != "":
			empty = false
			if m.blankText(i, j, p) {
				texts = append(texts, p.Value)
			}
		}
	}
	if empty {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (%s refuses empty text)", m.label)
	}
	return texts
}

// blankText reports a text part of only white space, which Anthropic
// refuses, and returns whether the part can be sent.
func (m *mapper) blankText(i, j int, p *promptfmt.ContentPart) bool {
	if m.format == nameAnthropic && strings.TrimSpace(p.Value) == "" {
		m.failPart(i, j, "a text part of only white space cannot be expressed (Anthropic refuses blank text)")
		return false
	}
	return true
}

// anthropicBlocks maps the content of user or assistant message i.
func (m *mapper) anthropicBlocks(i int) []anthropicBlock {
	msg := &m.msgs[i]
	parts := content(msg)
	blocks := make([]anthropicBlock, 0, len(parts))
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
			if p.Value != "" && m.blankText(i, j, p) {
				blocks = append(blocks, anthropicBlock{Type: "text", Text: p.Value})
			}
		case p.Kind == promptfmt.KindAudio:
			m.failPart(i, j, "an audio part cannot be expressed")
		case (p.Kind == promptfmt.KindImage || p.Kind == promptfmt.KindFile) && msg.Role == "user":
			if b, ok := m.anthropicMedia(i, j, p); ok {
				blocks = append(blocks, b)
			}
		case p.Kind == promptfmt.KindToolCall && msg.Role == "assistant":
			ok := m.toolCall(i, j, p, true)
			if !jsonObject(p.Value) {
				m.failPart(i, j, "tool_call arguments are not a JSON object: %s", short(p.Value))
				ok = false
			}
			if ok {
				blocks = append(blocks, anthropicBlock{Type: "tool_use", ID: p.ID, Name: p.ToolName, Input: json.RawMessage(p.Value)})
			}
		case p.Kind == promptfmt.KindToolResult && msg.Role == "user":
			if _, ok := m.toolResult(i, j, p, true); ok {
				blocks = append(blocks, anthropicResult(p))
			}
		default:
			m.misplaced(i, j, p)
		}
	}
	if empty {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (Anthropic refuses empty text)")
	}
	return blocks
}

// anthropicTool maps tool message i: its tool_result blocks.
func (m *mapper) anthropicTool(i int) []anthropicBlock {
	msg := &m.msgs[i]
	if !hasToolResults(msg) {
		if p, ok := m.toolMessageResult(i); ok {
			if _, ok := m.toolResult(i, 0, &p, true); ok {
				return []anthropicBlock{anthropicResult(&p)}
			}
		}
		return nil
	}
	blocks := make([]anthropicBlock, 0, len(msg.Content))
	for j := range msg.Content {
		p := &msg.Content[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind != promptfmt.KindToolResult:
			m.misplaced(i, j, p)
		default:
			if _, ok := m.toolResult(i, j, p, true); ok {
				blocks = append(blocks, anthropicResult(p))
			}
		}
	}
	return blocks
}

func anthropicResult(p *promptfmt.ContentPart) anthropicBlock {
	return anthropicBlock{Type: "tool_result", ToolUseID: p.ID, Content: p.Value}
}

// anthropicMedia maps an image or file part of a user message.
func (m *mapper) anthropicMedia(i, j int, p *promptfmt.ContentPart) (anthropicBlock, bool) {
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
	if p.Kind == promptfmt.KindImage && p.Filename != "" {
		bad("an image part with a filename (%q) cannot be expressed", p.Filename)
	}
	if p.ID != "" && p.Value == "" {
		return anthropicBlock{}, false // the id is all there is
	}
	md, problem := readMedia(p)
	if problem != "" {
		bad("%s", problem)
		return anthropicBlock{}, false
	}
	b := anthropicBlock{Type: "image"}
	if p.Kind == promptfmt.KindFile {
		b = anthropicBlock{Type: "document", Title: p.Filename}
	}
	mt := baseType(md.mediaType)
	if md.url != "" {
		if !isHTTP(md.url) {
			bad("%s of scheme %q cannot be expressed (Anthropic takes http and https URLs)", urlNoun(p.Kind), scheme(md.url))
		}
		if problem := checkFamily(p.Kind, md.mediaType); problem != "" {
			bad("%s", problem)
		} else if p.Kind == promptfmt.KindFile && mt != "" && mt != "application/pdf" {
			bad("a file of type %q cannot be expressed (Anthropic documents are PDF)", md.mediaType)
		}
		b.Source = &anthropicSource{Type: "url", URL: md.url}
		return b, ok
	}
	switch problem := checkMediaType(p.Kind, md.mediaType); {
	case problem != "":
		bad("%s", problem)
	case p.Kind == promptfmt.KindImage && !anthropicImageTypes[mt]:
		bad("an image of type %q cannot be expressed (Anthropic takes image/jpeg, image/png, image/gif and image/webp)", md.mediaType)
	case p.Kind == promptfmt.KindFile && mt != "application/pdf":
		bad("a file of type %q cannot be expressed (Anthropic documents are PDF)", md.mediaType)
	}
	b.Source = &anthropicSource{Type: "base64", MediaType: mt, Data: md.data}
	return b, ok
}
