// Package homes moves a document's settings between Document.Request and
// the places ("homes") a format keeps them in its metadata: a key of Meta,
// or a path of keys through nested maps (Prompty's model.options.topP,
// STF's ;meta temperature, PDL's schema turn). It is the step at the end
// of such a format's Parse and at the start of its Write.
//
//   - Take moves each value found at a home into the Request and returns
//     the rest of Meta without it (containers it empties go too), so that
//     Meta holds only what the Request does not, and documents converted
//     between formats compare equal. A value the Request cannot hold
//     exactly (temperature: "hot", a tool of a kind it has no member for)
//     stays in Meta where it was and is a Problem, which the format warns
//     of at its line; a value a home says is no setting at all (ErrSkip)
//     stays silently.
//   - Put returns Meta with the Request put back into its homes. A field
//     unchanged since Take is written as the value read (an integer 1
//     stays 1, not 1.0; a property list stays one), so that front matter
//     kept as written still holds Meta and is written as the author wrote
//     it. What cannot go home is refused with a *promptfmt.UnsupportedError,
//     never dropped: a field with no home or a value its home cannot hold
//     (ThingRequest, with the nearest value the home holds when it knows
//     one), a Meta value in a home's way (ThingMeta, its top-level key).
//     Put checks its result by taking it back: the same Request and the
//     same rest of Meta, or each difference is refused, so that a Meta
//     key that would read as a setting (an STF document's Meta "model"
//     written to Prompty) never passes.
//
// Field values travel in the Request's JSON shape (Value and Set): a
// home's Read and Write convert between that and what the format writes.
package homes

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
)

// Home is where a format keeps one field of the Request. A field may have
// several homes (Prompty's model and model.id): Take reads the first
// found; Put writes the one it was read from while the value is
// unchanged, else the first that is free (no other field set goes under
// it, no Meta value is in its place).
type Home struct {
	Field string   // a promptfmt.Field... name
	Path  []string // the keys from Meta to the value
	// Read turns the value found at Path into the field's shape (see
	// Value); nil takes it as it is. An error wrapping ErrSkip leaves the
	// value in Meta without a word; any other error is a Problem.
	Read func(any) (any, error)
	// Write turns the field's shape into the value written at Path; nil
	// writes it as it is. An error refuses the field; a *NearestError
	// offers the nearest value the home holds, a *ToolError names the one
	// tool refused.
	Write func(any) (any, error)
}

// ErrSkip is wrapped by a Read error for a value that is not the setting and
// is no mistake either: a Prompty string holding a ${env:} reference, a
// PDL schema of an extraction mode. It stays in Meta; no Problem is told.
var ErrSkip = errors.New("not a setting")

// NearestError is a Write error that knows the nearest value its home can
// hold: Put offers it as the refusal's NearestRequest, which Adapt takes.
type NearestError struct {
	Value any // in the field's shape
	Err   error
}

// Error is the reason the home cannot hold the value.
func (e *NearestError) Error() string { return e.Err.Error() }

// Unwrap returns the reason.
func (e *NearestError) Unwrap() error { return e.Err }

// ToolError is a Write error about one tool of the list: Put refuses that
// tool alone (UnsupportedError.Part), which Adapt drops.
type ToolError struct {
	Index int
	Err   error
}

// Error reads "tool 2: reason".
func (e *ToolError) Error() string { return fmt.Sprintf("tool %d: %v", e.Index+1, e.Err) }

// Unwrap returns the reason.
func (e *ToolError) Unwrap() error { return e.Err }

// Problem is a value found at a home that the Request cannot hold: it
// stays in Meta.
type Problem struct {
	Field string
	Path  []string
	Err   error
}

// Kept is what Take read, for Put: at which home each field was found and
// the value as written there.
type Kept struct {
	fields map[string]kept
}

type kept struct {
	path  []string
	raw   any // as found in Meta
	value any // as the Request read it, in the field's shape
}

// Path returns the path field was read from, nil when it was not (k may
// be nil).
func (k *Kept) Path(field string) []string {
	if k == nil {
		return nil
	}
	return k.fields[field].path
}

// Take moves the values found at homes out of meta into r (a field r sets
// already is not read again) and returns the rest of meta, nil when
// nothing is left; meta itself is not changed. line, when given, is the
// source line of a path, which goes to r.Lines.
func Take(meta map[string]any, homes []Home, r *promptfmt.Request, line func(path []string) int) (rest map[string]any, k *Kept, problems []Problem) {
	rest, k = meta, &Kept{}
	ed := &editor{}
	for _, h := range homes {
		if _, set := Value(r, h.Field); set {
			continue
		}
		raw, found := lookup(rest, h.Path)
		if !found {
			continue
		}
		got, err := read(h, raw)
		if err == nil {
			err = convertsBack(h, &got)
		}
		if errors.Is(err, ErrSkip) {
			continue
		}
		if err != nil {
			problems = append(problems, Problem{Field: h.Field, Path: h.Path, Err: err})
			continue
		}
		v, _ := Value(&got, h.Field)
		_ = Set(r, h.Field, v) // read does the same
		if line != nil {
			if n := line(h.Path); n > 0 {
				if r.Lines == nil {
					r.Lines = map[string]int{}
				}
				r.Lines[h.Field] = n
			}
		}
		if k.fields == nil {
			k.fields = map[string]kept{}
		}
		// A copy: a caller may change the Request's maps in place.
		k.fields[h.Field] = kept{path: h.Path, raw: raw, value: clone(v)}
		rest = ed.remove(rest, h.Path)
	}
	if len(rest) == 0 && len(meta) > 0 {
		rest = nil
	}
	return rest, k, problems
}

