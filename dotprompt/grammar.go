package dotprompt

import (
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/mbleigh/raymond/ast"
	"github.com/mbleigh/raymond/lexer"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/splice"
)

// checkSyntax runs checkGrammar on the template as the runtime parses
// it, tmpl, what Dotprompt's ParseDocument leaves of runtimeSrc (which
// starts at offset base in src: runtimeTemplate), and on each partial,
// and returns the first error at its place: in the file, or in the
// partial's file (named beside file). Without one, it returns runtimeSrc
// and the partials with checkGrammar's edits made (see there), and the
// first call of a helper the engine does not have, as an error (Load's).
func checkSyntax(src []byte, base int, runtimeSrc, tmpl string, partials map[string]string, maxDepth int, file string) (out string, edited map[string]string, helper, err *promptfmt.ParseError) {
	// The template is the body without the white space around it; when
	// the runtime took it otherwise, the body's start stands for an error.
	at := len(strings.TrimRightFunc(runtimeSrc, unicode.IsSpace)) - len(tmpl)
	found := at >= 0 && runtimeSrc[at:at+len(tmpl)] == tmpl
	place := func(off int) int {
		if found {
			return base + at + off
		}
		return base + len(runtimeSrc) - len(strings.TrimLeftFunc(runtimeSrc, unicode.IsSpace))
	}
	edits, unknown, e := checkGrammar(tmpl, maxDepth)
	if e != nil {
		return "", nil, nil, diag.Errorf(format, src, place(e.at), "%s", e.msg)
	}
	if unknown != nil {
		helper = unknown.error(tmpl, src, place(unknown.at))
	}
	out = runtimeSrc
	switch done := splice.Apply(tmpl, edits); {
	case found:
		out = runtimeSrc[:at] + done + runtimeSrc[at+len(tmpl):]
	case len(edits) > 0:
		// The runtime took the template otherwise (an empty front matter:
		// it drops tabs and other blanks; YAML it cannot read, the whole
		// file, is refused before, yamlError), with no metadata: it is
		// given the edited template alone, which it must read as it is.
		if again, _, err := runtimeTemplate(done); err != nil || again != done {
			return "", nil, nil, diag.Errorf(format, src, place(0),
				"Dotprompt's runtime reads this file's template in a way promptfmt cannot follow (its front matter is empty or not YAML to it)")
		}
		out = done
	}
	edited = make(map[string]string, len(partials))
	for _, name := range slices.Sorted(maps.Keys(partials)) {
		p := partials[name]
		edits, unknown, e := checkGrammar(p, maxDepth)
		inPartial := func(pe *promptfmt.ParseError) *promptfmt.ParseError {
			pe.Msg += " (the partial " + name + ")"
			pe.File = filepath.Join(filepath.Dir(file), filepath.FromSlash(partialFile(name)))
			return pe
		}
		if e != nil {
			return "", nil, nil, inPartial(diag.Errorf(format, []byte(p), e.at, "%s", e.msg))
		}
		if unknown != nil && helper == nil {
			helper = inPartial(unknown.error(p, []byte(p), unknown.at))
		}
		edited[name] = splice.Apply(p, edits)
	}
	return out, edited, helper, nil
}

// partialFile is the file of the partial "dir/name": dir/_name.prompt,
// as Dotprompt's directory store names it.
func partialFile(name string) string {
	dir, base := path.Split(name)
	return dir + "_" + base + ".prompt"
}

// grammarError is the first thing in a template that the engine's parser
// refuses, at its byte offset.
type grammarError struct {
	at  int
	msg string
	// ours: refused by a rule of this package's (a limit, a block helper
	// out of a block), not by the engine's parser
	ours bool
}

// checkGrammar reads src as the engine's parser (raymond's) reads it,
// with the engine's own lexer, and returns the first thing that parser
// refuses, or nil and the edits that hand two of the engine's ways to
// this package's helpers: a section ({{#items}}...{{/items}}, a block
// whose name is a path, without arguments, and no helper's) becomes
// {{#__promptfmt_section items}}...{{/__promptfmt_section}}, a value
// printed alone ({{items}}) {{__promptfmt_print items}}, and a helper's
// value printed ({{lookup m k}}) {{__promptfmt_print (lookup m k)}};
// each renders as the engine's, but in linear time and charged to
// MaxBytes (see section and print). Load runs it on the template and on each partial
// before the runtime parses them, for three reasons: that parser leaks
// its lexer's goroutine, blocked forever and holding the source, on every
// template it refuses (and a partial is parsed again at each rendering);
// its errors have a line but no column; and it recurses once for each
// block and sub-expression, which a hostile template nests a million
// deep. Blocks and sub-expressions nested deeper than maxDepth (when it
// is above 0) are refused here. FuzzGrammar holds this reading and the
// parser's the same.
//
// The rules are the parser's (parser/parser.go in raymond, after
// handlebars.js's grammar), in its order, so that the first error found
// is the one it finds.
func checkGrammar(src string, maxDepth int) (edits []splice.Edit, unknown *helperCall, err *grammarError) {
	g := &grammar{lex: lexer.Scan(src), maxDepth: maxDepth}
	defer func() {
		g.drain() // the lexer's goroutine ends with its last token
		if r := recover(); r != nil {
			e, ok := r.(*grammarError)
			if !ok {
				panic(r)
			}
			edits, unknown, err = nil, nil, e
		}
	}()
	g.program()
	if tok := g.shift(); tok.Kind != lexer.TokenEOF {
		g.fail(tok, "%s where the template should end", found(tok))
	}
	return g.edits, g.unknown, nil
}

