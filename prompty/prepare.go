package prompty

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Prepare renders the agent with inputs and returns the messages for the
// model, in order (section 1.4's prepare: render, parse, expand). The
// rendered text is parsed as role-boundary text, in strict mode (the
// default) with a fresh render nonce, so that no input value can add,
// remove or change a message; each thread placeholder becomes the thread's
// messages, with their own roles; each image, file or audio placeholder
// becomes a content part of the message it stands in. A rich input that
// is optional and not given leaves nothing behind. See the package
// documentation (Prepare) for the values a thread or media input takes.
//
// Options: promptfmt.Limits bounds the rendering (see Render);
// promptfmt.OnWarning is told of a thread input whose messages the
// template never places; promptfmt.FS, when given, is where local media
// files are read (from its top), instead of the file system the agent was
// loaded from. Errors are ParseErrors at the line of the agent's file.
func Prepare(a *Agent, inputs map[string]any, opts ...promptfmt.Option) ([]promptfmt.Message, error) {
	c, err := newConfig(opts, "Prepare")
	if err != nil {
		return nil, err
	}
	return prepare(a, inputs, &c)
}

func prepare(a *Agent, inputs map[string]any, cfg *config) ([]promptfmt.Message, error) {
	if a.Template.Parser != "" && a.Template.Parser != "prompty" {
		return nil, a.errorf(0, 0, "unknown template parser %q (want prompty)", a.Template.Parser)
	}
	rendered, n, err := renderAgent(a, inputs, cfg, a.Template.IsStrict())
	if err != nil {
		return nil, err
	}
	fsys, dir := a.fsys, a.dir
	if cfg.FS != nil {
		fsys, dir = cfg.FS, "."
	}
	slots := make(map[string]slot, len(n.rich))
	for _, ph := range slices.Sorted(maps.Keys(n.rich)) {
		r := n.rich[ph]
		if r.kind == KindThread {
			msgs, err := threadMessages(r.value)
			if err != nil {
				return nil, a.errorf(0, 0, "input %q: %v", r.name, err)
			}
			if len(msgs) > 0 && !strings.Contains(rendered, ph) && cfg.OnWarning != nil {
				cfg.OnWarning(promptfmt.Warning{Format: format, File: a.File, Line: a.InstructionsLine, Col: 1, Offset: a.instructionsOffset,
					Msg: fmt.Sprintf("thread input %q: the template never places it ({{ %s }}), so its %d messages reach no model", r.name, r.name, len(msgs))})
			}
			slots[ph] = slot{thread: msgs, owned: true}
			continue
		}
		s := slot{media: true}
		if r.value != nil {
			p, err := mediaPart(r.kind, r.value, fsys, dir)
			if err != nil {
				return nil, a.errorf(0, 0, "input %q: %v", r.name, err)
			}
			s.part = &p
		}
		slots[ph] = s
	}
	pc := config{rendered: true, slots: slots}
	if n.render != "" {
		pc.setStrict(n.render)
	}
	doc, err := parse([]byte(rendered), &pc)
	if err != nil {
		var pe *promptfmt.ParseError
		if errors.As(err, &pe) && pe.Line > 0 {
			return nil, a.errorf(0, 0, "rendered text line %d: %s", pe.Line, pe.Msg)
		}
		return nil, err
	}
	return doc.Messages, nil
}

// threadMessages turns a thread input's value into messages. It accepts
// []promptfmt.Message; a list of JSON-like messages ({role, name?,
// content, metadata?} where content is a string or a list of parts, each
// {kind or type, value or text, ...} as mediaPart reads them for media);
// the same list under "messages" in {"_kind": "thread", "messages": [...]}
// (the shape of upstream's render vectors); and nil, an empty thread.
func threadMessages(v any) ([]promptfmt.Message, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case []promptfmt.Message:
		out := make([]promptfmt.Message, len(v))
		for i, m := range v {
			out[i] = m.Clone()
		}
		return out, nil
	case map[string]any:
		if list, ok := v["messages"]; ok {
			return threadMessages(list)
		}
	case []map[string]any:
		list := make([]any, len(v))
		for i, m := range v {
			list[i] = m
		}
		return threadMessages(list)
	case []any:
		out := make([]promptfmt.Message, 0, len(v))
		for i, x := range v {
			m, err := threadMessage(x)
			if err != nil {
				return nil, fmt.Errorf("message %d: %v", i+1, err)
			}
			out = append(out, m)
		}
		return out, nil
	}
	return nil, fmt.Errorf("a thread is a list of messages, not %s", describe(v))
}

