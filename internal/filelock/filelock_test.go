package filelock

import (
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// counterRace has n goroutines each add one to a counter file k times
// under the lock; any overlap loses an increment.
func counterRace(t *testing.T, lockFn func(string) (func() error, error)) {
	dir := t.TempDir()
	counter := filepath.Join(dir, "n")
	const n, k = 8, 50
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range k {
				unlock, err := lockFn(filepath.Join(dir, "lock"))
				if err != nil {
					t.Error(err)
					return
				}
				b, _ := os.ReadFile(counter)
				v, _ := strconv.Atoi(string(b))
				os.WriteFile(counter, []byte(strconv.Itoa(v+1)), 0o644)
				if err := unlock(); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	b, _ := os.ReadFile(counter)
	if string(b) != strconv.Itoa(n*k) {
		t.Fatalf("counter = %s, want %d: two holders overlapped", b, n*k)
	}
}

func TestLockExcludes(t *testing.T)       { counterRace(t, Lock) }
func TestCreateLockExcludes(t *testing.T) { counterRace(t, createLock) }

func TestCreateLockStale(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lock")
	if err := os.WriteFile(path, []byte("12345\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-2 * Stale)
	if err := os.Chtimes(path, old, old); err != nil {
		t.Fatal(err)
	}
	unlock, err := createLock(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("lock file left after unlock: %v", err)
	}
}
