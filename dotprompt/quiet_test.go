package dotprompt

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mbleigh/raymond/lexer"
)

// A comment's blanks cost the engine's lexer n²/2 steps; quieted, a
// comment of 200,000 of them loads (40,000 took a minute and a half).
func TestQuietCommentsLoad(t *testing.T) {
	for _, src := range []string{
		"{{! " + strings.Repeat(" ", 200_000) + "x}}hi",
		"---\nmodel: m\n---\n{{!-- " + strings.Repeat("\n", 200_000) + "x --}}hi",
	} {
		tpl, err := Load([]byte(src))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := tpl.Render(context.Background(), nil)
		if err != nil || doc.Messages[0].Text() != "hi" {
			t.Errorf("%v %v", doc, err)
		}
	}
}

// A comment closed with "--~}}" ends there, as the engine's lexer reads
// it: the role marker after it is a marker, not comment.
func TestDashCommentStripClose(t *testing.T) {
	src := "{{!-- a --~}} {{role \"system\"}}x{{!-- b --}}"
	doc, err := Parse([]byte(src))
	if err != nil || doc.Messages[len(doc.Messages)-1].Role != "system" {
		t.Fatalf("%v %v", doc, err)
	}
	tpl, err := Load([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if r, err := tpl.Render(context.Background(), nil); err != nil || r.Messages[len(r.Messages)-1].Role != "system" {
		t.Errorf("%v %v", r, err)
	}
}

// quietComments changes nothing the engine reads but what comments hold:
// the same tokens at the same offsets, and in a comment no blank but
// those before its end.
func FuzzQuietComments(f *testing.F) {
	for _, s := range []string{"{{! a b }}", "{{!-- a\n b --}}x{{~! c ~}}", "{{!--}}", "{{!-- a --~}} b {{!-- c --}}", "a {{b}} {{! \t\f\r}}", "{{~!-- x --~}}", "\\{{! x}}", "{{{{raw}}}}{{! x}}{{{{/raw}}}}"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2000 {
			return // the lexer is quadratic on the input: keep it quick
		}
		watch := time.AfterFunc(5*time.Second, func() { panic(fmt.Sprintf("stuck on %q", s)) })
		defer watch.Stop()
		q := quietComments(s)
		if len(q) != len(s) {
			t.Fatalf("%q: length %d, quieted %d", s, len(s), len(q))
		}
		a, b := lexer.Collect(s), lexer.Collect(q)
		if len(a) != len(b) {
			t.Fatalf("%q: %d tokens, quieted %q %d", s, len(a), q, len(b))
		}
		for i := range a {
			if a[i].Kind != b[i].Kind || a[i].Pos != b[i].Pos || a[i].Kind != lexer.TokenComment && a[i].Val != b[i].Val {
				t.Fatalf("%q: token %d is %v, quieted (%q) %v", s, i, a[i], q, b[i])
			}
		}
	})
}
