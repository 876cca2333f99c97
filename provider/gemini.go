package provider

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/wire"
)

// geminiMapper maps a document to a generateContent body, its members
// spelled as the layout says (snake_case unless a body read had
// lowerCamelCase), so objects are built member by member.
type geminiMapper struct {
	*mapper
	lay *layout
}

// key spells member name (lowerCamelCase) as the body read did.
func (g *geminiMapper) key(name string) string {
	if s, ok := g.lay.spelling[name]; ok {
		return s
	}
	if g.lay.camel {
		return name
	}
	return snakeKey(name)
}

// geminiTurn is a content being built: its role, parts and other members.
type geminiTurn struct {
	role  string
	parts []object
	extra object
}

// geminiMessageOwn are a content's members, which the mapping writes
// itself (wire.GeminiContent).
var geminiMessageOwn = keys(wire.GeminiContent...)

// geminiPartMembers are the members of a part beyond its data
// (wire.GeminiPart), in both spellings.
var geminiPartMembers = bothSpellings(wire.GeminiPart...)

func geminiPartMember(_ promptfmt.Kind, name string) bool { return geminiPartMembers[name] }

// messages maps the document's messages to the system instruction (nil
// when there is none) and the contents, as the package documentation
// describes; read are the metadata keys a body of this format had.
func (g *geminiMapper) messages(read map[string]bool) (object, []object) {
	m := g.mapper
	turns := make([]geminiTurn, 0, len(m.msgs))
	var system *geminiTurn
	started := false
	for i := range m.msgs {
		msg := &m.msgs[i]
		m.checkMessage(i)
		m.noName(i)
		own := geminiMessageOwn
		if msg.Role == "system" || msg.Role == "developer" {
			own = keys("parts")
		}
		extra, parts := m.messageExtras(i, nil, own, withPartMembers(read, msg, geminiPartMember))
		m.partExtra = parts
		role := "user"
		switch msg.Role {
		case "system", "developer":
			switch {
			case started:
				m.fail(i, promptfmt.ThingRole, "a %s message after the conversation has started cannot be expressed (Gemini's system instruction comes before it)", msg.Role)
			case msg.Role == "developer" && !m.send:
				m.fail(i, promptfmt.ThingRole, "a developer message cannot be kept (Gemini's system instruction reads back as a system message)")
			case system != nil && !m.send:
				m.fail(i, promptfmt.ThingMessages, "a second system message cannot be kept (Gemini's system instruction reads back as one message)")
			case system != nil:
				if extra != nil {
					m.fail(i, promptfmt.ThingMetadata, "members of a system message merged into the instruction before it cannot be expressed")
				}
				system.parts = append(system.parts, g.systemParts(i)...)
			default:
				system = &geminiTurn{parts: g.systemParts(i), extra: extra}
			}
			m.partExtra = nil
			continue
		case "user":
		case "assistant":
			role = "model"
		case "tool":
			if !hasToolResults(msg) {
				m.fail(i, promptfmt.ThingRole, "a tool message holds the results of calls (tool_result parts); this one holds none")
				started = true
				continue
			}
			if !m.send {
				m.fail(i, promptfmt.ThingRole, "a tool message cannot be kept (Gemini's function responses are parts of a user content: promptfmt.Send, or request --as, writes it as one)")
			}
		default:
			m.badRole(i)
			started = true
			continue
		}
		started = true
		t := geminiTurn{role: role, parts: g.parts(i), extra: extra}
		if n := len(turns); m.send && n > 0 && turns[n-1].role == role {
			// Decision (consecutive turns): merged when sending.
			if extra != nil {
				m.fail(i, promptfmt.ThingMetadata, "members of a message merged into the content before it cannot be expressed")
			}
			turns[n-1].parts = append(turns[n-1].parts, t.parts...)
		} else {
			turns = append(turns, t)
		}
		m.partExtra = nil
	}
	var sys object
	if system != nil {
		sys = append(object{{"parts", g.partList(-1, system.parts)}}, system.extra...)
	}
	// Role-less only as the body read was, all contents the user's: so
	// that what is written reads back the same way.
	roleless := g.lay.roleless && !slices.ContainsFunc(turns, func(t geminiTurn) bool { return t.role != "user" })
	contents := make([]object, len(turns))
	for k, t := range turns {
		var c object
		if !roleless {
			c.add("role", t.role)
		}
		c.add("parts", g.partList(k, t.parts))
		contents[k] = append(c, t.extra...)
	}
	return sys, contents
}

