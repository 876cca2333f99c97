package promptfile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// idFile is a file complete but for its ID keys, given as lines.
func idFile(idLines string) string {
	return "---\n" + idLines + "created-at: \"2022-08-17T14:37:22Z\"\nsha1-hash: \"" + Hash(seedBody) + "\"\n---\n\n" + seedBody
}

// verdicts returns what check sees (every warning) and what verify sees
// (the failures), as "line:col: message".
func verdicts(t *testing.T, src string) (check, verify []string) {
	t.Helper()
	doc, err := Parse([]byte(src))
	require.NoError(t, err)
	for _, w := range doc.Warnings {
		check = append(check, fmt.Sprintf("%d:%d: %s", w.Line, w.Col, w.Msg))
	}
	_, verr := VerifyHeld([]byte(src))
	for _, e := range unjoin(verr) {
		var pe *promptfmt.ParseError
		require.ErrorAs(t, e, &pe)
		verify = append(verify, fmt.Sprintf("%d:%d: %s", pe.Line, pe.Col, pe.Msg))
	}
	return check, verify
}

func unjoin(err error) []error {
	if err == nil {
		return nil
	}
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// TestIDRule: the key id, alone, beside prompt-id, the same or another ID;
// check and verify report the same findings at the same places.
func TestIDRule(t *testing.T) {
	for _, tc := range []struct {
		name, lines string
		want        []string
		held        string // the ID VerifyHeld returns
	}{
		{"prompt-id", "prompt-id: \"P2\"\n", nil, "P2"},
		{"id alone", "id: \"P1\"\n", []string{`2:5: missing prompt-id: id "P1" is read in its place (the seed example's spelling); write prompt-id`}, "P1"},
		{"both, same", "prompt-id: \"P3\"\nid: \"P3\"\n", nil, "P3"},
		{"both, same number", "id: P03\nprompt-id: P3\n", nil, "P3"},
		{"both, different", "prompt-id: \"P4\"\nid: \"P5\"\n", []string{`3:5: id "P5" and prompt-id "P4" name different IDs: a prompt has one ID`}, "P4"},
		{"both, id first, different", "id: P6\nprompt-id: P7\n", []string{`2:5: id "P6" and prompt-id "P7" name different IDs: a prompt has one ID`}, "P7"},
		{"id malformed", "id: \"bad\"\n", []string{`2:5: id "bad" is malformed: want P followed by digits, such as P42`}, ""},
		{"prompt-id fine, id malformed", "prompt-id: P7\nid: bad\n", []string{`3:5: id "bad" and prompt-id "P7" name different IDs: a prompt has one ID`}, "P7"},
		{"prompt-id malformed, id fine", "prompt-id: bad\nid: P8\n", []string{
			`2:12: prompt-id "bad" is malformed: want P followed by digits, such as P42`,
			`3:5: id "P8" and prompt-id "bad" name different IDs: a prompt has one ID`}, ""},
		{"id not a string", "prompt-id: P9\nid: [P9]\n", []string{`3:5: id must be a string naming the same ID as prompt-id, or be removed`}, "P9"},
		{"id alone, not a string", "id: {n: 1}\n", []string{`2:5: id must be a string: want P followed by digits, such as P42`}, ""},
		{"neither", "generator: human\n", []string{`1:1: missing prompt-id: want P followed by digits, such as P42`}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := idFile(tc.lines)
			check, verify := verdicts(t, src)
			assert.Equal(t, tc.want, check, "check")
			assert.Equal(t, check, verify, "verify and check disagree")
			h, _ := VerifyHeld([]byte(src))
			assert.Equal(t, tc.held, h.ID)
		})
	}
}

// TestCheckVerifyAgree: over every arrangement of the ID keys and of good
// and bad values of the other mandatory keys, check's findings are
// verify's, in the same order at the same places.
func TestCheckVerifyAgree(t *testing.T) {
	idValues := []string{"", "P1", "\"P1\"", "P01", "P2", "bad", "42", "[P1]", "~", "\"\""}
	created := []string{"", "created-at: \"2022-08-17T14:37:22Z\"\n", "created-at: 2022-08-17\n", "created-at: [x]\n"}
	hashes := []string{"", "sha1-hash: " + Hash(seedBody) + "\n", "sha1-hash: " + Hash("other\n") + "\n", "sha1-hash: 7fd8e8e\n"}
	n := 0
	for _, pid := range idValues {
		for _, id := range idValues {
			for order := range 2 {
				for _, c := range created {
					for _, h := range hashes {
						var keys []string
						if pid != "" {
							keys = append(keys, "prompt-id: "+pid+"\n")
						}
						if id != "" {
							keys = append(keys, "id: "+id+"\n")
						}
						if order == 1 && len(keys) == 2 {
							keys[0], keys[1] = keys[1], keys[0]
						}
						src := "---\n" + strings.Join(keys, "") + c + h + "---\n\n" + seedBody
						check, verify := verdicts(t, src)
						require.Equal(t, check, verify, "%q", src)
						n++
					}
				}
			}
		}
	}
	t.Logf("%d files", n)
}

