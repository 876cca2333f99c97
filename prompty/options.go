package prompty

import "github.com/promptfmt/promptfmt"

// Option configures Parse, Write, Render and Prepare.
type Option func(*config)

type config struct {
	nonce    string // strict mode when strict is set
	strict   bool
	slots    map[string]slot
	rendered bool                     // the input is rendered text: no front matter
	checked  []int                    // strict mode: line offsets of the boundaries that carried the nonce
	sent     *sentinels               // strict mode: around attribute values
	limits   promptfmt.TemplateLimits // Render's
	warn     func(promptfmt.Warning)  // Prepare's
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
// injection". An attribute value between the sentinels PreRender puts
// around it is read as it stands, quotes, commas and brackets included, so
// a rendered value is only ever a value. The nonce attribute is removed
// from the messages' metadata.
// The input is taken to be rendered text, so a leading "---" is content, not
// front matter.
func Strict(nonce string) Option {
	return func(c *config) { c.strict, c.rendered, c.nonce, c.sent = true, true, nonce, newSentinels(nonce) }
}

// Threads makes Parse expand thread placeholders: every occurrence of a key
// of threads (a placeholder such as "__PROMPTY_THREAD_0f3a…_history__", as
// made by ThreadPlaceholder) in a message's text is replaced by that
// thread's messages. Placeholders not in the map stay text, and keys that
// do not start with "__PROMPTY_THREAD_" are ignored.
func Threads(threads map[string][]promptfmt.Message) Option {
	return func(c *config) {
		if c.slots == nil {
			c.slots = make(map[string]slot, len(threads))
		}
		for k, t := range threads {
			c.slots[k] = slot{thread: t}
		}
	}
}

// renderedText makes Parse read src as rendered text (no front matter) and
// expand the placeholders of slots.
func renderedText(slots map[string]slot) Option {
	return func(c *config) { c.rendered, c.slots = true, slots }
}

// Limits bounds the work of rendering the template in Render and Prepare:
// its size, the text it renders, loop iterations, calls, nesting and the
// strings it builds (see promptfmt.TemplateLimits for each limit and its
// default). A template past a limit fails with an error naming it, at its
// line.
func Limits(l promptfmt.TemplateLimits) Option { return func(c *config) { c.limits = l } }

// OnWarning makes Prepare report what it leaves out without failing: a
// thread input given messages that the template never places (they would
// reach no model).
func OnWarning(f func(promptfmt.Warning)) Option { return func(c *config) { c.warn = f } }
