package prompty

import (
	"bytes"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/slab"
)

const format = "prompty"

// Parse reads Prompty role-boundary text, with optional front matter, into
// a Document. See the package documentation for the rules. It takes
// promptfmt.File and this package's Strict and Threads.
func Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	cfg, err := newConfig(opts, "Parse", optStrict, optThreads)
	if err != nil {
		return nil, err
	}
	return cfg.Finish(parse(src, &cfg))
}

func parse(src []byte, cfg *config) (doc *promptfmt.Document, err error) {
	if cfg.strict && cfg.nonce == "" {
		return nil, &promptfmt.ParseError{Format: format, Msg: "strict mode needs a non-empty nonce"}
	}
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	doc = &promptfmt.Document{}
	body := lines.SkipBOM(src)
	if body > 0 {
		doc.Warnings = append(doc.Warnings, diag.Warnf(format, src, 0, lines.BOMWarning))
	}
	var fm frontMatter
	if !cfg.rendered {
		if fm, err = splitFrontMatter(src, body); err != nil {
			return nil, err
		}
		doc.MetaNode, doc.Meta, body = fm.node, fm.meta, fm.body
	}
	if err := parseBody(doc, src, body, cfg); err != nil {
		return nil, err
	}
	if cfg.strict {
		if err := checkNonceLines(src, cfg); err != nil {
			return nil, err
		}
	}
	if cfg.slots != nil {
		doc.Messages = expand(doc.Messages, cfg.slots)
	}
	if !cfg.rendered {
		// The file's strings are template source: Write keeps them as
		// written (see layout); so are its settings.
		l := newLayout(doc.Messages)
		l.kept = takeRequest(doc, src, fm)
		doc.Layout = l
	}
	return doc, nil
}

// open is the message whose content is being read.
type open struct {
	m     marker
	line  int // 1-based line of its boundary
	off   int // offset of the boundary's first non-blank byte
	bol   int // offset of the boundary's line
	start int // offset of its first content byte
}

// parseBody reads the messages of src[body:]. Their texts are substrings of
// one copy of the source (unless they hold a CR), so a message costs no
// copy of its own. Only lines ending in ':' can be boundaries, and only
// those are looked at.
func parseBody(doc *promptfmt.Document, src []byte, body int, cfg *config) error {
	text := string(src)
	est := estimateMessages(src[body:])
	doc.Messages = make([]promptfmt.Message, 0, est)
	parts := slab.New(min(est, 1024))
	first, _ := lines.Position(src, body)
	var cur open
	var err error
	inMessage := false
	lines.Ending(src[body:], ':', func(n, s, e, next int) bool {
		s, e, next = body+s, body+e, body+next
		m, isMarker, bad := parseMarkerIn(text[s:e], cfg.sent)
		if bad != "" { // positioned from what is known: Warnf would rescan the source
			doc.Warnings = append(doc.Warnings, promptfmt.Warning{Format: format, Line: first + n - 1, Col: m.col + 1, Offset: s + m.col,
				Msg: bad + "; the line is read as content, not as a role marker"})
		}
		if !isMarker {
			return true
		}
		if inMessage {
			var msg promptfmt.Message
			if msg, err = finish(src, text, &cur, s, cfg, &parts); err != nil {
				return false
			}
			doc.Messages = append(doc.Messages, msg)
		} else if len(bytes.TrimSpace(src[body:s])) > 0 {
			doc.Messages = append(doc.Messages, preamble(src, text, body, s, &parts))
		}
		cur, inMessage = open{m: m, line: first + n - 1, off: s + m.col, bol: s, start: next}, true
		return true
	})
	if err != nil {
		return err
	}
	if inMessage {
		msg, err := finish(src, text, &cur, len(src), cfg, &parts)
		if err != nil {
			return err
		}
		doc.Messages = append(doc.Messages, msg)
	} else if len(bytes.TrimSpace(src[body:])) > 0 {
		doc.Messages = append(doc.Messages, preamble(src, text, body, len(src), &parts))
	}
	return nil
}

// estimateMessages guesses how many messages src holds, so that the message
// list seldom grows (growing it doubles it: for a large file that is the
// largest garbage of a parse): at most one per ':' (counting one byte is
// far faster than finding lines), and at most one per 32 bytes, so that a
// file full of colons reserves at most three times its own size (a list
// of shorter messages grows as usual). What the list reserves and does not
// use is never written, so it takes address space, not memory.
func estimateMessages(src []byte) int {
	return min(bytes.Count(src, []byte{':'})+1, len(src)/32+16)
}

// content is text[start:end] as a message holds it: line breaks as LF,
// leading and trailing empty lines removed.
func content(text string, start, end int) string {
	start = min(start, end) // a boundary on the last line has no content
	return strings.Trim(lines.ToLF(text[start:end]), "\n")
}

func preamble(src []byte, text string, start, end int, parts *slab.Parts) promptfmt.Message {
	m := promptfmt.Message{Role: "system", Content: parts.One(promptfmt.Text(content(text, start, end)))}
	m.Line, _ = lines.Position(src, start)
	return m
}

// finish builds the open message, whose content ends at end.
func finish(src []byte, text string, o *open, end int, cfg *config, parts *slab.Parts) (promptfmt.Message, error) {
	msg := promptfmt.Message{Role: o.m.role, Content: parts.One(promptfmt.Text(content(text, o.start, end)))}
	msg.Line = o.line
	if msg.Content[0].Value != "" {
		// Its first line: the marker's next, after the empty lines content
		// drops (CRLF, LF or a lone CR each end one).
		msg.TextLine = o.line + 1
		for i := min(o.start, end); i < end && (text[i] == '\n' || text[i] == '\r'); i++ {
			if text[i] == '\n' || i+1 == end || text[i+1] != '\n' {
				msg.TextLine++
			}
		}
	}
	if cfg.strict {
		if err := checkNonce(src, o, cfg.nonce); err != nil {
			return msg, err
		}
		cfg.checked = append(cfg.checked, o.bol)
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
