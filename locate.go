package promptfmt

import (
	"errors"
)

// Locate points each *UnsupportedError in err (joined ones too) at the
// source line of the thing it is about, as doc's parser recorded it: a
// metadata key's line, a line of the text, the first message too many, a
// document metadata key's line, a comment's line. An error whose thing has
// no known line keeps its message's line. Adapt locates the changes it
// makes; a command that prints a writer's refusal for a file calls Locate
// first, so each names the line in the file, not within the message.
func Locate(doc *Document, err error) {
	for _, e := range leaves(err) {
		var ue *UnsupportedError
		if errors.As(e, &ue) {
			if line := doc.line(ue); line > 0 {
				ue.Line = line
			}
		}
	}
}

// line is the source line of what e is about, 0 when unknown.
func (d Document) line(e *UnsupportedError) int {
	if e.Index < 0 {
		switch e.Thing {
		case ThingMessages:
			if len(d.Messages) > 1 {
				return d.Messages[1].Line // the first message too many
			}
		case ThingMeta:
			return d.metaLine(e.Key)
		case ThingRequest:
			return d.Request.Lines[e.Key]
		case ThingComment:
			if e.Part >= 0 && e.Part < len(d.Comments) {
				return d.Comments[e.Part].Line
			}
		}
		return 0
	}
	if e.Index >= len(d.Messages) {
		return 0
	}
	m := &d.Messages[e.Index]
	switch {
	case e.Thing == ThingMetadata && e.Key != "":
		if l := m.KeyLines[e.Key]; l > 0 {
			return l
		}
	case e.Thing == ThingMetadata:
		if l := firstLine(m.KeyLines); l > 0 {
			return l
		}
	case e.Thing == ThingText && e.TextLine > 0 && m.TextLine > 0:
		return m.TextLine + e.TextLine - 1
	}
	if m.Line == 0 { // a message without a line of its own (a head before any heading)
		if m.TextLine > 0 {
			return m.TextLine
		}
		return firstLine(m.KeyLines)
	}
	return m.Line
}

// metaLine is the line of Meta key k ("" for the first).
func (d Document) metaLine(k string) int {
	if k == "" {
		return firstLine(d.KeyLines)
	}
	return d.KeyLines[k]
}

func firstLine(lines map[string]int) int {
	first := 0
	for _, l := range lines {
		if l > 0 && (first == 0 || l < first) {
			first = l
		}
	}
	return first
}
