// Package promptfmt is the shared model that every format package of this
// module reads into and writes from: a Document holds Messages, a Message
// holds ContentParts, and the Request holds what the document asks of a
// model beyond its messages (model, sampling settings, tools, output
// schema). The package knows no format; the formats live in the
// subpackages prompty, stf, prapti, pdl, promptfile, dotprompt and
// provider (request bodies of OpenAI, Anthropic and Gemini), each with the
// same face, [Format], listed by package formats:
//
//	Parse(src []byte, opts ...Option) (*promptfmt.Document, error)
//	Write(w io.Writer, doc *promptfmt.Document, opts ...Option) error
//
// Conventions every format follows:
//
//   - A message with no content has exactly one text part whose value is "".
//   - Messages that are in a file but never sent to a model (hidden roles,
//     whose name starts with "_", and disabled messages) stay in the Document;
//     [Document.LLMMessages] returns exactly what a model receives.
//   - Input must be UTF-8; bad input is a [*ParseError] with its position.
//     Non-fatal findings are [Warning]s on the Document, never printed.
//   - A writer never drops what its format cannot express: it returns an
//     [*UnsupportedError] for each thing, naming its [Thing]. [Adapt] turns
//     that into lossy conversion: it changes exactly those things until the
//     writer accepts the document, and lists each [Change].
//
// What a model is sent of a document is [Document.ForModel]: written by a
// provider's format with the option [Send], it is that provider's request
// body.
package promptfmt

import (
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Kind names what a ContentPart holds.
type Kind string

// The content kinds. Value holds text for KindText, a URL or base64 data for
// the media kinds, JSON arguments for KindToolCall and the result text for
// KindToolResult.
const (
	KindText       Kind = "text"
	KindImage      Kind = "image"
	KindAudio      Kind = "audio"
	KindFile       Kind = "file"
	KindToolCall   Kind = "tool_call"
	KindToolResult Kind = "tool_result"
)

// ContentPart is one piece of a message's content. Which fields beyond Kind
// and Value a part uses depends on its kind: MediaType, Detail, ID (a
// provider's file id) and Filename for media parts; ID (the call id) and
// ToolName for tool parts. A writer refuses a field its kind does not use.
type ContentPart struct {
	Kind      Kind   `json:"kind"`
	Value     string `json:"value"`
	MediaType string `json:"mediaType,omitempty"` // e.g. image/png, for media parts
	Detail    string `json:"detail,omitempty"`    // image detail hint (low, high, auto)
	ID        string `json:"id,omitempty"`        // tool call id, or a provider's file id
	ToolName  string `json:"toolName,omitempty"`  // tool name, for tool parts
	Filename  string `json:"filename,omitempty"`  // file name, for media parts
}

// StrayField returns the name of the first field that p sets but its kind
// does not use ("mediaType" on a text part), or "" when there is none.
// Writers refuse such a part rather than drop the field.
func (p ContentPart) StrayField() string {
	media := p.Kind == KindImage || p.Kind == KindAudio || p.Kind == KindFile
	tool := p.Kind == KindToolCall || p.Kind == KindToolResult
	switch {
	case p.MediaType != "" && !media:
		return "mediaType"
	case p.Detail != "" && !media:
		return "detail"
	case p.Filename != "" && !media:
		return "filename"
	case p.ID != "" && !media && !tool:
		return "id"
	case p.ToolName != "" && !tool:
		return "toolName"
	}
	return ""
}

// Text returns a text part holding s.
func Text(s string) ContentPart { return ContentPart{Kind: KindText, Value: s} }

// Message is one turn of a conversation.
//
// Role is any string; each format decides which roles it accepts. Metadata
// holds what the format attaches to a message beyond role, name and content
// (attributes, ids, configuration); its values are JSON-like: string, bool,
// int64, float64, nil, []any and map[string]any.
type Message struct {
	Role     string         `json:"role"`
	Name     string         `json:"name,omitempty"`
	Content  []ContentPart  `json:"content"`
	Metadata map[string]any `json:"metadata,omitempty"`
	// Disabled marks a message that is kept in the file but switched off
	// (Prapti's "### //@user:"); it never reaches a model.
	Disabled bool `json:"disabled,omitempty"`
	// Line is the 1-based line of the message's start in the parsed source,
	// 0 when unknown. It is not part of the message's value: Equal ignores it.
	Line int `json:"-"`
	// TextLine is the source line of the text's first line, and KeyLines
	// that of each metadata key, when the parser knows them: [Locate]
	// points a writer's refusal at the thing refused. Not part of the value.
	TextLine int            `json:"-"`
	KeyLines map[string]int `json:"-"`
}

// NewMessage returns a message of the given role with one text part.
func NewMessage(role, text string) Message {
	return Message{Role: role, Content: []ContentPart{Text(text)}}
}

// Hidden reports whether the message's role marks it as never sent to a
// model: roles starting with "_", such as Prapti's "_head".
func (m Message) Hidden() bool { return strings.HasPrefix(m.Role, "_") }

// Text returns the concatenated values of the message's text parts.
func (m Message) Text() string {
	if len(m.Content) == 1 && m.Content[0].Kind == KindText {
		return m.Content[0].Value
	}
	var b strings.Builder
	for _, p := range m.Content {
		if p.Kind == KindText {
			b.WriteString(p.Value)
		}
	}
	return b.String()
}

// Clone returns a deep copy of m: changing the copy's content or metadata
// leaves m alone.
func (m Message) Clone() Message {
	if m.Content != nil {
		m.Content = append([]ContentPart(nil), m.Content...)
	}
	if m.Metadata != nil {
		m.Metadata = cloneValue(m.Metadata).(map[string]any)
	}
	m.KeyLines = maps.Clone(m.KeyLines)
	return m
}

func cloneValue(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, x := range v {
			c[k] = cloneValue(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = cloneValue(x)
		}
		return c
	}
	return v
}

// MarshalJSON writes the message in the shape the command prints:
// {"role":"user","name":"Ross","content":[{"kind":"text","value":"Hi"}]},
// with content always an array, never null.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message // plain has no MarshalJSON, so this does not recurse
	if m.Content == nil {
		m.Content = []ContentPart{}
	}
	return marshal(plain(m))
}