// read is raw, found at h, as a request setting only h's field.
func read(h Home, raw any) (promptfmt.Request, error) {
	var r promptfmt.Request
	v := raw
	if h.Read != nil {
		var err error
		if v, err = h.Read(raw); err != nil {
			return r, err
		}
	}
	err := Set(&r, h.Field, v)
	return r, err
}

// convertsBack checks that writing got's field at h reads back as the
// same: a value the home holds only one way is not read as the setting.
func convertsBack(h Home, got *promptfmt.Request) error {
	if h.Write == nil && h.Read == nil {
		return nil // Set and Value are each other's inverse
	}
	v, _ := Value(got, h.Field)
	w := v
	if h.Write != nil {
		var err error
		if w, err = h.Write(v); err != nil {
			return fmt.Errorf("it cannot be written back: %w", err)
		}
	}
	back, err := read(h, w)
	if err != nil || !SameField(got, &back, h.Field) {
		return errors.New("it would not be written back as the same value")
	}
	return nil
}

// lookup returns the value at path in m.
func lookup(m map[string]any, path []string) (any, bool) {
	for i, k := range path {
		v, ok := m[k]
		if !ok {
			return nil, false
		}
		if i == len(path)-1 {
			return v, true
		}
		if m, ok = v.(map[string]any); !ok {
			return nil, false
		}
	}
	return nil, false
}

// Put returns meta with r's fields put into their homes (meta itself is
// not changed), and a *promptfmt.UnsupportedError in format's name for
// each thing that cannot go there (see the package documentation). k is
// what Take kept, or nil.
func Put(format string, meta map[string]any, r *promptfmt.Request, homes []Home, k *Kept) (map[string]any, []error) {
	errs := Homeless(format, r, homes)
	out := meta
	ed := &editor{}
	var written []string
	blocked := map[string]bool{}
	set := r.Fields()
	for _, field := range set {
		cands := slices.DeleteFunc(slices.Clone(homes), func(h Home) bool { return h.Field != field })
		if len(cands) == 0 {
			continue
		}
		v, _ := Value(r, field)
		if err := Check(v, 0); err != nil {
			errs = append(errs, refuse(format, field, fmt.Sprintf("the request's %s holds %v", field, err)))
			continue
		}
		var again promptfmt.Request
		if err := Set(&again, field, v); err != nil { // a tool choice of mode "any"
			errs = append(errs, refuse(format, field, fmt.Sprintf("the request's %s: %v", field, err)))
			continue
		}
		// The home it was read from while unchanged, written as read;
		// else the first home that is free: not where another field's
		// home goes under it (Prompty's model: ID, with a temperature in
		// model.options), not taken by a Meta value.
		type try struct {
			h    Home
			raw  any
			kept bool
		}
		var tries []try
		if kf, ok := k.get(field); ok && jsonvalue.Equal(kf.value, v) {
			if i := slices.IndexFunc(cands, func(h Home) bool { return slices.Equal(h.Path, kf.path) }); i >= 0 {
				tries = append(tries, try{cands[i], kf.raw, true})
			}
		}
		for _, h := range cands {
			tries = append(tries, try{h: h})
		}
		free := slices.DeleteFunc(slices.Clone(tries), func(t try) bool {
			return slices.ContainsFunc(homes, func(h Home) bool {
				return h.Field != field && slices.Contains(set, h.Field) && under(h.Path, t.h.Path)
			})
		})
		if len(free) > 0 {
			tries = free
		}
		placed, refused := false, false
		for _, t := range tries {
			raw := t.raw
			if !t.kept {
				var err error
				if raw, err = write(t.h, v); err != nil {
					errs, refused = append(errs, refusal(format, field, err)), true
					break
				}
			}
			if depth(raw) > values.MaxDepth-len(t.h.Path) {
				errs, refused = append(errs, refuse(format, field, fmt.Sprintf("the request's %s is nested too deep: %s", field, values.DepthMessage()))), true
				break
			}
			if next, ok := ed.put(out, t.h.Path, raw); ok {
				out, written, placed = next, append(written, field), true
				break
			}
		}
		if key := tries[0].h.Path[0]; !placed && !refused && !blocked[key] {
			blocked[key] = true
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, Key: key,
				What: fmt.Sprintf("metadata %q is where the request's %s goes (%s)", key, field, strings.Join(tries[0].h.Path, "."))})
		}
	}
	return out, append(errs, check(format, meta, out, r, written, homes, blocked)...)
}

