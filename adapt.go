package promptfmt

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/lines"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Change is one thing [Adapt] changed so that a format could express a
// document.
type Change struct {
	Format string // the format that could not express it
	Index  int    // 0-based index in the original document, -1 for the document
	Line   int    // the message's source line, 0 when unknown
	What   string // what the format could not express, in the writer's words
	Done   string // what was done about it: `dropped the name "Ross"`, ...
}

// String reads `message 3 (line 10): dropped the name "Ross" (pdl: the name
// "Ross" (PDL messages have none))`.
func (c Change) String() string {
	e := UnsupportedError{Index: c.Index, Line: c.Line}
	return fmt.Sprintf("%s: %s (%s: %s)", e.where(), c.Done, c.Format, c.What)
}

// Adapt returns a copy of doc changed until check (a format's writer, say)
// accepts it, and every change made, in order; doc itself is left alone.
// It is lossy conversion: each *UnsupportedError check returns is met by
// changing exactly its Thing, and nothing else:
//
//   - a disabled message, or a hidden one (role starting with "_") whose
//     role is refused, is dropped: it never reaches a model anyway;
//   - another refused role becomes the nearest common one (developer is
//     written as system, system and the rest as user); a refused user
//     message is dropped;
//   - a content part is changed to the nearest part the writer offers
//     ([UnsupportedError].NearestPart: the same image as a data: URI,
//     say);
//   - a name, a metadata key or document metadata key, or a content part
//     is dropped (a message left with no part holds empty text; texts
//     that the dropped part kept apart get a line break between them, so
//     their words are not glued together);
//   - text is made plain: its text parts joined, CR and CRLF made LF, white
//     space at its ends trimmed; or, when the writer offers the nearest
//     text it can hold ([UnsupportedError].Nearest), made that text;
//   - a refused order of messages joins a message into the one before it
//     when both have the same role (under that one's name and metadata),
//     or else drops it; this is done once nothing else about the messages
//     is refused. Too many messages (a document error) joins them all into
//     one, separated by blank lines;
//   - a Request field the format cannot hold is dropped (one tool, when
//     only it is refused), or changed to the nearest the format can hold
//     when the writer offers it ([UnsupportedError].NearestRequest);
//   - a comment another format's writer cannot hold is dropped; the
//     comments of a dropped message move before the message after it.
//
// Message-level errors are met first; the document's only when no message
// is refused. When check fails with anything else (ThingOther, an error
// that is not an *UnsupportedError, or a thing a change did not help),
// Adapt returns that error and no document.
func Adapt(doc *Document, check func(*Document) error) (*Document, []Change, error) {
	a := &adapter{doc: cloneDocument(doc)}
	a.orig = make([]int, len(a.doc.Messages))
	for i := range a.orig {
		a.orig[i] = i
	}
	for {
		err := check(a.doc)
		if err == nil {
			return a.doc, a.changes, nil
		}
		Locate(a.doc, err)
		errs, ok := unsupportedErrors(err)
		if !ok {
			return nil, a.changes, err
		}
		n := len(a.changes)
		if !a.fix(errs) {
			return nil, a.changes, err
		}
		// A round works from the last message back; it is told from the first.
		slices.SortStableFunc(a.changes[n:], func(x, y Change) int { return cmp.Or(x.Index-y.Index, x.Line-y.Line) })
	}
}

type adapter struct {
	doc     *Document
	orig    []int // original index of each message
	changes []Change
}

// unsupportedErrors flattens err into its UnsupportedErrors; ok is false
// when it holds anything else.
func unsupportedErrors(err error) (errs []*UnsupportedError, ok bool) {
	for _, e := range leaves(err) {
		var ue *UnsupportedError
		if !errors.As(e, &ue) {
			return nil, false
		}
		errs = append(errs, ue)
	}
	return errs, true
}