// partList is content k's parts (-1: the system instruction's): one part
// as itself where the body read gave that content's so, else an array.
func (g *geminiMapper) partList(k int, parts []object) any {
	if len(parts) == 1 && g.lay.partsObject[k] {
		return parts[0]
	}
	if parts == nil {
		return []object{}
	}
	return parts
}

// systemParts returns the text parts of system message i.
func (g *geminiMapper) systemParts(i int) []object {
	m := g.mapper
	parts := content(&m.msgs[i])
	if onlyEmpty(parts) {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (Gemini refuses empty text)")
		return nil
	}
	var out []object
	for j := range parts {
		p := &parts[j]
		switch {
		case !m.checkPart(i, j, p):
		case p.Kind != promptfmt.KindText:
			m.misplaced(i, j, p)
		default:
			if o, ok := g.text(i, j, p); ok {
				out = append(out, o)
			}
		}
	}
	return out
}

// onlyEmpty reports whether parts are empty text only.
func onlyEmpty(parts []promptfmt.ContentPart) bool {
	for j := range parts {
		if p := &parts[j]; p.Kind != promptfmt.KindText || p.Value != "" {
			return false
		}
	}
	return true
}

// text maps text part j of message i; ok is false for an empty text,
// which sending leaves out and which is refused otherwise.
func (g *geminiMapper) text(i, j int, p *promptfmt.ContentPart) (object, bool) {
	if p.Value == "" {
		if !g.send {
			g.failPart(i, j, "an empty text part cannot be expressed (Gemini refuses empty text)")
		}
		return nil, false
	}
	return g.withExtra(j, object{{"text", p.Value}}), true
}

// withExtra gives part j of the message being mapped its own members.
func (g *geminiMapper) withExtra(j int, o object) object { return append(o, g.partExtra[j]...) }

// parts maps the content of user, assistant or tool message i.
func (g *geminiMapper) parts(i int) []object {
	m := g.mapper
	msg := &m.msgs[i]
	parts := content(msg)
	if onlyEmpty(parts) {
		m.fail(i, promptfmt.ThingMessages, "an empty message cannot be expressed (Gemini refuses empty text)")
		return nil
	}
	out := make([]object, 0, len(parts))
	for j := range parts {
		p := &parts[j]
		if !m.checkPart(i, j, p) {
			continue
		}
		var o object
		ok := false
		switch {
		case msg.Role == "tool" && p.Kind != promptfmt.KindToolResult:
			m.misplaced(i, j, p)
		case p.Kind == promptfmt.KindText:
			o, ok = g.text(i, j, p)
		case p.Kind == promptfmt.KindImage || p.Kind == promptfmt.KindAudio || p.Kind == promptfmt.KindFile:
			o, ok = g.media(i, j, p)
		case p.Kind == promptfmt.KindToolCall && msg.Role == "assistant":
			o, ok = g.call(i, j, p)
		case p.Kind == promptfmt.KindToolResult && msg.Role != "assistant":
			o, ok = g.result(i, j, p)
		default:
			m.misplaced(i, j, p)
		}
		if ok {
			out = append(out, o)
		}
	}
	return out
}

// call maps a tool_call part: {"function_call": {"id", "name", "args"}},
// the id left out when empty, as are args when the part has none.
func (g *geminiMapper) call(i, j int, p *promptfmt.ContentPart) (object, bool) {
	ok := g.toolCall(i, j, p, false)
	var fc object
	if p.ID != "" {
		fc.add("id", p.ID)
	}
	fc.add("name", p.ToolName)
	if p.Value != "" {
		args, fine := g.callArguments(i, j, p, ok)
		ok = ok && fine
		fc.add("args", args)
	}
	if !ok {
		return nil, false
	}
	return g.withExtra(j, object{{g.key("functionCall"), fc}}), true
}

