package provider

import (
	"github.com/promptfmt/promptfmt"
)

// OpenAIRequest is the message part of a Chat Completions request body:
// {"messages": [...]}.
type OpenAIRequest struct {
	Messages []OpenAIMessage `json:"messages"`
}

// OpenAIMessage is one message of a Chat Completions request. Content is
// nil (left out) for an assistant message that only calls tools; ToolCallID
// is set on tool messages only.
type OpenAIMessage struct {
	Role       string           `json:"role"`
	Name       string           `json:"name,omitempty"`
	ToolCallID string           `json:"tool_call_id,omitempty"`
	Content    *OpenAIContent   `json:"content,omitempty"`
	ToolCalls  []OpenAIToolCall `json:"tool_calls,omitempty"`
}

// OpenAIContent is a message's content: the string Text when Parts is nil,
// else the array Parts.
type OpenAIContent struct {
	Text  string
	Parts []OpenAIPart
}

// MarshalJSON encodes the content as a string or as an array of parts.
func (c OpenAIContent) MarshalJSON() ([]byte, error) {
	if c.Parts != nil {
		return marshal(c.Parts)
	}
	return marshal(c.Text)
}

// OpenAIPart is one content part; Type says which of the other fields is
// set: "text" (Text), "image_url" (ImageURL), "input_audio" (InputAudio) or
// "file" (File). Text is a pointer so that an empty text is still sent.
type OpenAIPart struct {
	Type       string            `json:"type"`
	Text       *string           `json:"text,omitempty"`
	ImageURL   *OpenAIImageURL   `json:"image_url,omitempty"`
	InputAudio *OpenAIInputAudio `json:"input_audio,omitempty"`
	File       *OpenAIFile       `json:"file,omitempty"`
}

// OpenAIImageURL is an image: an http(s) URL or a data: URI, with an
// optional detail hint (low, high, auto).
type OpenAIImageURL struct {
	URL    string `json:"url"`
	Detail string `json:"detail,omitempty"`
}

// OpenAIInputAudio is base64 audio data and its format, "wav" or "mp3".
type OpenAIInputAudio struct {
	Data   string `json:"data"`
	Format string `json:"format"`
}

// OpenAIFile is a file: its data as a data: URI, or the id of an uploaded
// file, with an optional filename.
type OpenAIFile struct {
	FileData string `json:"file_data,omitempty"`
	FileID   string `json:"file_id,omitempty"`
	Filename string `json:"filename,omitempty"`
}

// OpenAIToolCall is one call in an assistant message's tool_calls; Type is
// always "function".
type OpenAIToolCall struct {
	ID       string             `json:"id"`
	Type     string             `json:"type"`
	Function OpenAIFunctionCall `json:"function"`
}

// OpenAIFunctionCall is the function a tool call calls, with its arguments
// as the JSON text the model wrote.
type OpenAIFunctionCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// OpenAI maps msgs to the messages of a Chat Completions request, as the
// package documentation describes. When something cannot be expressed it
// returns nil and every problem, joined.
func OpenAI(msgs []promptfmt.Message) (*OpenAIRequest, error) {
	m := newMapper(nameOpenAI, "OpenAI", msgs)
	out := make([]OpenAIMessage, 0, len(msgs))
	for i := range msgs {
		m.checkMessage(i)
		switch msgs[i].Role {
		case "system", "developer":
			out = m.openAIText(out, i)
		case "user":
			out = m.openAIUser(out, i)
		case "assistant":
			out = m.openAIAssistant(out, i)
		case "tool":
			out = m.openAITool(out, i)
		default:
			m.badRole(i)
		}
	}
	if err := m.err(); err != nil {
		return nil, err
	}
	return &OpenAIRequest{Messages: out}, nil
}

// openAIPlain maps message i when it is one text part, as a plain string
// content; ok is false for any other message.
func (m *mapper) openAIPlain(out []OpenAIMessage, i int, parts []promptfmt.ContentPart) ([]OpenAIMessage, bool) {
	if len(parts) != 1 || parts[0].Kind != promptfmt.KindText {
		return out, false
	}
	if m.checkPart(i, 0, &parts[0]) {
		msg := &m.msgs[i]
		out = append(out, OpenAIMessage{Role: msg.Role, Name: msg.Name, Content: &OpenAIContent{Text: parts[0].Value}})
	}
	return out, true
}

