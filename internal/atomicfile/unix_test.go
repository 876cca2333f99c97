//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package atomicfile

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// A temporary file a live writer still locks is kept, however old.
func TestRemoveStaleKeepsLocked(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, ".a.txt.promptfmt-77.tmp")
	write(t, name, "being written", 0o600)
	old := time.Now().Add(-2 * StaleAge)
	if err := os.Chtimes(name, old, old); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockFile(f); err != nil {
		t.Fatal(err)
	}
	if removed, err := RemoveStale(dir); err != nil || len(removed) != 0 {
		t.Fatalf("removed %q (%v) while it was locked", removed, err)
	}
	f.Close()
	if removed, err := RemoveStale(dir); err != nil || len(removed) != 1 {
		t.Fatalf("removed %q (%v) once unlocked, want it", removed, err)
	}
}

// The replaced file keeps its owner and group. Only root can give a file
// away, so elsewhere the owner is this process's and the check is the same.
func TestOwnerKept(t *testing.T) {
	name := filepath.Join(t.TempDir(), "a.txt")
	write(t, name, "x", 0o644)
	uid, gid := os.Geteuid(), os.Getegid()
	if uid == 0 {
		uid, gid = 4321, 4322
		if err := os.Chown(name, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	if err := WriteFile(name, []byte("y"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(name)
	st := fi.Sys().(*syscall.Stat_t)
	if int(st.Uid) != uid || int(st.Gid) != gid {
		t.Fatalf("owner %d:%d, want %d:%d kept", st.Uid, st.Gid, uid, gid)
	}
}
