package pdl

import "github.com/promptfmt/promptfmt"

// name is the format's name, for its options.
const name = "pdl"

// config is what the options set: promptfmt's (File, Limits, FS,
// OnWarning) and this package's.
type config struct {
	promptfmt.Settings
	inputs   map[string]any
	lenient  bool
	maxMedia int64
	base     string          // the directory of FS relative names start from: LoadFile's file's
	done     <-chan struct{} // Template.Render's context
}

// DefaultMaxMediaSize bounds an image read by <|media(path)|>.
const DefaultMaxMediaSize = 20 << 20

func newConfig(opts []promptfmt.Option) (config, error) {
	c := config{maxMedia: DefaultMaxMediaSize, base: "."}
	err := promptfmt.ApplyOptions(name, &c.Settings, &c, opts)
	return c, err
}

// Inputs gives the template its variables, the values it is rendered with
// (ragit's tera::Context; the command's --inputs, or --context under
// ragit's name): JSON-like values (string, int64, float64, bool, nil,
// []any, map[string]any) or Go values the template engine reflects over.
func Inputs(inputs map[string]any) promptfmt.Option {
	return promptfmt.NewOption(name, "pdl.Inputs", func(t any) { t.(*config).inputs = inputs })
}

// NonStrict follows upstream's fallbacks instead of failing: a template
// error makes the unrendered source the text, content before the first
// separator is a system turn, an unknown separator is content, a bad
// schema is ignored, the last schema turn wins, a turn whose inline tokens
// fail is one text part as written, and the order of turns is not checked.
// Each fallback is recorded as a warning on the Document.
func NonStrict() promptfmt.Option {
	return promptfmt.NewOption(name, "pdl.NonStrict", func(t any) { t.(*config).lenient = true })
}

// MaxMediaSize bounds an image read by <|media(path)|> (default
// DefaultMaxMediaSize).
func MaxMediaSize(n int64) promptfmt.Option {
	return promptfmt.NewOption(name, "pdl.MaxMediaSize", func(t any) { t.(*config).maxMedia = n })
}
