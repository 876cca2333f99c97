package pdl

import "github.com/promptfmt/promptfmt"

// Option configures Parse, Load and Render.
type Option func(*config)

type config struct {
	inputs      map[string]any
	lenient     bool
	dir         string // media base directory
	templateDir string // include/import base directory; "" means none
	anyPath     bool
	maxMedia    int64
	limits      promptfmt.TemplateLimits
}

// DefaultMaxMediaSize bounds an image read by <|media(path)|>.
const DefaultMaxMediaSize = 20 << 20

func newConfig(opts []Option) config {
	c := config{maxMedia: DefaultMaxMediaSize}
	for _, o := range opts {
		o(&c)
	}
	return c
}

// Inputs gives the template its variables, the values it is rendered with
// (ragit's tera::Context; the command's --inputs, or --context under
// ragit's name): JSON-like values (string, int64, float64, bool, nil,
// []any, map[string]any) or Go values the template engine reflects over.
func Inputs(inputs map[string]any) Option { return func(c *config) { c.inputs = inputs } }

// NonStrict follows upstream's fallbacks instead of failing: a template
// error makes the unrendered source the text, content before the first
// separator is a system turn, an unknown separator is content, a bad
// schema is ignored, the last schema turn wins, a turn whose inline tokens
// fail is one text part as written, and the order of turns is not checked.
// Each fallback is recorded as a warning on the Document.
func NonStrict() Option { return func(c *config) { c.lenient = true } }

// Dir is the directory <|media(path)|> reads from. LoadFile sets it to
// the file's directory; without it media cannot be read.
func Dir(dir string) Option { return func(c *config) { c.dir = dir } }

// AnyMediaPath lets <|media(path)|> read any file the process can: an
// absolute path, ".." out of Dir, a link out of it. By default these are
// refused.
func AnyMediaPath() Option { return func(c *config) { c.anyPath = true } }

// MaxMediaSize bounds an image read by <|media(path)|> (default
// DefaultMaxMediaSize).
func MaxMediaSize(n int64) Option { return func(c *config) { c.maxMedia = n } }

// TemplateDir lets the template include, import and extend files inside
// dir (never outside it). Without it templates read no files.
func TemplateDir(dir string) Option { return func(c *config) { c.templateDir = dir } }

// Limits bounds the work of rendering the template: its size, the text it
// renders, loop iterations, calls, nesting and the strings it builds (see
// promptfmt.TemplateLimits for each limit and its default). A template
// past a limit fails with a positioned error naming it (with NonStrict, as
// for any template error, the file is read as written, with a warning).
func Limits(l promptfmt.TemplateLimits) Option { return func(c *config) { c.limits = l } }
