package promptfile

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt/internal/growth"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func heldFileText(id string) string {
	return promptFile(id, "2022-08-17T14:37:22Z", Hash("x\n"), "", "x\n")
}

// Issue 17: once a store had drawn IDs, a file of any name holding the
// next ID in its front matter did not stop that ID being issued again.
func TestNextIDSkipsIDsHeldInFrontMatter(t *testing.T) {
	dir := t.TempDir()
	s, err := OpenStore(dir)
	require.NoError(t, err)
	for want := 1; want <= 3; want++ {
		id, err := s.NextID()
		require.NoError(t, err)
		require.Equal(t, "P"+strconv.Itoa(want), id)
	}
	put := func(name, content string) {
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644))
	}
	put("greeting.prompt", heldFileText("P4"))
	put("alias.prompt", "---\nid: P5\n---\nx\n")
	put("padded.prompt", heldFileText("P06"))
	put("elsewhere.txt", heldFileText("P7")) // not a .prompt file: holds nothing
	id, err := s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P7", id, "P4 (greeting.prompt), P5 (id: in alias.prompt) and P6 (P06) are held")

	// An edit in place, the same size, right after a draw, is seen.
	put("greeting.prompt", heldFileText("P8"))
	id, err = s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P9", id, "greeting.prompt now holds P8")

	// A symbolic link to a prompt holds the prompt's ID.
	outside := filepath.Join(t.TempDir(), "real.prompt")
	require.NoError(t, os.WriteFile(outside, []byte(heldFileText("P10")), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "linked.prompt")))
	id, err = s.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P11", id)

	// Another Store value (another process) sees the same.
	s2, err := OpenStore(dir)
	require.NoError(t, err)
	put("late.prompt", heldFileText("P12"))
	id, err = s2.NextID()
	require.NoError(t, err)
	assert.Equal(t, "P13", id)
}

// The property: whatever the files hold and wherever the counter stands,
// no ID drawn is one a .prompt file in the store holds, and none is drawn
// twice.
func TestNextIDNeverHandsOutAHeldID(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 4))
	for round := range 40 {
		dir := t.TempDir()
		held := map[string]bool{}
		for i := range rng.IntN(12) {
			id := "P" + strconv.Itoa(1+rng.IntN(30))
			held[id] = true
			name := "f" + strconv.Itoa(i) + ".prompt"
			switch rng.IntN(3) {
			case 0:
				name = id + ".prompt"
				if held[name] {
					continue
				}
				held[name] = true
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("no front matter\n"), 0o644))
				continue
			case 1:
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte("---\nid: "+id+"\n---\nx\n"), 0o644))
			default:
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(heldFileText(id)), 0o644))
			}
		}
		if rng.IntN(2) == 0 {
			require.NoError(t, os.WriteFile(filepath.Join(dir, NextIDFile), []byte(strconv.Itoa(1+rng.IntN(20))+"\n"), 0o644))
		}
		s, err := OpenStore(dir)
		require.NoError(t, err)
		drawn := map[string]bool{}
		for range 10 {
			id, err := s.NextID()
			require.NoError(t, err)
			require.False(t, held[id], "round %d: %s drawn, but a file holds it", round, id)
			require.False(t, drawn[id], "round %d: %s drawn twice", round, id)
			drawn[id] = true
		}
	}
}

// A draw reads only the files that changed since the last: drawing k IDs
// in a store of n files reads each file about once, not k times.
func TestNextIDReadsOnlyChangedFiles(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	const n = 50
	for i := range n {
		name := filepath.Join(dir, "f"+strconv.Itoa(i)+".prompt")
		require.NoError(t, os.WriteFile(name, []byte(heldFileText("P"+strconv.Itoa(100+i))), 0o644))
		require.NoError(t, os.Chtimes(name, old, old))
	}
	s, err := OpenStore(dir)
	require.NoError(t, err)
	count := func() int64 {
		before := reads.Load()
		_, err := s.NextID()
		require.NoError(t, err)
		return reads.Load() - before
	}
	assert.Equal(t, int64(n), count(), "the first draw reads every file")
	assert.Equal(t, int64(0), count(), "the second reads none: nothing changed")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "f7.prompt"), []byte(heldFileText("P999")), 0o644))
	assert.Equal(t, int64(1), count(), "an edited file is read again, alone")
}

func TestVerifyHeldAndDuplicateIDs(t *testing.T) {
	h, err := VerifyHeld([]byte(heldFileText("P4")))
	require.NoError(t, err)
	assert.Equal(t, HeldID{ID: "P4", Key: KeyID, Line: 2, Col: 12}, h)
	h, err = VerifyHeld([]byte("---\nid: P5\n---\nx\n"))
	require.Error(t, err, "the seed's id and the missing keys fail verification")
	assert.Equal(t, HeldID{ID: "P5", Key: "id", Line: 2, Col: 5}, h)
	h, _ = VerifyHeld([]byte("no front matter\n"))
	assert.Equal(t, HeldID{}, h)

	assert.Equal(t, [][]int{{0, 2, 5}, {1, 4}},
		DuplicateIDs([]string{"P4", "P7", "P4", "", "P07", "P004", "bad", "P9"}))
	assert.Nil(t, DuplicateIDs([]string{"P1", "P2", ""}))
}

// A draw in a store of n unchanged files costs O(n): it looks at each file
// (name, size, time) but reads none.
func TestNextIDGrowth(t *testing.T) {
	old := time.Now().Add(-time.Hour)
	growth.Linear(t, "bytes allocated by a draw among n prompt files", 100, func(n int) float64 {
		dir := t.TempDir()
		for i := range n {
			name := filepath.Join(dir, "f"+strconv.Itoa(i)+".prompt")
			require.NoError(t, os.WriteFile(name, []byte(heldFileText("P"+strconv.Itoa(1000+i))), 0o644))
			require.NoError(t, os.Chtimes(name, old, old))
		}
		s, err := OpenStore(dir)
		require.NoError(t, err)
		_, err = s.NextID()
		require.NoError(t, err)
		return growth.AllocBytes(func() { s.NextID() })
	})
}
