package prapti

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// FuzzParse: no panic; whatever parses writes and reads back the same:
// Parse(Write(Parse(x))) = Parse(x).
func FuzzParse(f *testing.F) {
	filepath.WalkDir("testdata/upstream", func(path string, d os.DirEntry, err error) error {
		if src, err := os.ReadFile(path); err == nil && strings.HasSuffix(path, ".md") {
			f.Add(src)
		}
		return nil
	})
	f.Add([]byte(canonical))
	f.Add([]byte("### @user:\n```\n% a\n```\n\\% b\n> //% c\n<!--\n### @x:\n-->\n    % d\n"))
	// Python's white space trimmed, near headings, HTML blocks never
	// closed, no heading, CR line ends.
	f.Add([]byte("### @user:\n\x1c\x1fHi\u3000\n% a = 1\x1e\n###\u00a0@x:\n### @y:\u2003\n- ###\v@z\n"))
	f.Add([]byte("### @a:\n<!--\n### @b:\n"))
	f.Add([]byte("<script>\n### @a:\n</style>\n<pre>\n<style x>\n"))
	f.Add([]byte("just notes\n% a = 1\n"))
	f.Add([]byte("### @user:\r\rHello\r\r### @assistant:\r\rHi\r"))
	// Settings: a responder's, a variable's, a reference, a bad value.
	f.Add([]byte("% responders.default.model = var(m)\n% m = \"gpt-4o\"\n### @user:\n% responders.default.stop = [\"x\"]\n% temperature = \"hot\"\n% !top_p = 1\nhi\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			var pe *promptfmt.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("not a ParseError: %v", err)
			}
			return
		}
		// A parsed document always writes, even where trimming changed the
		// blocks of its text ("    ```" then a % line): see Write.
		if err := Write(io.Discard, doc); err != nil {
			t.Fatalf("a parsed document does not write: %v", err)
		}
		roundTrip(t, doc)
	})
}

// The rules as regular expressions: the reference the hand-written
// matchers are fuzzed against.
var (
	headingPattern = regexp.MustCompile(`^ {0,3}###[ \t]+(//[ \t]*)?@([\p{L}\p{N}_]+)(?:/([\p{L}\p{N}_]+))?:?[ \t]*$`)
	// commandPattern splits the text after "%" as upstream does: "!",
	// a name, then "=" for an assignment or blanks (or nothing) for an
	// action.
	commandPattern = regexp.MustCompile(`^(!)?\s*([\p{L}\p{N}_\-./\\]+)(?:\s*(=)|\s+|$)(.*)$`)
	varPattern     = regexp.MustCompile(`^\s*var\s*\(\s*([A-Za-z_][\p{L}\p{N}_]*)\s*\)`)
	configPattern  = regexp.MustCompile(`^ {0,3}(>[ \t]*)?(//[ \t]*)?%(.*)$`)
)

// pythonSpace is the white space of Python's str.isspace, which upstream's
// str.strip trims and its regular expressions' \s matches, as Python 3.11
// lists it: [c for c in map(chr, range(0x110000)) if c.isspace()].
const pythonSpace = "\t\n\v\f\r\x1c\x1d\x1e\x1f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000"

// looseHeadingPattern is upstream's heading pattern, its \s Python's.
var looseHeadingPattern = regexp.MustCompile(`^ {0,3}###[` + pythonSpace + `]+(//)?[` + pythonSpace + `]*@([\p{L}\p{N}_]+)(?:/([\p{L}\p{N}_]+))?:?[` + pythonSpace + `]*$`)

// FuzzHeading: the hand-written heading matcher agrees with headingPattern,
// the near-heading one with looseHeadingPattern, and trimSpace trims
// pythonSpace.
func FuzzHeading(f *testing.F) {
	for _, s := range []string{"### @user:", "   ###\t// @a/b_1 \t", "### @ユーザー/名前", "###@x", "### @a/", "### @a:b", "    ### @a",
		"###\u00a0@user:", "### @user:\u2003", "###\x1c//\u3000@x", "\u00a0### @a", "###\u200b@a", "\x1f a \x85"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		role, name, disabled, ok := matchHeading(line)
		m := headingPattern.FindStringSubmatch(line)
		if ok != (m != nil) || ok && (role != m[2] || name != m[3] || disabled != (m[1] != "")) {
			t.Fatalf("%q: matchHeading = %q %q %v %v, pattern = %q", line, role, name, disabled, ok, m)
		}
		if !utf8.ValidString(line) || strings.Contains(line, "\n") {
			return // Parse refuses invalid UTF-8, and a heading is one line
		}
		odd := oddSpaceHeading(line)
		if near := looseHeadingPattern.MatchString(line) && !ok; near != (odd >= 0) || near && strings.ContainsRune(" \t", rune(line[odd])) {
			t.Fatalf("%q: oddSpaceHeading = %d, pattern %v", line, odd, near)
		}
		if got, want := trimSpace(line), strings.Trim(line, pythonSpace); got != want {
			t.Fatalf("%q: trimSpace = %q, want %q", line, got, want)
		}
	})
}