// result maps a tool_result part: {"function_response": {"id", "name",
// "response"}}. The name is the part's ToolName, else (sending) that of
// the earlier tool_call with its id.
func (g *geminiMapper) result(i, j int, p *promptfmt.ContentPart) (object, bool) {
	name, ok := g.toolResult(i, j, p, false)
	if !ok {
		return nil, false
	}
	if name == "" {
		g.failPart(i, j, "a tool_result for call %q names no tool, and no earlier tool_call has that id", p.ID)
		return nil, false
	}
	resp, back := geminiResponseValue(p.Value, g.send)
	if !g.send && (p.ToolName == "" || back != p.Value) {
		near := *p
		near.ToolName, near.Value = name, back
		var what []string
		if p.ToolName == "" {
			what = append(what, "without the name of its tool (Gemini's function response names it)")
		}
		if back != p.Value {
			what = append(what, fmt.Sprintf("whose result reads back as %s", short(back)))
		}
		g.failPart(i, j, "a tool_result %s cannot be kept", strings.Join(what, " and ")).NearestPart = &near
		return nil, false
	}
	var fr object
	if p.ID != "" {
		fr.add("id", p.ID)
	}
	fr.add("name", name)
	fr.add("response", resp)
	return g.withExtra(j, object{{g.key("functionResponse"), fr}}), true
}

// geminiResponseValue is the response object of a result and the result
// reading it back gives. Decision: a result that is a JSON object is sent
// as the response, else it is wrapped as {"output": result}, the key the
// API documents for a function's output; the reader unwraps that form, so
// a result that is itself {"output": "..."} reads back as the string.
// Sending, the object check is encoding/json's; else it is the reader's,
// so that what is written reads back (no member named twice).
func geminiResponseValue(v string, send bool) (json.RawMessage, string) {
	if send && jsonObject(v) {
		return json.RawMessage(compactJSON([]byte(v))), v // appended as it is
	}
	if !send {
		if t, err := jsontree.Parse([]byte(v)); err == nil && t.Kind == jsontree.Object {
			if len(t.Members) == 1 && t.Members[0].Key == "output" && t.Members[0].Value.Kind == jsontree.String {
				return json.RawMessage(v), t.Members[0].Value.Str
			}
			return json.RawMessage(v), compactJSON([]byte(v))
		}
	}
	wrapped, err := marshal(struct {
		Output string `json:"output"`
	}{v})
	if err != nil { // a string always encodes
		panic(err)
	}
	return wrapped, v
}

// media maps an image, audio or file part: base64 data as inline data,
// a URL of any scheme as file data. What Gemini has no place for (detail,
// a file id) is refused with the part without it as the nearest; in a
// form Gemini does not keep (a data: URI, a kind its media type does not
// say) it is written in Gemini's when sending, else refused with that
// form as the nearest.
func (g *geminiMapper) media(i, j int, p *promptfmt.ContentPart) (object, bool) {
	near := *p
	var lost []string
	if p.Detail != "" {
		lost = append(lost, fmt.Sprintf("a detail (%q)", p.Detail))
		near.Detail = ""
	}
	if p.ID != "" {
		if p.Value == "" {
			g.failPart(i, j, "%s with a file id (%q) cannot be expressed (Gemini takes data or a URI)", article(p.Kind), p.ID)
			return nil, false
		}
		lost = append(lost, fmt.Sprintf("a file id (%q)", p.ID))
		near.ID = ""
	}
	md, problem := readMedia(&near)
	var o object
	back := promptfmt.ContentPart{Filename: p.Filename, MediaType: md.mediaType}
	if problem == "" && md.url != "" {
		problem = checkFamily(p.Kind, md.mediaType)
		var fd object
		if md.mediaType != "" {
			fd.add(g.key("mimeType"), md.mediaType)
		}
		fd.add(g.key("fileUri"), md.url)
		back.Value = md.url
		o = object{{g.key("fileData"), g.displayName(fd, p.Filename)}}
	} else if problem == "" {
		problem = checkMediaType(p.Kind, md.mediaType)
		back.Value = md.data
		o = object{{g.key("inlineData"), g.displayName(object{{g.key("mimeType"), md.mediaType}, {"data", md.data}}, p.Filename)}}
	}
	if problem != "" {
		g.failPart(i, j, "%s", problem)
		return nil, false
	}
	back.Kind = geminiKind(back.MediaType)
	switch {
	case lost != nil:
		g.failPart(i, j, "%s with %s cannot be expressed", article(p.Kind), strings.Join(lost, " and ")).NearestPart = &back
		return nil, false
	case !g.send && back != *p:
		g.failPart(i, j, "%s in a form Gemini's body does not keep (it reads back as %s, %s)", article(p.Kind), article(back.Kind), describeMedia(back)).NearestPart = &back
		return nil, false
	}
	return g.withExtra(j, o), true
}

// displayName adds a filename to inline or file data.
func (g *geminiMapper) displayName(o object, name string) object {
	if name != "" {
		o.add(g.key("displayName"), name)
	}
	return o
}