// The names of section and print to the engine.
const (
	sectionHelper = "__promptfmt_section"
	printHelper   = "__promptfmt_print"
)

// charged are the helpers whose output is charged to MaxBytes already,
// or is none: print needs not print them again.
var charged = map[string]bool{"json": true, "log": true, printHelper: true, sectionHelper: true}

// handed reports whether an expression is handed to section or print:
// a path (not a literal), without arguments, that names no helper.
func handed(e expr) bool { return e.path && !e.args && !knownHelpers[e.name] }

// grammar is checkGrammar's reader: the tokens read ahead, and how deep
// it is in blocks and sub-expressions.
type grammar struct {
	lex             *lexer.Lexer
	ahead           []lexer.Token
	over            bool // the lexer has given its last token
	depth, maxDepth int
	edits           []splice.Edit // in order
	tagAt           int           // where the tag being read starts
	unknown         *helperCall   // the first call of a helper the engine does not have
}

// expr is what the reader knows of an expression: its helper's name as a
// block's end must give it, where that name starts, whether it is a path
// (not a literal), and whether arguments follow it.
type expr struct {
	name       string
	at         int
	path, args bool
}

func (g *grammar) drain() {
	for !g.over {
		g.read()
	}
}

func (g *grammar) read() {
	tok := g.lex.NextToken()
	g.ahead = append(g.ahead, tok)
	g.over = tok.Kind == lexer.TokenEOF || tok.Kind == lexer.TokenError
}

// at is the token i ahead; past the last, the last (an end or an error).
func (g *grammar) at(i int) lexer.Token {
	for len(g.ahead) <= i && !g.over {
		g.read()
	}
	if i >= len(g.ahead) {
		i = len(g.ahead) - 1
	}
	return g.ahead[i]
}

func (g *grammar) next() lexer.Token { return g.at(0) }

func (g *grammar) is(kind lexer.TokenKind) bool { return g.next().Kind == kind }

// shift takes the next token; the lexer's error is the template's.
func (g *grammar) shift() lexer.Token {
	tok := g.next()
	if len(g.ahead) > 1 || tok.Kind != lexer.TokenEOF && tok.Kind != lexer.TokenError {
		g.ahead = g.ahead[1:]
	}
	if tok.Kind == lexer.TokenError {
		g.fail(tok, "%s", tok.Val)
	}
	return tok
}

func (g *grammar) fail(tok lexer.Token, format string, args ...any) {
	panic(&grammarError{at: tok.Pos, msg: fmt.Sprintf(format, args...)})
}

// expect shifts a token of the kind.
func (g *grammar) expect(kind lexer.TokenKind) lexer.Token {
	tok := g.shift()
	if tok.Kind != kind {
		g.fail(tok, "expected %s, found %s", spelling[kind], found(tok))
	}
	return tok
}

// enter and leave count the nesting of blocks and sub-expressions.
func (g *grammar) enter(tok lexer.Token) {
	g.depth++
	if g.maxDepth > 0 && g.depth > g.maxDepth {
		panic(&grammarError{at: tok.Pos, msg: fmt.Sprintf("blocks and sub-expressions nest deeper than %d (the limit MaxDepth)", g.maxDepth), ours: true})
	}
}

// blockHelpers render a block: the engine, given one out of a block
// ({{if x}}, (each xs)), renders the block around it in its place, which
// holds that call again: the Go stack overflows, a fatal error
// ({{#if t}}{{if t}}{{/if}}, 26 bytes). handlebars.js renders such a call
// as nothing.
var blockHelpers = map[string]bool{"if": true, "unless": true, "with": true, "each": true,
	"ifEquals": true, "unlessEquals": true, sectionHelper: true}