// FuzzSplitCommand: the fast path agrees with the general split, and the
// hand-written configuration matcher with configPattern.
func FuzzSplitCommand(f *testing.F) {
	for _, s := range []string{`model = "gpt-4"`, "n = 3", "n = -0", "n = 007", `s = "a\"b"`, "x.y_z = 99999999999999999999", "!a.b-c/d\\e = 1", "ä1 x", "x", "x\t", "x =", "= 3", "%x", " var ( _a1 ) x", "var(ab", "var(1)", "var(é)", "var(aé)", "> //% a", "   %b", "\t% c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) || strings.ContainsAny(text, "\r\n") {
			return // Parse refuses invalid UTF-8, and a command is one line
		}
		var fast, slow ConfigLine
		if fast.splitSimple(text) {
			m := commandPattern.FindStringSubmatch(text)
			if m == nil {
				t.Fatalf("%q: fast path accepted what the pattern refuses", text)
			}
			slow.Exclusive, slow.Name, slow.Kind = m[1] == "!", m[2], KindAssignment
			v, err := jsonvalue.Decode([]byte(trimSpace(m[4])))
			if m[3] == "" || err != nil || v != fast.Value || slow.Name != fast.Name || slow.Exclusive {
				t.Fatalf("%q: fast %+v, general %q %v %v", text, fast, m, v, err)
			}
		}
		excl, name, eq, rest, ok := splitParts(text)
		if m := commandPattern.FindStringSubmatch(text); ok != (m != nil) || ok && (excl != (m[1] == "!") || name != m[2] || eq != (m[3] == "=") || rest != m[4]) {
			t.Fatalf("%q: splitParts = %v %q %v %q %v, pattern = %q", text, excl, name, eq, rest, ok, m)
		}
		v, isVar := varReference(text)
		if m := varPattern.FindStringSubmatch(text); isVar != (m != nil) || isVar && v != m[1] {
			t.Fatalf("%q: varReference = %q %v, pattern = %q", text, v, isVar, m)
		}
		q, d, cmd, ok := matchConfig(text)
		m := configPattern.FindStringSubmatch(text)
		if ok != (m != nil) || ok && (q != (m[1] != "") || d != (m[2] != "") || cmd != m[3]) {
			t.Fatalf("%q: matchConfig = %v %v %q %v, pattern = %q", text, q, d, cmd, ok, m)
		}
	})
}

// FuzzWrite: whatever document Write accepts reads back the same, though
// it is not parsed again whole when every message passes Write's own
// checks: texts of any bytes (CR, other line breaks, invalid UTF-8),
// configuration lines whose source says something other than their
// fields, in any message.
func FuzzWrite(f *testing.F) {
	f.Add("line\r\nbreak", "% a = 1", "a", int64(2), 0, true)
	f.Add("plain text", "% model = \"x\"", "model", int64(0), 0, false)
	f.Add("x\u2028y", "%a=1", "a", int64(1), 0, true)
	f.Add("\uFEFFhead", "% a = 1\r", "a", int64(1), 0, true)
	f.Add("```\ncode", "% b", "b", int64(0), 5, true)
	f.Fuzz(func(t *testing.T, text, source, name string, value int64, offset int, head bool) {
		c := map[string]any{"source": source, "enabled": true, "kind": KindAssignment, "name": name, "value": value, "offset": int64(offset)}
		role := "user"
		if head {
			role = HeadRole
		}
		doc := &promptfmt.Document{Messages: []promptfmt.Message{
			{Role: role, Content: []promptfmt.ContentPart{promptfmt.Text(text)}, Metadata: map[string]any{MetaConfig: []any{c}}},
			promptfmt.NewMessage("assistant", text),
		}}
		var out strings.Builder
		if err := Write(&out, doc); err != nil {
			return // refused: nothing written
		}
		back, err := Parse([]byte(out.String()))
		if err != nil {
			t.Fatalf("Write wrote what does not parse: %v\n%q", err, out.String())
		}
		if !promptfmt.EqualMessages(withoutLines(doc.Messages), withoutLines(back.Messages)) {
			t.Fatalf("Write wrote what reads back otherwise:\n%q", out.String())
		}
	})
}
