package promptfile

import (
	"fmt"
	"strings"
	"time"

	"github.com/promptfmt/promptfmt"
)

// config is what the options set: promptfmt's (File names the file in
// errors and warnings) and Fix's own.
type config struct {
	promptfmt.Settings
	newID  func() (string, error)
	now    time.Time // zero: the time Fix runs
	rehash bool
	// fixOnly names the Fix options given, which the other functions
	// refuse rather than ignore.
	fixOnly []string
}

func fixOption(name string, apply func(c *config)) promptfmt.Option {
	return promptfmt.NewOption(format, name, func(t any) {
		c := t.(*config)
		c.fixOnly = append(c.fixOnly, name)
		apply(c)
	})
}

// IDFrom makes Fix draw the ID of a file without a well-formed one from
// next, usually a Store's NextID. next is called at most once, and only
// when an ID is needed; without this option such a file is an error.
func IDFrom(next func() (string, error)) promptfmt.Option {
	return fixOption("promptfile.IDFrom", func(c *config) { c.newID = next })
}

// CreatedAt is the created-at Fix gives a file without a usable one (see
// Timestamp); without it, the time Fix runs.
func CreatedAt(t time.Time) promptfmt.Option {
	return fixOption("promptfile.CreatedAt", func(c *config) { c.now = t })
}

// Rehash makes Fix accept a body that does not match its hash, and replace
// the hash. Without it Fix refuses: a mismatch means the body was edited
// or corrupted, and fixing it silently would hide that.
func Rehash() promptfmt.Option {
	return fixOption("promptfile.Rehash", func(c *config) { c.rehash = true })
}

// options applies opts for the function named fn ("promptfile.Parse"),
// which takes Fix's options only when fix is set.
func options(fn string, fix bool, opts []promptfmt.Option) (*config, error) {
	c := &config{}
	if err := promptfmt.ApplyOptions(format, &c.Settings, c, opts); err != nil {
		return nil, err
	}
	if !fix && len(c.fixOnly) > 0 {
		return nil, fmt.Errorf("%s is an option of promptfile.Fix, not of %s", strings.Join(c.fixOnly, ", "), fn)
	}
	return c, nil
}

// nameFile puts the File option's name on each of errs (the failures of
// Verify, joined: Settings.Finish names only the first).
func (c *config) nameFile(errs []error) {
	if c.File == "" {
		return
	}
	for _, err := range errs {
		if pe, ok := err.(*promptfmt.ParseError); ok && pe.File == "" {
			pe.File = c.File
		}
	}
}
