package prapti

import "github.com/promptfmt/promptfmt"

// config is what the options of Parse, Write and Append set: promptfmt's
// own (File names errors and warnings); Prapti has none of its own.
type config struct {
	promptfmt.Settings
}

func newConfig(opts []promptfmt.Option) (config, error) {
	var c config
	err := promptfmt.ApplyOptions(format, &c.Settings, &c, opts)
	return c, err
}