func threadMessage(x any) (promptfmt.Message, error) {
	var m promptfmt.Message
	obj, ok := x.(map[string]any)
	if !ok {
		if pm, ok := x.(promptfmt.Message); ok {
			return pm.Clone(), nil
		}
		return m, fmt.Errorf("want {role, content}, not %s", describe(x))
	}
	var err error
	for k, v := range obj {
		switch k {
		case "role":
			m.Role, _ = v.(string)
		case "name":
			m.Name, ok = v.(string)
			if !ok {
				err = fmt.Errorf("name: want a string, not %s", describe(v))
			}
		case "content", "parts":
			m.Content, err = contentParts(v)
		case "metadata":
			m.Metadata, ok = v.(map[string]any)
			if !ok {
				err = fmt.Errorf("metadata: want a mapping, not %s", describe(v))
			}
		default:
			if m.Metadata == nil {
				m.Metadata = map[string]any{}
			}
			m.Metadata[k] = v
		}
		if err != nil {
			return m, err
		}
	}
	if m.Role == "" {
		return m, errors.New("missing role")
	}
	if m.Content == nil {
		m.Content = []promptfmt.ContentPart{}
	}
	if s := jsonvalue.NotJSONLike(m.Metadata); s != "" {
		return m, fmt.Errorf("metadata: %s", s)
	}
	if m.Metadata != nil {
		m = m.Clone() // detached from the caller's maps
	}
	return m, nil
}

func contentParts(v any) ([]promptfmt.ContentPart, error) {
	switch v := v.(type) {
	case string:
		return []promptfmt.ContentPart{promptfmt.Text(v)}, nil
	case []promptfmt.ContentPart:
		return append([]promptfmt.ContentPart(nil), v...), nil
	case []any:
		out := make([]promptfmt.ContentPart, 0, len(v))
		for i, x := range v {
			p, err := contentPart(x)
			if err != nil {
				return nil, fmt.Errorf("part %d: %v", i+1, err)
			}
			out = append(out, p)
		}
		return out, nil
	}
	return nil, fmt.Errorf("content: want a string or a list of parts, not %s", describe(v))
}

func contentPart(x any) (promptfmt.ContentPart, error) {
	if s, ok := x.(string); ok {
		return promptfmt.Text(s), nil
	}
	obj, ok := x.(map[string]any)
	if !ok {
		return promptfmt.ContentPart{}, fmt.Errorf("want a part {kind, value}, not %s", describe(x))
	}
	kind, _ := obj["kind"].(string)
	if kind == "" {
		kind, _ = obj["type"].(string)
	}
	switch kind {
	case "text", "input_text", "":
		for _, k := range []string{"value", "text"} {
			if s, ok := obj[k].(string); ok {
				return promptfmt.Text(s), nil
			}
		}
		return promptfmt.ContentPart{}, errors.New("a text part needs a value")
	case "image", "image_url", "input_image":
		return mediaPart(KindImage, obj, nil, "")
	case "audio", "input_audio":
		return mediaPart(KindAudio, obj, nil, "")
	case "file", "input_file":
		return mediaPart(KindFile, obj, nil, "")
	case "tool_call", "tool_result":
		p := promptfmt.ContentPart{Kind: promptfmt.Kind(kind)}
		p.Value, _ = obj["value"].(string)
		p.ID, _ = obj["id"].(string)
		p.ToolName, _ = obj["toolName"].(string)
		return p, nil
	}
	return promptfmt.ContentPart{}, fmt.Errorf("unknown part kind %q", kind)
}
