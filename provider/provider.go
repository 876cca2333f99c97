package provider

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// The formats' names, as -f takes them and as the Format of their errors.
const (
	nameOpenAI    = "openai"
	nameAnthropic = "anthropic"
	nameGemini    = "gemini"
)

// mapper holds what every mapping needs: the problems found so far and the
// tool calls seen so far.
type mapper struct {
	format string // "openai", for errors
	label  string // "OpenAI", in the text of errors
	msgs   []promptfmt.Message
	errs   []error
	calls  map[string]string // tool call id → tool name, from earlier parts
	// send is promptfmt.Send: write what the provider takes in its own
	// form, rather than refuse what would not read back the same.
	send bool
	// partExtra are the members of the message being mapped's parts
	// beyond the model's fields, by part index.
	partExtra map[int]object
}

func newMapper(format, label string, msgs []promptfmt.Message) *mapper {
	return &mapper{format: format, label: label, msgs: msgs}
}

// fail records a problem with thing t of message i.
func (m *mapper) fail(i int, t promptfmt.Thing, format string, args ...any) *promptfmt.UnsupportedError {
	e := &promptfmt.UnsupportedError{
		Format: m.format, Index: i, Line: m.msgs[i].Line, What: fmt.Sprintf(format, args...), Thing: t,
	}
	m.errs = append(m.errs, e)
	return e
}

// failPart records a problem with part j (0-based) of message i.
func (m *mapper) failPart(i, j int, format string, args ...any) *promptfmt.UnsupportedError {
	e := m.fail(i, promptfmt.ThingPart, "part %d: "+format, append([]any{j + 1}, args...)...)
	e.Part = j
	return e
}

// err returns the joined problems, or nil.
func (m *mapper) err() error { return errors.Join(m.errs...) }

// content returns the parts of msg, the one empty text part for none.
func content(msg *promptfmt.Message) []promptfmt.ContentPart {
	if len(msg.Content) == 0 {
		return []promptfmt.ContentPart{promptfmt.Text("")}
	}
	return msg.Content
}

// checkMessage reports what no provider can send in message i: a disabled
// message, a role or name that is not UTF-8.
func (m *mapper) checkMessage(i int) {
	msg := &m.msgs[i]
	if msg.Disabled {
		m.fail(i, promptfmt.ThingDisabled, "a disabled message cannot be sent (it is not among a document's LLMMessages)")
	}
	if !utf8.ValidString(msg.Role) {
		m.fail(i, promptfmt.ThingOther, "the role is not valid UTF-8")
	}
	if !utf8.ValidString(msg.Name) {
		m.fail(i, promptfmt.ThingOther, "the name is not valid UTF-8")
	}
}

// checkPart reports what no provider can send in part j of message i: an
// unknown kind, a stray field, a field that is not UTF-8. A part that fails
// is not looked at further.
func (m *mapper) checkPart(i, j int, p *promptfmt.ContentPart) bool {
	switch p.Kind {
	case promptfmt.KindText, promptfmt.KindImage, promptfmt.KindAudio, promptfmt.KindFile,
		promptfmt.KindToolCall, promptfmt.KindToolResult:
	default:
		if !utf8.ValidString(string(p.Kind)) {
			m.failPart(i, j, "a part of a kind that is not valid UTF-8")
		} else {
			m.failPart(i, j, "a part of unknown kind %q", p.Kind)
		}
		return false
	}
	if f := p.StrayField(); f != "" {
		m.failPart(i, j, "%s with a %s (a field its kind does not use)", article(p.Kind), f)
		return false
	}
	for _, s := range [...]string{p.Value, p.MediaType, p.Detail, p.ID, p.ToolName, p.Filename} {
		if !utf8.ValidString(s) {
			m.failPart(i, j, "%s holding text that is not valid UTF-8", article(p.Kind))
			return false
		}
	}
	return true
}

// describeMedia names a media part's form for an error: "an image URL
// with detail low", "image data of type image/png".
func describeMedia(p promptfmt.ContentPart) string {
	var b strings.Builder
	switch {
	case p.ID != "":
		fmt.Fprintf(&b, "the file id %s", short(p.ID))
	case strings.HasPrefix(p.Value, "data:"):
		b.WriteString("a data: URI")
	default:
		if _, _, isURL := cutScheme(p.Value); isURL {
			b.WriteString("a URL")
		} else {
			b.WriteString("base64 data")
		}
	}
	if p.MediaType != "" {
		fmt.Fprintf(&b, " of media type %s", p.MediaType)
	} else {
		b.WriteString(" with no media type")
	}
	if p.Detail != "" {
		fmt.Fprintf(&b, ", detail %s", p.Detail)
	}
	if p.Filename != "" {
		fmt.Fprintf(&b, ", filename %s", short(p.Filename))
	}
	return b.String()
}

