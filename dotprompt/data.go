package dotprompt

import (
	"fmt"
	"maps"

	"github.com/promptfmt/promptfmt"
)

// Data gives Render Dotprompt's whole data argument, as Genkit passes it:
// {"input": {...}, "messages": [...], "context": {...}, "docs": [...]}.
// input is rendered under Render's inputs (which win), messages are the
// history (as History; each in Dotprompt's shape, content a list of
// {"text"} and {"media": {"url", "contentType"}} parts, or in this
// package's JSON shape, content a string or a list of {"kind", "value"}
// parts), context's keys are the template's @ variables (@state, @auth).
// docs are accepted and, as by Dotprompt's Go runtime, not rendered.
// Another key, or a value of the wrong shape, is an error of Render.
func Data(data map[string]any) promptfmt.Option {
	return promptfmt.NewOption(format, "dotprompt.Data", func(t any) {
		o := t.(*renderOptions)
		if err := o.setData(data); err != nil && o.err == nil {
			o.err = err
		}
	})
}

func (o *renderOptions) setData(data map[string]any) error {
	for k, v := range data {
		switch k {
		case "input":
			m, ok := v.(map[string]any)
			if !ok && v != nil {
				return fmt.Errorf("dotprompt.Data: input is %T, want an object", v)
			}
			o.input = m
		case "context":
			m, ok := v.(map[string]any)
			if !ok && v != nil {
				return fmt.Errorf("dotprompt.Data: context is %T, want an object", v)
			}
			o.context = m
		case "messages":
			list, ok := v.([]any)
			if !ok && v != nil {
				return fmt.Errorf("dotprompt.Data: messages is %T, want a list", v)
			}
			for i, m := range list {
				msg, err := dataMessage(m)
				if err != nil {
					return fmt.Errorf("dotprompt.Data: messages[%d]: %w", i, err)
				}
				o.history = append(o.history, msg)
			}
		case "docs":
		default:
			return fmt.Errorf("dotprompt.Data: unknown key %q: Dotprompt's data argument has input, messages, context and docs (the template's values go under input)", k)
		}
	}
	return nil
}

// dataMessage reads a history message in Dotprompt's shape or this
// package's.
func dataMessage(v any) (promptfmt.Message, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return promptfmt.Message{}, fmt.Errorf("%T, want an object", v)
	}
	role, ok := m["role"].(string)
	if !ok {
		return promptfmt.Message{}, fmt.Errorf("no role")
	}
	msg := promptfmt.Message{Role: role}
	if md, ok := m["metadata"].(map[string]any); ok {
		msg.Metadata = maps.Clone(md)
	}
	switch c := m["content"].(type) {
	case string:
		msg.Content = []promptfmt.ContentPart{promptfmt.Text(c)}
	case []any:
		for i, p := range c {
			part, err := dataPart(p)
			if err != nil {
				return promptfmt.Message{}, fmt.Errorf("content[%d]: %w", i, err)
			}
			msg.Content = append(msg.Content, part)
		}
	default:
		return promptfmt.Message{}, fmt.Errorf("content is %T, want a string or a list", m["content"])
	}
	return msg, nil
}

func dataPart(v any) (promptfmt.ContentPart, error) {
	p, ok := v.(map[string]any)
	if !ok {
		return promptfmt.ContentPart{}, fmt.Errorf("%T, want an object", v)
	}
	str := func(m map[string]any, k string) string { s, _ := m[k].(string); return s }
	switch {
	case p["kind"] != nil: // this package's shape
		return promptfmt.ContentPart{Kind: promptfmt.Kind(str(p, "kind")), Value: str(p, "value"), MediaType: str(p, "mediaType")}, nil
	case p["text"] != nil:
		return promptfmt.Text(str(p, "text")), nil
	case p["media"] != nil:
		md, ok := p["media"].(map[string]any)
		if !ok {
			return promptfmt.ContentPart{}, fmt.Errorf("media is %T, want an object", p["media"])
		}
		ct := str(md, "contentType")
		return promptfmt.ContentPart{Kind: mediaKind(str(md, "url"), ct), Value: str(md, "url"), MediaType: ct}, nil
	}
	return promptfmt.ContentPart{}, fmt.Errorf("a part with neither text nor media: Dotprompt's history holds text and media only")
}
