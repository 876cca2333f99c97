package dotprompt

import (
	"fmt"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/token"
	dp "github.com/google/dotprompt/go/dotprompt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// checkRuntimeYAML refuses front matter that the runtime's YAML reader
// (goccy/go-yaml) cannot read, though ours could: the runtime would then
// print a line to standard output (its own fmt.Printf, into a command's
// JSON) and render the whole file, front matter included, as the
// template, with no defaults. runtimeSrc starts at offset base in src.
func checkRuntimeYAML(src []byte, base int, runtimeSrc string) *promptfmt.ParseError {
	m := dp.FrontmatterAndBodyRegex.FindStringSubmatchIndex(runtimeSrc)
	if m == nil || m[2] == m[3] {
		return nil // no front matter, or an empty one: the runtime reads no YAML
	}
	yamlAt, front := m[2], runtimeSrc[m[2]:m[3]]
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				err = fmt.Errorf("%v", r)
			}
		}()
		var v map[string]any
		err = goccy.Unmarshal([]byte(front), &v)
	}()
	if err == nil {
		return nil
	}
	at, msg := base+yamlAt, err.Error()
	if e, ok := err.(interface {
		GetToken() *token.Token
		GetMessage() string
	}); ok {
		msg = e.GetMessage()
		if tk := e.GetToken(); tk != nil && tk.Position != nil {
			at = yamlmeta.LineColOffset(src, at, tk.Position.Line, tk.Position.Column)
		}
	}
	return diag.Errorf(format, src, at,
		"Dotprompt's runtime cannot read this front matter (%s), though it is YAML: it would render the whole file as the template", msg)
}
