package prapti

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/abbrev"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/values"
)

// MetaConfig is the message Metadata key under which a message's
// configuration lines are kept, as a list of objects (see ConfigLine).
const MetaConfig = "config"

// Kinds of configuration line.
const (
	KindAssignment = "assignment" // %name = literal
	KindAction     = "action"     // %name arguments
	KindInvalid    = ""           // does not split; kept, with a warning
)

// ConfigLine is one "%" line, as Parse found it and Write puts it back.
type ConfigLine struct {
	Source    string // the line as written, without its line feed
	Line      int    // 1-based source line; 0 when not read from a file
	Enabled   bool   // false for a line disabled with //
	Quoted    bool   // written inside a block quote: "> % x"
	Exclusive bool   // "!": runs only in the last message of the file
	Kind      string // KindAssignment, KindAction or KindInvalid
	Name      string // the assigned field or the action
	Value     any    // an assignment's literal, decoded from JSON
	Var       string // an assignment of var(NAME): NAME, and Value is nil
	Args      string // an action's arguments, raw
	Error     string // why a KindInvalid line, or an assignment, is not valid
	Offset    int    // where the line stood in the message text, in bytes
}

// splitParts splits the text after "%" as upstream's regular expression
// does (commandPattern in the tests, the reference): "!", blanks, a name of
// letters, digits, _, -, ., / and \, then blanks and "=" for an assignment
// (eq), or blanks or nothing for an action; rest is what follows. Written
// out because a regular expression matching a megabyte value allocates in
// proportion to it, more or less depending on what its cache holds.
func splitParts(text string) (excl bool, name string, eq bool, rest string, ok bool) {
	i := 0
	if strings.HasPrefix(text, "!") {
		excl, i = true, 1
	}
	i = skipSpace(text, i)
	j := i
	for j < len(text) {
		r, size := utf8.DecodeRuneInString(text[j:])
		if !unicode.IsLetter(r) && !unicode.IsNumber(r) && !strings.ContainsRune(`_-./\`, r) {
			break
		}
		j += size
	}
	if j == i {
		return false, "", false, "", false
	}
	name = text[i:j]
	switch k := skipSpace(text, j); {
	case k < len(text) && text[k] == '=':
		return excl, name, true, text[k+1:], true
	case k > j || j == len(text):
		return excl, name, false, text[k:], true
	}
	return false, "", false, "", false
}

// skipSpace skips regular expressions' \s (ASCII blanks) from i.
func skipSpace(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\f' || s[i] == '\r') {
		i++
	}
	return i
}

// varReference reports whether a value is var(NAME) (varPattern in the
// tests), and NAME; what follows the ")" is ignored, as upstream does.
func varReference(v string) (string, bool) {
	i := skipSpace(v, 0)
	if !strings.HasPrefix(v[i:], "var") {
		return "", false
	}
	i = skipSpace(v, i+3)
	if i >= len(v) || v[i] != '(' {
		return "", false
	}
	i = skipSpace(v, i+1)
	j := i
	for j < len(v) {
		r, size := utf8.DecodeRuneInString(v[j:])
		first := j == i
		if !(r == '_' || r < utf8.RuneSelf && unicode.IsLetter(r) || !first && (unicode.IsLetter(r) || unicode.IsNumber(r))) {
			break
		}
		j += size
	}
	if j == i {
		return "", false
	}
	if k := skipSpace(v, j); k < len(v) && v[k] == ')' {
		return v[i:j], true
	}
	return "", false
}

// splitCommand fills in c from text, the command after "%", stripped. For
// a line it sets an Error on, it returns how to fix it.
func (c *ConfigLine) splitCommand(text string) (hint string) {
	if c.splitSimple(text) {
		return ""
	}
	excl, name, eq, rest, ok := splitParts(text)
	if !ok {
		c.Kind, c.Error = KindInvalid, "not a configuration command: want %name = value or %name arguments"
		return textHint
	}
	c.Exclusive, c.Name = excl, name
	rest = trimSpace(rest)
	if !eq {
		c.Kind, c.Args = KindAction, rest
		return ""
	}
	c.Kind = KindAssignment
	switch v, isVar := varReference(rest); {
	case rest == "":
		c.Error = "an assignment without a value"
		return textHint
	case isVar:
		c.Var = v
	default:
		// jsonvalue.Decode refuses, before decoding, a value nested deeper than
		// values.MaxDepth and a number that is not finite (1e400), each
		// with the one rule's message and hint.
		value, err := jsonvalue.Decode([]byte(rest))
		var je *jsonvalue.Error
		switch {
		case errors.As(err, &je) && je.Err == nil:
			c.Error = fmt.Sprintf("the value %s: %s", excerpt(rest), je.Msg)
			return je.Hint
		case err != nil:
			c.Error = fmt.Sprintf("the value %s is not a JSON literal: %v", excerpt(rest), err)
			return textHint
		}
		c.Value = value
	}
	return ""
}

// textHint says how to keep a line that is not meant as configuration.
const textHint = `a text line that starts with "%" is written "\%"`

// excerpt is s, cut for a message (a value may be megabytes long).
func excerpt(s string) string {
	if cut, ok := abbrev.Cut(s, 60); ok {
		return cut + "…"
	}
	return s
}

// valueTooDeep reports whether the JSON text s nests arrays and objects more

// nonFinite returns values.CheckFloat's message for the first number in v
// that is not finite (1e400 decodes to +Inf), or "".
func nonFinite(v any) string {
	switch v := v.(type) {
	case float64:
		return values.CheckFloat(v)
	case []any:
		for _, x := range v {
			if msg := nonFinite(x); msg != "" {
				return msg
			}
		}
	case map[string]any:
		for _, x := range v {
			if msg := nonFinite(x); msg != "" {
				return msg
			}
		}
	}
	return ""
}

// splitSimple is splitCommand for the common lines, "name = value" with
// an ASCII name and a plain integer, or a string without escapes; it
// reports false for anything else, which the regular expression handles.
func (c *ConfigLine) splitSimple(text string) bool {
	i := 0
	for i < len(text) && (text[i] >= 'a' && text[i] <= 'z' || text[i] >= 'A' && text[i] <= 'Z' || text[i] >= '0' && text[i] <= '9' || text[i] == '_' || text[i] == '.') {
		i++
	}
	name := text[:i]
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	if name == "" || i >= len(text) || text[i] != '=' {
		return false
	}
	rest := trimSpace(text[i+1:])
	var value any
	switch {
	case len(rest) >= 2 && rest[0] == '"' && rest[len(rest)-1] == '"' && !strings.ContainsAny(rest[1:len(rest)-1], "\\\"") && plain(rest[1:len(rest)-1]):
		value = rest[1 : len(rest)-1]
	case rest != "" && rest != "-" && strings.Trim(rest, "0123456789") == "" || len(rest) > 1 && rest[0] == '-' && strings.Trim(rest[1:], "0123456789") == "":
		if len(strings.TrimLeft(rest, "-")) > 1 && strings.TrimLeft(rest, "-")[0] == '0' {
			return false // a leading zero is not JSON
		}
		n, err := strconv.ParseInt(rest, 10, 64)
		if err != nil {
			return false
		}
		value = n
	default:
		return false
	}
	c.Kind, c.Name, c.Value = KindAssignment, name, value
	return true
}

// plain reports whether s has no control characters (JSON strings cannot
// hold them unescaped).
func plain(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 {
			return false
		}
	}
	return true
}

// toMap is the line as kept in Metadata. Empty fields are left out.
func (c *ConfigLine) toMap() map[string]any {
	m := make(map[string]any, 8)
	m["source"] = c.Source
	m["enabled"] = c.Enabled
	m["offset"] = int64(c.Offset)
	switch c.Kind { // constants box without allocating
	case KindAssignment:
		m["kind"] = KindAssignment
	case KindAction:
		m["kind"] = KindAction
	default:
		m["kind"] = c.Kind
	}
	if c.Quoted {
		m["quoted"] = true
	}
	if c.Exclusive {
		m["exclusive"] = true
	}
	if c.Name != "" {
		m["name"] = c.Name
	}
	if c.Var != "" {
		m["var"] = c.Var
	}
	if c.Args != "" {
		m["args"] = c.Args
	}
	if c.Error != "" {
		m["error"] = c.Error
	}
	if c.Kind == KindAssignment && c.Var == "" && c.Error == "" {
		m["value"] = c.Value
	}
	return m
}

// fromMap reads a line kept in Metadata.
func fromMap(v any) (ConfigLine, error) {
	m, ok := v.(map[string]any)
	if !ok {
		return ConfigLine{}, fmt.Errorf("a configuration line must be an object, not %T", v)
	}
	var c ConfigLine
	str := func(k string) string { s, _ := m[k].(string); return s }
	num := func(k string) int {
		switch n := m[k].(type) {
		case int64:
			return int(n)
		case float64:
			return int(n)
		case int:
			return n
		}
		return 0
	}
	c.Source, c.Kind, c.Name, c.Var, c.Args, c.Error = str("source"), str("kind"), str("name"), str("var"), str("args"), str("error")
	c.Offset = num("offset")
	c.Enabled, _ = m["enabled"].(bool)
	c.Quoted, _ = m["quoted"].(bool)
	c.Exclusive, _ = m["exclusive"].(bool)
	c.Value = m["value"]
	if c.Source == "" {
		c.Source = c.synthesize()
	}
	return c, nil
}

// synthesize writes a line for a ConfigLine built by a program rather than
// read from a file.
func (c *ConfigLine) synthesize() string {
	var b strings.Builder
	if c.Quoted {
		b.WriteString("> ")
	}
	if !c.Enabled {
		b.WriteString("//")
	}
	b.WriteString("% ")
	if c.Exclusive {
		b.WriteString("!")
	}
	b.WriteString(c.Name)
	switch {
	case c.Kind == KindAssignment && c.Var != "":
		b.WriteString(" = var(" + c.Var + ")")
	case c.Kind == KindAssignment:
		var v bytes.Buffer
		enc := json.NewEncoder(&v)
		enc.SetEscapeHTML(false)
		enc.Encode(c.Value)
		b.WriteString(" = " + strings.TrimSuffix(v.String(), "\n"))
	case c.Args != "":
		b.WriteString(" " + c.Args)
	}
	return b.String()
}

// Config returns the configuration lines of a message, each with its
// source line when the message was read from a file (KeyLines holds it,
// under "config.N" for the Nth line: a line number is where a value was,
// not part of it, so it is not in Metadata).
func Config(m *promptfmt.Message) ([]ConfigLine, error) {
	raw, ok := m.Metadata[MetaConfig]
	if !ok {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("metadata %q must be a list of configuration lines, not %T", MetaConfig, raw)
	}
	out := make([]ConfigLine, 0, len(list))
	for i, v := range list {
		c, err := fromMap(v)
		if err != nil {
			return nil, err
		}
		c.Line = m.KeyLines[configKey(i)]
		out = append(out, c)
	}
	return out, nil
}

// configKey is the KeyLines key of a message's ith configuration line.
func configKey(i int) string {
	if i < len(configKeys) {
		return configKeys[i]
	}
	return MetaConfig + "." + strconv.Itoa(i)
}

// configKeys are the commonest configKeys, made once.
var configKeys = func() (keys [16]string) {
	for i := range keys {
		keys[i] = MetaConfig + "." + strconv.Itoa(i)
	}
	return keys
}()

// Assignments returns the assignments in effect in doc, in order: those
// of enabled lines in enabled messages (hidden ones included, as upstream
// runs them), without the invalid ones. An exclusive ("!") line counts
// only in the last message. The last assignment to a name wins, so
// application code asking "which model does this file want?" takes the
// last one named model.
func Assignments(doc *promptfmt.Document) []ConfigLine {
	var out []ConfigLine
	for i := range doc.Messages {
		m := &doc.Messages[i]
		if m.Disabled {
			continue
		}
		lines, _ := Config(m)
		for _, c := range lines {
			if c.Enabled && c.Kind == KindAssignment && c.Error == "" && (!c.Exclusive || i == len(doc.Messages)-1) {
				out = append(out, c)
			}
		}
	}
	return out
}
