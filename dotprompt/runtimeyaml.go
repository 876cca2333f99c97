package dotprompt

import (
	"fmt"
	"strings"
	"unicode"

	goccy "github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/token"
	dp "github.com/google/dotprompt/go/dotprompt"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
)

// runtimeTemplate is the template Dotprompt's runtime makes of src, as
// its ParseDocument does, without reading the YAML into metadata and
// without printing: after front matter, the body trimmed of white space;
// after empty front matter, the body without blanks but line breaks and
// spaces (trimBlanks, the runtime's trimUnicodeSpacesExceptNewlines);
// else src. yamlErr is goccy/go-yaml's error on front matter it cannot
// read, at offset yamlAt of src (the runtime then prints it and takes
// the whole of src, trimBlanks'd). FuzzRuntimeTemplate holds it to
// ParseDocument.
func runtimeTemplate(src string) (tmpl string, yamlAt int, yamlErr error) {
	front, body := "", ""
	if m := dp.FrontmatterAndBodyRegex.FindStringSubmatchIndex(src); m != nil {
		front, body, yamlAt = src[m[2]:m[3]], src[m[4]:m[5]], m[2]
	} else if m := dp.EmptyFrontmatterRegex.FindStringSubmatch(src); m != nil {
		body = m[1]
	}
	switch {
	case front != "":
		if err := goccyReads(front); err != nil {
			return trimBlanks(src), yamlAt, err
		}
		return strings.TrimSpace(body), 0, nil
	case body != "":
		return trimBlanks(body), 0, nil
	}
	return src, 0, nil
}

// goccyReads is the runtime's reading of front matter: goccy/go-yaml
// into a map, a panic of it an error.
func goccyReads(front string) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	var v map[string]any
	return goccy.Unmarshal([]byte(front), &v)
}

// trimBlanks is the runtime's trimUnicodeSpacesExceptNewlines: s
// without Unicode white space other than CR, LF and the space, and
// without the white space but CR and LF at its ends.
func trimBlanks(s string) string {
	var b strings.Builder
	for _, r := range s {
		if unicode.IsSpace(r) && r != '\n' && r != '\r' && r != ' ' {
			continue
		}
		b.WriteRune(r)
	}
	return strings.TrimFunc(b.String(), func(r rune) bool { return unicode.IsSpace(r) && r != '\n' && r != '\r' })
}

// yamlError is Load's error for front matter the runtime's YAML reader
// (goccy/go-yaml) cannot read, though ours could (runtimeTemplate's
// yamlErr at yamlAt of runtimeSrc, which starts at offset base of src):
// the runtime would print a line to standard output (its own fmt.Printf,
// into a command's JSON) and render the whole file, front matter
// included, as the template, with no defaults.
func yamlError(src []byte, base, yamlAt int, err error) *promptfmt.ParseError {
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
