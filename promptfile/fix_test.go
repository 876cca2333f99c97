package promptfile

import (
	"errors"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var fixNow = time.Date(2026, 11, 21, 9, 30, 0, 0, time.FixedZone("CET", 3600))

// fixOpts hands out P7 and counts how often it was asked.
func fixOpts(rehash bool, calls *int) []promptfmt.Option {
	opts := []promptfmt.Option{CreatedAt(fixNow), IDFrom(func() (string, error) {
		*calls++
		return "P7", nil
	})}
	if rehash {
		opts = append(opts, Rehash())
	}
	return opts
}

func TestFix(t *testing.T) {
	const body = "Discard all HTML tags.\n"
	sum := Hash(body)
	tests := []struct {
		name, in, want string
		rehash         bool
		changes        []string
	}{
		{name: "complete file unchanged",
			in:   promptFile(`"P1"`, `"2022-08-17T14:37:22Z"`, `"`+sum+`"`, "", body),
			want: promptFile(`"P1"`, `"2022-08-17T14:37:22Z"`, `"`+sum+`"`, "", body)},
		{name: "no front matter",
			in:   body,
			want: "---\nprompt-id: \"P7\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \"" + sum + "\"\n---\n\n" + body,
			changes: []string{"promptfile:1:1: missing prompt-id set to P7", "promptfile:1:1: missing created-at set to 2026-11-21T08:30:00Z (now)",
				"promptfile:1:1: missing sha1-hash set to the body's hash " + sum}},
		{name: "empty front matter, blank lines before the body kept",
			in:   "---\n---\n\n\n" + body,
			want: "---\nprompt-id: \"P7\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \"" + sum + "\"\n---\n\n\n" + body,
			changes: []string{"promptfile:1:1: missing prompt-id set to P7", "promptfile:1:1: missing created-at set to 2026-11-21T08:30:00Z (now)",
				"promptfile:1:1: missing sha1-hash set to the body's hash " + sum}},
		{name: "comments, other keys and their layout kept",
			in: "---\n# population 3\nprompt-id: 42 # typed by hand\nancestors:\n- P1\n-   P2\ngenerator: human   # who\n---\n" + body,
			want: "---\n# population 3\nprompt-id: \"P7\" # typed by hand\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \"" + sum +
				"\"\nancestors:\n- P1\n-   P2\ngenerator: human   # who\n---\n" + body,
			changes: []string{`promptfile:3:12: prompt-id "42" set to P7`, "promptfile:1:1: missing created-at set to 2026-11-21T08:30:00Z (now)",
				"promptfile:1:1: missing sha1-hash set to the body's hash " + sum}},
		{name: "the seed's example: id renamed, hash cut short is completed",
			in:   "---\nid: P42\ngenerated-at: 2022-08-17T14:37:22Z\nsha1-hash: " + sum[:20] + "\n---\n\n" + body,
			want: "---\nprompt-id: \"P42\"\ncreated-at: \"2026-11-21T08:30:00Z\"\ngenerated-at: 2022-08-17T14:37:22Z\nsha1-hash: \"" + sum + "\"\n---\n\n" + body,
			changes: []string{"promptfile:2:5: id renamed prompt-id", "promptfile:1:1: missing created-at set to 2026-11-21T08:30:00Z (now)",
				"promptfile:4:12: sha1-hash " + sum[:20] + ", cut short, completed as " + sum}},
		{name: "times rewritten in UTC",
			in:      promptFile("P1", "2022-08-17T16:37:22+02:00", sum, "", body),
			want:    promptFile("P1", `"2022-08-17T14:37:22Z"`, sum, "", body),
			changes: []string{`promptfile:3:13: created-at "2022-08-17T16:37:22+02:00" rewritten in UTC as 2022-08-17T14:37:22Z`}},
		{name: "a bare date is midnight",
			in:      promptFile("P1", "2022-08-17", sum, "", body),
			want:    promptFile("P1", `"2022-08-17T00:00:00Z"`, sum, "", body),
			changes: []string{`promptfile:3:13: created-at "2022-08-17" rewritten in UTC as 2022-08-17T00:00:00Z`}},
		{name: "a time that does not read is replaced",
			in:      promptFile("P1", "yesterday", sum, "", body),
			want:    promptFile("P1", `"2026-11-21T08:30:00Z"`, sum, "", body),
			changes: []string{`promptfile:3:13: created-at "yesterday" set to 2026-11-21T08:30:00Z (now)`}},
		{name: "values that are not strings",
			in:   promptFile("[1]", "{a: 1}", "~", "", body),
			want: promptFile(`"P7"`, `"2026-11-21T08:30:00Z"`, `"`+sum+`"`, "", body),
			changes: []string{"promptfile:2:12: prompt-id (not a string) set to P7", "promptfile:3:13: created-at (not a string) set to 2026-11-21T08:30:00Z (now)",
				"promptfile:4:12: sha1-hash (not a string) set to the body's hash " + sum}},
		{name: "mismatch with rehash",
			in: promptFile("P1", "2022-08-17T14:37:22Z", strings.Repeat("0", 40), "", body), rehash: true,
			want:    promptFile("P1", "2022-08-17T14:37:22Z", `"`+sum+`"`, "", body),
			changes: []string{"promptfile:4:12: sha1-hash " + strings.Repeat("0", 40) + " replaced by the body's hash " + sum + " (rehash)"}},
		{name: "CRLF and a BOM kept, the body's bytes untouched",
			in:      "\uFEFF---\r\ncreated-at: 2022-08-17T14:37:22Z\r\n---\r\n\r\nline one\r\nline two",
			want:    "\uFEFF---\r\nprompt-id: \"P7\"\r\ncreated-at: 2022-08-17T14:37:22Z\r\nsha1-hash: \"" + Hash("line one\nline two\n") + "\"\r\n---\r\n\r\nline one\r\nline two",
			changes: []string{"promptfile:1:1: missing prompt-id set to P7", "promptfile:1:1: missing sha1-hash set to the body's hash " + Hash("line one\nline two\n")}},
		{name: "a flow mapping is re-encoded",
			in:   "---\n{prompt-id: 42, generator: human}\n---\n\n" + body,
			want: "---\nprompt-id: \"P7\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \"" + sum + "\"\ngenerator: human\n---\n\n" + body,
			changes: []string{`promptfile:2:13: prompt-id "42" set to P7`, "promptfile:1:1: missing created-at set to 2026-11-21T08:30:00Z (now)",
				"promptfile:1:1: missing sha1-hash set to the body's hash " + sum}},
		{name: "a value over two lines is re-encoded, comments kept",
			in:   "---\n# who\ngenerator: human\nprompt-id: P1\ncreated-at: 2022-08-17\n  14:37:22\n---\n\n" + body,
			want: "---\nprompt-id: \"P1\"\ncreated-at: \"2026-11-21T08:30:00Z\"\nsha1-hash: \"" + sum + "\"\n# who\ngenerator: human\n---\n\n" + body,
			changes: []string{`promptfile:5:13: created-at "2022-08-17 14:37:22" set to 2026-11-21T08:30:00Z (now)`,
				"promptfile:1:1: missing sha1-hash set to the body's hash " + sum}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls := 0
			out, changes, err := Fix([]byte(tt.in), fixOpts(tt.rehash, &calls)...)
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(out))
			var got []string
			for _, c := range changes {
				got = append(got, c.String())
			}
			assert.Equal(t, tt.changes, got)
			wantCalls := 0
			if strings.Contains(tt.want, `"P7"`) {
				wantCalls = 1
			}
			assert.Equal(t, wantCalls, calls, "NewID calls")
			require.NoError(t, Verify(out), "the fixed file verifies")
			in, _ := Parse([]byte(tt.in))
			fixed, _ := Parse(out)
			assert.Equal(t, in.Messages[0].Text(), fixed.Messages[0].Text(), "body")
			again, changes, err := Fix(out, fixOpts(false, &calls)...)
			require.NoError(t, err)
			assert.Equal(t, string(out), string(again), "fixing twice")
			assert.Empty(t, changes)
		})
	}
}

