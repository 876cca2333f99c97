package stf

import "github.com/promptfmt/promptfmt"

// config is what Parse's and Write's options set: promptfmt's own (File
// names errors and warnings) and this package's.
type config struct {
	promptfmt.Settings
	defaultRole string
}

func newConfig(opts []promptfmt.Option) (config, error) {
	var c config
	err := promptfmt.ApplyOptions(format, &c.Settings, &c, opts)
	return c, err
}

// DefaultRole makes data lines that come before any message (or after a
// ;flush or ;raw) start a message of the given role, instead of being an
// error; ;msg without a role then also falls back to it. Upstream calls
// this option default_role.
func DefaultRole(role string) promptfmt.Option {
	return promptfmt.NewOption(format, "stf.DefaultRole", func(t any) { t.(*config).defaultRole = role })
}