// openAIText maps a system or developer message, whose content is text.
func (m *mapper) openAIText(out []OpenAIMessage, i int) []OpenAIMessage {
	msg := &m.msgs[i]
	parts := content(msg)
	if plain, ok := m.openAIPlain(out, i, parts); ok {
		return plain
	}
	var cp []OpenAIPart
	for j := range parts {
		p := &parts[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind == promptfmt.KindText:
			cp = append(cp, openAITextPart(p.Value))
		default:
			m.misplaced(i, j, p)
		}
	}
	return append(out, OpenAIMessage{Role: msg.Role, Name: msg.Name, Content: openAIContent(cp)})
}

// openAIUser maps a user message: its text and media in a user message,
// each tool_result in a tool message, in order.
func (m *mapper) openAIUser(out []OpenAIMessage, i int) []OpenAIMessage {
	msg := &m.msgs[i]
	parts := content(msg)
	if plain, ok := m.openAIPlain(out, i, parts); ok {
		return plain
	}
	var run []OpenAIPart // the user content since the last tool_result
	hasContent := false
	for j := range parts {
		p := &parts[j]
		if p.Kind != promptfmt.KindToolResult {
			hasContent = true
		}
		if !m.checkPart(i, j, p) {
			continue
		}
		switch p.Kind {
		case promptfmt.KindText:
			run = append(run, openAITextPart(p.Value))
		case promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile:
			if part, ok := m.openAIMedia(i, j, p); ok {
				run = append(run, part)
			}
		case promptfmt.KindToolResult:
			if run != nil {
				out = append(out, OpenAIMessage{Role: msg.Role, Name: msg.Name, Content: openAIContent(run)})
				run = nil
			}
			if _, ok := m.toolResult(i, j, p, true); ok {
				out = append(out, openAIToolMessage(p))
			}
		default:
			m.misplaced(i, j, p)
		}
	}
	if run != nil {
		out = append(out, OpenAIMessage{Role: msg.Role, Name: msg.Name, Content: openAIContent(run)})
	}
	if msg.Name != "" && !hasContent {
		m.fail(i, promptfmt.ThingName, "a name (%q) on tool results cannot be expressed", msg.Name)
	}
	return out
}

// openAIAssistant maps an assistant message: its text, then its tool calls.
func (m *mapper) openAIAssistant(out []OpenAIMessage, i int) []OpenAIMessage {
	msg := &m.msgs[i]
	parts := content(msg)
	if plain, ok := m.openAIPlain(out, i, parts); ok {
		return plain
	}
	var cp []OpenAIPart
	var calls []OpenAIToolCall
	sawCall := false
	for j := range parts {
		p := &parts[j]
		if !m.checkPart(i, j, p) {
			continue
		}
		switch p.Kind {
		case promptfmt.KindText:
			if sawCall {
				m.failPart(i, j, "a text part after a tool_call cannot be expressed (OpenAI puts an assistant's text before its tool calls)")
				continue
			}
			cp = append(cp, openAITextPart(p.Value))
		case promptfmt.KindToolCall:
			sawCall = true
			if m.toolCall(i, j, p, true) {
				calls = append(calls, OpenAIToolCall{ID: p.ID, Type: "function",
					Function: OpenAIFunctionCall{Name: p.ToolName, Arguments: p.Value}})
			}
		default:
			m.misplaced(i, j, p)
		}
	}
	var c *OpenAIContent
	if cp != nil {
		c = openAIContent(cp)
	}
	return append(out, OpenAIMessage{Role: msg.Role, Name: msg.Name, Content: c, ToolCalls: calls})
}

// openAITool maps a tool message: a tool message for each result.
func (m *mapper) openAITool(out []OpenAIMessage, i int) []OpenAIMessage {
	msg := &m.msgs[i]
	if msg.Name != "" {
		m.fail(i, promptfmt.ThingName, "a name (%q) on a tool message cannot be expressed", msg.Name)
	}
	if !hasToolResults(msg) {
		if p, ok := m.toolMessageResult(i); ok {
			if _, ok := m.toolResult(i, 0, &p, true); ok {
				out = append(out, openAIToolMessage(&p))
			}
		}
		return out
	}
	for j := range msg.Content {
		p := &msg.Content[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind != promptfmt.KindToolResult:
			m.misplaced(i, j, p)
		default:
			if _, ok := m.toolResult(i, j, p, true); ok {
				out = append(out, openAIToolMessage(p))
			}
		}
	}
	return out
}