func TestFixRefuses(t *testing.T) {
	const body = "Discard all HTML tags.\n"
	for name, in := range map[string]string{
		"mismatch":                   promptFile("P1", "2022-08-17T14:37:22Z", strings.Repeat("0", 40), "", body),
		"malformed, not a prefix":    promptFile("P1", "2022-08-17T14:37:22Z", "7fd8e8e70235bc6fd5c1", "", body),
		"too short to be a prefix":   promptFile("P1", "2022-08-17T14:37:22Z", Hash(body)[:6], "", body),
		"mismatch, other keys fixed": promptFile("x", "y", strings.Repeat("0", 40), "", body),
	} {
		t.Run(name, func(t *testing.T) {
			calls := 0
			_, _, err := Fix([]byte(in), fixOpts(false, &calls)...)
			var pe *promptfmt.ParseError
			require.True(t, errors.As(err, &pe), "%v", err)
			assert.Equal(t, 4, pe.Line)
			assert.Contains(t, pe.Msg, "the body was edited or corrupted")
			assert.Zero(t, calls, "a refusal spends no ID")
		})
	}
}

func TestFixErrors(t *testing.T) {
	_, _, err := Fix([]byte("---\nprompt-id: [\n---\nbody\n"))
	var pe *promptfmt.ParseError
	require.True(t, errors.As(err, &pe), "%v", err)
	_, _, err = Fix([]byte("body\n"))
	assert.ErrorContains(t, err, "promptfile.IDFrom")
	_, _, err = Fix([]byte("body\n"), IDFrom(func() (string, error) { return "", errors.New("store is locked") }))
	assert.ErrorContains(t, err, "store is locked")
}

