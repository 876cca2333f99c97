package promptfmt

// TemplateLimits bound the work of rendering a template (a Prompty or PDL
// file): templates and the values given to them may come from strangers,
// so a rendering stops with a positioned error naming the limit it
// passed, instead of running for hours, overflowing the stack or taking
// all memory. A zero field takes its default; a negative one means no
// limit of that kind. The defaults are far above what real prompts need
// (a loop over 100,000 messages takes about three million steps) and stop
// a hostile template within a few seconds.
type TemplateLimits struct {
	// MaxOutput bounds the rendered text, in bytes (default 64 MiB).
	MaxOutput int
	// MaxSource bounds the template's source, and each file an include
	// reads, in bytes; checked before it is read (default 8 MiB).
	MaxSource int
	// MaxSteps bounds the work: every node rendered, expression
	// evaluated, loop iteration and item a loop reads is a step, and
	// each loop iteration counts ten (default 10,000,000).
	MaxSteps int64
	// MaxDepth bounds nested calls: macros, includes and recursive
	// loops (default 200).
	MaxDepth int
	// MaxBytes bounds the bytes of strings and lists the template
	// builds, text it writes included, each charged before it is built
	// (default 256 MiB).
	MaxBytes int64
}

// The default TemplateLimits.
const (
	defaultMaxOutput = 64 << 20
	defaultMaxSource = 8 << 20
	defaultMaxSteps  = 10_000_000
	defaultMaxDepth  = 200
	defaultMaxBytes  = 256 << 20
)

// Effective returns l with each zero field replaced by its default and
// each negative one by 0, meaning no limit.
func (l TemplateLimits) Effective() TemplateLimits {
	return TemplateLimits{
		MaxOutput: effective(l.MaxOutput, defaultMaxOutput),
		MaxSource: effective(l.MaxSource, defaultMaxSource),
		MaxSteps:  effective(l.MaxSteps, defaultMaxSteps),
		MaxDepth:  effective(l.MaxDepth, defaultMaxDepth),
		MaxBytes:  effective(l.MaxBytes, defaultMaxBytes),
	}
}

func effective[T int | int64](v, def T) T {
	switch {
	case v == 0:
		return def
	case v < 0:
		return 0
	}
	return v
}
