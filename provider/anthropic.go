package provider

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/wire"
)

// anthropicSystem is the system prompt: the string Text when Blocks is nil,
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

// anthropicTurn is one turn: role "user" or "assistant" and its content,
// a string when Text is set, else the blocks.
type anthropicTurn struct {
	Role    string
	Text    *string
	Content []anthropicBlock
	extra   object // members read that the model has no field for
}

// MarshalJSON writes role, content and the turn's other members.
func (t anthropicTurn) MarshalJSON() ([]byte, error) {
	o := object{{"role", t.Role}}
	if t.Text != nil {
		o.add("content", *t.Text)
	} else {
		o.add("content", t.Content)
	}
	return (append(o, t.extra...)).MarshalJSON()
}

// anthropicBlock is one content block; Type says which other fields are
// set: "text" (Text), "image" and "document" (Source, and Title for a
// document), "tool_use" (ID, Name, Input) or "tool_result" (ToolUseID,
// Content).
type anthropicBlock struct {
	Type      string           `json:"type"`
	Text      *string          `json:"text,omitempty"`
	Source    *anthropicSource `json:"source,omitempty"`
	Title     string           `json:"title,omitempty"`
	ID        string           `json:"id,omitempty"`
	Name      string           `json:"name,omitempty"`
	Input     json.RawMessage  `json:"input,omitempty"`
	ToolUseID string           `json:"tool_use_id,omitempty"`
	Content   string           `json:"content,omitempty"`
	extra     object
}

// MarshalJSON writes the block's members, then its extra ones.
func (b anthropicBlock) MarshalJSON() ([]byte, error) {
	type plain anthropicBlock
	raw, err := marshal(plain(b))
	if err != nil {
		return nil, err
	}
	return withExtras(raw, b.extra)
}

// anthropicSource is where an image or document comes from: Type "base64"
// with MediaType and Data, "url" with URL, or "file" with FileID.
type anthropicSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type,omitempty"`
	Data      string `json:"data,omitempty"`
	URL       string `json:"url,omitempty"`
	FileID    string `json:"file_id,omitempty"`
}

// anthropicImageTypes are the image media types the API takes.
var anthropicImageTypes = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// anthropicPartMembers are the members of each kind of block beyond those
// the mapping writes (wire.AnthropicPart: the SDK's block params').
var anthropicPartMembers = kindKeys(wire.AnthropicPart)

func anthropicPartMember(k promptfmt.Kind, name string) bool { return anthropicPartMembers[k][name] }

func textBlock(s string) anthropicBlock { return anthropicBlock{Type: "text", Text: &s} }

// anthropicMessages maps the document's messages to the system prompt
// and the turns of a Messages body, as the package documentation
// describes; read are the metadata keys a body of this format had.
func (m *mapper) anthropicMessages(read map[string]bool) (*anthropicSystem, []anthropicTurn) {
	turns := make([]anthropicTurn, 0, len(m.msgs))
	var system []anthropicBlock
	systems := 0
	started := false
	for i := range m.msgs {
		msg := &m.msgs[i]
		m.checkMessage(i)
		m.noName(i)
		own := anthropicMessageOwn
		if msg.Role == "system" || msg.Role == "developer" {
			own = nil // no object of its own: only its blocks' members
		}
		extra, parts := m.messageExtras(i, nil, own, withPartMembers(read, msg, anthropicPartMember))
		m.partExtra = parts
		role := msg.Role
		switch role {
		case "system", "developer":
			switch {
			case started:
				m.fail(i, promptfmt.ThingRole, "a %s message after the conversation has started cannot be expressed (Anthropic's system prompt comes before it)", role)
			case role == "developer" && !m.send:
				m.fail(i, promptfmt.ThingRole, "a developer message cannot be kept (Anthropic's system prompt reads back as a system message)")
			case systems > 0 && !m.send:
				m.fail(i, promptfmt.ThingMessages, "a second system message cannot be kept (Anthropic's system prompt reads back as one message)")
			default:
				for _, k := range extra {
					m.fail(i, promptfmt.ThingMetadata, "the metadata key %q (Anthropic's system prompt has no object to hold it)", k.key).Key = k.key
				}
				system = append(system, m.systemBlocks(i)...)
				systems++
			}
			m.partExtra = nil
			continue
		case "user", "assistant":
		case "tool":
			role = "user"
			if !hasToolResults(msg) {
				// STF's ";tool call_id=c1" reply: Document.ForModel makes it a
				// result; written as it is, it would read back changed.
				m.fail(i, promptfmt.ThingRole, "a tool message holds the results of calls (tool_result parts); this one holds none")
				started = true
				continue
			}
			if !m.send {
				m.fail(i, promptfmt.ThingRole, "a tool message cannot be kept (Anthropic's results are tool_result blocks of a user turn: promptfmt.Send, or request --as, writes it as one)")
			}
		default:
			m.badRole(i)
			started = true
			continue
		}
		started = true
		t := anthropicTurn{Role: role, Content: m.anthropicBlocks(i), extra: extra}
		if n := len(turns); m.send && n > 0 && turns[n-1].Role == role {
			// Decision (consecutive turns): merged when sending.
			if extra != nil {
				m.fail(i, promptfmt.ThingMetadata, "members of a message merged into the turn before it cannot be expressed")
			}
			turns[n-1].Content = append(turns[n-1].Content, t.Content...)
			turns[n-1].Text = nil
		} else {
			turns = append(turns, t)
		}
		if last := &turns[len(turns)-1]; !m.send && len(last.Content) == 1 && last.Content[0].Type == "text" && last.Content[0].extra == nil {
			// One plain text: a string, the API's shorthand, so that fmt
			// keeps the usual form. Sent, content is always blocks, as
			// the export wrote it.
			last.Text = last.Content[0].Text
		}
		m.partExtra = nil
	}
	switch {
	case len(system) == 1 && system[0].extra == nil:
		return &anthropicSystem{Text: *system[0].Text}, turns
	case len(system) > 0:
		return &anthropicSystem{Blocks: system}, turns
	}
	return nil, turns
}

