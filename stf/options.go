package stf

// Option configures Parse.
type Option func(*config)

type config struct {
	defaultRole string
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

// DefaultRole makes data lines that come before any message (or after a
// ;flush or ;raw) start a message of the given role, instead of being an
// error; ;msg without a role then also falls back to it. Upstream calls
// this option default_role.
func DefaultRole(role string) Option {
	return func(c *config) { c.defaultRole = role }
}
