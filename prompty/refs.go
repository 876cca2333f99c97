package prompty

import (
	"path"
	"strings"

	"github.com/promptfmt/promptfmt/internal/confined"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
	"go.yaml.in/yaml/v3"
)

// maxFileRef bounds a file read by a ${file:...} reference.
const maxFileRef = 8 << 20

// resolve returns v, which depth mappings and lists enclose, with every
// string that is exactly a ${env:...} or ${file:...} reference replaced by
// what it refers to. A value a reference brings in is not searched again,
// but it may not nest deeper than values.MaxDepth where it lands.
func (d *decoder) resolve(v any, p *keyPath, depth int) (any, error) {
	switch v := v.(type) {
	case string:
		if !strings.HasPrefix(v, "${") || !strings.HasSuffix(v, "}") {
			return v, nil
		}
		r, err := d.reference(p, v[2:len(v)-1], v)
		if err == nil && depth+valueDepth(r, values.MaxDepth-depth+1) > values.MaxDepth {
			return nil, d.errorf(p, "%s: %s", v, values.DepthMessage())
		}
		return r, err
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, x := range v {
			r, err := d.resolve(x, p.with(k), depth+1)
			if err != nil {
				return nil, err
			}
			out[k] = r
		}
		return out, nil
	case []any:
		out := make([]any, len(v))
		for i, x := range v {
			r, err := d.resolve(x, p.with(i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = r
		}
		return out, nil
	}
	return v, nil
}

// valueDepth is how deeply mappings and lists nest in v, counted up to
// limit at most.
func valueDepth(v any, limit int) int {
	if limit <= 0 {
		return 0
	}
	deepest := 0
	switch v := v.(type) {
	case map[string]any:
		for _, x := range v {
			deepest = max(deepest, valueDepth(x, limit-1))
		}
	case []any:
		for _, x := range v {
			deepest = max(deepest, valueDepth(x, limit-1))
		}
	default:
		return 0
	}
	return 1 + deepest
}

func (d *decoder) reference(p *keyPath, ref, whole string) (any, error) {
	kind, arg, _ := strings.Cut(ref, ":")
	switch kind {
	case "env":
		name, def, hasDefault := strings.Cut(arg, ":")
		if val, ok := d.env(name); ok {
			return val, nil
		}
		if hasDefault {
			return def, nil
		}
		return nil, d.errorf(p, "Environment variable '%s' not set (write ${env:%s:default} for a default)", name, name)
	case "file":
		return d.file(p, arg)
	}
	return whole, nil // not a reference: "${x}" stays text
}

// file reads a ${file:name} reference from the prompt's file system,
// beside the prompt.
func (d *decoder) file(p *keyPath, name string) (any, error) {
	if d.fsys == nil {
		return nil, d.errorf(p, "${file:%s}: no file system to read it from (load with LoadFile, or give promptfmt.FS)", name)
	}
	data, err := confined.ReadFS(d.fsys, d.dir, name, maxFileRef)
	if err != nil {
		return nil, d.errorf(p, "${file:%s}: %v", name, err)
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".json":
		v, err := jsonvalue.Decode(data)
		if err != nil {
			return nil, d.errorf(p, "${file:%s}: %v", name, err)
		}
		return v, nil
	case ".yaml", ".yml":
		var n yaml.Node
		if err := yaml.Unmarshal(data, &n); err != nil {
			return nil, d.errorf(p, "${file:%s}: %v", name, err)
		}
		m, err := yamlmeta.DecodeNode(&n)
		if err != nil {
			return nil, d.errorf(p, "${file:%s}: %v", name, err)
		}
		return m, nil
	}
	if err := diag.CheckUTF8(format, data); err != nil {
		return nil, d.errorf(p, "${file:%s}: not UTF-8 text", name)
	}
	return string(data), nil
}
