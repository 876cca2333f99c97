package dotprompt

import (
	"errors"
	"math"

	"github.com/promptfmt/promptfmt"
)

// errBudget is the refusal of a helper of this package's, which Render
// reports as the limit MaxBytes'.
var errBudget = errors.New("the template would build more bytes than the limit MaxBytes")

// budget is what the helpers this package gives the engine (json, each,
// log)
// may still build in one rendering (the Template's lock is held while it
// renders); unlimited when MaxBytes is.
type budget struct {
	left      int64
	unlimited bool
	logs      []string // what {{log}} was given, for Render's warnings
	// steps counts the work of loops: each pass of each and section costs
	// perPass, the template's tags (expanded), as many as it can evaluate;
	// past maxSteps (when above 0) the rendering stops.
	steps, perPass, maxSteps int64
}

// errSteps is the refusal of a loop's pass past MaxSteps.
var errSteps = errors.New("the template would do more steps of work than the limit MaxSteps")

// reset readies b for a rendering under l of a template of tags tags.
func (b *budget) reset(l promptfmt.TemplateLimits, tags int64) {
	b.left, b.unlimited, b.logs = l.MaxBytes, l.MaxBytes <= 0, nil
	b.steps, b.perPass, b.maxSteps = 0, max(tags, 1), l.MaxSteps
}

// step counts a loop's pass, or stops the rendering.
func (b *budget) step() {
	b.steps += b.perPass
	if b.maxSteps > 0 && b.steps > b.maxSteps {
		panic(errSteps)
	}
}

// limit is what may still be built.
func (b *budget) limit() int64 {
	if b.unlimited {
		return math.MaxInt64
	}
	return b.left
}

// charge takes n bytes from b, or stops the rendering.
func (b *budget) charge(n int64) {
	if n > b.limit() {
		panic(errBudget)
	}
	b.left -= n
}
