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

// FuzzHeading: the hand-written heading matcher agrees with headingPattern.
func FuzzHeading(f *testing.F) {
	for _, s := range []string{"### @user:", "   ###\t// @a/b_1 \t", "### @ユーザー/名前", "###@x", "### @a/", "### @a:b", "    ### @a"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		role, name, disabled, ok := matchHeading(line)
		m := headingPattern.FindStringSubmatch(line)
		if ok != (m != nil) || ok && (role != m[2] || name != m[3] || disabled != (m[1] != "")) {
			t.Fatalf("%q: matchHeading = %q %q %v %v, pattern = %q", line, role, name, disabled, ok, m)
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
			v, err := promptfmt.DecodeJSON([]byte(trimSpace(m[4])))
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
