package prompty

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"math"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/tmpl"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
	"go.yaml.in/yaml/v3"
)

// Load reads a .prompty file's contents into an Agent.
//
// Front matter is YAML between a "---" (or "+++") line, the first non-blank
// line, and the next such line; without it the whole file is the body. The
// front matter is decoded into the typed fields of Agent, after every string
// value that is exactly a reference has been replaced: ${env:NAME} by the
// environment variable (an error when unset), ${env:NAME:default} by the
// variable or the default, and ${file:path} by the file's contents (JSON
// and YAML files decoded, other files as text). A key of the wrong type is
// an error at its line and column. The template is read by its engine
// (jinja2 or mustache) without inputs: a syntax error is Load's, at its
// place; what only inputs cause is Render's and Prepare's.
//
// Options: promptfmt.FS is where ${file:} references and local media
// inputs are read, from its top (without it, none is); promptfmt.File
// names the file for errors and warnings (Agent.File); LookupEnv replaces
// os.LookupEnv for ${env:}.
func Load(src []byte, opts ...promptfmt.Option) (*Agent, error) {
	c, err := newConfig(opts, "Load", optLookupEnv)
	if err != nil {
		return nil, err
	}
	return c.finishAgent(loadAgent(src, &c, "."))
}

// LoadFile is Load of the file name in fsys: its ${file:} references and
// local media inputs are read from fsys, relative to name's directory
// (fsys is the bound: a name that leads out of it is refused; os.DirFS
// follows symbolic links out of its directory, an os.Root's FS does not).
// Agent.File is name unless promptfmt.File says otherwise; fsys replaces
// a promptfmt.FS option.
func LoadFile(fsys fs.FS, name string, opts ...promptfmt.Option) (*Agent, error) {
	c, err := newConfig(opts, "LoadFile", optLookupEnv)
	if err != nil {
		return nil, err
	}
	if c.File == "" {
		c.File = name
	}
	c.FS = fsys
	src, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	return c.finishAgent(loadAgent(src, &c, path.Dir(name)))
}

// finishAgent puts File on the agent, its warnings and a ParseError.
func (c *config) finishAgent(a *Agent, err error) (*Agent, error) {
	if a != nil {
		a.File = c.File
		_, err = c.Finish(&promptfmt.Document{Warnings: a.Warnings}, err) // the same warnings, in place
	} else {
		_, err = c.Finish(nil, err)
	}
	return a, err
}

// loadAgent reads the agent in src; dir is where in c.FS the names it reads
// start.
func loadAgent(src []byte, c *config, dir string) (*Agent, error) {
	env := c.env
	if env == nil {
		env = os.LookupEnv
	}
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	bom := lines.SkipBOM(src)
	fm, err := splitFrontMatter(src, bom)
	if err != nil {
		return nil, err
	}
	a := &Agent{fsys: c.FS, dir: dir}
	if bom > 0 {
		a.Warnings = append(a.Warnings, diag.Warnf(format, src, 0, lines.BOMWarning))
	}
	start := instructionsStart(src, fm.body)
	// A template over MaxSource is refused before it is copied (a 256 MB
	// file would be, whole), as its engine would refuse it.
	if msg := tmpl.SourceTooLarge(len(bytes.TrimRight(src[start:], "\r\n")), c.Limits.Effective().MaxSource); msg != "" {
		return nil, a.errorf(0, 0, "%s", msg)
	}
	a.Instructions = strings.TrimRight(string(src[start:]), "\r\n") // as Parse: only empty lines go
	a.InstructionsLine, _ = lines.Position(src, start)
	a.instructionsOffset = start
	d := &decoder{src: src, yamlStart: fm.yamlStart, fsys: c.FS, dir: dir, env: env}
	if fm.node != nil && len(fm.node.Content) > 0 {
		d.node = fm.node.Content[0] // the document's mapping
	}
	meta := fm.meta
	if meta != nil {
		v, err := d.resolve(meta, nil, 0)
		if err != nil {
			return nil, err
		}
		meta = v.(map[string]any)
	}
	if err := d.agent(a, meta); err != nil {
		return nil, err
	}
	// Lines of the template shaped like role markers that are not (a
	// duplicate attribute, say) are warned about where the author wrote
	// them, as parsing the body as text would warn.
	a.Warnings = append(a.Warnings, markerWarnings(src, start)...)
	if err := a.checkTemplate(c); err != nil {
		return nil, err
	}
	return a, nil
}

