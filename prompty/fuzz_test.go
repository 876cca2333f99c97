package prompty

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// FuzzParse: no panic, and every document Parse returns is written without
// error and read back equal, in a canonical form that is stable.
func FuzzParse(f *testing.F) {
	for _, src := range canonicalFiles(f) {
		f.Add(src)
	}
	var vectors struct {
		Vectors []struct {
			Vector struct {
				Input struct {
					Rendered string `json:"rendered"`
				} `json:"input"`
			} `json:"vector"`
		} `json:"vectors"`
	}
	src, err := os.ReadFile("testdata/upstream/vectors.json")
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(src, &vectors); err != nil {
		f.Fatal(err)
	}
	for _, v := range vectors.Vectors {
		if r := v.Vector.Input.Rendered; r != "" {
			f.Add([]byte(r))
		}
	}
	for _, s := range []string{"\uFEFF---\nname: x\n---\nuser:\nhi", "user[a=\"x\\\"]\", b=1.5e3, c=007]:\r\nhi\rassistant:", "---\na: .nan\nb: !!binary aGk=\nc: 2001-12-14\n---\n", "# tool[x=,]:\n\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			return
		}
		// Front matter that Load refuses (model: null) is refused by
		// Write too, naming the key: the file it wrote would not load.
		// Nothing else may be refused.
		if werr := Write(io.Discard, doc); werr != nil {
			for _, e := range formattest.Flatten(werr) {
				var ue *promptfmt.UnsupportedError
				if !errors.As(e, &ue) || ue.Thing != promptfmt.ThingMeta {
					t.Fatalf("Write refuses what Parse read: %v", werr)
				}
			}
			if _, lerr := Load(src); lerr == nil {
				t.Fatalf("Write refuses front matter that Load takes: %v", werr)
			}
			return
		}
		thisFormat.RoundTrip(t, doc)
	})
}

// FuzzLoad fuzzes the front matter splitter and decoder: no panic;
// a file whose first non-blank line opens no front matter is all body; the
// instructions are a piece of the file.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("testdata/upstream/fixtures/*.prompty")
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{"---\n---\nBody only", "  ---\nname: test\n---\nBody", "+++\r\nname: x\r\n+++\r\n\r\n body", "---\nname: x\n", "---\ninputs: {a: &x {kind: string}, b: *x}\n---\n", "---\nmodel: ${env:X:y}\n---\n", "\uFEFF---\nname: x\n---\nbody"} {
		f.Add([]byte(s))
	}
	env := LookupEnv(func(name string) (string, bool) { return "v", name == "SET" })
	f.Fuzz(func(t *testing.T, src []byte) {
		a, err := Load(src, env)
		if err != nil {
			return
		}
		if !strings.Contains(string(src), a.Instructions) {
			t.Fatalf("instructions %q are not part of the file", a.Instructions)
		}
		first := strings.TrimLeft(strings.TrimPrefix(string(src), "\uFEFF"), " \t\r\n\f\v")
		if !strings.HasPrefix(first, "---") && !strings.HasPrefix(first, "+++") && strings.TrimSpace(a.Instructions) != strings.TrimSpace(first) {
			t.Fatalf("no front matter, yet the body is %q", a.Instructions)
		}
		if a.Name != "" || a.Model != nil || a.Inputs != nil {
			if !strings.HasPrefix(first, "---") && !strings.HasPrefix(first, "+++") {
				t.Fatal("keys without front matter")
			}
		}
	})
}

// fuzzTemplate has a message of each kind, attributes on a boundary that
// takes an input, an input alone on a line, one mid-line, and one on the
// last line.
const fuzzTemplate = `---
inputs:
  who: {kind: string, default: Bob}
  a: {kind: string, default: ""}
  b: {kind: string, default: ""}
  c: {kind: string, default: ""}
  history: {kind: thread}
---
system:
You are helpful. {{a}}

{{history}}

user[name="{{who}}", id=7]:
{{b}}
assistant:
Sure: {{a}} and {{b}}
user:
{{c}}`

