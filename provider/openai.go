package provider

import (
	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// openAIMessage is one message of a Chat Completions request. Content is
// nil (left out) for an assistant message that only calls tools; ToolCallID
// is set on tool messages only.
type openAIMessage struct {
	Role       string
	Name       string
	ToolCallID string
	Content    *openAIContentValue
	ToolCalls  []openAIToolCall
	extra      object // members read that the model has no field for
}

// AppendJSON writes the message: role, name, tool_call_id, content,
// tool_calls, then its extra members.
func (m openAIMessage) AppendJSON(b []byte) ([]byte, error) {
	b = jsonvalue.AppendString(append(b, `{"role":`...), m.Role)
	if m.Name != "" {
		b = jsonvalue.AppendString(append(b, `,"name":`...), m.Name)
	}
	if m.ToolCallID != "" {
		b = jsonvalue.AppendString(append(b, `,"tool_call_id":`...), m.ToolCallID)
	}
	var err error
	if m.Content != nil {
		if b, err = m.Content.AppendJSON(append(b, `,"content":`...)); err != nil {
			return nil, err
		}
	}
	if len(m.ToolCalls) > 0 {
		b = append(b, `,"tool_calls":[`...)
		for i, c := range m.ToolCalls {
			if i > 0 {
				b = append(b, ',')
			}
			b = jsonvalue.AppendString(append(b, `{"id":`...), c.ID)
			b = jsonvalue.AppendString(append(b, `,"type":`...), c.Type)
			b = jsonvalue.AppendString(append(b, `,"function":{"name":`...), c.Function.Name)
			b = jsonvalue.AppendString(append(b, `,"arguments":`...), c.Function.Arguments)
			b = append(b, "}}"...)
		}
		b = append(b, ']')
	}
	return m.extra.appendMembers(b, true)
}

// openAIContentValue is a message's content: the string Text when Parts is
// nil, else the array Parts.
type openAIContentValue struct {
	Text  string
	Parts []openAIPart
}

// AppendJSON writes the content as a string or as an array of parts.
func (c openAIContentValue) AppendJSON(b []byte) ([]byte, error) {
	if c.Parts == nil {
		return jsonvalue.AppendString(b, c.Text), nil
	}
	return list[openAIPart](c.Parts).AppendJSON(b)
}

// openAIPart is one content part; Type says which of the other fields is
// set: "text" (Text), "image_url" (ImageURL), "input_audio" (InputAudio) or
// "file" (File). Text is a pointer so that an empty text is still sent.
type openAIPart struct {
	Type       string
	Text       *string
	ImageURL   *openAIImageURL
	InputAudio *openAIInputAudio
	File       *openAIFile
	extra      object
}

// AppendJSON writes the part's members, then its extra ones.
func (p openAIPart) AppendJSON(b []byte) ([]byte, error) {
	b = jsonvalue.AppendString(append(b, `{"type":`...), p.Type)
	switch {
	case p.Text != nil:
		b = jsonvalue.AppendString(append(b, `,"text":`...), *p.Text)
	case p.ImageURL != nil:
		b = jsonvalue.AppendString(append(b, `,"image_url":{"url":`...), p.ImageURL.URL)
		if p.ImageURL.Detail != "" {
			b = jsonvalue.AppendString(append(b, `,"detail":`...), p.ImageURL.Detail)
		}
		b = append(b, '}')
	case p.InputAudio != nil:
		b = jsonvalue.AppendString(append(b, `,"input_audio":{"data":`...), p.InputAudio.Data)
		b = jsonvalue.AppendString(append(b, `,"format":`...), p.InputAudio.Format)
		b = append(b, '}')
	case p.File != nil:
		var f object
		if p.File.FileData != "" {
			f.add("file_data", p.File.FileData)
		}
		if p.File.FileID != "" {
			f.add("file_id", p.File.FileID)
		}
		if p.File.Filename != "" {
			f.add("filename", p.File.Filename)
		}
		var err error
		if b, err = f.AppendJSON(append(b, `,"file":`...)); err != nil {
			return nil, err
		}
	}
	return p.extra.appendMembers(b, true)
}

// openAIImageURL is an image: an http(s) URL or a data: URI, with an
// optional detail hint (low, high, auto).
type openAIImageURL struct {
	URL    string
	Detail string
}

// openAIInputAudio is base64 audio data and its format, "wav" or "mp3".
type openAIInputAudio struct {
	Data   string
	Format string
}

// openAIFile is a file: its data as a data: URI, or the id of an uploaded
// file, with an optional filename.
type openAIFile struct {
	FileData string
	FileID   string
	Filename string
}

// openAIToolCall is one call in an assistant message's tool_calls; Type is
// always "function".
type openAIToolCall struct {
	ID       string
	Type     string
	Function openAIFunctionCall
}

// openAIFunctionCall is the function a tool call calls, with its arguments
// as the JSON text the model wrote.
type openAIFunctionCall struct {
	Name      string
	Arguments string
}

// openAIMessages maps the document's messages to a Chat Completions
// body's messages, as the package documentation describes, each with the
// members its metadata keeps.
func (m *mapper) openAIMessages(read map[string]bool) []openAIMessage {
	out := make([]openAIMessage, 0, len(m.msgs))
	for i := range m.msgs {
		m.checkMessage(i)
		known := openAIMessageMembers
		if m.msgs[i].Role != "assistant" {
			known = nil
		}
		extra, parts := m.messageExtras(i, known, openAIMessageOwn, read)
		m.partExtra = parts
		start := len(out)
		switch m.msgs[i].Role {
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
		if len(out) > start {
			out[start].extra = extra
		}
		m.partExtra = nil
	}
	return out
}

// openAIPlain maps message i when it is one text part, as a plain string
// content; ok is false for any other message.
func (m *mapper) openAIPlain(out []openAIMessage, i int, parts []promptfmt.ContentPart) ([]openAIMessage, bool) {
	if len(parts) != 1 || parts[0].Kind != promptfmt.KindText || m.partExtra[0] != nil {
		return out, false // a part with members of its own is an array's
	}
	if m.checkPart(i, 0, &parts[0]) {
		msg := &m.msgs[i]
		out = append(out, openAIMessage{Role: msg.Role, Name: msg.Name, Content: &openAIContentValue{Text: parts[0].Value}})
	}
	return out, true
}

// openAIText maps a system or developer message, whose content is text.
func (m *mapper) openAIText(out []openAIMessage, i int) []openAIMessage {
	msg := &m.msgs[i]
	parts := content(msg)
	if plain, ok := m.openAIPlain(out, i, parts); ok {
		return plain
	}
	var cp []openAIPart
	for j := range parts {
		p := &parts[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind == promptfmt.KindText:
			cp = append(cp, m.withPartExtra(j, openAITextPart(p.Value)))
		default:
			m.misplaced(i, j, p)
		}
	}
	return append(out, openAIMessage{Role: msg.Role, Name: msg.Name, Content: openAIContent(cp)})
}

// openAIUser maps a user message: its text and media in a user message,
// each tool_result in a tool message, in order.
func (m *mapper) openAIUser(out []openAIMessage, i int) []openAIMessage {
	msg := &m.msgs[i]
	parts := content(msg)
	if plain, ok := m.openAIPlain(out, i, parts); ok {
		return plain
	}
	var run []openAIPart // the user content since the last tool_result
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
			run = append(run, m.withPartExtra(j, openAITextPart(p.Value)))
		case promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile:
			if part, ok := m.openAIMedia(i, j, p); ok {
				if back := openAIReadPart(part); back != *p && !m.send {
					m.failPart(i, j, "%s in a form OpenAI's body does not keep (it reads back as %s)", article(p.Kind), describeMedia(back)).NearestPart = &back
				}
				run = append(run, m.withPartExtra(j, part))
			}
		case promptfmt.KindToolResult:
			if !m.send {
				m.failPart(i, j, "a tool_result in a user message (OpenAI's results are tool messages of their own: promptfmt.Send, or request --as, writes it as one)")
				continue
			}
			if run != nil {
				out = append(out, openAIMessage{Role: msg.Role, Name: msg.Name, Content: openAIContent(run)})
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
		out = append(out, openAIMessage{Role: msg.Role, Name: msg.Name, Content: openAIContent(run)})
	}
	if msg.Name != "" && !hasContent {
		m.fail(i, promptfmt.ThingName, "a name (%q) on tool results cannot be expressed", msg.Name)
	}
	return out
}

// openAIAssistant maps an assistant message: its text, then its tool calls.
func (m *mapper) openAIAssistant(out []openAIMessage, i int) []openAIMessage {
	msg := &m.msgs[i]
	parts := content(msg)
	if plain, ok := m.openAIPlain(out, i, parts); ok {
		return plain
	}
	var cp []openAIPart
	var calls []openAIToolCall
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
			cp = append(cp, m.withPartExtra(j, openAITextPart(p.Value)))
		case promptfmt.KindToolCall:
			sawCall = true
			if m.toolCall(i, j, p, true) {
				calls = append(calls, openAIToolCall{ID: p.ID, Type: "function",
					Function: openAIFunctionCall{Name: p.ToolName, Arguments: p.Value}})
			}
		default:
			m.misplaced(i, j, p)
		}
	}
	var c *openAIContentValue
	if cp != nil {
		c = openAIContent(cp)
	}
	return append(out, openAIMessage{Role: msg.Role, Name: msg.Name, Content: c, ToolCalls: calls})
}