// instructionsStart skips the blank lines at the start of the body.
func instructionsStart(src []byte, body int) int {
	sc := lines.NewScanner(src[body:])
	for {
		s, e, _, ok := sc.Next()
		if !ok {
			return len(src)
		}
		if strings.TrimSpace(string(src[body+s:body+e])) != "" {
			return body + s
		}
	}
}

// decoder turns the decoded front matter into an Agent, with errors at the
// YAML node a key path leads to.
type decoder struct {
	src       []byte
	yamlStart int
	node      *yaml.Node // the front matter's mapping
	fsys      fs.FS      // where ${file:} references are read (nil: nowhere)
	dir       string     // where in fsys their names start
	env       func(string) (string, bool)
}

// keyPath is a key path into the front matter, from its last key back to
// the first (nil is the top): a string for a key, an int for a list index.
// Extending it costs one small node, not a copy of the path, so that a
// value nested n deep costs time and memory linear in n.
type keyPath struct {
	up  *keyPath
	key any
}

// keys returns the path's keys, first to last.
func (p *keyPath) keys() []any {
	var ks []any
	for q := p; q != nil; q = q.up {
		ks = append(ks, q.key)
	}
	slices.Reverse(ks)
	return ks
}

func (p *keyPath) String() string {
	var b strings.Builder
	for _, k := range p.keys() {
		switch k := k.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", k)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			fmt.Fprint(&b, k)
		}
	}
	return b.String()
}

func (p *keyPath) with(k any) *keyPath { return &keyPath{up: p, key: k} }

func (d *decoder) errorf(p *keyPath, msg string, args ...any) error {
	off := 0
	if n := locate(d.node, p); n != nil {
		off = yamlmeta.Offset(d.src, d.yamlStart, n)
	}
	return diag.Errorf(format, d.src, off, "front matter: %s: %s", p, fmt.Sprintf(msg, args...))
}

// locate returns the node at p, or the deepest node on the way (the value
// of a key found, or the mapping that lacks the next key).
func locate(n *yaml.Node, p *keyPath) *yaml.Node {
	for _, k := range p.keys() {
		if n == nil {
			return nil
		}
		for n.Kind == yaml.AliasNode && n.Alias != nil {
			n = n.Alias
		}
		var next *yaml.Node
		switch k := k.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == k {
						next = n.Content[i+1]
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && k < len(n.Content) {
				next = n.Content[k]
			}
		}
		if next == nil {
			return n
		}
		n = next
	}
	return n
}

func (d *decoder) agent(a *Agent, meta map[string]any) error {
	a.Template = Template{Format: "jinja2", Parser: "prompty"}
	var err error
	for _, k := range slices.Sorted(maps.Keys(meta)) { // a stable order: the first error is always the same
		v := meta[k]
		p := (*keyPath)(nil).with(k)
		switch k {
		case "name":
			a.Name, err = d.str(p, v)
		case "displayName":
			a.DisplayName, err = d.str(p, v)
		case "description":
			a.Description, err = d.str(p, v)
		case "metadata":
			a.Metadata, err = d.mapping(p, v)
		case "model":
			a.Model, err = d.model(p, v)
		case "inputs":
			a.Inputs, err = d.properties(p, v)
		case "outputs":
			a.Outputs, err = d.properties(p, v)
		case "tools":
			a.Tools, err = d.tools(p, v)
		case "template":
			err = d.template(p, v, &a.Template)
		default:
			if a.Extra == nil {
				a.Extra = map[string]any{}
			}
			a.Extra[k] = v
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) str(p *keyPath, v any) (string, error) {
	s, ok := v.(string)
	if !ok {
		return "", d.errorf(p, "want a string, not %s", describe(v))
	}
	return s, nil
}

func (d *decoder) mapping(p *keyPath, v any) (map[string]any, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, d.errorf(p, "want a mapping, not %s", describe(v))
	}
	return m, nil
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case int64, float64:
		return "a number"
	case []any:
		return "a list"
	case map[string]any:
		return "a mapping"
	}
	return fmt.Sprintf("%T", v)
}