// urlNoun names a URL of a part of kind k: "an image URL".
func urlNoun(k promptfmt.Kind) string {
	if k == promptfmt.KindImage || k == promptfmt.KindAudio {
		return "an " + string(k) + " URL"
	}
	return "a " + string(k) + " URL"
}

// article names a part of kind k: "an image part", "a text part".
func article(k promptfmt.Kind) string {
	if k == promptfmt.KindImage || k == promptfmt.KindAudio {
		return "an " + string(k) + " part"
	}
	return "a " + string(k) + " part"
}

// roleNoun names a message of role r in an error: "an assistant message".
func roleNoun(r string) string {
	switch r {
	case "assistant":
		return "an assistant message"
	case "user", "system", "developer", "tool":
		return "a " + r + " message"
	}
	return fmt.Sprintf("a %q message", r)
}

// misplaced reports part j of message i, whose role cannot hold it.
func (m *mapper) misplaced(i, j int, p *promptfmt.ContentPart) {
	m.failPart(i, j, "%s in %s cannot be expressed", article(p.Kind), roleNoun(m.msgs[i].Role))
}

// badRole reports message i's role.
func (m *mapper) badRole(i int) {
	m.fail(i, promptfmt.ThingRole, "role %q has no %s equivalent", m.msgs[i].Role, m.label)
}

// noName reports a name, for providers with no place for one.
func (m *mapper) noName(i int) {
	if name := m.msgs[i].Name; name != "" && utf8.ValidString(name) {
		m.fail(i, promptfmt.ThingName, "a name (%q) cannot be expressed", name)
	}
}

// toolCall checks part j of message i, a tool_call, for the fields every
// provider needs, records its id, and reports whether it can be sent.
// needID is whether the provider needs the call id.
func (m *mapper) toolCall(i, j int, p *promptfmt.ContentPart, needID bool) bool {
	// One refusal for the part: Adapt drops a part once for each.
	ok := true
	switch {
	case p.ToolName == "" && p.ID == "" && needID:
		m.failPart(i, j, "a tool_call without a tool name or an id cannot be expressed")
		ok = false
	case p.ToolName == "":
		m.failPart(i, j, "a tool_call without a tool name cannot be expressed")
		ok = false
	case p.ID == "" && needID:
		m.failPart(i, j, "a tool_call without an id cannot be expressed")
		ok = false
	}
	if p.ID != "" && p.ToolName != "" {
		if m.calls == nil {
			m.calls = make(map[string]string)
		}
		m.calls[p.ID] = p.ToolName
	}
	return ok
}

// toolResult checks part j of message i, a tool_result, and returns the
// name of the tool it answers ("" when unknown). needID is whether the
// provider needs the call id; without one, the result must name its tool.
func (m *mapper) toolResult(i, j int, p *promptfmt.ContentPart, needID bool) (string, bool) {
	called, known := m.calls[p.ID]
	switch {
	case p.ID == "" && needID:
		m.failPart(i, j, "a tool_result without an id cannot be expressed")
		return "", false
	case p.ID == "" && p.ToolName == "":
		m.failPart(i, j, "a tool_result with neither an id nor a tool name cannot be expressed")
		return "", false
	case known && p.ToolName != "" && p.ToolName != called:
		m.failPart(i, j, "a tool_result for tool %q answers call %q, which called %q", p.ToolName, p.ID, called)
		return "", false
	case p.ToolName != "":
		return p.ToolName, true
	}
	return called, true
}

// hasToolResults reports whether msg holds a tool_result part.
func hasToolResults(msg *promptfmt.Message) bool {
	for _, p := range msg.Content {
		if p.Kind == promptfmt.KindToolResult {
			return true
		}
	}
	return false
}

// media is a media part's value, read.
type media struct {
	url       string // a URL other than a data: URI; else "" and data holds the data
	data      string // the base64 data
	dataURI   string // the value, when it is a data: URI
	mediaType string // the part's media type, else the data: URI's
}

// readMedia reads a media part's value: a data: URI, a URL or base64 data,
// which is checked. It returns the problem, "" for none.
func readMedia(p *promptfmt.ContentPart) (media, string) {
	md := media{mediaType: p.MediaType}
	v := p.Value
	noun := string(p.Kind)
	scheme, rest, isURL := cutScheme(v)
	switch {
	case v == "":
		return md, fmt.Sprintf("%s with no URL or data cannot be expressed", article(p.Kind))
	case isURL && strings.EqualFold(scheme, "data"):
		meta, data, ok := strings.Cut(rest, ",")
		mt, isBase64 := cutSuffixFold(meta, ";base64")
		if !ok || !isBase64 {
			return md, "a data: URI that is not base64 (data:<type>;base64,<data>) cannot be expressed"
		}
		if i := strings.IndexByte(mt, ';'); i >= 0 {
			mt = mt[:i] // parameters, such as charset
		}
		if mt != "" {
			if md.mediaType != "" && !strings.EqualFold(md.mediaType, mt) {
				return md, fmt.Sprintf("the media type %q differs from the data: URI's %q", md.mediaType, mt)
			}
			md.mediaType = mt
		}
		md.data = data
		if mt != "" {
			md.dataURI = v // else the part's media type makes a new one
		}
	case isURL:
		md.url = v
		return md, ""
	default:
		md.data = v
	}
	if err := checkBase64(md.data); err != nil {
		return md, fmt.Sprintf("%s data is not valid base64: %v", noun, err)
	}
	return md, ""
}

