package prompty

import (
	"bytes"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/lines"
)

const format = "prompty"

// Parse reads Prompty role-boundary text, with optional front matter, into
// a Document. See the package documentation for the rules.
func Parse(src []byte, opts ...Option) (*promptfmt.Document, error) {
	cfg := newConfig(opts)
	if cfg.strict && cfg.nonce == "" {
		return nil, &promptfmt.ParseError{Format: format, Msg: "strict mode needs a non-empty nonce"}
	}
	if err := promptfmt.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	doc := &promptfmt.Document{}
	body := 0
	if !cfg.strict {
		meta, off, err := splitFrontMatter(src)
		if err != nil {
			return nil, err
		}
		doc.Meta, body = meta, off
	}
	if err := parseBody(doc, src, body, &cfg); err != nil {
		return nil, err
	}
	if cfg.threads != nil {
		doc.Messages = expandThreads(doc.Messages, cfg.threads)
	}
	return doc, nil
}

// open is the message whose content is being read.
type open struct {
	m     marker
	line  int // 1-based line of its boundary
	off   int // offset of the boundary's first non-blank byte
	start int // offset of its first content byte
}

func parseBody(doc *promptfmt.Document, src []byte, body int, cfg *config) error {
	line, _ := promptfmt.Position(src, body)
	line-- // incremented before each line is looked at
	var cur *open
	sc := lines.NewScanner(src[body:])
	for {
		s, e, next, ok := sc.Next()
		if !ok {
			break
		}
		line++
		if !endsWithColon(src[body+s : body+e]) {
			continue // most lines: no string made, nothing allocated
		}
		m, isMarker, bad := parseMarker(string(src[body+s : body+e]))
		if bad != "" {
			doc.Warnings = append(doc.Warnings, promptfmt.Warnf(format, src, body+s+m.col,
				"%s; the line is read as content, not as a role marker", bad))
		}
		if !isMarker {
			continue
		}
		if cur != nil {
			msg, err := finish(src, cur, body+s, cfg)
			if err != nil {
				return err
			}
			doc.Messages = append(doc.Messages, msg)
		} else if pre := src[body : body+s]; len(bytes.TrimSpace(pre)) > 0 {
			doc.Messages = append(doc.Messages, preamble(src, body, body+s))
		}
		cur = &open{m: m, line: line, off: body + s + m.col, start: body + next}
	}
	if cur != nil {
		msg, err := finish(src, cur, len(src), cfg)
		if err != nil {
			return err
		}
		doc.Messages = append(doc.Messages, msg)
	} else if len(bytes.TrimSpace(src[body:])) > 0 {
		doc.Messages = append(doc.Messages, preamble(src, body, len(src)))
	}
	return nil
}

// endsWithColon is parseMarker's first test, on bytes, so that content
// lines cost no conversion.
func endsWithColon(b []byte) bool {
	i := len(b) - 1
	for i >= 0 && isBlank(b[i]) {
		i--
	}
	return i >= 0 && b[i] == ':'
}

// content is the text of src[start:end] as a message holds it: line breaks
// as LF, leading and trailing empty lines removed.
func content(src []byte, start, end int) string {
	start = min(start, end) // a boundary on the last line has no content
	return strings.Trim(lines.ToLF(src[start:end]), "\n")
}

func preamble(src []byte, start, end int) promptfmt.Message {
	m := promptfmt.NewMessage("system", content(src, start, end))
	m.Line, _ = promptfmt.Position(src, start)
	return m
}

// finish builds the open message, whose content ends at end.
func finish(src []byte, o *open, end int, cfg *config) (promptfmt.Message, error) {
	msg := promptfmt.NewMessage(o.m.role, content(src, o.start, end))
	msg.Line = o.line
	if cfg.strict {
		if err := checkNonce(src, o, cfg.nonce); err != nil {
			return msg, err
		}
	}
	for _, a := range o.m.attrs {
		switch {
		case a.key == "name":
			msg.Name = a.value.(string)
		case a.key == "nonce" && cfg.strict:
		default:
			if msg.Metadata == nil {
				msg.Metadata = make(map[string]any, len(o.m.attrs))
			}
			msg.Metadata[a.key] = a.value
		}
	}
	return msg, nil
}