func (d *decoder) model(p *keyPath, v any) (*Model, error) {
	if s, ok := v.(string); ok {
		return &Model{ID: s}, nil
	}
	m, err := d.mapping(p, v)
	if err != nil {
		return nil, d.errorf(p, "want a model id or a mapping, not %s", describe(v))
	}
	md := &Model{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		q := p.with(k)
		switch k {
		case "id":
			md.ID, err = d.str(q, v)
		case "provider":
			md.Provider, err = d.str(q, v)
		case "apiType":
			md.APIType, err = d.str(q, v)
		case "connection":
			md.Connection, err = d.mapping(q, v)
		case "options":
			md.Options, err = d.options(q, v)
		default:
			if md.Extra == nil {
				md.Extra = map[string]any{}
			}
			md.Extra[k] = v
		}
		if err != nil {
			return nil, err
		}
	}
	return md, nil
}

func (d *decoder) options(p *keyPath, v any) (*ModelOptions, error) {
	m, err := d.mapping(p, v)
	if err != nil {
		return nil, err
	}
	o := &ModelOptions{}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		q := p.with(k)
		switch k {
		case "temperature":
			o.Temperature, err = d.float(q, v)
		case "topP":
			o.TopP, err = d.float(q, v)
		case "frequencyPenalty":
			o.FrequencyPenalty, err = d.float(q, v)
		case "presencePenalty":
			o.PresencePenalty, err = d.float(q, v)
		case "maxOutputTokens":
			o.MaxOutputTokens, err = d.integer(q, v)
		case "topK":
			o.TopK, err = d.integer(q, v)
		case "seed":
			o.Seed, err = d.integer(q, v)
		case "stopSequences":
			o.StopSequences, err = d.strings(q, v)
		case "allowMultipleToolCalls":
			b, ok := v.(bool)
			if !ok {
				err = d.errorf(q, "want true or false, not %s", describe(v))
			}
			o.AllowMultipleToolCalls = &b
		case "additionalProperties":
			o.AdditionalProperties, err = d.mapping(q, v)
		default:
			if o.Extra == nil {
				o.Extra = map[string]any{}
			}
			o.Extra[k] = v
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

func (d *decoder) float(p *keyPath, v any) (*float64, error) {
	switch v := v.(type) {
	case int64:
		f := float64(v)
		return &f, nil
	case float64:
		return &v, nil
	}
	return nil, d.errorf(p, "want a number, not %s", describe(v))
}

func (d *decoder) integer(p *keyPath, v any) (*int64, error) {
	switch v := v.(type) {
	case int64:
		return &v, nil
	case float64:
		if v == math.Trunc(v) && math.Abs(v) < 1<<53 {
			i := int64(v)
			return &i, nil
		}
	}
	return nil, d.errorf(p, "want an integer, not %s", describe(v))
}

func (d *decoder) strings(p *keyPath, v any) ([]string, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, d.errorf(p, "want a list of strings, not %s", describe(v))
	}
	out := make([]string, len(list))
	for i, x := range list {
		s, err := d.str(p.with(i), x)
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// properties reads inputs or outputs: a list of properties with names, or
// a mapping of names to properties or to scalar shorthand (a value that is
// its default, its kind inferred).
func (d *decoder) properties(p *keyPath, v any) ([]Property, error) {
	var out []Property
	seen := map[string]bool{}
	add := func(q *keyPath, name string, v any) error {
		if seen[name] {
			return d.errorf(q, "a second property named %q", name)
		}
		seen[name] = true
		prop, err := d.property(q, name, v)
		out = append(out, prop)
		return err
	}
	switch v := v.(type) {
	case []any:
		out = make([]Property, 0, len(v))
		for i, x := range v {
			q := p.with(i)
			m, err := d.mapping(q, x)
			if err != nil {
				return nil, d.errorf(q, "want a property with a name, not %s", describe(x))
			}
			name, ok := m["name"].(string)
			if !ok || name == "" {
				return nil, d.errorf(q, "a property in a list needs a name")
			}
			if err := add(q, name, m); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		out = make([]Property, 0, len(v))
		for _, name := range slices.Sorted(maps.Keys(v)) {
			if err := add(p.with(name), name, v[name]); err != nil {
				return nil, err
			}
		}
		// keep the author's order where the YAML says it
		orderLike(out, locate(d.node, p))
	default:
		return nil, d.errorf(p, "want a list or a mapping of properties, not %s", describe(v))
	}
	return out, nil
}

func (d *decoder) property(p *keyPath, name string, v any) (Property, error) {
	prop := Property{Name: name}
	m, ok := v.(map[string]any)
	if !ok { // scalar shorthand
		prop.Kind, prop.Default, prop.HasDefault = inferKind(v), v, true
		return prop, nil
	}
	var err error
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		q := p.with(k)
		switch k {
		case "name":
		case "kind":
			prop.Kind, err = d.str(q, v)
		case "description":
			prop.Description, err = d.str(q, v)
		case "required":
			b, ok := v.(bool)
			if !ok {
				err = d.errorf(q, "want true or false, not %s", describe(v))
			}
			prop.Required = b
		case "default":
			prop.Default, prop.HasDefault = v, true
		case "example":
			prop.Example = v
		case "enumValues":
			list, ok := v.([]any)
			if !ok {
				err = d.errorf(q, "want a list, not %s", describe(v))
			}
			prop.EnumValues = list
		default:
			if prop.Extra == nil {
				prop.Extra = map[string]any{}
			}
			prop.Extra[k] = v
		}
		if err != nil {
			return prop, err
		}
	}
	if prop.Kind == "" {
		prop.Kind = KindString
		if prop.HasDefault && prop.Default != nil {
			prop.Kind = inferKind(prop.Default)
		}
	}
	return prop, nil
}

// inferKind is the kind of a scalar shorthand's value (section 2.7).
func inferKind(v any) string {
	switch v.(type) {
	case bool:
		return KindBoolean
	case int64:
		return KindInteger
	case float64:
		return KindFloat
	case []any:
		return KindArray
	case map[string]any:
		return KindObject
	}
	return KindString
}

func (d *decoder) tools(p *keyPath, v any) ([]map[string]any, error) {
	list, ok := v.([]any)
	if !ok {
		return nil, d.errorf(p, "want a list of tools, not %s", describe(v))
	}
	out := make([]map[string]any, len(list))
	for i, x := range list {
		m, err := d.mapping(p.with(i), x)
		if err != nil {
			return nil, err
		}
		out[i] = m
	}
	return out, nil
}

// template reads the template section: a string names the format kind
// (section 2.8's shorthand), a mapping has format and parser, each a kind
// string or a {kind, strict, options} mapping.
func (d *decoder) template(p *keyPath, v any, t *Template) error {
	if s, ok := v.(string); ok {
		t.Format = s
		return nil
	}
	m, err := d.mapping(p, v)
	if err != nil {
		return d.errorf(p, "want a format name or a mapping with format and parser, not %s", describe(v))
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		q := p.with(k)
		switch k {
		case "format":
			t.Format, t.FormatOptions, err = d.kindOf(q, v, func(k string, v any) (bool, error) {
				if k != "strict" {
					return false, nil
				}
				b, ok := v.(bool)
				if !ok {
					return true, d.errorf(q.with(k), "want true or false, not %s", describe(v))
				}
				t.Strict = &b
				return true, nil
			})
		case "parser":
			t.Parser, t.ParserOptions, err = d.kindOf(q, v, nil)
		default:
			err = d.errorf(q, "unknown template key (want format or parser)")
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// kindOf reads a {kind, options} mapping or its kind-string shorthand;
// other keys go to special, or are an error.
func (d *decoder) kindOf(p *keyPath, v any, special func(string, any) (bool, error)) (string, map[string]any, error) {
	if s, ok := v.(string); ok {
		return s, nil, nil
	}
	m, err := d.mapping(p, v)
	if err != nil {
		return "", nil, d.errorf(p, "want a kind name or a mapping with a kind, not %s", describe(v))
	}
	var kind string
	var opts map[string]any
	for _, k := range slices.Sorted(maps.Keys(m)) {
		v := m[k]
		q := p.with(k)
		switch k {
		case "kind":
			kind, err = d.str(q, v)
		case "options":
			opts, err = d.mapping(q, v)
		default:
			handled := false
			if special != nil {
				handled, err = special(k, v)
			}
			if !handled && err == nil {
				err = d.errorf(q, "unknown key (want kind or options)")
			}
		}
		if err != nil {
			return "", nil, err
		}
	}
	if kind == "" {
		return "", nil, d.errorf(p, "missing kind")
	}
	return kind, opts, nil
}

// orderLike sorts props into the order their names have as keys of the
// mapping node n (a merge key or alias can leave names it does not list;
// those keep their sorted place at the end).
func orderLike(props []Property, n *yaml.Node) {
	if n == nil || n.Kind != yaml.MappingNode {
		return
	}
	rank := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if _, ok := rank[n.Content[i].Value]; !ok {
			rank[n.Content[i].Value] = i
		}
	}
	pos := func(p Property) int {
		if r, ok := rank[p.Name]; ok {
			return r
		}
		return len(n.Content)
	}
	slices.SortStableFunc(props, func(a, b Property) int { return pos(a) - pos(b) })
}
