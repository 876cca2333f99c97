package exec

// promptfmt: this file is not in gonja. It is the one work budget of a
// rendering: templates may come from strangers, and gonja bounds neither
// the work of loops and calls, nor recursion (a Go stack overflow kills
// the process), nor the size of the strings and lists it builds.

import (
	"fmt"
	"reflect"

	"github.com/nikolalohinski/gonja/v2/nodes"
)

// Budget is what one rendering may spend: Steps counts every node
// rendered, expression evaluated, loop iteration and item a loop reads;
// Depth bounds nested macro calls, includes and recursive loops; Bytes
// counts the bytes of every string and list the template builds, charged
// before building it. A zero limit means no limit of that kind. The
// renderers of one rendering share one Budget through their Environment;
// a nil *Budget has no limits.
//
// Once a limit is passed the Budget stays spent: every later charge fails
// too, so an error that a filter or test swallows still ends the
// rendering, and Err reports it afterwards.
type Budget struct {
	MaxSteps, MaxBytes int64
	MaxDepth           int
	// Done, when set, stops the rendering once it is closed (a
	// context's Done): checked every cancelCheck steps.
	Done <-chan struct{}

	steps, bytes int64
	depth        int
	at           nodes.Node // the last node charged, for the error's position
	err          *LimitError
}

// LimitError is a rendering stopped by its Budget, at the template line
// and column of the node being evaluated (0 when unknown).
type LimitError struct {
	Limit     string // "steps", "depth", "bytes", "comparison" or "value text"
	Max       int64
	Line, Col int
}

func (e *LimitError) Error() string {
	switch e.Limit {
	case "steps":
		return fmt.Sprintf("the template does more than %d steps of work (loop iterations, calls and expressions)", e.Max)
	case "depth":
		return fmt.Sprintf("calls nest deeper than %d (macros, includes and recursive loops)", e.Max)
	case "bytes":
		return fmt.Sprintf("the template builds more than %d bytes of strings and lists", e.Max)
	case "comparison":
		return fmt.Sprintf("a comparison visits more than %d items", e.Max)
	case "canceled":
		return "the rendering was canceled"
	}
	return fmt.Sprintf("a value's text passes %d bytes", e.Max)
}

// ScopeSteps is what a loop charges for each item it reads and each
// iteration: gonja makes a new scope for each (a context, a config and an
// environment), which costs about as much as ten expressions.
const ScopeSteps = 10

// MaxCompare bounds the items one comparison visits (==, !=, in and the
// tests that compare).
const MaxCompare = 1 << 20

// MaxValueText bounds the text of one list or dict value (its printed
// form), which can be exponentially larger than the memory it takes:
// [l, l] holds l twice without copying it.
const MaxValueText = 64 << 20

func (b *Budget) fail(limit string, max int64) *LimitError {
	if b.err == nil {
		b.err = &LimitError{Limit: limit, Max: max}
		if b.at != nil {
			if t := b.at.Position(); t != nil {
				b.err.Line, b.err.Col = t.Line, t.Col
			}
		}
	}
	return b.err
}

// Stop records that the rendering passed limit (whose value is max) at
// the last node charged, as the panic of Value.String does, and returns
// the error Err will report.
func (b *Budget) Stop(limit string, max int64) error {
	if b == nil {
		return &LimitError{Limit: limit, Max: max}
	}
	return b.fail(limit, max)
}

// Step charges one step of work at node at (nil keeps the last position).
func (b *Budget) Step(at nodes.Node) error { return b.StepN(at, 1) }

// StepN charges n steps at node at.
func (b *Budget) StepN(at nodes.Node, n int64) error {
	if b == nil {
		return nil
	}
	if at != nil {
		b.at = at
	}
	if b.err != nil {
		return b.err
	}
	before := b.steps
	b.steps += n
	if b.MaxSteps > 0 && b.steps > b.MaxSteps {
		return b.fail("steps", b.MaxSteps)
	}
	if b.Done != nil && before/cancelCheck != b.steps/cancelCheck {
		select {
		case <-b.Done:
			return b.fail("canceled", 0)
		default:
		}
	}
	return nil
}

