package prompty

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/tmpl"
)

// layout is what Parse keeps in Document.Layout: the strings of the file
// (texts, names, string attribute values) as written. They are template
// source, and Write writes them as they are; any other string is text
// the model is to receive, and Write escapes it for the file's template
// engine.
type layout struct {
	strs []string        // strings share the file's bytes: no copy
	set  map[string]bool // made from strs on first use
	// kept is what takeRequest read from the front matter, so that an
	// unchanged setting is written as written and MetaNode still holds.
	kept *homes.Kept
}

// newLayout keeps the strings of msgs (not msgs, whose parts a caller may
// change in place).
func newLayout(msgs []promptfmt.Message) *layout {
	l := &layout{strs: make([]string, 0, 2*len(msgs))}
	for _, m := range msgs {
		if m.Name != "" {
			l.strs = append(l.strs, m.Name)
		}
		for _, p := range m.Content {
			l.strs = append(l.strs, p.Value)
		}
		for _, v := range m.Metadata {
			if s, ok := v.(string); ok {
				l.strs = append(l.strs, s)
			}
		}
	}
	return l
}

// isSource reports whether s is one of the strings the file was read
// with.
func (l *layout) isSource(s string) bool {
	if l == nil {
		return false
	}
	if l.set == nil {
		l.set = make(map[string]bool, len(l.strs))
		for _, s := range l.strs {
			l.set[s] = true
		}
	}
	return l.set[s]
}

// engine is the template engine a document's front matter names: jinja2
// unless template (or template.format, or its kind) says mustache. ok is
// false for a name Render does not know.
func engine(meta map[string]any) (name string, ok bool) {
	v := meta["template"]
	if m, isMap := v.(map[string]any); isMap {
		v = m["format"]
	}
	if m, isMap := v.(map[string]any); isMap {
		v = m["kind"]
	}
	switch v {
	case nil, "jinja2", "jinja", "":
		return "jinja2", true
	case "mustache":
		return "mustache", true
	}
	return fmt.Sprint(v), false
}

// escape returns s written so that the engine renders it as s.
func escape(engine, s string) string {
	if engine == "mustache" {
		return tmpl.MustacheLiteral(s)
	}
	return tmpl.JinjaLiteral(s)
}

// hasSyntax reports whether the engine could read anything in s as a tag.
func hasSyntax(engine, s string) bool {
	if engine == "mustache" {
		return strings.Contains(s, "{{")
	}
	return tmpl.HasJinjaTags(s)
}

// checkMeta reports the front matter keys that Load or Prepare would
// refuse: a key Prompty gives meaning to, of the wrong type, or a template
// format or parser it does not know. A key whose value holds a ${env:…} or
// ${file:…} reference is not checked: it gets its value when loaded.
func checkMeta(meta map[string]any, fail func(key, what string)) {
	d := &decoder{}
	for _, k := range slices.Sorted(maps.Keys(meta)) {
		if hasReference(meta[k]) {
			continue
		}
		var a Agent
		if err := d.agent(&a, map[string]any{k: meta[k]}); err != nil {
			msg := err.Error()
			if pe, ok := err.(*promptfmt.ParseError); ok {
				msg = pe.Msg // its position is in no file
			}
			fail(k, msg)
			continue
		}
		switch {
		case k != "template":
		case a.Template.Format != "jinja2" && a.Template.Format != "jinja" && a.Template.Format != "mustache":
			fail(k, fmt.Sprintf("front matter: template: unknown format %q (want jinja2 or mustache)", a.Template.Format))
		case a.Template.Parser != "" && a.Template.Parser != "prompty":
			fail(k, fmt.Sprintf("front matter: template: unknown parser %q (want prompty)", a.Template.Parser))
		}
	}
}

func hasReference(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.HasPrefix(v, "${") && strings.HasSuffix(v, "}")
	case map[string]any:
		for _, x := range v {
			if hasReference(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if hasReference(x) {
				return true
			}
		}
	}
	return false
}