// check takes out back and refuses what does not come back as r's fields
// written and the rest of meta.
func check(format string, meta, out map[string]any, r *promptfmt.Request, written []string, homes []Home, blocked map[string]bool) []error {
	var errs []error
	var back promptfmt.Request
	rest, bk, _ := Take(out, homes, &back, nil)
	for _, field := range back.Fields() {
		if slices.Contains(written, field) {
			continue
		}
		if key := bk.Path(field)[0]; !blocked[key] {
			blocked[key] = true
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, Key: key,
				What: fmt.Sprintf("metadata %q would be read as the request's %s", key, field)})
		}
	}
	for _, field := range written {
		if !SameField(r, &back, field) {
			errs = append(errs, refuse(format, field, fmt.Sprintf("the request's %s would not read back the same", field)))
		}
	}
	// A key in rest that meta lacks comes from a field written that did
	// not read back, refused above.
	for _, key := range jsonvalue.SortedKeys(meta) {
		if x, ok := rest[key]; (!ok || !jsonvalue.Equal(x, meta[key])) && !blocked[key] {
			blocked[key] = true
			errs = append(errs, &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingMeta, Key: key,
				What: fmt.Sprintf("metadata %q would not read back the same beside the request's settings", key)})
		}
	}
	return errs
}

func (k *Kept) get(field string) (kept, bool) {
	if k == nil {
		return kept{}, false
	}
	kf, ok := k.fields[field]
	return kf, ok
}

func write(h Home, v any) (any, error) {
	if h.Write == nil {
		return v, nil
	}
	raw, err := h.Write(v)
	if err == nil {
		err = Check(raw, 0)
	}
	return raw, err
}

// under reports whether path goes through prefix (and further).
func under(path, prefix []string) bool {
	return len(path) > len(prefix) && slices.Equal(path[:len(prefix)], prefix)
}

// refusal refuses field for err, a Write error.
func refusal(format, field string, err error) *promptfmt.UnsupportedError {
	e := refuse(format, field, fmt.Sprintf("the request's %s: %v", field, err))
	var ne *NearestError
	if errors.As(err, &ne) {
		var nr promptfmt.Request
		if Set(&nr, field, ne.Value) == nil {
			e.NearestRequest = &nr
		}
	}
	var te *ToolError
	if field == promptfmt.FieldTools && errors.As(err, &te) {
		e.Part = te.Index
	}
	return e
}

func refuse(format, field, what string) *promptfmt.UnsupportedError {
	return &promptfmt.UnsupportedError{Format: format, Index: -1, Thing: promptfmt.ThingRequest, Key: field, Part: -1, What: what}
}

// Homeless returns an UnsupportedError (ThingRequest) in format's name for
// each field r sets that none of homes holds.
func Homeless(format string, r *promptfmt.Request, homes []Home) []error {
	var errs []error
	for _, field := range r.Fields() {
		if !slices.ContainsFunc(homes, func(h Home) bool { return h.Field == field }) {
			errs = append(errs, refuse(format, field, fmt.Sprintf("the request's %s (%s has no place for it)", field, format)))
		}
	}
	return errs
}

// Check reports what of v a file could not hold as the same value: a
// value that is not one of the model's JSON-like types (string, bool,
// int64, float64, nil, []any, map[string]any), a number that is not
// finite, a string that is not UTF-8, or nesting deeper than
// values.MaxDepth with depth levels above v.
func Check(v any, depth int) error {
	switch v := v.(type) {
	case nil, bool, int64:
	case string:
		if !utf8.ValidString(v) {
			return fmt.Errorf("text that is not UTF-8")
		}
	case float64:
		if msg := values.CheckFloat(v); msg != "" {
			return fmt.Errorf("a number that is not finite: %s", msg)
		}
	case []any:
		if depth++; depth > values.MaxDepth {
			return errors.New(values.DepthMessage())
		}
		for _, x := range v {
			if err := Check(x, depth); err != nil {
				return err
			}
		}
	case map[string]any:
		if depth++; depth > values.MaxDepth {
			return errors.New(values.DepthMessage())
		}
		for _, k := range jsonvalue.SortedKeys(v) {
			if !utf8.ValidString(k) {
				return fmt.Errorf("a key that is not UTF-8")
			}
			if err := Check(v[k], depth); err != nil {
				return err
			}
		}
	default:
		return fmt.Errorf("a value of type %T (the model's values are JSON-like: int64, float64, string, ...)", v)
	}
	return nil
}

// depth is how deeply v's lists and maps nest (0 for a scalar); Check
// has bounded it.
func depth(v any) int {
	d := 0
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			d = max(d, depth(x))
		}
		return d + 1
	case map[string]any:
		for _, x := range v {
			d = max(d, depth(x))
		}
		return d + 1
	}
	return 0
}

// clone copies v's lists and maps.
func clone(v any) any {
	switch v := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(v))
		for k, x := range v {
			c[k] = clone(x)
		}
		return c
	case []any:
		c := make([]any, len(v))
		for i, x := range v {
			c[i] = clone(x)
		}
		return c
	}
	return v
}