// FuzzFix: whatever Fix returns verifies, has the same body, and is a fixed
// point; it fails only with a reason.
func FuzzFix(f *testing.F) {
	f.Add([]byte("---\n# c\nprompt-id: 42 # x\nl:\n- 1\n---\nbody"), false)
	f.Add([]byte("\ufeff---\r\nid: P1\r\ncreated-at: 2022-08-17\r\n---\r\n\r\nx\ry"), true)
	f.Add([]byte("---\n{id: P1, sha1-hash: 00}\n---\n"), true)
	f.Add([]byte("no front matter\n---\n"), false)
	f.Fuzz(func(t *testing.T, src []byte, rehash bool) {
		calls := 0
		out, _, err := Fix(src, fixOpts(rehash, &calls)...)
		if err != nil {
			return
		}
		if err := Verify(out); err != nil {
			t.Fatalf("Fix gave a file that does not verify: %v\n%q", err, out)
		}
		in, _ := Parse(src)
		fixed, _ := Parse(out)
		if in.Messages[0].Text() != fixed.Messages[0].Text() {
			t.Fatalf("Fix changed the body: %q", out)
		}
		if again, changes, err := Fix(out, fixOpts(false, &calls)...); err != nil || string(again) != string(out) || len(changes) > 0 {
			t.Fatalf("fixing again: %v, %v\n%q", err, changes, again)
		}
	})
}

// TestFixWide: front matter of 100,000 keys over a 5 MB body is fixed in
// one linear pass (yaml.v3's own decoding took minutes on it).
func TestFixWide(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\n")
	for i := range 100_000 {
		b.WriteString("k" + strconv.Itoa(i) + ": v\n")
	}
	b.WriteString("prompt-id: 42\n---\n")
	b.WriteString(strings.Repeat("body line\n", 500_000))
	calls := 0
	out, changes, err := Fix([]byte(b.String()), fixOpts(false, &calls)...)
	require.NoError(t, err)
	assert.Len(t, changes, 3)
	require.NoError(t, Verify(out))
}
