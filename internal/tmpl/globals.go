package tmpl

import (
	"errors"
	"fmt"

	"github.com/nikolalohinski/gonja/v2/parser"
	"github.com/promptfmt/promptfmt/internal/gonja/builtins"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
)

// MaxRange bounds the list range() makes.
const MaxRange = 100000

// environment is gonja's default, but for range(): gonja's makes every
// number before the loop starts, so range(10**12) takes all memory. Ours
// refuses more than MaxRange.
var environment = &exec.Environment{
	Context: exec.EmptyContext().Update(builtins.GlobalFunctions).Update(builtins.GlobalVariables).
		Update(exec.NewContext(map[string]any{"range": boundedRange})),
	Filters:           builtins.Filters,
	Tests:             builtins.Tests,
	ControlStructures: builtins.ControlStructures,
	Methods:           builtins.Methods,
}

// lenientControls are gonja's control structures with Tera's if.
var lenientControls = func() *exec.ControlStructureSet {
	set := exec.NewControlStructureSet(map[string]parser.ControlStructureParser{}).Update(builtins.ControlStructures)
	base, _ := builtins.ControlStructures.Get("if")
	if err := set.Replace("if", lenientIfParser(base)); err != nil {
		panic(err)
	}
	return set
}()

// boundedRange is Python's range([start,] stop[, step]) as a list of at
// most MaxRange integers.
func boundedRange(e *exec.Evaluator, params *exec.VarArgs) ([]int, error) {
	args := make([]int, len(params.Args))
	for i, a := range params.Args {
		if !a.IsInteger() {
			return nil, exec.ErrInvalidCall(errors.New("range: want integers: [start, ]stop[, step]"))
		}
		args[i] = a.Integer()
	}
	start, stop, step := 0, 0, 1
	switch len(args) {
	case 1:
		stop = args[0]
	case 2:
		start, stop = args[0], args[1]
	case 3:
		start, stop, step = args[0], args[1], args[2]
	default:
		return nil, exec.ErrInvalidCall(errors.New("range: want [start, ]stop[, step]"))
	}
	if step == 0 {
		return nil, exec.ErrInvalidCall(errors.New("range: step cannot be 0"))
	}
	n := 0
	if step > 0 && stop > start {
		n = (stop - start + step - 1) / step
	} else if step < 0 && stop < start {
		n = (start - stop - step - 1) / -step
	}
	if n > MaxRange {
		return nil, exec.ErrInvalidCall(fmt.Errorf("range: %d items, more than %d", n, MaxRange))
	}
	// The list is charged to the rendering's budget before it is made.
	if err := e.Environment.Budget.StepN(nil, int64(n)); err != nil {
		return nil, err
	}
	if err := e.Environment.Budget.Grow(exec.Product(n, 8)); err != nil {
		return nil, err
	}
	out := make([]int, n)
	for i := range out {
		out[i] = start + i*step
	}
	return out, nil
}