// openAITool maps a tool message: a tool message for each result.
func (m *mapper) openAITool(out []openAIMessage, i int) []openAIMessage {
	msg := &m.msgs[i]
	if msg.Name != "" {
		m.fail(i, promptfmt.ThingName, "a name (%q) on a tool message cannot be expressed", msg.Name)
	}
	if !hasToolResults(msg) {
		// STF's ";tool call_id=c1" reply: Document.ForModel makes it a
		// result; written as it is, it would read back changed.
		m.fail(i, promptfmt.ThingRole, "a tool message holds the results of calls (tool_result parts); this one holds none")
		return out
	}
	for j := range msg.Content {
		p := &msg.Content[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind != promptfmt.KindToolResult:
			m.misplaced(i, j, p)
		case !m.send && j > 0:
			m.failPart(i, j, "a second tool_result in a tool message (OpenAI's tool message holds one: promptfmt.Send, or request --as, writes a message for each)")
		default:
			if _, ok := m.toolResult(i, j, p, true); ok {
				if p.ToolName != "" && !m.send {
					near := *p
					near.ToolName = ""
					m.failPart(i, j, "a tool_result with a tool name (OpenAI's names only the call)").NearestPart = &near
				}
				out = append(out, openAIToolMessage(p))
			}
		}
	}
	return out
}

