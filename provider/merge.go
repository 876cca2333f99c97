package provider

import (
	"fmt"
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// metaMerge is a document's Meta as the writer of a body with nested
// settings uses it. A member the Request fills in part (Gemini's
// generationConfig, Anthropic's output_config) gets the members Meta keeps
// under its key merged into it; a member the Request could fill but does
// not (a tools list of server tools) is written from Meta. Either is
// written only when reading it back gives what the document holds: the
// writer asks its own reader (back), so the two cannot disagree, whichever
// format the Meta came from.
type metaMerge struct {
	format string
	meta   map[string]any
	used   map[string]bool
	errs   []error
	// back reads member k of value v in a body of nothing else.
	back func(k string, v any) (*promptfmt.Document, bool)
}

func metaOf(format string, doc *promptfmt.Document, back func(string, any) (*promptfmt.Document, bool)) *metaMerge {
	return &metaMerge{format: format, meta: doc.Meta, back: back}
}

// readBack returns a reader of format's bodies as metaMerge.back wants
// it: conv is the body's conversation member, given empty.
func readBack(format, conv string, read func(*reader, *jsontree.Value)) func(string, any) (*promptfmt.Document, bool) {
	return func(k string, v any) (*promptfmt.Document, bool) {
		src, err := marshal(object{{conv, []any{}}, {k, v}})
		if err != nil {
			return nil, false
		}
		root, err := jsontree.Parse(src)
		if err != nil {
			return nil, false
		}
		r := &reader{format: format, src: src, doc: &promptfmt.Document{}, line: 1}
		read(r, root)
		return r.doc, len(r.errs) == 0
	}
}

// merge returns own, the members the mapping writes into a body member
// from the Request's fields, with the members Meta keeps under its key
// (keys: its spellings) after them, and the key to write it under: the
// spelling Meta has, else keys[0]. What would not read back as the
// Request's fields and Meta's members is refused.
func (mm *metaMerge) merge(own object, req *promptfmt.Request, fields []string, keys ...string) (string, object) {
	key, found := keys[0], ""
	for _, k := range keys {
		if _, ok := mm.meta[k]; !ok {
			continue
		}
		if found != "" {
			mm.refuse(k, fmt.Sprintf("the metadata keys %q and %q, two spellings of one member", found, k))
			continue
		}
		found, key = k, k
	}
	if found == "" {
		return key, own
	}
	if mm.used == nil {
		mm.used = map[string]bool{}
	}
	mm.used[found] = true
	rest, ok := mm.meta[found].(map[string]any)
	if !ok {
		mm.refuse(found, fmt.Sprintf("the metadata key %q, which is %s, not an object to add the request's settings to", found, jsonvalue.Describe(mm.meta[found])))
		return key, own
	}
	out := slices.Clone(own)
	for _, k := range jsonvalue.SortedKeys(rest) {
		out = append(out, member{k, rest[k]})
	}
	want := req.Clone()
	for _, f := range want.Fields() {
		if !slices.Contains(fields, f) {
			want.Clear(f)
		}
	}
	if !mm.readsBack(found, out, want, rest) {
		mm.refuse(found, fmt.Sprintf("the metadata key %q, whose members would not read back beside the request's settings in it (a setting of the request's own, or of another type)", found))
		return key, own
	}
	return key, out
}

// free returns Meta without the keys merged, and refuses a key of a
// member the mapping writes from the Request (request) that the body did
// not get from the Request but would read back as some of it: the model
// name under "model", a tools list of function tools. The keys the body
// has are left for bodyMeta to refuse.
func (mm *metaMerge) free(body object, request map[string]bool) map[string]any {
	out := make(map[string]any, len(mm.meta))
	for _, k := range jsonvalue.SortedKeys(mm.meta) {
		v := mm.meta[k]
		switch {
		case mm.used[k]:
			continue
		case !request[k] || slices.ContainsFunc(body, func(m member) bool { return sameMember(m.key, k) }):
		default:
			if !mm.readsBack(k, v, promptfmt.Request{}, v) {
				mm.refuse(k, fmt.Sprintf("the metadata key %q, which would read back as the request's settings (it is the request's to hold)", k))
				continue
			}
		}
		out[k] = v
	}
	return out
}

// readsBack reports whether member k of value v, read back, gives the
// request want and keeps rest in Meta under k. (An empty object in Meta
// merged into the request's settings does not: what reads them keeps
// nothing, and the document would lose its key.)
func (mm *metaMerge) readsBack(k string, v any, want promptfmt.Request, rest any) bool {
	doc, ok := mm.back(k, v)
	if !ok || !promptfmt.EqualRequests(doc.Request, want) {
		return false
	}
	got, kept := doc.Meta[k]
	return kept && jsonvalue.Equal(got, rest)
}

// sameMember reports whether two member names are one member's: equal,
// or (Gemini) two spellings of it.
func sameMember(a, b string) bool { return a == b || camelKey(a) == camelKey(b) }

func (mm *metaMerge) refuse(key, what string) {
	mm.errs = append(mm.errs, metaError(mm.format, key, what))
}

// ownMembers are the body members Meta may not hold: always (the
// conversation) and those the mapping wrote, in either spelling.
func ownMembers(body object, always ...string) map[string]bool {
	own := keys(always...)
	for _, m := range body {
		own[m.key], own[camelKey(m.key)], own[snakeKey(m.key)] = true, true, true
	}
	return own
}

// withPartMembers returns read, the metadata keys read from a body of this
// format, with those of msg's metadata that name a member its part's kind
// has in the provider's body (documented: a block's cache_control), which
// another format's document keeps as written: they go back in their place.
func withPartMembers(read map[string]bool, msg *promptfmt.Message, documented func(promptfmt.Kind, string) bool) map[string]bool {
	var out map[string]bool
	for k := range msg.Metadata {
		j, name, ok := splitPartKey(k)
		if !ok || read[k] || j >= len(msg.Content) || !documented(msg.Content[j].Kind, name) {
			continue
		}
		if out == nil {
			out = make(map[string]bool, len(read)+1)
			for r := range read {
				out[r] = true
			}
		}
		out[k] = true
	}
	if out == nil {
		return read
	}
	return out
}
