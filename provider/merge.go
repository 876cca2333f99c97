package provider

import (
	"fmt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// metaMerge is a document's Meta as a writer of a body with nested
// settings uses it: a member the Request fills in part (Gemini's
// generationConfig, Anthropic's output_config) gets the members a reader
// kept in Meta under its key merged into it; the other keys go to
// bodyMeta.
type metaMerge struct {
	format string
	meta   map[string]any
	read   map[string]bool // the keys read from a body: only they merge
	used   map[string]bool
	errs   []error
}

func metaOf(format string, doc *promptfmt.Document, read map[string]bool) *metaMerge {
	return &metaMerge{format: format, meta: doc.Meta, read: read}
}

// merge returns own with the members Meta keeps under key (or another
// spelling of it, in keys) after it, and the key the body writes it
// under: the spelling Meta has, else keys[0]. Only a key read from a body
// of this format merges (another format's is bodyMeta's to refuse); a
// member of both, or a value that is not an object, is refused.
func (mm *metaMerge) merge(own object, keys ...string) (string, object) {
	key := keys[0]
	found := ""
	for _, k := range keys {
		if _, ok := mm.meta[k]; !ok || !mm.read[k] {
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
		mm.refuse(found, fmt.Sprintf("the metadata key %q, which is %s, not an object to add settings to", found, jsonvalue.Describe(mm.meta[found])))
		return key, own
	}
	out := own
	for _, k := range jsonvalue.SortedKeys(rest) {
		clash := false
		for _, m := range own {
			if sameMember(m.key, k) {
				clash = true
			}
		}
		if clash {
			mm.refuse(found, fmt.Sprintf("the metadata key %q, whose member %q the request sets", found, k))
			continue
		}
		out = append(out, member{k, rest[k]})
	}
	return key, out
}

// sameMember reports whether two member names are one member's: equal,
// or (Gemini) two spellings of it.
func sameMember(a, b string) bool { return a == b || camelKey(a) == camelKey(b) }

func (mm *metaMerge) refuse(key, what string) {
	mm.errs = append(mm.errs, metaError(mm.format, key, what))
}

// rest returns the Meta keys not merged.
func (mm *metaMerge) rest() map[string]any {
	if len(mm.used) == 0 {
		return mm.meta
	}
	out := make(map[string]any, len(mm.meta))
	for k, v := range mm.meta {
		if !mm.used[k] {
			out[k] = v
		}
	}
	return out
}

// ownMembers are the body members Meta may not hold: always (the
// conversation), those the mapping wrote, and those it writes from the
// Request that were not read from a body of this format (a request setting
// of another type, from some other format). A member read and kept in
// Meta (a tools list of server tools) is written back when the Request
// leaves its place free.
func ownMembers(body object, request, read map[string]bool, always ...string) map[string]bool {
	own := keys(always...)
	for _, m := range body {
		own[m.key], own[camelKey(m.key)], own[snakeKey(m.key)] = true, true, true
	}
	for k := range request {
		if !read[k] {
			own[k] = true
		}
	}
	return own
}