// cancelCheck is how many steps pass between looks at Done: a select
// costs about as much as a few steps.
const cancelCheck = 1024

// Grow charges n bytes about to be built. Call it before building them.
func (b *Budget) Grow(n int64) error {
	if b == nil {
		return nil
	}
	if b.err != nil {
		return b.err
	}
	if n < 0 || b.MaxBytes > 0 && n > b.MaxBytes-b.bytes {
		return b.fail("bytes", b.MaxBytes)
	}
	b.bytes += n
	return nil
}

// Enter charges one level of nesting at node at; Leave gives it back.
func (b *Budget) Enter(at nodes.Node) error {
	if b == nil {
		return nil
	}
	if err := b.Step(at); err != nil {
		return err
	}
	b.depth++
	if b.MaxDepth > 0 && b.depth > b.MaxDepth {
		return b.fail("depth", int64(b.MaxDepth))
	}
	return nil
}

// Leave ends a level that Enter began (also when Enter failed).
func (b *Budget) Leave() {
	if b != nil {
		b.depth--
	}
}

// Err is the limit the rendering passed, or nil.
func (b *Budget) Err() error {
	if b == nil || b.err == nil {
		return nil
	}
	return b.err
}

// Product is a×b, or -1 (which Grow refuses) when it overflows: the size
// of a string repeated, checked before it is built.
func Product(a, b int) int64 {
	if a < 0 || b < 0 {
		return -1
	}
	if a != 0 && int64(b) > (1<<62)/int64(a) {
		return -1
	}
	return int64(a) * int64(b)
}

// concat is left's text followed by right's, charged before it is built.
func (e *Evaluator) concat(left, right *Value) *Value {
	l, r := left.String(), right.String()
	if err := e.Environment.Budget.Grow(int64(len(l)) + int64(len(r))); err != nil {
		return AsValue(err)
	}
	return AsValue(l + r)
}

// listItemBytes is what Grow charges for an item of a list: one interface
// value.
const listItemBytes = 16

// growList charges a list of n items, built at node, as steps (one an
// item) and as bytes.
func (e *Evaluator) growList(at nodes.Node, n int) error {
	b := e.Environment.Budget
	if err := b.StepN(at, int64(n)); err != nil {
		return err
	}
	return b.Grow(Product(n, listItemBytes))
}

// TextOver reports whether v's printed text may pass limit bytes. It
// counts without printing, at most limit units of work, so that a list
// that holds itself many times over is refused before it is printed.
func TextOver(v *Value, limit int64) bool {
	left := limit
	return textOver(v.Val, &left, 2)
}

// textOver subtracts the text of v from *left, each item of a list or dict
// counted as itemCost bytes more than its text, and reports whether
// *left went below 0.
func textOver(v reflect.Value, left *int64, itemCost int64) bool {
	for v.IsValid() && (v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer) {
		if v.IsNil() {
			break
		}
		if v.Type() == typeOfValuePtr {
			v = v.Interface().(*Value).Val
			continue
		}
		v = v.Elem()
	}
	if !v.IsValid() {
		*left -= 4
		return *left < 0
	}
	switch v.Kind() {
	case reflect.String:
		*left -= int64(v.Len()) + 2
	case reflect.Slice, reflect.Array:
		*left -= 2
		for i := 0; i < v.Len() && *left >= 0; i++ {
			*left -= itemCost
			if textOver(v.Index(i), left, itemCost) {
				return true
			}
		}
	case reflect.Map:
		*left -= 2
		for it := v.MapRange(); it.Next() && *left >= 0; {
			*left -= 2 * itemCost
			if textOver(it.Key(), left, itemCost) || textOver(it.Value(), left, itemCost) {
				return true
			}
		}
	default:
		*left -= 24 // a number, a bool, or anything else Value prints short
	}
	return *left < 0
}
