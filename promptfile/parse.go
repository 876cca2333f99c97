package promptfile

import (
	"bytes"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"regexp"
	"strings"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/promptfmt/promptfmt/internal/yamlmeta"
	"go.yaml.in/yaml/v3"
)

const format = "promptfile"

// The mandatory keys, in the order Write puts them.
const (
	KeyID      = "prompt-id"
	KeyCreated = "created-at"
	KeyHash    = "sha1-hash"
)

// aliasID is the seed example's spelling of KeyID.
const aliasID = "id"

// Canonical returns text as it is hashed: CR and CRLF become LF, and an LF
// is added when the last line has none. Empty text stays empty.
func Canonical(text string) string {
	text = lines.ToLF(text)
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	return text
}

// Hash returns the SHA-1 of the canonical form of body, in lowercase hex:
// the value of a file's sha1-hash key.
func Hash(body string) string {
	sum := sha1.Sum([]byte(Canonical(body)))
	return hex.EncodeToString(sum[:])
}

// Parse reads a prompt file. The Document's Meta is the front matter (and
// MetaNode its YAML), and its one message, of role user, holds the body
// exactly as hashed. Missing or malformed mandatory keys and a body that
// does not match its hash are warnings; see the package documentation.
// promptfmt.File names the file in the error and the warnings.
func Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	c, err := options("promptfile.Parse", false, opts)
	if err != nil {
		return nil, err
	}
	f, err := parse(src)
	if err != nil {
		return c.Finish(nil, err)
	}
	return c.Finish(f.doc, nil)
}

// Verify reports whether src is an intact prompt file: every mandatory key
// present and well formed, and the body's hash equal to sha1-hash. It
// returns nil or the problems, each a *promptfmt.ParseError, joined;
// promptfmt.File names the file in each.
func Verify(src []byte, opts ...promptfmt.Option) error {
	_, err := verify("promptfile.Verify", src, opts)
	return err
}

// verify is Verify, returning the file read for VerifyHeld.
func verify(fn string, src []byte, opts []promptfmt.Option) (*file, error) {
	c, err := options(fn, false, opts)
	if err != nil {
		return nil, err
	}
	f, err := parse(src)
	if err != nil {
		_, err = c.Finish(nil, err)
		return nil, err
	}
	c.nameFile(f.failures)
	return f, errors.Join(f.failures...)
}

// IsID reports whether id is a well-formed prompt ID: P followed by digits.
func IsID(id string) bool { return idPattern.MatchString(id) }

