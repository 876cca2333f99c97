package main

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// messagePieces is a message encoded as its MarshalJSON encodes it, its
// texts a piece at a time when they are large: a prompt file of one
// message of 256 MB is not held encoded (nor twice, as the encoder
// copies what MarshalJSON returns).
type messagePieces struct{ promptfmt.Message }

// largeText is the size of the texts from which a message is encoded in
// pieces.
const largeText = 1 << 20

func (m messagePieces) JSONPieces(yield func([]byte)) error {
	size := 0
	for _, p := range m.Content {
		size += len(p.Value)
	}
	if size < largeText {
		b, err := jsonvalue.Encode(m.Message)
		yield(b)
		return err
	}
	// The message with empty values, whose encoding holds `"value":""`
	// once for each part, in order (in a string, a quote is escaped: no
	// string holds that text), where the values go.
	shell := m.Message
	shell.Content = slices.Clone(m.Content)
	for i := range shell.Content {
		shell.Content[i].Value = ""
	}
	b, err := jsonvalue.Encode(shell)
	if err != nil {
		return err
	}
	empty := []byte(`"value":""`)
	for _, p := range m.Content {
		at := bytes.Index(b, empty)
		if at < 0 {
			return fmt.Errorf("encoding a message: no value for a part")
		}
		at += len(empty) - 2
		yield(b[:at])
		if err := jsonvalue.StringPieces(p.Value, 64<<10, yield); err != nil {
			return err
		}
		b = b[at+2:]
	}
	yield(b)
	return nil
}
