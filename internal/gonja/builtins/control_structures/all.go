// Package controlStructures provides built-in control structure implementations.
package controlStructures

import (
	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
)

var All = exec.NewControlStructureSet(map[string]parser.ControlStructureParser{
	"autoescape": autoescapeParser,
	"block":      blockParser,
	"extends":    extendsParser,
	"filter":     filterParser,
	"for":        forParser,
	"from":       fromParser,
	"if":         ifParser,
	"import":     importParser,
	"include":    includeParser,
	"macro":      macroParser,
	"raw":        rawParser,
	"set":        setParser,
	"with":       withParser,
	"do":         doParser,
	"break":      breakParser,
	"continue":   continueParser,
	"trans":      transParser,
	"call":       callParser,
})