func openAIToolMessage(p *promptfmt.ContentPart) OpenAIMessage {
	return OpenAIMessage{Role: "tool", ToolCallID: p.ID, Content: &OpenAIContent{Text: p.Value}}
}

func openAITextPart(s string) OpenAIPart { return OpenAIPart{Type: "text", Text: &s} }

// openAIContent is content of parts: a string for one text part.
func openAIContent(parts []OpenAIPart) *OpenAIContent {
	if len(parts) == 1 && parts[0].Type == "text" {
		return &OpenAIContent{Text: *parts[0].Text}
	}
	if parts == nil {
		parts = []OpenAIPart{}
	}
	return &OpenAIContent{Parts: parts}
}

// openAIMedia maps an image, audio or file part of a user message.
func (m *mapper) openAIMedia(i, j int, p *promptfmt.ContentPart) (OpenAIPart, bool) {
	ok := true
	bad := func(format string, args ...any) {
		m.failPart(i, j, format, args...)
		ok = false
	}
	if p.Kind != promptfmt.KindImage && p.Detail != "" {
		bad("%s with a detail (%q) cannot be expressed", article(p.Kind), p.Detail)
	}
	if p.Kind != promptfmt.KindFile {
		if p.ID != "" {
			bad("%s with a file id (%q) cannot be expressed", article(p.Kind), p.ID)
		}
		if p.Filename != "" {
			bad("%s with a filename (%q) cannot be expressed", article(p.Kind), p.Filename)
		}
	}
	if p.Kind == promptfmt.KindFile && p.ID != "" {
		if p.Value != "" {
			bad("a file part with both a file id and data cannot be expressed (OpenAI takes one)")
			return OpenAIPart{}, false
		}
		if problem := checkFamily(p.Kind, p.MediaType); problem != "" {
			bad("%s", problem)
		}
		return OpenAIPart{Type: "file", File: &OpenAIFile{FileID: p.ID, Filename: p.Filename}}, ok
	}
	md, problem := readMedia(p)
	if problem != "" {
		bad("%s", problem)
		return OpenAIPart{}, false
	}
	switch p.Kind {
	case promptfmt.KindImage:
		url := md.url
		if url != "" {
			if !isHTTP(url) {
				bad("an image URL of scheme %q cannot be expressed (OpenAI takes http, https and data: URLs)", scheme(url))
			}
			if problem := checkFamily(p.Kind, md.mediaType); problem != "" {
				bad("%s", problem)
			}
		} else {
			if problem := checkMediaType(p.Kind, md.mediaType); problem != "" {
				bad("%s", problem)
			}
			url = md.asDataURI()
		}
		return OpenAIPart{Type: "image_url", ImageURL: &OpenAIImageURL{URL: url, Detail: p.Detail}}, ok
	case promptfmt.KindAudio:
		if md.url != "" {
			bad("an audio URL cannot be expressed (OpenAI takes audio as base64 data)")
			return OpenAIPart{}, false
		}
		format := openAIAudioFormat(md.mediaType)
		switch {
		case md.mediaType == "":
			bad("an audio part needs a media type (OpenAI takes wav and mp3)")
		case format == "":
			bad("audio of type %q cannot be expressed (OpenAI takes wav and mp3)", md.mediaType)
		}
		return OpenAIPart{Type: "input_audio", InputAudio: &OpenAIInputAudio{Data: md.data, Format: format}}, ok
	default: // file
		if md.url != "" {
			bad("a file URL cannot be expressed (OpenAI takes file data or a file id)")
			return OpenAIPart{}, false
		}
		if problem := checkMediaType(p.Kind, md.mediaType); problem != "" {
			bad("%s", problem)
		}
		return OpenAIPart{Type: "file", File: &OpenAIFile{FileData: md.asDataURI(), Filename: p.Filename}}, ok
	}
}

// openAIAudioFormat returns OpenAI's name for an audio media type, "" for
// one it does not take. The bare names are STF's format field.
func openAIAudioFormat(mt string) string {
	switch baseType(mt) {
	case "audio/wav", "audio/x-wav", "audio/wave", "audio/vnd.wave", "wav":
		return "wav"
	case "audio/mpeg", "audio/mp3", "mp3":
		return "mp3"
	}
	return ""
}