var (
	idPattern   = regexp.MustCompile(`^P[0-9]+$`)
	hashPattern = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	timePattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$`)
)

// file is a prompt file as read, with the offsets Fix edits at.
type file struct {
	src                []byte
	doc                *promptfmt.Document
	failures           []error // the warnings that fail verification
	start              int     // after a BOM
	yamlStart, yamlEnd int     // the front matter src[yamlStart:yamlEnd], or -1
	body               int     // where the hashed body starts
	node               *yaml.Node
	text               string // the body, canonical
	checks             [3]check
	// alias is the seed's id when prompt-id is written too (state
	// mismatch when it names another ID); else its state is missing.
	alias check
}

func parse(src []byte) (*file, error) {
	if err := diag.CheckUTF8(format, src); err != nil {
		return nil, err
	}
	f := &file{src: src, doc: &promptfmt.Document{}}
	doc := f.doc
	// Only the file's form (a BOM, blanks after ---) is warned about
	// without failing verification; every finding about the mandatory
	// keys is both (see findings), so check and verify agree on them.
	warn := func(fatal bool, off int, msg string, args ...any) {
		w := diag.Warnf(format, src, off, msg, args...)
		doc.Warnings = append(doc.Warnings, w)
		if fatal {
			f.failures = append(f.failures, &promptfmt.ParseError{Format: w.Format, Line: w.Line, Col: w.Col, Offset: w.Offset, Msg: w.Msg})
		}
	}
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		warn(false, 0, "byte order mark at the start of the file ignored (prompt files are written without one)")
		f.start = 3
	}
	var err error
	f.body, f.yamlStart, f.yamlEnd, err = split(src, f.start, warn)
	if err != nil {
		return nil, err
	}
	if f.yamlStart >= 0 {
		if f.node, doc.Meta, err = yamlmeta.Decode(format, src, f.yamlStart, f.yamlEnd); err != nil {
			return nil, err
		}
		if f.node != nil && keepStrings(f.node) {
			if doc.Meta, err = yamlmeta.DecodeNode(f.node); err != nil {
				return nil, diag.Errorf(format, src, f.yamlStart, "front matter: %v", err)
			}
		}
		doc.MetaNode = f.node
	}
	f.text = Canonical(string(src[f.body:]))
	msg := promptfmt.NewMessage("user", f.text)
	msg.Line, _ = lines.Position(src, f.body)
	doc.Messages = []promptfmt.Message{msg}
	f.checkKeys()
	for _, k := range f.findings() {
		w := diag.Warnf(format, src, k.off, "%s", k.msg)
		w.Hint = k.hint
		doc.Warnings = append(doc.Warnings, w)
		f.failures = append(f.failures, &promptfmt.ParseError{Format: w.Format, Line: w.Line, Col: w.Col, Offset: w.Offset, Msg: w.Msg, Hint: w.Hint})
	}
	return f, nil
}

// split finds the front matter: src[yamlStart:yamlEnd], or -1 when the file
// has none, and the offset where the hashed body starts.
func split(src []byte, start int, warn func(bool, int, string, ...any)) (body, yamlStart, yamlEnd int, err error) {
	sc := lines.NewScanner(src[start:])
	s, e, next, ok := sc.Next()
	if !ok || !delimiter(src[start+s:start+e], start+s, warn) {
		return skipBlank(src, start), -1, -1, nil
	}
	yamlStart = start + next
	for {
		s, e, next, ok = sc.Next()
		if !ok {
			return 0, 0, 0, diag.Errorf(format, src, start, "front matter opened here is never closed with a --- line (without it the YAML would be hashed as the body)")
		}
		if delimiter(src[start+s:start+e], start+s, warn) {
			return skipBlank(src, start+next), yamlStart, start + s, nil
		}
	}
}

// delimiter reports whether line is "---"; trailing blanks are tolerated
// with a warning.
func delimiter(line []byte, off int, warn func(bool, int, string, ...any)) bool {
	trimmed := bytes.TrimRight(line, " \t")
	if string(trimmed) != "---" {
		return false
	}
	if len(trimmed) < len(line) {
		warn(false, off+3, "blanks after --- ignored")
	}
	return true
}

// skipBlank returns the start of the first line at or after off that is
// not whitespace only.
func skipBlank(src []byte, off int) int {
	sc := lines.NewScanner(src[off:])
	for {
		s, e, _, ok := sc.Next()
		if !ok || len(bytes.TrimSpace(src[off+s:off+e])) > 0 {
			if !ok {
				return len(src)
			}
			return off + s
		}
	}
}

// keepStrings makes the mandatory keys' plain scalars strings, so that an
// all-digit hash or an unquoted time is never read as a number or a time.
// It reports whether it changed anything.
func keepStrings(root *yaml.Node) bool {
	changed := false
	top := root.Content[0]
	for i := 0; i+1 < len(top.Content); i += 2 {
		switch k, v := top.Content[i], top.Content[i+1]; k.Value {
		case KeyID, aliasID, KeyCreated, KeyHash:
			if v.Kind == yaml.ScalarNode && v.Tag != "!!str" && v.Tag != "!!null" {
				v.Tag, changed = "!!str", true
			}
		}
	}
	return changed
}

// state is what reading found of one mandatory key.
type state int

const (
	fine      state = iota
	missing         // no such key
	notString       // a map, list, or null
	malformed       // a string of the wrong shape
	mismatch        // sha1-hash: well formed, but not the body's hash; id: not prompt-id's ID
)

// check is one mandatory key as read.
type check struct {
	name       string     // the key as written: KeyID, KeyCreated, KeyHash, or aliasID
	key, value *yaml.Node // nil when missing
	text       string     // the value, when a string
	state      state
}

// checkKeys examines the mandatory keys, in Write's order, and the body's
// hash. The ID is prompt-id's; the seed example's id is read in its place
// when prompt-id is missing, and is f.alias when both are written.
func (f *file) checkKeys() {
	find := func(name string) check {
		c := check{name: name, state: missing}
		if f.node == nil {
			return c
		}
		top := f.node.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value == name {
				c.key, c.value, c.state = top.Content[i], top.Content[i+1], fine
				if s, ok := f.doc.Meta[name].(string); ok {
					c.text = s
				} else {
					c.state = notString
				}
				return c
			}
		}
		return c
	}
	f.checks[0] = find(KeyID)
	f.alias = find(aliasID)
	if f.checks[0].state == missing && f.alias.state != missing {
		f.checks[0], f.alias = f.alias, check{name: aliasID, state: missing}
	}
	f.checks[1] = find(KeyCreated)
	f.checks[2] = find(KeyHash)
	id, created, hash := &f.checks[0], &f.checks[1], &f.checks[2]
	if id.state == fine && !idPattern.MatchString(id.text) {
		id.state = malformed
	}
	if f.alias.state == fine && (id.state == fine || id.state == malformed) && !sameID(f.alias.text, id.text) {
		f.alias.state = mismatch
	}
	if created.state == fine && (!timePattern.MatchString(created.text) || !validTime(created.text)) {
		created.state = malformed
	}
	if hash.state == fine {
		switch sum := Hash(f.text); {
		case !hashPattern.MatchString(hash.text):
			hash.state = malformed
		case strings.ToLower(hash.text) != sum:
			hash.state = mismatch
		}
	}
}

// validTime reports whether s, shaped like a created-at, is a real time.
func validTime(s string) bool {
	_, err := time.Parse(time.RFC3339Nano, s)
	return err == nil
}

// sameID reports whether two spellings name one prompt: P04 is P4; text
// that is not an ID only names what it spells.
func sameID(a, b string) bool {
	m, okA := idNumber(a)
	n, okB := idNumber(b)
	if okA && okB {
		return m == n
	}
	return a == b
}

// finding is one problem with the mandatory keys: a warning when reading,
// and a failure when verifying.
type finding struct {
	off       int
	msg, hint string
}

// findings is the one rule for what the mandatory keys must be, which
// check (Parse's warnings) and verify (Verify's failures) both apply:
//   - prompt-id is the ID. The seed example's id is read in its place when
//     prompt-id is missing, but the file is then missing prompt-id, as
//     much as one without either (fix renames id; the store and verify's
//     duplicate search honour the ID it holds meanwhile).
//   - Both written: id must name the same ID (P04 is P4), or the prompt
//     has two IDs.
//   - created-at and sha1-hash as the package documentation says.
func (f *file) findings() []finding {
	const (
		fixHint    = "promptfmt promptfile fix completes what is missing (a new ID from the store, the time now, the body's hash)"
		rehashHint = "if the edit was meant, bless it: promptfmt promptfile fix -rehash FILE; else restore the body"
	)
	var out []finding
	add := func(c *check, hint, msg string, args ...any) {
		out = append(out, finding{f.offset(c), diag.Sprintf(msg, args...), hint})
	}
	sum := Hash(f.text)
	wants := [3]string{"P followed by digits, such as P42", "an ISO-8601 UTC time such as 2022-08-17T14:37:22Z", "40 hexadecimal digits; the body hashes to " + sum}
	for i := range f.checks {
		c := &f.checks[i]
		switch {
		case c.state == fine && c.name == aliasID:
			add(c, "promptfmt promptfile fix renames id to prompt-id",
				"missing prompt-id: id %q is read in its place (the seed example's spelling); write prompt-id", c.text)
		case c.state == missing:
			add(c, fixHint, "missing %s: want %s", keyNames[i], wants[i])
		case c.state == notString:
			add(c, fixHint, "%s must be a string: want %s", c.name, wants[i])
		case c.state == malformed:
			add(c, fixHint, "%s %q is malformed: want %s", c.name, c.text, wants[i])
		case c.state == mismatch:
			add(c, rehashHint, "the body does not match its hash: sha1-hash is %s, the body hashes to %s (the body was edited or corrupted)", strings.ToLower(c.text), sum)
		}
		if i == 0 {
			switch a := &f.alias; a.state {
			case notString:
				add(a, "", "id must be a string naming the same ID as prompt-id, or be removed")
			case mismatch:
				add(a, "remove the key that is wrong (prompt-id is the one the format defines)",
					"id %q and prompt-id %q name different IDs: a prompt has one ID", a.text, c.text)
			}
		}
	}
	return out
}

// offset is where a check's value is, or for a missing key the start of
// the file (line 1, column 1, even after a byte order mark).
func (f *file) offset(c *check) int {
	if c.value == nil {
		return 0
	}
	return yamlmeta.Offset(f.src, f.yamlStart, c.value)
}