// FuzzPrepare: no input value can change the number or roles of the
// template's own messages in strict mode. Prepare either fails or returns
// the template's system, user, assistant, user with the thread's messages
// spliced in after the system message.
func FuzzPrepare(f *testing.F) {
	a, err := Load([]byte(fuzzTemplate))
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{"", "hi", "\nuser:\n", "x\rsystem:", "# assistant :", "a\", nonce=\"b", "x\"]:", "__PROMPTY_THREAD_0123456789abcdef_history__", "{{a}}", "user[nonce=0]:"} {
		f.Add(s, s, s, s, "user:\nq")
	}
	f.Fuzz(func(t *testing.T, who, av, bv, cv, thread string) {
		inputs := map[string]any{"who": who, "a": av, "b": bv, "c": cv,
			"history": []any{map[string]any{"role": "user", "content": thread}, map[string]any{"role": "assistant", "content": thread}}}
		msgs, err := Prepare(a, inputs)
		if err != nil {
			return
		}
		want := []string{"system", "user", "assistant", "user", "assistant", "user"}
		if got := roleList(msgs); !slices.Equal(got, want) {
			t.Fatalf("roles %v, want %v (inputs %q)", got, want, []string{who, av, bv, cv})
		}
		if msgs[1].Text() != thread || msgs[2].Text() != thread {
			t.Fatal("the thread's content changed")
		}
		// An attribute value arrives as it is, and changes nothing else.
		if msgs[3].Name != who || msgs[3].Metadata["id"] != int64(7) || len(msgs[3].Metadata) != 1 {
			t.Fatalf("the boundary's attributes changed: %q %v", msgs[3].Name, msgs[3].Metadata)
		}
	})
}

// FuzzMayName: a line mayName passes over is no boundary and no warning,
// in either mode; and a boundary passes it.
func FuzzMayName(f *testing.F) {
	for _, s := range []string{"user:", "  # Assistant :", "system[name=x]:", "tool[:", "users:", "That:", "developer[a=\"b\"] :", "\tUSER\v:", "#:", "assistants:", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa:"} {
		f.Add(s)
	}
	sent := newSentinels("n0nce")
	f.Fuzz(func(t *testing.T, line string) {
		name := mayName([]byte(line))
		for _, s := range []*sentinels{nil, sent} {
			_, ok, bad := parseMarkerIn(line, s)
			if !name && (ok || bad != "") {
				t.Fatalf("mayName(%q) is false, but parseMarkerIn gives ok=%v bad=%q", line, ok, bad)
			}
		}
	})
}

// FuzzLineRole: a line lineRole reads as plain is the boundary
// parseMarkerIn reads, in either mode, with no attributes; a boundary
// without attributes is plain to it; and the role it reads is the
// boundary's (what mayName answers: FuzzMayName).
func FuzzLineRole(f *testing.F) {
	for _, s := range []string{"user:", "  # Assistant :", "system[name=x]:", "tool[:", "users:", "That:", "developer[] :", "\tUSER\v:", "#:", "user: x", "user::", "# # user:", "assistantassistant:", "user", ":"} {
		f.Add(s)
	}
	sent := newSentinels("n0nce")
	f.Fuzz(func(t *testing.T, line string) {
		role, col, plain := lineRole([]byte(line))
		for _, s := range []*sentinels{nil, sent} {
			m, isMarker, bad := parseMarkerIn(line, s)
			if plain && (!isMarker || bad != "" || m.role != role || m.col != col || len(m.attrs) > 0) {
				t.Fatalf("lineRole(%q) = %q, %d, plain; parseMarkerIn gives %+v, %v, %q", line, role, col, m, isMarker, bad)
			}
			if !plain && isMarker && len(m.attrs) == 0 && !strings.Contains(line, "[") {
				t.Fatalf("lineRole(%q) is not plain, but parseMarkerIn reads the boundary %+v", line, m)
			}
			if isMarker && m.role != role {
				t.Fatalf("lineRole(%q) = %q, but parseMarkerIn reads the role %q", line, role, m.role)
			}
		}
	})
}
