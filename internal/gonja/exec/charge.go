package exec

// promptfmt: this file is not in gonja. It charges filters and methods to
// the rendering's Budget: what each one costs is known from its name and
// arguments, so the few whose result can be far larger than their input
// (a width, a count, a separator repeated) are charged before they run,
// and every result is charged after.

import (
	"reflect"
	"strings"
)

// arg is the argument at position i or named name, or nil.
func arg(params *VarArgs, i int, name string) *Value {
	if params == nil {
		return nil
	}
	if i >= 0 && i < len(params.Args) {
		return params.Args[i]
	}
	if v, ok := params.KwArgs[name]; ok {
		return v
	}
	return nil
}

// intArg is arg as an int, 0 when absent or not an integer.
func intArg(params *VarArgs, i int, name string) int {
	if v := arg(params, i, name); v != nil && v.IsInteger() {
		return v.Integer()
	}
	return 0
}

// textArg is arg's text, "" when absent.
func textArg(params *VarArgs, i int, name string) string {
	if v := arg(params, i, name); v != nil && !v.IsNil() {
		return v.String()
	}
	return ""
}

// sum adds sizes, -1 (which Grow refuses) once one overflows.
func sum(sizes ...int64) int64 {
	var t int64
	for _, s := range sizes {
		if s < 0 || t > (1<<62)-s {
			return -1
		}
		t += s
	}
	return t
}

// textSize is the length of v's printed text, or -1 when it passes limit
// (measured, never printed).
func textSize(v *Value, limit int64) int64 {
	if v == nil {
		return 0
	}
	if v.IsString() {
		return int64(len(v.String()))
	}
	left := limit
	if textOver(v.Val, &left, 2) {
		return -1
	}
	return limit - left
}

// copyItemBytes is what a method call on a list or dict costs for each
// item, at every level: gonja copies the value, boxing each item again,
// and stores it back (about 240 bytes allocated an item, measured).
const copyItemBytes = 256

// copySize is the memory a deep copy of v takes, or -1 when it passes
// limit (measured, never copied).
func copySize(v *Value, limit int64) int64 {
	left := limit
	if textOver(v.Val, &left, copyItemBytes) {
		return -1
	}
	return limit - left
}

// remaining is how much text a measure may look at: what the budget has
// left, and never more than MaxValueText.
func (b *Budget) remaining() int64 {
	if b == nil || b.MaxBytes <= 0 {
		return MaxValueText
	}
	return min(b.MaxBytes-b.bytes, MaxValueText)
}

// formatBound is at most how long a printf or str.format result can be:
// the format, the arguments' text, and every number written in the format
// (a width or precision) or given as an argument (a * width).
func formatBound(format string, args []*Value, limit int64) int64 {
	total := int64(len(format))
	for i := 0; i < len(format); i++ {
		if format[i] < '0' || format[i] > '9' {
			continue
		}
		n := int64(0)
		for ; i < len(format) && format[i] >= '0' && format[i] <= '9'; i++ {
			if n = n*10 + int64(format[i]-'0'); n > limit {
				return -1
			}
		}
		total = sum(total, n)
	}
	for _, a := range args {
		if a.IsInteger() && a.Integer() > 0 {
			total = sum(total, int64(a.Integer()))
		}
		total = sum(total, textSize(a, limit))
	}
	return total
}