// systemBlocks returns the text blocks of system message i. Sending, an
// empty text beside others is left out.
func (m *mapper) systemBlocks(i int) []anthropicBlock {
	parts := content(&m.msgs[i])
	var blocks []anthropicBlock
	empty := true
	for j := range parts {
		if p := &parts[j]; p.Kind != promptfmt.KindText || p.Value != "" {
			empty = false
		}
	}
	if empty {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (%s refuses empty text)", m.label)
		return nil
	}
	for j := range parts {
		p := &parts[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind != promptfmt.KindText:
			m.misplaced(i, j, p)
		default:
			if b, ok := m.anthropicText(i, j, p); ok {
				blocks = append(blocks, b)
			}
		}
	}
	return blocks
}

// anthropicText maps text part j of message i; ok is false for an empty
// text, which sending leaves out and which is refused otherwise.
func (m *mapper) anthropicText(i, j int, p *promptfmt.ContentPart) (anthropicBlock, bool) {
	switch {
	case p.Value == "":
		if !m.send {
			m.failPart(i, j, "an empty text part cannot be expressed (Anthropic refuses empty text)")
		}
		return anthropicBlock{}, false
	case strings.TrimSpace(p.Value) == "":
		m.failPart(i, j, "a text part of only white space cannot be expressed (Anthropic refuses blank text)")
		return anthropicBlock{}, false
	}
	b := textBlock(p.Value)
	b.extra = m.partExtra[j]
	return b, true
}

// anthropicBlocks maps the content of user, assistant or tool message i.
func (m *mapper) anthropicBlocks(i int) []anthropicBlock {
	msg := &m.msgs[i]
	parts := content(msg)
	blocks := make([]anthropicBlock, 0, len(parts))
	empty := true
	for j := range parts {
		if p := &parts[j]; p.Kind != promptfmt.KindText || p.Value != "" {
			empty = false
		}
	}
	if empty {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (Anthropic refuses empty text)")
		return nil
	}
	for j := range parts {
		p := &parts[j]
		if !m.checkPart(i, j, p) {
			continue
		}
		var b anthropicBlock
		ok := false
		switch {
		case msg.Role == "tool" && p.Kind != promptfmt.KindToolResult:
			m.misplaced(i, j, p)
		case p.Kind == promptfmt.KindText:
			b, ok = m.anthropicText(i, j, p)
		case p.Kind == promptfmt.KindAudio:
			m.failPart(i, j, "an audio part cannot be expressed")
		case (p.Kind == promptfmt.KindImage || p.Kind == promptfmt.KindFile) && msg.Role == "user":
			b, ok = m.anthropicMedia(i, j, p)
		case p.Kind == promptfmt.KindToolCall && msg.Role == "assistant":
			b, ok = m.anthropicToolUse(i, j, p)
		case p.Kind == promptfmt.KindToolResult && msg.Role != "assistant":
			b, ok = m.anthropicResult(i, j, p)
		default:
			m.misplaced(i, j, p)
		}
		if ok {
			b.extra = m.partExtra[j]
			blocks = append(blocks, b)
		}
	}
	return blocks
}

// anthropicToolUse maps a tool_call part: its arguments, a JSON object,
// are the block's input.
func (m *mapper) anthropicToolUse(i, j int, p *promptfmt.ContentPart) (anthropicBlock, bool) {
	ok := m.toolCall(i, j, p, true)
	input, fine := m.callArguments(i, j, p, ok)
	if !ok || !fine {
		return anthropicBlock{}, false
	}
	return anthropicBlock{Type: "tool_use", ID: p.ID, Name: p.ToolName, Input: input}, true
}

