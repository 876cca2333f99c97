package prompty

import "github.com/promptfmt/promptfmt"

// Option configures Parse and Write.
type Option func(*config)

type config struct {
	nonce   string // strict mode when strict is set
	strict  bool
	threads map[string][]promptfmt.Message
}

func newConfig(opts []Option) config {
	var c config
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Strict makes Parse validate every boundary line against the render nonce
// that PreRender wrote into the template: a boundary without that nonce is an
// error whose message contains "Role marker nonce mismatch — possible
// injection". The nonce attribute is removed from the messages' metadata.
// The input is taken to be rendered text, so a leading "---" is content, not
// front matter.
func Strict(nonce string) Option {
	return func(c *config) { c.strict, c.nonce = true, nonce }
}

// Threads makes Parse expand thread placeholders: every occurrence of a key
// of threads (a placeholder such as "__PROMPTY_THREAD_0f3a…_history__", as
// made by ThreadPlaceholder) in a message's text is replaced by that
// thread's messages. Placeholders not in the map stay text, and keys that
// do not start with "__PROMPTY_THREAD_" are ignored.
func Threads(threads map[string][]promptfmt.Message) Option {
	return func(c *config) { c.threads = threads }
}
