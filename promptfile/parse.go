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
func Parse(src []byte) (*promptfmt.Document, error) {
	doc, _, err := parse(src)
	return doc, err
}

// Verify reports whether src is an intact prompt file: every mandatory key
// present and well formed, and the body's hash equal to sha1-hash. It
// returns nil or the problems, each a *promptfmt.ParseError, joined.
func Verify(src []byte) error {
	_, failures, err := parse(src)
	if err != nil {
		return err
	}
	return errors.Join(failures...)
}

var (
	idPattern   = regexp.MustCompile(`^P[0-9]+$`)
	hashPattern = regexp.MustCompile(`^[0-9a-fA-F]{40}$`)
	timePattern = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$`)
)

// parse returns the document and, apart, the warnings that make the file
// fail verification.
func parse(src []byte) (*promptfmt.Document, []error, error) {
	if err := promptfmt.CheckUTF8(format, src); err != nil {
		return nil, nil, err
	}
	doc := &promptfmt.Document{}
	var failures []error
	warn := func(fatal bool, off int, msg string, args ...any) {
		w := promptfmt.Warnf(format, src, off, msg, args...)
		doc.Warnings = append(doc.Warnings, w)
		if fatal {
			failures = append(failures, &promptfmt.ParseError{Format: w.Format, Line: w.Line, Col: w.Col, Offset: w.Offset, Msg: w.Msg})
		}
	}
	start := 0
	if bytes.HasPrefix(src, []byte("\uFEFF")) {
		warn(false, 0, "byte order mark at the start of the file ignored (prompt files are written without one)")
		start = 3
	}
	body, yamlStart, yamlEnd, err := split(src, start, warn)
	if err != nil {
		return nil, nil, err
	}
	var node *yaml.Node
	if yamlStart >= 0 {
		if node, doc.Meta, err = yamlmeta.Decode(format, src, yamlStart, yamlEnd); err != nil {
			return nil, nil, err
		}
		if node != nil && keepStrings(node) {
			if doc.Meta, err = yamlmeta.DecodeNode(node); err != nil {
				return nil, nil, promptfmt.Errorf(format, src, yamlStart, "front matter: %v", err)
			}
		}
		doc.MetaNode = node
	}
	text := Canonical(string(src[body:]))
	msg := promptfmt.NewMessage("user", text)
	msg.Line, _ = promptfmt.Position(src, body)
	doc.Messages = []promptfmt.Message{msg}
	checkKeys(doc, src, start, yamlStart, node, text, warn)
	return doc, failures, nil
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
			return 0, 0, 0, promptfmt.Errorf(format, src, start, "front matter opened here is never closed with a --- line (without it the YAML would be hashed as the body)")
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

// checkKeys warns about each missing or malformed mandatory key and a body
// that does not match its hash.
func checkKeys(doc *promptfmt.Document, src []byte, start, yamlStart int, node *yaml.Node, text string, warn func(bool, int, string, ...any)) {
	at := func(key string) (int, bool) { // offset of key's value
		if node == nil {
			return start, false
		}
		top := node.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			if top.Content[i].Value == key {
				return yamlmeta.Offset(src, yamlStart, top.Content[i+1]), true
			}
		}
		return start, false
	}
	get := func(key string) (string, int, bool) {
		off, ok := at(key)
		if !ok {
			return "", off, false
		}
		s, isString := doc.Meta[key].(string)
		if !isString {
			warn(true, off, "%s must be a string", key)
			return "", off, false
		}
		return s, off, true
	}
	idKey := KeyID
	if _, ok := at(KeyID); !ok {
		if off, ok := at(aliasID); ok {
			idKey = aliasID
			warn(false, off, "id is read as prompt-id (the seed's example spelling); write prompt-id")
		}
	}
	if id, off, ok := get(idKey); ok && !idPattern.MatchString(id) {
		warn(true, off, "%s %q is malformed: want P followed by digits, such as P42", idKey, id)
	} else if _, present := at(idKey); !present {
		warn(true, off, "missing prompt-id (P followed by digits)")
	}
	if ts, off, ok := get(KeyCreated); ok {
		if _, err := time.Parse(time.RFC3339Nano, ts); err != nil || !timePattern.MatchString(ts) {
			warn(true, off, "created-at %q is malformed: want an ISO-8601 UTC time such as 2022-08-17T14:37:22Z", ts)
		}
	} else if _, present := at(KeyCreated); !present {
		warn(true, off, "missing created-at (an ISO-8601 UTC time such as 2022-08-17T14:37:22Z)")
	}
	sum := Hash(text)
	if h, off, ok := get(KeyHash); ok {
		switch {
		case !hashPattern.MatchString(h):
			warn(true, off, "sha1-hash %q is malformed: want 40 hexadecimal digits (the body's hash is %s)", h, sum)
		case strings.ToLower(h) != sum:
			warn(true, off, "the body does not match its hash: sha1-hash is %s, the body hashes to %s (the body was edited or corrupted)", strings.ToLower(h), sum)
		}
	} else if _, present := at(KeyHash); !present {
		warn(true, off, "missing sha1-hash (the body's hash is %s)", sum)
	}
}