// fix makes one round of changes; false when none of errs could be met.
func (a *adapter) fix(errs []*UnsupportedError) bool {
	byMessage := map[int][]*UnsupportedError{}
	var doc []*UnsupportedError
	for _, e := range errs {
		if e.Thing == ThingOther || e.Index >= len(a.doc.Messages) {
			return false
		}
		if e.Index < 0 {
			doc = append(doc, e)
		} else {
			byMessage[e.Index] = append(byMessage[e.Index], e)
		}
	}
	// The order of messages is met last, once the messages themselves fit.
	order := map[int][]*UnsupportedError{}
	for i, es := range byMessage {
		rest := slices.DeleteFunc(slices.Clone(es), func(e *UnsupportedError) bool { return e.Thing == ThingMessages })
		if len(rest) == 0 {
			order[i] = es
			delete(byMessage, i)
		} else {
			byMessage[i] = rest
		}
	}
	if len(byMessage) == 0 {
		byMessage = order
	}
	if len(byMessage) == 0 {
		// Comments from the last back, so the indexes of the others hold.
		slices.SortStableFunc(doc, func(x, y *UnsupportedError) int {
			if x.Thing == ThingComment && y.Thing == ThingComment {
				return y.Part - x.Part
			}
			return 0
		})
		for _, e := range doc {
			if !a.fixDocument(e) {
				return false
			}
		}
		return true
	}
	// From the last message back, so that dropping one leaves the indexes
	// of the others alone.
	idx := make([]int, 0, len(byMessage))
	for i := range byMessage {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	for _, i := range slices.Backward(idx) {
		if !a.fixMessage(i, byMessage[i]) {
			return false
		}
	}
	return true
}

func (a *adapter) note(e *UnsupportedError, i int, done string, args ...any) {
	c := Change{Format: e.Format, Index: -1, Line: e.Line, What: e.What, Done: fmt.Sprintf(done, args...)}
	if i >= 0 {
		c.Index = a.orig[i]
	}
	a.changes = append(a.changes, c)
}

func (a *adapter) fixDocument(e *UnsupportedError) bool {
	d := a.doc
	switch e.Thing {
	case ThingMeta:
		dropped, ok := dropKeys(d.Meta, e.Key)
		if !ok {
			return false
		}
		a.note(e, -1, "dropped %s", dropped)
		if len(d.Meta) == 0 {
			d.Meta, d.MetaNode = nil, nil
		}
		return true
	case ThingRequest:
		return a.dropRequest(e)
	case ThingComment:
		if e.Part < 0 || e.Part >= len(d.Comments) {
			return false
		}
		c := d.Comments[e.Part]
		text, cut := abbrev.Cut(lines.First(c.Text), 40)
		if cut {
			text += "…"
		}
		a.note(e, -1, "dropped the comment %q", text)
		d.Comments = slices.Delete(d.Comments, e.Part, e.Part+1)
		return true
	case ThingMessages:
		if len(d.Messages) < 2 {
			return false
		}
		first := &d.Messages[0]
		for i := 1; i < len(d.Messages); i++ {
			join(first, &d.Messages[i])
		}
		a.note(e, -1, "joined messages 1 to %d into one, separated by blank lines", len(d.Messages))
		d.Messages, a.orig = d.Messages[:1], a.orig[:1]
		for j := range d.Comments {
			if c := &d.Comments[j]; c.Message > 0 {
				c.Message, c.Part, c.Offset = 1, -1, 0 // after the one message
			}
		}
		return true
	}
	return false
}

// dropRequest drops the Request field e names, or the one tool.
func (a *adapter) dropRequest(e *UnsupportedError) bool {
	r := &a.doc.Request
	if e.NearestRequest != nil {
		if !r.copyField(e.NearestRequest.Clone(), e.Key) {
			return false
		}
		a.note(e, -1, "changed the request's %s to what %s can hold", e.Key, e.Format)
		return true
	}
	if e.Key == FieldTools && e.Part >= 0 {
		if e.Part >= len(r.Tools) {
			return false
		}
		a.note(e, -1, "dropped the tool %q", r.Tools[e.Part].Name)
		r.Tools = slices.Delete(r.Tools, e.Part, e.Part+1)
		return true
	}
	if !r.Clear(e.Key) {
		return false
	}
	a.note(e, -1, "dropped the request's %s", e.Key)
	return true
}

// fixMessage meets every error about message i.
func (a *adapter) fixMessage(i int, errs []*UnsupportedError) bool {
	m := &a.doc.Messages[i]
	for _, e := range errs {
		drop := ""
		switch {
		case e.Thing == ThingDisabled || e.Thing == ThingRole && m.Hidden():
			drop = "dropped the message (it never reaches a model)"
		case e.Thing == ThingRole && nextRole(m.Role) == "":
			drop = fmt.Sprintf("dropped the %s message", m.Role)
		case e.Thing == ThingMessages && (i == 0 || a.doc.Messages[i-1].Role != m.Role):
			drop = "dropped the message"
		case e.Thing == ThingMessages:
			prev := &a.doc.Messages[i-1]
			done := fmt.Sprintf("joined the message into message %d, after a blank line", a.orig[i-1]+1)
			if m.Name != prev.Name || !equalMaps(m.Metadata, prev.Metadata) {
				done += fmt.Sprintf(", under that message's name %q and metadata", prev.Name)
			}
			a.note(e, i, "%s", done)
			join(prev, m)
			a.remove(i)
			return true
		}
		if drop != "" {
			a.note(e, i, "%s", drop)
			a.remove(i)
			return true
		}
	}
	// Parts from the last back, so the indexes of the others hold.
	slices.SortStableFunc(errs, func(x, y *UnsupportedError) int {
		switch {
		case x.Thing == ThingPart && y.Thing == ThingPart:
			return y.Part - x.Part
		case x.Thing == ThingPart:
			return -1
		case y.Thing == ThingPart:
			return 1
		}
		return 0
	})
	errs = onePerPart(errs)
	stale := false // the text changed, so a Nearest offered for it is stale
	for _, e := range errs {
		switch e.Thing {
		case ThingRole:
			to := nextRole(m.Role)
			a.note(e, i, "changed the role %q to %q", m.Role, to)
			m.Role = to
		case ThingName:
			if m.Name == "" {
				return false
			}
			a.note(e, i, "dropped the name %q", m.Name)
			m.Name = ""
		case ThingMetadata:
			dropped, ok := dropKeys(m.Metadata, e.Key)
			if !ok {
				return false
			}
			a.note(e, i, "dropped %s", dropped)
			if len(m.Metadata) == 0 {
				m.Metadata = nil
			}
		case ThingPart:
			if e.Part < 0 || e.Part >= len(m.Content) {
				return false
			}
			if e.NearestPart != nil {
				if *e.NearestPart == m.Content[e.Part] {
					return false // offered the part itself: no change helps
				}
				a.note(e, i, "changed part %d (%s) to the form %s holds", e.Part+1, describePart(m.Content[e.Part]), e.Format)
				m.Content[e.Part] = *e.NearestPart
				continue
			}
			done := fmt.Sprintf("dropped part %d (%s)", e.Part+1, describePart(m.Content[e.Part]))
			m.Content = slices.Delete(m.Content, e.Part, e.Part+1)
			if e.Part > 0 && e.Part < len(m.Content) && keepApart(&m.Content[e.Part-1], m.Content[e.Part]) {
				done += ", leaving a line break between the texts on either side"
				stale = true
			}
			a.note(e, i, "%s", done)
			if len(m.Content) == 0 {
				m.Content = []ContentPart{Text("")}
			}
		case ThingText:
			var done string
			if e.Nearest != nil && stale {
				continue // offered for the text before this round changed it: asked again next round
			}
			if e.Nearest != nil {
				done = a.nearestText(i, *e.Nearest)
			} else {
				done = a.plainText(i)
			}
			if done == "" {
				return false
			}
			a.note(e, i, "%s", done)
		default:
			return false
		}
	}
	return true
}

// onePerPart keeps one error for each refused part (errs sorted with the
// parts first): a part refused twice is changed once, else the second
// change would fall on the part after it. A refusal that offers no
// nearest part wins (the part goes), else the first offer is taken.
func onePerPart(errs []*UnsupportedError) []*UnsupportedError {
	out := errs[:0:0]
	for _, e := range errs {
		if e.Thing == ThingPart && len(out) > 0 {
			last := out[len(out)-1]
			if last.Thing == ThingPart && last.Part == e.Part {
				if last.NearestPart != nil && e.NearestPart == nil {
					out[len(out)-1] = e
				}
				continue
			}
		}
		out = append(out, e)
	}
	return out
}

// remove deletes message i; its comments move before the message after it.
func (a *adapter) remove(i int) {
	a.doc.Messages = slices.Delete(a.doc.Messages, i, i+1)
	a.orig = slices.Delete(a.orig, i, i+1)
	for j := range a.doc.Comments {
		switch c := &a.doc.Comments[j]; {
		case c.Message == i:
			c.Part, c.Offset = -1, 0
		case c.Message > i:
			c.Message--
		}
	}
}

// plainText makes message i's text plain, a step at a time, and says
// what changed ("" when nothing could): CR and CRLF made LF; adjacent text
// parts joined and empty ones beside other parts dropped; or, when there
// was nothing such, all its text parts joined into the first (a format
// that holds one text); then the white space at the message's ends
// trimmed.
func (a *adapter) plainText(i int) string {
	m := &a.doc.Messages[i]
	var did []string
	texts := 0
	for j := range m.Content {
		if p := &m.Content[j]; p.Kind == KindText {
			texts++
			if strings.Contains(p.Value, "\r") {
				p.Value = lines.ToLF(p.Value)
				if !slices.Contains(did, "made its line breaks LF") {
					did = append(did, "made its line breaks LF")
				}
			}
		}
	}
	if texts == 0 {
		return ""
	}
	parts := make([]ContentPart, 0, len(m.Content))
	joined, dropped := 0, 0
	for _, p := range m.Content {
		n := len(parts)
		switch {
		case p.Kind == KindText && p.Value == "" && len(m.Content) > 1:
			dropped++
		case p.Kind == KindText && n > 0 && parts[n-1].Kind == KindText:
			parts[n-1].Value += p.Value
			joined++
		default:
			parts = append(parts, p)
		}
	}
	switch {
	case joined > 0 || dropped > 0:
		if joined > 0 {
			did = append(did, fmt.Sprintf("joined %d text parts that were side by side", joined+1))
		}
		if dropped > 0 {
			did = append(did, fmt.Sprintf("dropped %d empty text parts", dropped))
		}
	case texts > 1:
		first := slices.IndexFunc(parts, func(p ContentPart) bool { return p.Kind == KindText })
		text := m.Text()
		parts = slices.DeleteFunc(parts, func(p ContentPart) bool { return p.Kind == KindText })
		parts = slices.Insert(parts, first, Text(text))
		did = append(did, fmt.Sprintf("joined its %d text parts", texts))
	}
	if len(parts) == 0 {
		parts = []ContentPart{Text("")}
	}
	trim := false
	if p := &parts[0]; p.Kind == KindText && strings.TrimLeftFunc(p.Value, unicode.IsSpace) != p.Value {
		p.Value, trim = strings.TrimLeftFunc(p.Value, unicode.IsSpace), true
	}
	if p := &parts[len(parts)-1]; p.Kind == KindText && strings.TrimRightFunc(p.Value, unicode.IsSpace) != p.Value {
		p.Value, trim = strings.TrimRightFunc(p.Value, unicode.IsSpace), true
	}
	if trim {
		did = append(did, "trimmed the white space at its ends")
	}
	m.Content = parts
	return strings.Join(did, ", ")
}

func countText(m *Message) int {
	n := 0
	for _, p := range m.Content {
		if p.Kind == KindText {
			n++
		}
	}
	return n
}

// keepApart puts a line break at the end of left when left and right are
// texts that would otherwise touch once the part between them is gone
// ("look" and "here" around an image must not read "lookhere").
func keepApart(left *ContentPart, right ContentPart) bool {
	if left.Kind != KindText || right.Kind != KindText || left.StrayField() != "" || right.StrayField() != "" {
		return false
	}
	l, _ := utf8.DecodeLastRuneInString(left.Value)
	r, _ := utf8.DecodeRuneInString(right.Value)
	if left.Value == "" || right.Value == "" || unicode.IsSpace(l) || unicode.IsSpace(r) {
		return false
	}
	left.Value += "\n"
	return true
}

// nearestText gives message i the text the writer offered as the nearest
// it can hold, in one text part where the first was, and says what
// changed ("" when nothing would).
func (a *adapter) nearestText(i int, text string) string {
	m := &a.doc.Messages[i]
	old := m.Text()
	var did []string
	if texts := countText(m); texts > 1 {
		did = append(did, fmt.Sprintf("joined its %d text parts", texts))
	} else if old == text {
		return ""
	}
	if lf := lines.ToLF(old); lf != old {
		did = append(did, "made its line breaks LF")
		old = lf
	}
	switch {
	case old+"\n" == text:
		did = append(did, "added a line break at the end of its text")
	case old != text:
		cut, more := abbrev.Cut(text, 60)
		if more {
			cut += "…"
		}
		did = append(did, fmt.Sprintf("changed its text to %q", cut))
	}
	parts := []ContentPart{}
	placed := false
	for _, p := range m.Content {
		if p.Kind != KindText {
			parts = append(parts, p)
		} else if !placed {
			parts, placed = append(parts, Text(text)), true
		}
	}
	if !placed {
		parts = append(parts, Text(text))
	}
	m.Content = parts
	return strings.Join(did, ", ")
}

// nextRole is the role a refused role is written as: "" for user, which
// has nowhere to go.
func nextRole(role string) string {
	switch strings.ToLower(role) {
	case "user":
		if role == "user" {
			return ""
		}
	case "developer", "dev":
		return "system"
	case "ai", "model", "assistant":
		if role != "assistant" {
			return "assistant"
		}
	}
	return "user"
}

// join appends m's content to into's, after a blank line (only the line
// breaks that make one are added).
func join(into, m *Message) {
	for _, p := range m.Content {
		last := &into.Content[len(into.Content)-1]
		if p.Kind == KindText && last.Kind == KindText && last.StrayField() == "" && p.StrayField() == "" {
			switch {
			case p.Value == "":
			case last.Value == "":
				last.Value = p.Value
			case strings.HasSuffix(last.Value, "\n\n"):
				last.Value += p.Value
			case strings.HasSuffix(last.Value, "\n"):
				last.Value += "\n" + p.Value
			default:
				last.Value += "\n\n" + p.Value
			}
			continue
		}
		into.Content = append(into.Content, p)
	}
}

// dropKeys deletes key from m (every key when key is "") and describes
// what went: `metadata title = "Notes"`; ok is false when nothing did.
func dropKeys(m map[string]any, key string) (dropped string, ok bool) {
	keys := []string{key}
	if key == "" {
		keys = jsonvalue.SortedKeys(m)
	}
	var b strings.Builder
	b.WriteString("metadata")
	for _, k := range keys {
		v, found := m[k]
		if !found {
			continue
		}
		if ok {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, " %s = %s", k, summary(v))
		delete(m, k)
		ok = true
	}
	return b.String(), ok
}

// summary is v as JSON, cut to a readable length.
func summary(v any) string {
	j, err := jsonvalue.Encode(v)
	s := string(j)
	if err != nil {
		s = fmt.Sprint(v)
	}
	if head, cut := abbrev.Cut(s, 57); cut {
		return head + "..."
	}
	return s
}

func describePart(p ContentPart) string {
	var bits []string
	bits = append(bits, string(p.Kind))
	if p.MediaType != "" {
		bits = append(bits, p.MediaType)
	}
	if p.ToolName != "" {
		bits = append(bits, p.ToolName)
	}
	if p.Filename != "" {
		bits = append(bits, p.Filename)
	}
	bits = append(bits, fmt.Sprintf("%d bytes", len(p.Value)))
	return strings.Join(bits, ", ")
}

func cloneDocument(doc *Document) *Document {
	d := *doc
	if doc.Meta != nil {
		d.Meta = cloneValue(doc.Meta).(map[string]any)
	}
	d.Messages = make([]Message, len(doc.Messages))
	for i, m := range doc.Messages {
		d.Messages[i] = m.Clone()
	}
	d.Request = doc.Request.Clone()
	d.Warnings = slices.Clone(doc.Warnings)
	d.Comments = slices.Clone(doc.Comments)
	return &d
}