// asDataURI returns the data as a data: URI: the value when it was one
// with a media type, else a new one.
func (md media) asDataURI() string {
	if md.dataURI != "" {
		return md.dataURI
	}
	return "data:" + md.mediaType + ";base64," + md.data
}

// checkMediaType reports what is wrong with the media type mt of a part of
// kind k: missing, not type/subtype, not of the kind's family. It returns
// "" when mt is fine.
func checkMediaType(k promptfmt.Kind, mt string) string {
	if mt == "" {
		return fmt.Sprintf("%s needs a media type (give MediaType or a data: URI)", article(k))
	}
	return checkFamily(k, mt)
}

// checkFamily is checkMediaType for a media type that may be empty.
func checkFamily(k promptfmt.Kind, mt string) string {
	if mt == "" {
		return ""
	}
	typ, sub, ok := strings.Cut(baseType(mt), "/")
	if !ok || typ == "" || sub == "" {
		return fmt.Sprintf("the media type %q is not a MIME type (type/subtype)", mt)
	}
	if (k == promptfmt.KindImage || k == promptfmt.KindAudio) && typ != string(k) {
		return fmt.Sprintf("the media type %q is not an %s type", mt, k)
	}
	return ""
}

// baseType returns mt in lower case without parameters: "image/png".
func baseType(mt string) string {
	if i := strings.IndexByte(mt, ';'); i >= 0 {
		mt = mt[:i]
	}
	return strings.ToLower(strings.TrimSpace(mt))
}

// cutScheme splits a URL's scheme from the rest: "https", "//x". ok is
// false for a value that does not start with a scheme (RFC 3986: a letter,
// then letters, digits, '+', '-', '.', then ':'), such as base64 data,
// which has no ':'.
func cutScheme(v string) (scheme, rest string, ok bool) {
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return v[:i], v[i+1:], true
		default:
			return "", "", false
		}
	}
	return "", "", false
}

// scheme returns a URL's scheme.
func scheme(url string) string {
	s, _, _ := cutScheme(url)
	return s
}

// isHTTP reports whether a URL is http or https.
func isHTTP(url string) bool {
	scheme, _, _ := cutScheme(url)
	return strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https")
}

func cutSuffixFold(s, suffix string) (string, bool) {
	if len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix) {
		return s[:len(s)-len(suffix)], true
	}
	return s, false
}

// checkBase64 reports whether s is standard, padded base64 without line
// breaks (Go's decoder would skip them; the APIs' may not), holding at
// least one byte. It decodes in pieces into a fixed buffer, so that large
// media cost no allocation.
func checkBase64(s string) error {
	if s == "" {
		return errors.New("no data")
	}
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		return fmt.Errorf("a line break at input byte %d", i)
	}
	const chunk = 1024 // a multiple of 4
	var src [chunk]byte
	var dst [chunk / 4 * 3]byte
	enc := base64.StdEncoding.Strict()
	for off := 0; off < len(s); off += chunk {
		end := min(off+chunk, len(s))
		piece := src[:copy(src[:], s[off:end])]
		if end < len(s) {
			if k := bytes.IndexByte(piece, '='); k >= 0 {
				return base64.CorruptInputError(int64(off + k))
			}
		}
		if _, err := enc.Decode(dst[:], piece); err != nil {
			var ce base64.CorruptInputError
			if errors.As(err, &ce) {
				return base64.CorruptInputError(int64(off) + int64(ce))
			}
			return err
		}
	}
	return nil
}

// jsonObject reports whether s is one JSON object.
func jsonObject(s string) bool {
	t := strings.TrimLeft(s, " \t\r\n")
	return strings.HasPrefix(t, "{") && json.Valid([]byte(s))
}

// short quotes s for an error, cut to about 40 bytes.
func short(s string) string {
	if head, cut := abbrev.Cut(s, 40); cut {
		return fmt.Sprintf("%q...", head)
	}
	return fmt.Sprintf("%q", s)
}

// marshal encodes v as a body holds it: without HTML escaping, a whole
// float64 with its ".0" (jsonvalue.Append), so that it reads back as one.
func marshal(v any) (json.RawMessage, error) { return jsonvalue.Append(nil, v) }
