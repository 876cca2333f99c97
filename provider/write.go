package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// object is a JSON object whose members keep the order they are added in.
type object []member

type member struct {
	key   string
	value any
}

// add appends a member.
func (o *object) add(key string, value any) { *o = append(*o, member{key, value}) }

// AppendJSON writes the members in order.
func (o object) AppendJSON(b []byte) ([]byte, error) {
	b, err := o.appendMembers(append(b, '{'), false)
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// MarshalJSON is AppendJSON, for encoding/json.
func (o object) MarshalJSON() ([]byte, error) { return o.AppendJSON(nil) }

// appendMembers appends o's members as "key":value pairs. With more, b
// holds an object's members already (a comma comes first) and the object
// is closed after them: the extra members of a message or part, what it
// carried beyond the mapping's fields, written back as read.
func (o object) appendMembers(b []byte, more bool) ([]byte, error) {
	for i, m := range o {
		if i > 0 || more {
			b = append(b, ',')
		}
		b = append(jsonvalue.AppendString(b, m.key), ':')
		var err error
		if b, err = jsonvalue.Append(b, m.value); err != nil {
			return nil, err
		}
	}
	if more {
		b = append(b, '}')
	}
	return b, nil
}

// list is a JSON array of values that write themselves.
type list[T jsonvalue.Appender] []T

// AppendJSON writes the array.
func (l list[T]) AppendJSON(b []byte) ([]byte, error) {
	b = append(b, '[')
	for i, x := range l {
		if i > 0 {
			b = append(b, ',')
		}
		var err error
		if b, err = x.AppendJSON(b); err != nil {
			return nil, err
		}
	}
	return append(b, ']'), nil
}

// appendValue appends v as a body holds it (jsonvalue.Append).
func appendValue(b []byte, v any) ([]byte, error) { return jsonvalue.Append(b, v) }

// withExtras returns the JSON object plain with the members of extra
// after its own: what a message or part carried beyond the mapping's
// fields, written back as read (for a MarshalJSON; an AppendJSON calls
// extra.appendMembers).
func withExtras(plain []byte, extra object) ([]byte, error) {
	if len(extra) == 0 {
		return plain, nil
	}
	plain = bytes.TrimSuffix(plain, []byte("}"))
	return extra.appendMembers(plain, len(plain) > 1)
}

// writeBody writes a body as the command prints JSON: indented by two
// spaces, a final newline.
func writeBody(w io.Writer, body any) error {
	b, err := jsonvalue.Append(nil, body)
	if err != nil {
		return err
	}
	return jsonvalue.Indent(w, b)
}

// bodyMeta is how a writer puts a document's Meta into a body: each key a
// member of the body, after the mapping's own, in sorted order. A key is
// written when it is a member of the provider's body (known), or was read
// from a body of this format (read, the layout's); a key the mapping
// writes itself (own: the messages, the request's fields under the
// provider's names) is refused, as is any other key: it is some other
// format's metadata, and the provider would refuse the body.
func bodyMeta(format, label string, doc *promptfmt.Document, known, own, read map[string]bool) (object, []error) {
	var out object
	var errs []error
	for _, k := range jsonvalue.SortedKeys(doc.Meta) {
		switch {
		case own[k]:
			errs = append(errs, metaError(format, k, fmt.Sprintf(
				"the metadata key %q, which names what %s's body holds in its own place (a request setting of another type, or the conversation)", k, label)))
		case !known[k] && !read[k]:
			errs = append(errs, metaError(format, k, fmt.Sprintf("the metadata key %q (not a member of %s's request body)", k, label)))
		case homes.Check(doc.Meta[k], 1) != nil:
			errs = append(errs, metaError(format, k, fmt.Sprintf("the metadata key %q: it holds %v", k, homes.Check(doc.Meta[k], 1))))
		default:
			out.add(k, doc.Meta[k])
		}
	}
	return out, errs
}

func metaError(format, key, what string) error {
	return &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, Key: key, What: what}
}

// ownNow is own, the body members a mapping writes itself, without those
// read into Meta (read) that body does not hold: a member the Request
// could not hold exactly (a list of built-in tools) is written back from
// Meta, unless the mapping wrote the member from the Request.
func (o object) ownNow(own, read map[string]bool) map[string]bool {
	now := make(map[string]bool, len(own))
	for k := range own {
		if !read[k] || o.has(k) {
			now[k] = true
		}
	}
	return now
}

// has reports whether o has a member called key.
func (o object) has(key string) bool {
	for _, m := range o {
		if m.key == key {
			return true
		}
	}
	return false
}

// requestError refuses Request field f.
func requestError(format, f, what string) *promptfmt.UnsupportedError {
	return &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingRequest, Key: f, Part: -1, What: what}
}

// partKey is the metadata key under which a member of part j beyond the
// model's fields is kept: "content.2.cache_control".
func partKey(j int, member string) string { return fmt.Sprintf("content.%d.%s", j, member) }

// splitPartKey reads a partKey: the part's index and the member.
func splitPartKey(k string) (int, string, bool) {
	rest, ok := strings.CutPrefix(k, "content.")
	if !ok {
		return 0, "", false
	}
	num, member, ok := strings.Cut(rest, ".")
	if !ok || member == "" || num == "" || len(num) > 9 || num[0] == '0' && len(num) > 1 {
		return 0, "", false
	}
	j := 0
	for _, c := range []byte(num) {
		if c < '0' || c > '9' {
			return 0, "", false
		}
		j = j*10 + int(c-'0')
	}
	return j, member, true
}

// messageExtras sorts message i's metadata into the members of its
// message object (keys the provider's message has, or read from a body of
// this format) and of its parts (partKey keys read from one), refusing
// the rest. own are the message members the mapping writes itself.
func (m *mapper) messageExtras(i int, known, own, read map[string]bool) (msg object, parts map[int]object) {
	meta := m.msgs[i].Metadata
	for _, k := range jsonvalue.SortedKeys(meta) {
		if err := homes.Check(meta[k], wrapDepth); err != nil {
			m.fail(i, promptfmt.ThingMetadata, "the metadata key %q: it holds %v", k, err).Key = k
			continue
		}
		if j, name, ok := splitPartKey(k); ok && read[k] && j < len(m.msgs[i].Content) {
			if parts == nil {
				parts = map[int]object{}
			}
			parts[j] = append(parts[j], member{name, meta[k]})
			continue
		}
		switch {
		case own[k]:
			m.fail(i, promptfmt.ThingMetadata, "the metadata key %q, which names a member the mapping writes itself", k).Key = k
		case known[k] || read[k]:
			msg.add(k, meta[k])
		default:
			m.fail(i, promptfmt.ThingMetadata, "the metadata key %q (not a member of %s's message)", k, m.label).Key = k
		}
	}
	return msg, parts
}

// keys makes a set.
func keys(names ...string) map[string]bool {
	set := make(map[string]bool, len(names))
	for _, n := range names {
		set[n] = true
	}
	return set
}

// kindKeys makes a set of names for each kind.
func kindKeys(lists map[promptfmt.Kind][]string) map[promptfmt.Kind]map[string]bool {
	sets := make(map[promptfmt.Kind]map[string]bool, len(lists))
	for k, names := range lists {
		sets[k] = keys(names...)
	}
	return sets
}

// joinErrs joins problems in the order found.
func joinErrs(groups ...[]error) error { return errors.Join(slices.Concat(groups...)...) }
