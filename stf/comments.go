package stf

import (
	"cmp"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// This file keeps comments: the parser anchors each to its place among the
// messages (promptfmt.Comment), the writer puts it back there.

// pendingComment is a comment read since the last flush: its place in the
// current message depends on where the text around it goes.
type pendingComment struct {
	c  promptfmt.Comment
	at int // offset in the pending text where the line after it starts
}

// comment notes the comment text read at source offset pos (a line
// comment, or a block comment from its ;/* line to its ;*/ line).
func (p *parser) comment(pos, line int, text string) {
	c := promptfmt.Comment{Format: format, Text: lines.CRLFToLF(text), Line: line}
	if p.open == "raw" {
		// In a ;raw block: before the message the block makes.
		c.Message, c.Part = len(p.doc.Messages), -1
		p.doc.Comments = append(p.doc.Comments, c)
		return
	}
	at := 0
	if p.text.n > 0 {
		at = p.text.size + 1
	}
	p.pending = append(p.pending, pendingComment{c, at})
}

// placeComments anchors the pending comments once the pending text is
// placed: it went into part `part` of the current message from byte base
// and is n bytes long; part is -1 when no text went anywhere.
func (p *parser) placeComments(part, base, n int) {
	if len(p.pending) == 0 {
		return // and no store to p.pending, which costs a write barrier while the collector marks
	}
	for _, pc := range p.pending {
		c := pc.c
		switch {
		case p.cur < 0:
			c.Message, c.Part = len(p.doc.Messages), -1
		case part >= 0 && pc.at <= n:
			c.Message, c.Part, c.Offset = p.cur, part, base+pc.at
		case part >= 0:
			c.Message, c.Part = p.cur, part+1 // after the text
		default:
			c.Message, c.Part = p.cur, len(p.doc.Messages[p.cur].Content)
		}
		p.doc.Comments = append(p.doc.Comments, c)
	}
	p.pending = p.pending[:0]
}

// canonicalComments gives each comment the one anchor the writer's output
// reads back as: a place in a text part is the start of one of its lines
// (else the start of the next, or after the part), and an empty text part,
// written as no lines, has no place inside it.
//
// A comment between two messages is after the content of the first when
// that is written as commands, and before the second when the first is a
// ;raw block, which holds no comment.
func canonicalComments(doc *promptfmt.Document) {
	for i := range doc.Comments {
		c := &doc.Comments[i]
		if c.Part >= 0 && c.Message < len(doc.Messages) && needsRaw(&doc.Messages[c.Message]) {
			c.Part, c.Offset = -1, 0
		}
		if c.Part < 0 && c.Message > 0 && c.Message <= len(doc.Messages) && !needsRaw(&doc.Messages[c.Message-1]) {
			c.Message--
			c.Part, c.Offset = len(doc.Messages[c.Message].Content), 0
		}
		if c.Part < 0 || c.Message >= len(doc.Messages) {
			continue
		}
		content := doc.Messages[c.Message].Content
		if c.Part >= len(content) || content[c.Part].Kind != promptfmt.KindText {
			continue
		}
		text := content[c.Part].Value
		if c.Offset > 0 && c.Offset <= len(text) && text[c.Offset-1] != '\n' {
			if j := strings.IndexByte(text[c.Offset:], '\n'); j >= 0 {
				c.Offset += j + 1
			} else {
				c.Offset = len(text) + 1
			}
		}
		if text == "" || c.Offset > len(text) {
			c.Part, c.Offset = c.Part+1, 0
		}
	}
	// In the order they are written (text joined across a block can leave
	// an earlier comment after a later one).
	slices.SortStableFunc(doc.Comments, func(x, y promptfmt.Comment) int {
		return cmp.Or(x.Message-y.Message, x.Part-y.Part, x.Offset-y.Offset)
	})
}

// isComment reports whether text is one STF comment: a ;# or ;// line, or
// a block from a ;/* line to the ;*/ line that closes it.
func isComment(text string) bool {
	depth := 0
	for i, line := range strings.Split(text, "\n") {
		if i > 0 && depth == 0 {
			return false // a line after the comment ended
		}
		rest, isCmd := strings.CutPrefix(line, ";")
		if !isCmd || strings.HasPrefix(rest, ";") {
			if depth == 0 {
				return false
			}
			continue
		}
		rest = strings.TrimLeft(rest, " \t")
		switch {
		case strings.HasPrefix(rest, "/*"):
			depth++
		case strings.HasPrefix(rest, "*/"):
			if depth == 0 {
				return false
			}
			depth--
		case depth == 0 && !strings.HasPrefix(rest, "#") && !strings.HasPrefix(rest, "//"):
			return false
		}
	}
	return depth == 0
}

// commentPlaces returns, for each message and for the end of the file
// (index len(doc.Messages)), the indexes of the comments written there, in
// the order they are written: those before the message first, then by
// place in its content, source order among equals.
func commentPlaces(doc *promptfmt.Document) [][]int {
	n := len(doc.Messages)
	places := make([][]int, n+1)
	for i, c := range doc.Comments {
		m := min(max(c.Message, 0), n)
		places[m] = append(places[m], i)
	}
	for _, at := range places[:n] {
		slices.SortStableFunc(at, func(x, y int) int {
			a, b := doc.Comments[x], doc.Comments[y]
			if a.Part != b.Part {
				return max(a.Part, -1) - max(b.Part, -1)
			}
			return a.Offset - b.Offset
		})
	}
	return places
}

// appendComments appends the comments at indexes at, each on its own lines.
func appendComments(b []byte, doc *promptfmt.Document, at []int) []byte {
	for _, i := range at {
		b = appendCommentText(b, doc.Comments[i].Text)
	}
	return b
}

// appendCommentText appends a comment's text and the line break after it.
// The reader drops one CR before each LF of a comment (a CRLF file's line
// ends), so a line of the text that ends in CR is given one more: ";#\r"
// is written ";#\r\r\n" and read back as it was.
func appendCommentText(b []byte, text string) []byte {
	for {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			break
		}
		b = appendCommentLine(b, text[:i])
		text = text[i+1:]
	}
	return appendCommentLine(b, text)
}

