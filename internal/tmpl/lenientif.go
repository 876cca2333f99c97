package tmpl

import (
	"fmt"

	"github.com/nikolalohinski/gonja/v2/nodes"
	"github.com/nikolalohinski/gonja/v2/parser"
	controlstructures "github.com/promptfmt/promptfmt/internal/gonja/builtins/control_structures"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
)

// lenientIf is gonja's if, elif and else with Tera's rule for conditions:
// an undefined name is false there even when StrictUndefined makes it an
// error in output. Gonja has one switch for both.
type lenientIf struct {
	*controlstructures.IfControlStructure
}

func (l lenientIf) Execute(r *exec.Renderer, _ *nodes.ControlStructureBlock) error {
	e := r.Evaluator()
	cfg := *e.Config
	cfg.StrictUndefined = false
	e.Config = &cfg
	for i, cond := range l.Conditions {
		v := e.Eval(cond)
		if v.IsError() {
			return v
		}
		if v.IsTrue() {
			return r.ExecuteIfWrapper(l.Wrappers[i])
		}
	}
	if len(l.Wrappers) > len(l.Conditions) { // else
		return r.ExecuteIfWrapper(l.Wrappers[len(l.Conditions)])
	}
	return nil
}

// lenientIfParser parses with gonja's own if parser and wraps the result.
func lenientIfParser(base parser.ControlStructureParser) parser.ControlStructureParser {
	return func(p, args *parser.Parser) (nodes.ControlStructure, error) {
		cs, err := base(p, args)
		if err != nil {
			return nil, err
		}
		ics, ok := cs.(*controlstructures.IfControlStructure)
		if !ok {
			return nil, fmt.Errorf("if: unexpected %T", cs)
		}
		return lenientIf{ics}, nil
	}
}
