package provider

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
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

// MarshalJSON writes the members in order.
func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, m := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := marshal(m.key)
		if err != nil {
			return nil, err
		}
		v, err := marshal(m.value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// withExtras returns the JSON object plain with the members of extra
// after its own: what a message or part carried beyond the mapping's
// fields, written back as read.
func withExtras(plain []byte, extra object) ([]byte, error) {
	if len(extra) == 0 {
		return plain, nil
	}
	more, err := extra.MarshalJSON()
	if err != nil {
		return nil, err
	}
	plain = bytes.TrimSuffix(plain, []byte("}"))
	if len(plain) > 1 {
		plain = append(plain, ',')
	}
	return append(plain, more[1:]...), nil
}

// writeBody writes a body as the command prints JSON: indented by two
// spaces, a final newline.
func writeBody(w io.Writer, body any) error { return jsonvalue.Write(w, body) }

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
		case known[k] || read[k]:
			out.add(k, exact(doc.Meta[k]))
		default:
			errs = append(errs, metaError(format, k, fmt.Sprintf("the metadata key %q (not a member of %s's request body)", k, label)))
		}
	}
	return out, errs
}

func metaError(format, key, what string) error {
	return &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, Key: key, What: what}
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
		if j, name, ok := splitPartKey(k); ok && read[k] && j < len(m.msgs[i].Content) {
			if parts == nil {
				parts = map[int]object{}
			}
			parts[j] = append(parts[j], member{name, exact(meta[k])})
			continue
		}
		switch {
		case own[k]:
			m.fail(i, promptfmt.ThingMetadata, "the metadata key %q, which names a member the mapping writes itself", k).Key = k
		case known[k] || read[k]:
			msg.add(k, exact(meta[k]))
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

// joinErrs joins problems in the order found.
func joinErrs(groups ...[]error) error { return errors.Join(slices.Concat(groups...)...) }