// notBlock refuses a block helper's call out of a block.
func (g *grammar) notBlock(e expr) {
	if e.path && blockHelpers[e.name] {
		panic(&grammarError{at: e.at, msg: fmt.Sprintf("%s renders a block: write {{#%s ...}}...{{/%s}} (out of a block, the engine would render the block around it again, without end)", e.name, e.name, e.name), ours: true})
	}
}

func (g *grammar) leave() { g.depth-- }

// spelling is how a token the reader expects is written.
var spelling = map[lexer.TokenKind]string{
	lexer.TokenClose:            `"}}"`,
	lexer.TokenCloseUnescaped:   `"}}}"`,
	lexer.TokenCloseRawBlock:    `"}}}}"`,
	lexer.TokenOpenEndRawBlock:  `"{{{{/"`,
	lexer.TokenOpenEndBlock:     "the block's end {{/...}}",
	lexer.TokenCloseSexpr:       `")"`,
	lexer.TokenID:               "a name",
	lexer.TokenCloseBlockParams: `"|"`,
	lexer.TokenContent:          "text",
}

// found names a token the reader did not expect.
func found(tok lexer.Token) string {
	if tok.Kind == lexer.TokenEOF {
		return "the end of the template"
	}
	return strconv.Quote(tok.Val)
}

// program : statement*
func (g *grammar) program() {
	for {
		g.tagAt = g.next().Pos
		switch g.next().Kind {
		case lexer.TokenOpen, lexer.TokenOpenUnescaped:
			g.mustache()
		case lexer.TokenOpenBlock, lexer.TokenOpenInverse:
			g.block()
		case lexer.TokenOpenRawBlock:
			g.rawBlock()
		case lexer.TokenOpenPartial:
			g.shift()
			g.helperNameOrSexpr()
			g.paramsHash()
			g.expect(lexer.TokenClose)
		case lexer.TokenContent, lexer.TokenComment:
			g.shift()
		default:
			return
		}
	}
}

// mustache : OPEN expression CLOSE | OPEN_UNESCAPED expression CLOSE_UNESCAPED
func (g *grammar) mustache() {
	closing := lexer.TokenClose
	if g.shift().Kind == lexer.TokenOpenUnescaped {
		closing = lexer.TokenCloseUnescaped
	}
	e := g.expression()
	g.notBlock(e)
	switch {
	case handed(e):
		g.edits = append(g.edits, splice.Insert(e.at, printHelper+" "))
	case e.path && e.args && !charged[e.name]: // {{lookup m k}}, {{media url=u}}
		g.edits = append(g.edits, splice.Insert(e.at, printHelper+" ("), splice.Insert(g.next().Pos, ")"))
	}
	g.expect(closing)
}

// block : openBlock program inverseChain? closeBlock
//
//	| openInverse program inverseAndProgram? closeBlock
func (g *grammar) block() {
	open := g.next()
	g.enter(open)
	e := g.openBlock()
	section := open.Kind == lexer.TokenOpenBlock && handed(e) // {{^items}} renders no list
	if section {
		g.edits = append(g.edits, splice.Insert(e.at, sectionHelper+" "))
	}
	g.program()
	if open.Kind == lexer.TokenOpenBlock {
		g.inverseChain()
	} else if g.is(lexer.TokenInverse) {
		g.shift()
		g.program()
	}
	g.closeBlock(e.name, section)
	g.leave()
}

// inverseChain : (openInverseChain program)* inverseAndProgram?; each
// {{else if}} is a block inside the one before, to the parser and the
// engine.
func (g *grammar) inverseChain() {
	links := 0
	for g.is(lexer.TokenOpenInverseChain) {
		g.tagAt = g.next().Pos
		g.enter(g.next())
		links++
		if e := g.openBlock(); handed(e) { // {{else items}}
			g.edits = append(g.edits, splice.Insert(e.at, sectionHelper+" "))
		}
		g.program()
	}
	if g.is(lexer.TokenInverse) {
		g.shift()
		g.program()
	}
	g.depth -= links
}

// openBlock : (OPEN_BLOCK | OPEN_INVERSE | OPEN_INVERSE_CHAIN) expression blockParams? CLOSE
func (g *grammar) openBlock() expr {
	g.shift()
	e := g.expression()
	if g.is(lexer.TokenOpenBlockParams) {
		g.shift()
		if !g.is(lexer.TokenID) {
			g.expect(lexer.TokenID)
		}
		for g.is(lexer.TokenID) {
			g.shift()
		}
		g.expect(lexer.TokenCloseBlockParams)
	}
	g.expect(lexer.TokenClose)
	return e
}

