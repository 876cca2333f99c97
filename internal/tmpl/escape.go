package tmpl

import (
	"strings"

	"github.com/nikolalohinski/gonja/v2/config"
	"github.com/nikolalohinski/gonja/v2/tokens"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
	"github.com/promptfmt/promptfmt/internal/splice"
)

// escapeFilter is the filter wrapOutputs puts on every {{ }}. A template
// naming it gains nothing: it only escapes.
const escapeFilter = "__promptfmt_escape__"

// Gonja's autoescape is HTML escaping of string values only, so a list or
// a number printed by {{ }} is never escaped: for a format whose escaping
// is a security boundary (PDL), a list holding "<|user|>" would make a
// turn. Instead every {{ expr }} of the template is rewritten to
// {{ (expr)|escapeFilter }}, using gonja's own lexer so that {% raw %},
// comments and string literals are read exactly as gonja reads them; the
// filter escapes the printed text of any value not marked safe.

// wrapOutputs returns src with every output wrapped, and the insertions
// made (in order), to map positions back. src must already have LF line
// endings, as gonja's lexer normalises them and reports offsets after it.
//
// Gonja reads "{{ a if c else b }}" at the top of an output only, never
// inside brackets, so there each branch is wrapped instead:
// "{{ (a)|f if c else (b)|f }}".
func wrapOutputs(src string) (string, []splice.Edit) {
	cfg := config.New()
	cfg.KeepTrailingNewline = true // offsets stay offsets into src
	var ins []splice.Edit          // insertions only
	inOutput, open := false, false // open: a "(" waits for its ")|f"
	depth := 0
	var prev, last *tokens.Token // the branch's last two tokens at depth 0
	closeAt := func(at int) {
		if !open {
			return
		}
		open = false
		if prev != nil && prev.Type == tokens.Pipe && last.Type == tokens.Name && last.Val == "safe" {
			ins = ins[:len(ins)-1] // Tera: a final | safe prints as is
			return
		}
		ins = append(ins, splice.Insert(at, ")|"+escapeFilter+" "))
	}
	// End, not EOF: after an error token gonja's stream has no current
	// token, and EOF would dereference it (an unclosed "{#", say); compile
	// then reports the lexer's error.
	for s := tokens.LexAll(src, cfg); !s.End(); {
		tok := s.Next()
		switch tok.Type {
		case tokens.VariableBegin:
			ins = append(ins, splice.Insert(tok.Pos+len(tok.Val), "("))
			inOutput, open, depth = true, true, 0
			prev, last = nil, nil
		case tokens.VariableEnd:
			closeAt(tok.Pos)
			inOutput = false
		case tokens.LeftParenthesis, tokens.LeftBracket, tokens.LeftBrace:
			depth++
		case tokens.RightParenthesis, tokens.RightBracket, tokens.RightBrace:
			depth--
		case tokens.Name:
			if !inOutput || depth != 0 {
				break
			}
			switch tok.Val {
			case "if":
				closeAt(tok.Pos)
			case "else":
				ins = append(ins, splice.Insert(tok.Pos+len(tok.Val), "("))
				open = true
				prev, last = nil, nil
				continue
			}
		case tokens.Error:
			// Leave the rest alone: gonja reports the error at its place.
			if open {
				ins = ins[:len(ins)-1]
			}
			return splice.Apply(src, ins), ins
		}
		if inOutput && depth == 0 {
			prev, last = last, tok
		}
	}
	if open { // an output without its end: the author's syntax error
		ins = ins[:len(ins)-1]
	}
	return splice.Apply(src, ins), ins
}

// originalColumn maps a 1-based line and column of the rewritten template
// back to the column in the original: each insertion earlier on the line
// shifted it right.
func originalColumn(src string, ins []splice.Edit, line, col int) int {
	if col <= 0 || len(ins) == 0 {
		return col
	}
	start := 0 // offset in src of the line
	for l := 1; l < line; l++ {
		i := strings.IndexByte(src[start:], '\n')
		if i < 0 {
			return col
		}
		start += i + 1
	}
	// Walk the line in the rewritten text: col-1 bytes from its start,
	// skipping inserted text.
	rest := col - 1
	off := start
	for _, in := range ins {
		if in.At < start {
			continue
		}
		if off+rest <= in.At {
			break
		}
		rest -= in.At - off
		off = in.At
		if rest < len(in.Text) {
			return off - start + 1 // inside our text: blame its place
		}
		rest -= len(in.Text)
	}
	return off + rest - start + 1
}

// escapingFilter prints v as {{ }} would and escapes the text. It ignores
// gonja's safe mark, which filters such as pprint and tojson set on text
// made from the context: as in Tera, only a final | safe is trusted, and
// wrapOutputs leaves those outputs alone.
func escapingFilter(escape func(string) string) exec.FilterFunction {
	return func(_ *exec.Evaluator, in *exec.Value, _ *exec.VarArgs) *exec.Value {
		if in.IsError() {
			return in
		}
		return exec.AsSafeValue(escape(in.String()))
	}
}