// callArguments checks a tool_call's arguments, which Anthropic and Gemini
// send as a JSON object. Written to be kept, they must be the compact JSON
// a reader gives back (the nearest part has them so); report is false when
// the call was refused already, so only what is not yet said is.
func (m *mapper) callArguments(i, j int, p *promptfmt.ContentPart, report bool) (json.RawMessage, bool) {
	if m.send {
		if !jsonObject(p.Value) {
			if report {
				m.failPart(i, j, "tool_call arguments are not a JSON object: %s", short(p.Value))
			}
			return nil, false
		}
		return json.RawMessage(compactJSON([]byte(p.Value))), true // appended as it is
	}
	v, err := jsontree.Parse([]byte(p.Value))
	switch {
	case err != nil || v.Kind != jsontree.Object:
		if report {
			m.failPart(i, j, "tool_call arguments are not a JSON object: %s", short(p.Value))
		}
		return nil, false
	case compactJSON([]byte(p.Value)) != p.Value:
		if report {
			near := *p
			near.Value = compactJSON([]byte(p.Value))
			m.failPart(i, j, "tool_call arguments with white space between their tokens cannot be kept (%s keeps them compact)", m.label).NearestPart = &near
		}
		return nil, false
	}
	return json.RawMessage(p.Value), true
}

// anthropicResult maps a tool_result part of a user or tool message.
func (m *mapper) anthropicResult(i, j int, p *promptfmt.ContentPart) (anthropicBlock, bool) {
	if _, ok := m.toolResult(i, j, p, true); !ok {
		return anthropicBlock{}, false
	}
	if p.ToolName != "" && !m.send {
		near := *p
		near.ToolName = ""
		m.failPart(i, j, "a tool_result with a tool name cannot be kept (Anthropic's names only the call)").NearestPart = &near
		return anthropicBlock{}, false
	}
	return anthropicBlock{Type: "tool_result", ToolUseID: p.ID, Content: p.Value}, true
}

// anthropicMedia maps an image or file part of a user message. What
// Anthropic has no place for (detail, an image's filename, a file id
// beside data) is refused with the part without it as the nearest; in a
// form Anthropic does not keep (a data: URI, a media type on a URL) it is
// written in Anthropic's when sending, else refused with that form as the
// nearest.
func (m *mapper) anthropicMedia(i, j int, p *promptfmt.ContentPart) (anthropicBlock, bool) {
	near := *p
	var lost []string
	if p.Detail != "" {
		lost = append(lost, fmt.Sprintf("a detail (%q)", p.Detail))
		near.Detail = ""
	}
	if p.Kind == promptfmt.KindImage && p.Filename != "" {
		lost = append(lost, fmt.Sprintf("a filename (%q)", p.Filename))
		near.Filename = ""
	}
	if p.ID != "" && p.Value != "" {
		lost = append(lost, fmt.Sprintf("a file id (%q) beside its data", p.ID))
		near.ID = ""
	}
	b, problems := anthropicMediaBlock(&near)
	if problems != nil {
		m.failPart(i, j, "%s", strings.Join(problems, "; "))
		return b, false
	}
	back := anthropicReadMedia(b)
	switch {
	case lost != nil:
		m.failPart(i, j, "%s with %s cannot be expressed", article(p.Kind), strings.Join(lost, " and ")).NearestPart = &back
		return b, false
	case !m.send && back != *p:
		m.failPart(i, j, "%s in a form Anthropic's body does not keep (it reads back as %s)", article(p.Kind), describeMedia(back)).NearestPart = &back
		return b, false
	}
	return b, true
}

// anthropicMediaBlock is the block of image or file part p, or what keeps
// Anthropic from taking it.
func anthropicMediaBlock(p *promptfmt.ContentPart) (anthropicBlock, []string) {
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	b := anthropicBlock{Type: "image"}
	if p.Kind == promptfmt.KindFile {
		b = anthropicBlock{Type: "document", Title: p.Filename}
	}
	if p.ID != "" {
		if problem := checkFamily(p.Kind, p.MediaType); problem != "" {
			bad("%s", problem)
		}
		b.Source = &anthropicSource{Type: "file", FileID: p.ID}
		return b, problems
	}
	md, problem := readMedia(p)
	if problem != "" {
		return b, []string{problem}
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
		return b, problems
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
	return b, problems
}

// anthropicReadMedia is the part reading media block b back gives, as
// readAnthropic reads it.
func anthropicReadMedia(b anthropicBlock) promptfmt.ContentPart {
	p := promptfmt.ContentPart{Kind: promptfmt.KindImage}
	if b.Type == "document" {
		p = promptfmt.ContentPart{Kind: promptfmt.KindFile, Filename: b.Title}
	}
	switch s := b.Source; s.Type {
	case "base64":
		p.Value, p.MediaType = s.Data, s.MediaType
	case "url":
		p.Value = s.URL
	default:
		p.ID = s.FileID
	}
	return p
}
