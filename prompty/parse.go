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
	text := string(src)
	if err := parseBodyText(doc, src, text, body, cfg); err != nil {
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
		l := newLayout(doc.Messages, text, body, cfg.slots != nil)
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
// copy of its own; messages are written where they lie in the list and
// their parts cut from shared arrays (internal/slab). Only lines ending in
// ':' can be boundaries, and only those are looked at.
func parseBody(doc *promptfmt.Document, src []byte, body int, cfg *config) error {
	return parseBodyText(doc, src, string(src), body, cfg)
}

// parseBodyText is parseBody with text, the one copy of src that texts
// are cut from.
func parseBodyText(doc *promptfmt.Document, src []byte, text string, body int, cfg *config) error {
	doc.Messages = make([]promptfmt.Message, 0, slab.First(len(src)-body))
	parts := slab.New(slab.First(len(src) - body))
	first, _ := lines.Position(src, body)
	var cur open
	inMessage := false
	ends := lines.NewEndings(src[body:], ':')
	lf := !ends.HasCR() // texts need no line breaks turned to LF
	for {
		n, s, e, next, ok := ends.Next()
		if !ok {
			break
		}
		s, e, next = body+s, body+e, body+next
		role, col, plain := lineRole(src[s:e])
		if role == "" {
			continue
		}
		m := marker{role: role, col: col}
		if !plain {
			var isMarker bool
			var bad string
			m, isMarker, bad = parseMarkerIn(text[s:e], cfg.sent)
			if bad != "" {
				doc.Warnings = append(doc.Warnings, markerWarning(first+n-1, s, m, bad))
			}
			if !isMarker {
				continue
			}
		}
		if inMessage {
			if err := finish(slab.Next(&doc.Messages, s, len(src)), src, text, &cur, s, cfg, &parts, lf); err != nil {
				return err
			}
		} else if len(bytes.TrimSpace(src[body:s])) > 0 {
			preamble(slab.Next(&doc.Messages, s, len(src)), src, text, body, s, &parts)
		}
		cur, inMessage = open{m: m, line: first + n - 1, off: s + m.col, bol: s, start: next}, true
	}
	if inMessage {
		return finish(slab.Next(&doc.Messages, len(src), len(src)), src, text, &cur, len(src), cfg, &parts, lf)
	} else if len(bytes.TrimSpace(src[body:])) > 0 {
		preamble(slab.Next(&doc.Messages, len(src), len(src)), src, text, body, len(src), &parts)
	}
	return nil
}

// markerWarning is the warning of a line at offset s, number n, shaped
// like a role marker, that is not one because of bad; positioned from
// what is known: Warnf would rescan the source.
func markerWarning(n, s int, m marker, bad string) promptfmt.Warning {
	return promptfmt.Warning{Format: format, Line: n, Col: m.col + 1, Offset: s + m.col,
		Msg: bad + "; the line is read as content, not as a role marker"}
}

// markerWarnings are the warnings parseBody gives of src[body:] (lines
// shaped like role markers that are not), without reading its messages
// or copying it.
func markerWarnings(src []byte, body int) []promptfmt.Warning {
	first, _ := lines.Position(src, body)
	var ws []promptfmt.Warning
	ends := lines.NewEndings(src[body:], ':')
	for {
		n, s, e, _, ok := ends.Next()
		if !ok {
			return ws
		}
		s, e = body+s, body+e
		if !mayName(src[s:e]) {
			continue
		}
		if m, _, bad := parseMarkerIn(string(src[s:e]), nil); bad != "" {
			ws = append(ws, markerWarning(first+n-1, s, m, bad))
		}
	}
}

// content is text[start:end] as a message holds it: line breaks as LF,
// leading and trailing empty lines removed.
func content(text string, start, end int) string {
	start = min(start, end) // a boundary on the last line has no content
	return strings.Trim(lines.ToLF(text[start:end]), "\n")
}

// preamble writes into m the system message of the text before the
// first boundary.
func preamble(m *promptfmt.Message, src []byte, text string, start, end int, parts *slab.Parts) {
	m.Role, m.Content = "system", parts.Text(content(text, start, end))
	m.Line, _ = lines.Position(src, start)
}

// finish writes into msg the open message, whose content ends at end.
// lf tells that the source has no CR: its lines end in LF already.
func finish(msg *promptfmt.Message, src []byte, text string, o *open, end int, cfg *config, parts *slab.Parts, lf bool) error {
	var value string
	if lf {
		value = strings.Trim(text[min(o.start, end):end], "\n")
	} else {
		value = content(text, o.start, end)
	}
	msg.Role, msg.Content, msg.Line = o.m.role, parts.Text(value), o.line
	if value != "" {
		// Its first line: the marker's next, after the empty lines content
		// drops (CRLF, LF or a lone CR each end one).
		line := o.line + 1
		for i := min(o.start, end); i < end && (text[i] == '\n' || text[i] == '\r'); i++ {
			if text[i] == '\n' || i+1 == end || text[i+1] != '\n' {
				line++
			}
		}
		msg.TextLine = line
	}
	if cfg.strict {
		if err := checkNonce(src, o, cfg.nonce); err != nil {
			return err
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
	return nil
}
