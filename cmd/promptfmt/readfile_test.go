package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// readFile reads what os.ReadFile reads, and fails as it fails.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, size := range []int{0, 1, 4096, 64<<10 - 1, 64 << 10, 64<<10 + 1, 1 << 20} {
		name := filepath.Join(dir, "f")
		want := bytes.Repeat([]byte("abcdefg\n"), size/8+1)[:size]
		if err := os.WriteFile(name, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readFile(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("size %d: read %d bytes, %v", size, len(got), err)
		}
	}
	for _, name := range []string{filepath.Join(dir, "missing"), dir} {
		_, want := os.ReadFile(name)
		if _, err := readFile(name); err == nil || err.Error() != want.Error() {
			t.Errorf("readFile(%s) failed with %v, os.ReadFile with %v", name, err, want)
		}
	}
}