func openAIToolMessage(p *promptfmt.ContentPart) openAIMessage {
	return openAIMessage{Role: "tool", ToolCallID: p.ID, Content: &openAIContentValue{Text: p.Value}}
}

func openAITextPart(s string) openAIPart { return openAIPart{Type: "text", Text: &s} }

// openAIReadPart is the part reading a media part back gives, as
// readOpenAI reads it.
func openAIReadPart(op openAIPart) promptfmt.ContentPart {
	switch {
	case op.ImageURL != nil:
		return promptfmt.ContentPart{Kind: promptfmt.KindImage, Value: op.ImageURL.URL, Detail: op.ImageURL.Detail}
	case op.InputAudio != nil:
		return promptfmt.ContentPart{Kind: promptfmt.KindAudio, Value: op.InputAudio.Data, MediaType: openAIAudioTypes[op.InputAudio.Format]}
	case op.File != nil:
		return promptfmt.ContentPart{Kind: promptfmt.KindFile, Value: op.File.FileData, ID: op.File.FileID, Filename: op.File.Filename}
	}
	return promptfmt.Text(*op.Text)
}

// withPartExtra gives part j of the message being mapped its own members.
func (m *mapper) withPartExtra(j int, p openAIPart) openAIPart {
	p.extra = m.partExtra[j]
	return p
}

// openAIContent is content of parts: a string for one text part.
func openAIContent(parts []openAIPart) *openAIContentValue {
	if len(parts) == 1 && parts[0].Type == "text" && parts[0].extra == nil {
		return &openAIContentValue{Text: *parts[0].Text}
	}
	if parts == nil {
		parts = []openAIPart{}
	}
	return &openAIContentValue{Parts: parts}
}

// openAIMedia maps an image, audio or file part of a user message.
func (m *mapper) openAIMedia(i, j int, p *promptfmt.ContentPart) (openAIPart, bool) {
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
			return openAIPart{}, false
		}
		if problem := checkFamily(p.Kind, p.MediaType); problem != "" {
			bad("%s", problem)
		}
		return openAIPart{Type: "file", File: &openAIFile{FileID: p.ID, Filename: p.Filename}}, ok
	}
	md, problem := readMedia(p)
	if problem != "" {
		bad("%s", problem)
		return openAIPart{}, false
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
		return openAIPart{Type: "image_url", ImageURL: &openAIImageURL{URL: url, Detail: p.Detail}}, ok
	case promptfmt.KindAudio:
		if md.url != "" {
			bad("an audio URL cannot be expressed (OpenAI takes audio as base64 data)")
			return openAIPart{}, false
		}
		format := openAIAudioFormat(md.mediaType)
		switch {
		case md.mediaType == "":
			bad("an audio part needs a media type (OpenAI takes wav and mp3)")
		case format == "":
			bad("audio of type %q cannot be expressed (OpenAI takes wav and mp3)", md.mediaType)
		}
		return openAIPart{Type: "input_audio", InputAudio: &openAIInputAudio{Data: md.data, Format: format}}, ok
	default: // file
		if md.url != "" {
			bad("a file URL cannot be expressed (OpenAI takes file data or a file id)")
			return openAIPart{}, false
		}
		if problem := checkMediaType(p.Kind, md.mediaType); problem != "" {
			bad("%s", problem)
		}
		return openAIPart{Type: "file", File: &openAIFile{FileData: md.asDataURI(), Filename: p.Filename}}, ok
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