// FuzzCheckVerifyAgree: on any file, every verify failure is a check
// warning, and the only warnings that are not failures are about the
// file's form (a byte order mark, blanks after ---).
func FuzzCheckVerifyAgree(f *testing.F) {
	f.Add([]byte(idFile("prompt-id: P4\nid: P5\n")))
	f.Add([]byte(idFile("id: P1\n")))
	f.Add([]byte("\ufeff---  \r\nid: 1\r\nprompt-id: P1\r\n---\r\n\r\nx"))
	f.Add([]byte("---\n{id: P1, prompt-id: P2, sha1-hash: 00}\n---\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			return
		}
		var verify []string
		for _, e := range unjoin(Verify(src)) {
			verify = append(verify, e.Error())
		}
		var check []string
		for _, w := range doc.Warnings {
			if strings.HasPrefix(w.Msg, "byte order mark") || strings.HasPrefix(w.Msg, "blanks after ---") {
				continue
			}
			check = append(check, (&promptfmt.ParseError{Format: w.Format, Line: w.Line, Col: w.Col, Msg: w.Msg}).Error())
		}
		if !assert.Equal(t, check, verify) {
			t.Fatalf("%q", src)
		}
	})
}

// A file naming two IDs holds both: the store hands out neither.
func TestStoreHoldsBothIDs(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "two.prompt"), []byte(idFile("prompt-id: P1\nid: P2\n")), 0o644))
	s, err := OpenStore(dir)
	require.NoError(t, err)
	id, err := s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P3", id)
}

// Fix does not choose between two IDs: it refuses, and draws none.
func TestFixRefusesTwoIDs(t *testing.T) {
	drawn := 0
	_, _, err := Fix([]byte(idFile("prompt-id: P1\nid: P2\n")), IDFrom(func() (string, error) { drawn++; return "P9", nil }))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `promptfile:3:5: id "P2" and prompt-id "P1": which ID the prompt holds is for you to decide`)
	assert.Zero(t, drawn)
	_, _, err = Fix([]byte(idFile("prompt-id: bad\nid: P2\n")), IDFrom(func() (string, error) { drawn++; return "P9", nil }))
	require.Error(t, err)
	assert.Zero(t, drawn)
	out, _, err := Fix([]byte(idFile("prompt-id: P2\nid: P02\n")))
	require.NoError(t, err, "one ID, spelt twice")
	assert.NoError(t, Verify(out))
}

// Add stamps a converted document with the store's keys, names the file by
// its ID, says what it replaced, and spends no ID on a document it cannot
// write.
func TestStoreAdd(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	now := time.Date(2026, 11, 21, 8, 30, 0, 0, time.FixedZone("CET", 3600))
	doc := &promptfmt.Document{
		Meta:     map[string]any{"title": "x", KeyID: "P3", aliasID: "P3", KeyCreated: "yesterday", KeyHash: "00"},
		Messages: []promptfmt.Message{promptfmt.NewMessage("user", seedBody)},
	}
	path, changes, err := s.Add(doc, now)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(dir, "P1.prompt"), path)
	var done []string
	for _, c := range changes {
		done = append(done, c.Done)
	}
	assert.Equal(t, []string{`replaced prompt-id "P3" by the store's new ID`, `removed id "P3"`,
		`replaced created-at "yesterday" by the time now`, `replaced sha1-hash "00" by the body's hash`}, done)
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, Verify(src))
	assert.Equal(t, "---\nprompt-id: \"P1\"\ncreated-at: \"2026-11-21T07:30:00Z\"\nsha1-hash: \""+Hash(seedBody)+"\"\ntitle: x\n---\n\n"+seedBody, string(src))
	assert.Equal(t, "P3", doc.Meta[KeyID], "the caller's document is not changed")

	// A well-formed created-at is kept, and nothing is reported.
	doc = &promptfmt.Document{Meta: map[string]any{KeyCreated: "2022-08-17T14:37:22Z"}, Messages: []promptfmt.Message{promptfmt.NewMessage("user", "b\n")}}
	path, changes, err = s.Add(doc, now)
	require.NoError(t, err)
	assert.Empty(t, changes)
	src, _ = os.ReadFile(path)
	assert.Contains(t, string(src), "created-at: \"2022-08-17T14:37:22Z\"")

	bad := &promptfmt.Document{Messages: []promptfmt.Message{promptfmt.NewMessage("system", "b\n")}}
	_, _, err = s.Add(bad, now)
	require.Error(t, err)
	id, err := s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P3", id, "the refused document spent no ID")
}