// closeBlock : OPEN_ENDBLOCK helperName CLOSE; a section's end names
// section.
func (g *grammar) closeBlock(name string, section bool) {
	g.expect(lexer.TokenOpenEndBlock)
	end := g.next()
	if got, _ := ast.HelperNameStr(g.helperName()); got != name {
		g.fail(end, "{{/%s}} closes the block %s", got, name)
	}
	if section {
		at := end.Pos
		if end.Kind == lexer.TokenString {
			at-- // its quote: a string's token starts after it
		}
		g.edits = append(g.edits, splice.Edit{At: at, End: g.next().Pos, Text: sectionHelper})
	}
	g.expect(lexer.TokenClose)
}

// rawBlock : OPEN_RAW_BLOCK expression CLOSE_RAW_BLOCK CONTENT
// OPEN_END_RAW_BLOCK helperName CLOSE_RAW_BLOCK
func (g *grammar) rawBlock() {
	g.shift()
	name := g.expression().name
	g.expect(lexer.TokenCloseRawBlock)
	g.expect(lexer.TokenContent)
	g.expect(lexer.TokenOpenEndRawBlock)
	end := g.next()
	if got, _ := ast.HelperNameStr(g.helperName()); got != name {
		g.fail(end, "{{{{/%s}}}} closes the raw block %s", got, name)
	}
	g.expect(lexer.TokenCloseRawBlock)
}

// expression : helperName param* hash?; the first that gives arguments
// to a name no helper has is noted (see helperCall).
func (g *grammar) expression() expr {
	at := g.next().Pos
	n := g.helperName()
	name, _ := ast.HelperNameStr(n)
	_, path := n.(*ast.PathExpression)
	e := expr{name: name, at: at, path: path, args: g.paramsHash()}
	if e.path && e.args && !knownHelpers[name] && isName(name) && g.unknown == nil {
		g.unknown = &helperCall{at: g.tagAt, name: name}
	}
	return e
}

// paramsHash : param* hash?; param : helperName | sexpr; hash :
// (ID EQUALS param)+. It reports whether there was any.
func (g *grammar) paramsHash() bool {
	any := false
	for !g.isHashPair() && (g.is(lexer.TokenOpenSexpr) || g.isHelperName()) {
		g.helperNameOrSexpr()
		any = true
	}
	for g.isHashPair() {
		g.shift()
		g.shift()
		g.helperNameOrSexpr()
		any = true
	}
	return any
}

func (g *grammar) isHashPair() bool {
	return g.next().Kind == lexer.TokenID && g.at(1).Kind == lexer.TokenEquals
}

func (g *grammar) isHelperName() bool {
	switch g.next().Kind {
	case lexer.TokenBoolean, lexer.TokenNumber, lexer.TokenString, lexer.TokenData, lexer.TokenID:
		return true
	}
	return false
}

// helperNameOrSexpr : helperName | OPEN_SEXPR expression CLOSE_SEXPR
func (g *grammar) helperNameOrSexpr() {
	if !g.is(lexer.TokenOpenSexpr) {
		g.helperName()
		return
	}
	g.enter(g.shift())
	g.notBlock(g.expression())
	g.expect(lexer.TokenCloseSexpr)
	g.leave()
}

// helperName : path | DATA path | STRING | NUMBER | BOOLEAN; the node
// the parser makes of it, whose name raymond's ast gives.
func (g *grammar) helperName() ast.Node {
	tok := g.next()
	switch tok.Kind {
	case lexer.TokenBoolean:
		g.shift()
		return ast.NewBooleanLiteral(tok.Pos, tok.Line, tok.Val == "true", tok.Val)
	case lexer.TokenNumber:
		g.shift()
		if n, err := strconv.Atoi(tok.Val); err == nil {
			return ast.NewNumberLiteral(tok.Pos, tok.Line, float64(n), true, tok.Val)
		}
		f, err := strconv.ParseFloat(tok.Val, 64)
		if err != nil {
			g.fail(tok, "the number %s does not parse", tok.Val)
		}
		return ast.NewNumberLiteral(tok.Pos, tok.Line, f, false, tok.Val)
	case lexer.TokenString:
		g.shift()
		return ast.NewStringLiteral(tok.Pos, tok.Line, tok.Val)
	case lexer.TokenData:
		g.shift()
		return g.path(true)
	}
	return g.path(false)
}

// path : ID (SEP ID)*, where "..", "." and "this" come before any name
func (g *grammar) path(data bool) ast.Node {
	tok := g.expect(lexer.TokenID)
	p := ast.NewPathExpression(tok.Pos, tok.Line, data)
	p.Part(tok.Val)
	for g.is(lexer.TokenSep) {
		p.Sep(g.shift().Val)
		tok = g.expect(lexer.TokenID)
		p.Part(tok.Val)
		if len(p.Parts) > 0 && (tok.Val == ".." || tok.Val == "." || tok.Val == "this") {
			g.fail(tok, "the path %s has %q after a name", p.Original, tok.Val)
		}
	}
	return p
}