// Document is one parsed file.
type Document struct {
	// Meta is what the file says about the whole document: front matter,
	// head configuration, a schema, STF metadata. Nil when there is none.
	Meta map[string]any `json:"meta,omitempty"`
	// MetaNode is the front matter Meta was read from, as its parser keeps
	// it (a YAML node, opaque here so that the model does not tie its API
	// to a YAML module): writers of YAML front matter write it instead of
	// Meta, keeping the author's key order, comments and style, as long as
	// it still decodes to Meta (so a changed Meta is never written stale).
	MetaNode any `json:"-"`
	// Request is what the document asks of a model beyond its messages
	// (model, sampling settings, tools, output schema), read from
	// wherever its format keeps them; Meta does not hold them again.
	Request  Request   `json:"request,omitzero"`
	Messages []Message `json:"messages"`
	// Comments are the file's comments, in source order: never sent to a
	// model, kept so that writing the file back puts each where it was.
	Comments []Comment `json:"comments,omitempty"`
	// KeyLines is the source line of each Meta key, when the parser knows
	// it (see [Locate]).
	KeyLines map[string]int `json:"-"`
	// Layout is how the file laid out what the Document holds, beyond its
	// meaning (STF keeps its ;meta and ;extra blocks as written): a parser
	// keeps it for its own format's writer, which uses it only where the
	// Document still holds what was read. Other code leaves it alone.
	Layout any `json:"-"`
	// Warnings are non-fatal findings of the parser, in source order.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Comment is one comment of a file, anchored to a place among the
// messages so that a writer of its format puts it back there. A writer of
// another format cannot hold it and refuses it (ThingComment); [Adapt]
// drops it.
type Comment struct {
	Format string `json:"format"` // the format whose syntax Text is in
	// Text is the comment as written, markers included, its lines joined
	// with LF ("//# why" or ";/*\nnotes\n;*/" in STF).
	Text string `json:"text"`
	// Message is the index of the message the comment is in or before;
	// len(Messages) for after the last one.
	Message int `json:"message"`
	// Part is -1 for a comment before the message; else the comment is in
	// the message's content, before part Part (len(Content): after the
	// last), or, in a text part, before the line that starts at byte
	// Offset of its text.
	Part   int `json:"part"`
	Offset int `json:"offset,omitempty"`
	Line   int `json:"line,omitempty"` // source line; 0 when unknown
}

// MarshalJSON writes messages as an array even when there are none.
func (d Document) MarshalJSON() ([]byte, error) {
	type plain Document
	if d.Messages == nil {
		d.Messages = []Message{}
	}
	return marshal(plain(d))
}

// LLMMessages returns exactly the messages a model receives: every message
// but hidden and disabled ones, in order. The result is never nil.
func (d Document) LLMMessages() []Message {
	out := make([]Message, 0, len(d.Messages))
	for _, m := range d.Messages {
		if !m.Disabled && !m.Hidden() {
			out = append(out, m)
		}
	}
	return out
}

// Equal reports whether two documents hold the same value: the same Meta
// and Request, the same messages and the same comments in the same places. Source
// lines, layout and warnings are ignored, and a nil map equals an empty
// one.
func Equal(a, b *Document) bool {
	return equalMaps(a.Meta, b.Meta) && EqualRequests(a.Request, b.Request) && EqualMessages(a.Messages, b.Messages) &&
		slices.EqualFunc(a.Comments, b.Comments, func(x, y Comment) bool {
			x.Line, y.Line = 0, 0
			return x == y
		})
}

// EqualMessages reports whether two message lists hold the same values,
// ignoring source lines; a nil Metadata equals an empty one.
func EqualMessages(a, b []Message) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		x, y := a[i], b[i]
		if x.Role != y.Role || x.Name != y.Name || x.Disabled != y.Disabled ||
			len(x.Content) != len(y.Content) || !equalMaps(x.Metadata, y.Metadata) {
			return false
		}
		for j := range x.Content {
			if x.Content[j] != y.Content[j] {
				return false
			}
		}
	}
	return true
}

