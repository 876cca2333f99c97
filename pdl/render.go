package pdl

import (
	"bytes"
	"errors"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/tmpl"
)

// escape is upstream's escape_pdl_tokens, applied to every {{ }} output
// not ending in | safe: "&" first, so that the entities the other two make
// stay distinct from an author's; then "|>" and "<|" in turn, as upstream
// does ("<|>" is "&lt;|&gt;", where one pass would leave the ">").
func escape(s string) string {
	if !strings.ContainsAny(s, "&|") {
		return s
	}
	s = strings.ReplaceAll(s, "&", "&amp;")
	s = strings.ReplaceAll(s, "|>", "|&gt;")
	return strings.ReplaceAll(s, "<|", "&lt;|")
}

// unescaper is upstream's unescape_pdl_tokens, applied to the text of
// user, system and assistant turns (never to the schema). One pass reads
// as upstream's three in turn: no replacement makes a new entity.
var unescaper = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&amp;", "&")

func unescape(s string) string {
	if strings.IndexByte(s, '&') < 0 {
		return s
	}
	return unescaper.Replace(s)
}

// hasTags reports whether src has a template tag opener; a file without
// one renders to itself, and Parse skips the engine.
func hasTags(src string) bool {
	for i := strings.IndexByte(src, '{'); i >= 0 && i+1 < len(src); {
		switch src[i+1] {
		case '{', '%', '#':
			return true
		}
		j := strings.IndexByte(src[i+1:], '{')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// Render runs the template step of a PDL file: Tera-like Jinja with the
// options' Inputs, every {{ }} escaped unless it ends in | safe, an
// undefined variable an error in output and false in a condition. The
// result is the text that is split into turns. Line endings are LF.
func Render(src []byte, opts ...promptfmt.Option) (string, error) {
	c, err := newConfig(opts)
	if err != nil {
		return "", err
	}
	if err := diag.CheckUTF8("pdl", src); err != nil {
		_, err = c.Finish(nil, err)
		return "", err
	}
	bom := lines.SkipBOM(src)
	s := &source{orig: src, bom: bom, norm: lines.ToLF(string(src[bom:]))}
	out, err := c.render(s.norm)
	if err != nil {
		_, err = c.Finish(nil, s.templateError(err))
		return "", err
	}
	return out, nil
}

func (c *config) render(src string) (string, error) {
	if !hasTags(src) {
		return src, nil
	}
	out, err := tmpl.Jinja(src, c.inputs, c.tmplOptions())
	if err != nil {
		return "", templateError(src, err)
	}
	return out, nil
}

// tmplOptions configure the engine to behave like Tera where ragit relies
// on it.
func (c *config) tmplOptions() tmpl.Options {
	return tmpl.Options{FS: c.FS, Base: c.base, StrictUndefined: true, LenientIf: true, Escape: escape, Limits: c.Limits, Done: c.done}
}

// Check reads a file as far as it can without inputs: a template (see
// IsTemplate) has its template syntax checked, since its turns depend on
// the values it is given; any other file is parsed as Parse does. The
// Document is empty for a template.
func Check(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	c, err := newConfig(opts)
	if err != nil {
		return nil, err
	}
	if !IsTemplate(src) {
		p, err := c.load(src)
		if err != nil {
			return nil, err
		}
		return p.Document, nil
	}
	doc, err := c.Finish(c.check(src))
	if err != nil {
		return nil, err
	}
	c.tell(doc)
	return doc, nil
}

func (c *config) check(src []byte) (*promptfmt.Document, error) {
	if err := diag.CheckUTF8("pdl", src); err != nil {
		return nil, err
	}
	bom := lines.SkipBOM(src)
	s := &source{orig: src, bom: bom, norm: lines.ToLF(string(src[bom:]))}
	if err := tmpl.CompileJinja(s.norm, c.tmplOptions()); err != nil {
		return nil, s.templateError(templateError(s.norm, err))
	}
	doc := &promptfmt.Document{}
	if bom > 0 {
		doc.Warnings = append(doc.Warnings, diag.Warnf("pdl", src, 0, lines.BOMWarning))
	}
	return doc, nil
}

// templateError positions a template error in the file.
func templateError(src string, err error) error {
	var te *tmpl.Error
	if !errors.As(err, &te) {
		return &promptfmt.ParseError{Format: "pdl", Msg: "template", Err: err}
	}
	if te.Line == 0 {
		return &promptfmt.ParseError{Format: "pdl", Msg: "template: " + te.Msg}
	}
	col := max(te.Col, 1)
	return &promptfmt.ParseError{Format: "pdl", Line: te.Line, Col: col, Offset: offsetOf(src, te.Line, col), Msg: "template: " + te.Msg}
}

// offsetOf is the byte offset of a 1-based line and column of src.
func offsetOf(src string, line, col int) int {
	off := 0
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return min(off+col-1, len(src))
}

// IsTemplate reports whether src uses template syntax that writing it
// back would lose: any tag but the two forms Write itself uses to escape
// text ({% raw %}...{% endraw %} and {{ "{%" }}). A file without such tags
// reads and writes back with nothing lost; a template would be replaced by
// what it renders to (its comments, variables and loops gone).
func IsTemplate(src []byte) bool {
	if !hasTagBytes(src) { // and no copy of a large file to find none
		return false
	}
	return !tmpl.OnlyJinjaLiterals(lines.ToLF(string(src)))
}

// hasTagBytes is hasTags of src as bytes.
func hasTagBytes(src []byte) bool {
	for i := bytes.IndexByte(src, '{'); i >= 0 && i+1 < len(src); {
		switch src[i+1] {
		case '{', '%', '#':
			return true
		}
		j := bytes.IndexByte(src[i+1:], '{')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