func appendCommentLine(b []byte, line string) []byte {
	b = append(b, line...)
	if strings.HasSuffix(line, "\r") {
		b = append(b, '\r')
	}
	return append(b, '\n')
}

// appendDataComments appends text as appendData does, with the comments
// at indexes at (all in this part, sorted by Offset) before the lines that
// start at their offsets, and after the text those placed past its end.
func appendDataComments(b []byte, doc *promptfmt.Document, text string, at []int) []byte {
	off := 0
	if text != "" {
		for line := range strings.SplitSeq(text, "\n") {
			for len(at) > 0 && doc.Comments[at[0]].Offset <= off {
				b, at = appendComments(b, doc, at[:1]), at[1:]
			}
			if strings.HasPrefix(line, ";") {
				b = append(b, ';')
			}
			b = append(append(b, line...), '\n')
			off += len(line) + 1
		}
	}
	return appendComments(b, doc, at)
}

// layout is what Parse keeps of how the file was written (Document.Layout):
// Write uses each piece only while the Document still holds what it says.
type layout struct {
	// metaAfter is how many comments came before the first ;meta block,
	// when it came before every message; -1 otherwise.
	metaAfter int
	// meta holds the data of the ;meta blocks as written (the user's key
	// order, JSON5 comments and style); extra those of each message's
	// ;extra blocks, and args the keys of its arguments in their order,
	// both by the message's line.
	meta  []string
	extra map[int][]string
	args  map[int][]string
	// kept is what takeRequest read, so that an unchanged setting is
	// written back as written (temperature: 1 stays 1, not 1.0) and the
	// ;meta blocks with it.
	kept *homes.Kept
}

func layoutOf(doc *promptfmt.Document) *layout {
	if l, ok := doc.Layout.(*layout); ok {
		return l
	}
	return &layout{metaAfter: -1}
}
