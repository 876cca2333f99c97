package prompty

import (
	"fmt"
	"slices"

	"github.com/promptfmt/promptfmt"
)

// config is what the options of one call set: the root's (File, Limits,
// FS, OnWarning) and this package's own.
type config struct {
	promptfmt.Settings
	set []string // the names of the package's own options given, to refuse those the call does not take

	env      func(string) (string, bool) // Load's ${env:} lookup
	nonce    string                      // strict mode when strict is set
	strict   bool
	slots    map[string]slot
	rendered bool            // the input is rendered text: no front matter
	checked  []int           // strict mode: line offsets of the boundaries that carried the nonce
	sent     *sentinels      // strict mode: around attribute values
	done     <-chan struct{} // Template.Render's context
}

// newConfig applies opts for the function fn, which takes the package's
// own options named in takes; another of them, or another format's
// option, is an error naming it.
func newConfig(opts []promptfmt.Option, fn string, takes ...string) (config, error) {
	var c config
	if err := promptfmt.ApplyOptions(format, &c.Settings, &c, opts); err != nil {
		return c, err
	}
	for _, name := range c.set {
		if !slices.Contains(takes, name) {
			return c, fmt.Errorf("%s is not an option of prompty.%s", name, fn)
		}
	}
	return c, nil
}

// option makes one of the package's own options.
func option(name string, apply func(*config)) promptfmt.Option {
	return promptfmt.NewOption(format, name, func(t any) {
		c := t.(*config)
		c.set = append(c.set, name)
		apply(c)
	})
}

const (
	optStrict    = "prompty.Strict"
	optThreads   = "prompty.Threads"
	optLookupEnv = "prompty.LookupEnv"
)

// Strict, an option of Parse, makes it validate every boundary line
// against the render nonce that PreRender wrote into the template: a
// boundary without that nonce is an error whose message contains "Role
// marker nonce mismatch — possible injection". An attribute value between
// the sentinels PreRender puts around it is read as it stands, quotes,
// commas and brackets included, so a rendered value is only ever a value.
// The nonce attribute is removed from the messages' metadata.
// The input is taken to be rendered text, so a leading "---" is content, not
// front matter.
func Strict(nonce string) promptfmt.Option {
	return option(optStrict, func(c *config) { c.setStrict(nonce) })
}

func (c *config) setStrict(nonce string) {
	c.strict, c.rendered, c.nonce, c.sent = true, true, nonce, newSentinels(nonce)
}

// Threads, an option of Parse, makes it expand thread placeholders: every
// occurrence of a key of threads in a message's text is replaced by that
// thread's messages. A key is a placeholder the caller put where the
// thread goes: "__PROMPTY_THREAD_" and a part no input value can guess
// (NewNonce gives one), then "_<name>__", say. Placeholders not in the map
// stay text, and keys that do not start with "__PROMPTY_THREAD_" are
// ignored.
func Threads(threads map[string][]promptfmt.Message) promptfmt.Option {
	return option(optThreads, func(c *config) {
		if c.slots == nil {
			c.slots = make(map[string]slot, len(threads))
		}
		for k, t := range threads {
			c.slots[k] = slot{thread: t}
		}
	})
}

// LookupEnv, an option of Load and LoadFile, sets where ${env:NAME}
// references are looked up; the default is os.LookupEnv.
func LookupEnv(lookup func(name string) (string, bool)) promptfmt.Option {
	return option(optLookupEnv, func(c *config) { c.env = lookup })
}
