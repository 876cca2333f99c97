package provider

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/promptfmt/promptfmt"
)

// exportNames are the provider formats the mapping tests cover.
func exportNames() []string {
	return []string{nameOpenAI, nameAnthropic, nameGemini, nameOpenAIResponses}
}

func formatNamed(name string) promptfmt.Format {
	for _, f := range []promptfmt.Format{OpenAI, Anthropic, Gemini, OpenAIResponses} {
		if f.Name() == name {
			return f
		}
	}
	panic("no format " + name)
}

// export writes msgs as the named provider's body, as a command's
// messages --as does: each message without its metadata (a tool reply of
// text made a result first), as Document.ForModel gives them, the body as
// compact JSON.
func export(name string, msgs []promptfmt.Message) (any, error) {
	sent := make([]promptfmt.Message, len(msgs))
	for i, m := range msgs {
		m = m.Clone()
		if m.Role == "tool" && len(m.Content) == 1 && m.Content[0].Kind == promptfmt.KindText {
			one := (&promptfmt.Document{Messages: []promptfmt.Message{m}}).ForModel()
			if len(one.Messages) == 1 {
				m.Content = one.Messages[0].Content
			}
		}
		m.Metadata = nil // not sent (Document.ForModel)
		sent[i] = m
	}
	var b bytes.Buffer
	if err := formatNamed(name).Write(&b, &promptfmt.Document{Messages: sent}, promptfmt.Send()); err != nil {
		return nil, err
	}
	var c bytes.Buffer
	if err := json.Compact(&c, b.Bytes()); err != nil {
		return nil, fmt.Errorf("%s wrote invalid JSON: %v", name, err)
	}
	return json.RawMessage(c.Bytes()), nil
}