// filterCost is what filter name charges before it runs: the bytes it can
// build beyond a constant times its input.
func (e *Evaluator) filterCost(name string, in *Value, params *VarArgs) int64 {
	limit := e.Environment.Budget.remaining()
	switch name {
	case "center":
		return int64(max(intArg(params, 0, "width"), 0))
	case "indent":
		s := in.String()
		width := int64(max(intArg(params, 0, "width"), 0))
		if w := arg(params, 0, "width"); w != nil && w.IsString() {
			width = int64(len(w.String()))
		}
		return sum(int64(len(s)), Product(strings.Count(s, "\n")+1, int(width)))
	case "join":
		n := 0
		if in.IsIterable() {
			n = in.Len()
		}
		return sum(textSize(in, limit), Product(n, len(textArg(params, 0, "d"))))
	case "replace":
		return replaceCost(in.String(), textArg(params, 0, "old"), textArg(params, 1, "new"))
	case "format":
		return formatBound(in.String(), params.Args, limit)
	case "batch":
		if v := arg(params, 1, "fill_with"); v != nil && !v.IsNil() {
			return Product(max(intArg(params, 0, "linecount"), 0), listItemBytes)
		}
	case "slice":
		return Product(max(intArg(params, 0, "slices"), 0), 2*listItemBytes)
	case "tojson", "pprint":
		indent := 2
		if name == "tojson" {
			indent = intArg(params, -1, "indent")
		}
		// Each line of the result is indented once per level, so the
		// text is at most the value's text times (1 + indent).
		return Product(int(textSize(in, limit)), 1+max(indent, 0))
	case "list":
		if in.IsString() {
			// a list of one-character strings: an item and a string
			// header for each byte, at most
			return Product(len(in.String()), 2*listItemBytes)
		}
	}
	return 0
}

// methodCost is filterCost for a method of a string, list or dict.
func (e *Evaluator) methodCost(name string, self *Value, params *VarArgs) int64 {
	limit := e.Environment.Budget.remaining()
	if !self.IsString() {
		// gonja copies a list or dict, all of it, to call its method
		return copySize(self, limit)
	}
	s := self.String()
	switch name {
	case "center", "ljust", "rjust", "zfill":
		return sum(int64(len(s)), Product(max(intArg(params, 0, "width"), 0), 4))
	case "expandtabs":
		return sum(int64(len(s)), Product(strings.Count(s, "\t"), max(intArg(params, 1, "tabsize"), 8)))
	case "join":
		it := arg(params, 0, "iterable")
		if it == nil || !it.IsIterable() {
			return 0
		}
		return sum(textSize(it, limit), Product(it.Len(), len(s)))
	case "replace":
		return replaceCost(s, textArg(params, 0, "old"), textArg(params, 1, "new"))
	case "format", "format_map":
		args := append([]*Value(nil), params.Args...)
		for _, v := range params.KwArgs {
			args = append(args, v)
		}
		return formatBound(s, args, limit)
	}
	return 0
}

// replaceCost is the length of s with every old replaced by new; an empty
// old is replaced between every character.
func replaceCost(s, old, new string) int64 {
	n := strings.Count(s, old) // utf8.RuneCount+1 for an empty old
	if len(new) <= len(old) {
		return int64(len(s))
	}
	return sum(int64(len(s)), Product(n, len(new)-len(old)))
}

// chargeResult charges what a filter or method returned: a string's bytes,
// a list's or dict's items.
func (e *Evaluator) chargeResult(v *Value) error {
	b := e.Environment.Budget
	if b == nil || v == nil || v.IsError() {
		return nil
	}
	switch r := v.getResolvedValue(); r.Kind() {
	case reflect.String:
		return b.Grow(int64(r.Len()))
	case reflect.Slice, reflect.Array, reflect.Map:
		if err := b.StepN(nil, int64(r.Len())); err != nil {
			return err
		}
		return b.Grow(Product(r.Len(), listItemBytes))
	}
	return nil
}

// chargeInput charges the work of reading a list or dict that a filter or
// method goes through (gonja copies a list to call its methods).
func (e *Evaluator) chargeInput(v *Value) error {
	if k := v.getResolvedValue().Kind(); k == reflect.Slice || k == reflect.Array || k == reflect.Map {
		return e.Environment.Budget.StepN(nil, int64(v.getResolvedValue().Len()))
	}
	return nil
}

// chargeCall charges a filter or method before it runs (cost from
// filterCost or methodCost, and reading its input).
func (e *Evaluator) chargeCall(cost int64, in *Value) error {
	if e.Environment.Budget == nil {
		return nil
	}
	if err := e.chargeInput(in); err != nil {
		return err
	}
	return e.Environment.Budget.Grow(cost)
}