func equalMaps(a, b map[string]any) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		y, ok := b[k]
		if !ok || !jsonvalue.Equal(x, y) {
			return false
		}
	}
	return true
}

func marshal(v any) ([]byte, error) { return jsonvalue.Encode(v) }

// ForModel returns what a model is sent of d, as a new document: its
// LLMMessages without their metadata, and its Request; no Meta, comments
// or warnings. Decision: message metadata is what a format attaches to a
// message (ids, attributes, configuration) and no provider has a place for
// it, with one exception, which becomes what it means: a tool message of
// one text part that names the call it answers in its metadata
// ("tool_call_id" or "call_id", STF's ";tool call_id=c1") is made a tool
// message of one tool_result part holding that text and id. A provider's
// writer takes the result as a request body (provider's formats), with no
// metadata to refuse.
func (d *Document) ForModel() *Document {
	out := &Document{Request: d.Request.Clone(), Messages: make([]Message, 0, len(d.Messages))}
	for m := range d.Sent() {
		out.Messages = append(out.Messages, m.Clone())
	}
	return out
}

// Sent yields the messages ForModel holds, one at a time, without
// building the list (for a writer that streams them): each shares its
// content with d's message, so it is read, not changed.
func (d *Document) Sent() iter.Seq[Message] {
	return func(yield func(Message) bool) {
		for _, m := range d.Messages {
			if m.Disabled || m.Hidden() {
				continue
			}
			if r, ok := toolReply(m); ok {
				m.Content = []ContentPart{r}
			}
			m.Metadata, m.KeyLines = nil, nil
			if !yield(m) {
				return
			}
		}
	}
}

// toolReply returns the tool_result a tool message of text holds when its
// metadata names the call (one id, or two that agree).
func toolReply(m Message) (ContentPart, bool) {
	if m.Role != "tool" || len(m.Content) != 1 || m.Content[0].Kind != KindText || m.Content[0].StrayField() != "" {
		return ContentPart{}, false
	}
	a, _ := m.Metadata["tool_call_id"].(string)
	b, _ := m.Metadata["call_id"].(string)
	if a == "" {
		a = b
	}
	if a == "" || b != "" && a != b {
		return ContentPart{}, false
	}
	return ContentPart{Kind: KindToolResult, Value: m.Content[0].Value, ID: a}, true
}
