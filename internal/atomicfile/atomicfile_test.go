package atomicfile

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

func write(t *testing.T, name, data string, perm os.FileMode) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(name, perm); err != nil {
		t.Fatal(err)
	}
}

func content(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// entries lists dir, to show that no temporary file is left behind.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteFile(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	if err := WriteFile(name, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(name); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new file: %v %v, want mode 0600", fi, err)
	}
	if err := os.Chmod(name, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := WriteFile(name, []byte("two"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(name)
	fi, _ := os.Stat(name)
	if string(got) != "two" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("replaced file: %q mode %v, want \"two\" mode 0640 (kept)", got, fi.Mode().Perm())
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("directory holds %q, want only the file (no temporary left)", got)
	}
}

func TestWriteFileMissingDir(t *testing.T) {
	name := filepath.Join(t.TempDir(), "no", "a.txt")
	err := WriteFile(name, nil, 0o644)
	if err == nil {
		t.Fatal("writing into a missing directory succeeded")
	}
	if !strings.HasPrefix(err.Error(), name+": cannot write: ") || strings.Contains(err.Error(), tempInfix) {
		t.Fatalf("error %q: want it to name %s, not the temporary file", err, name)
	}
}

// A symbolic link is written through: the file it leads to changes, in
// its own directory, and the link stays a link. Before the policy the
// rename replaced the link by a regular file and left the target as it was.
func TestWriteThroughSymlink(t *testing.T) {
	root := t.TempDir()
	targetDir, linkDir := filepath.Join(root, "target"), filepath.Join(root, "links")
	for _, d := range []string{targetDir, linkDir} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	target := filepath.Join(targetDir, "real.txt")
	write(t, target, "old", 0o640)
	link := filepath.Join(linkDir, "link.txt")
	chain := filepath.Join(linkDir, "chain.txt") // a link to the link
	if err := os.Symlink("../target/real.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("link.txt", chain); err != nil {
		t.Fatal(err)
	}
	for i, name := range []string{link, chain} {
		want := []string{"via link", "via chain"}[i]
		if err := WriteFile(name, []byte(want), 0o600); err != nil {
			t.Fatal(err)
		}
		if got := content(t, target); got != want {
			t.Fatalf("writing %s: target holds %q, want %q", name, got, want)
		}
		if li, err := os.Lstat(name); err != nil || li.Mode()&fs.ModeSymlink == 0 {
			t.Fatalf("writing %s replaced the link: %v %v", name, li.Mode(), err)
		}
	}
	if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o640 {
		t.Fatalf("target mode %v, want 0640 kept", fi.Mode().Perm())
	}
	if got := entries(t, linkDir); len(got) != 2 {
		t.Fatalf("links directory holds %q, want the two links only", got)
	}
	if got := entries(t, targetDir); len(got) != 1 {
		t.Fatalf("target directory holds %q, want the target only", got)
	}
}

func TestDanglingSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("missing.txt", link); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(link, []byte("x"), 0o644)
	if !errors.Is(err, ErrDanglingLink) {
		t.Fatalf("err = %v, want ErrDanglingLink", err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "missing.txt")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("the link's missing target was created")
	}
}

// A read-only file is refused, by the mode check itself: the rename would
// replace it, and root (which CI may run as) may write it anyway.
func TestReadOnlyRefused(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "ro.txt")
	write(t, name, "keep", 0o444)
	link := filepath.Join(dir, "link.txt")
	if err := os.Symlink("ro.txt", link); err != nil {
		t.Fatal(err)
	}
	for _, via := range []string{name, link} {
		err := WriteFile(via, []byte("changed"), 0o644)
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrReadOnly) || !e.Forcible() || e.Path != via {
			t.Fatalf("writing %s: err = %v, want a forcible *Error naming it, read-only", via, err)
		}
		if via == name && err.Error() != name+": cannot write: read-only" {
			t.Fatalf("message %q", err)
		}
		if got := content(t, name); got != "keep" {
			t.Fatalf("refused write changed the file to %q", got)
		}
	}
	if err := Write(link, []byte("forced"), Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(name)
	if got := content(t, name); got != "forced" || fi.Mode().Perm() != 0o444 {
		t.Fatalf("forced write: %q mode %v, want \"forced\", mode 0444 kept", got, fi.Mode().Perm())
	}
}

func TestWritableModes(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		perm os.FileMode
		want bool
	}{{0o644, true}, {0o600, true}, {0o444, false}, {0o400, false}, {0o000, false}} {
		name := filepath.Join(dir, "f")
		write(t, name, "", c.perm)
		fi, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := writable(fi); got != c.want {
			t.Errorf("writable(mode %v) = %v, want %v", c.perm, got, c.want)
		}
		os.Remove(name)
	}
}

func TestHardLinksRefused(t *testing.T) {
	dir := t.TempDir()
	name, other := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	write(t, name, "shared", 0o644)
	if err := os.Link(name, other); err != nil {
		t.Fatal(err)
	}
	err := WriteFile(name, []byte("new"), 0o644)
	if runtime.GOOS != "windows" && !errors.Is(err, ErrHardLinks) {
		t.Fatalf("err = %v, want ErrHardLinks", err)
	}
	if err := Write(name, []byte("new"), Options{Force: true}); err != nil {
		t.Fatal(err)
	}
	if content(t, name) != "new" || content(t, other) != "shared" {
		t.Fatal("forced write: want the name rewritten and the other link as it was")
	}
}

func TestNotRegularRefused(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(sub, []byte("x"), Options{Force: true}); !errors.Is(err, ErrNotRegular) {
		t.Fatalf("err = %v, want ErrNotRegular", err)
	}
	if fi, err := os.Stat(sub); err != nil || !fi.IsDir() {
		t.Fatal("the directory was replaced")
	}
}

// A write that fails at its last step leaves the file as it was, leaves no
// temporary file, and its error names the file, not the temporary one.
func TestFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.txt")
	write(t, name, "original", 0o640)
	var tmpName string
	beforeRename = func(tmp string) error {
		tmpName = tmp
		return syscall.ENOSPC
	}
	defer func() { beforeRename = nil }()
	err := WriteFile(name, []byte("replacement"), 0o644)
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("err = %v, want the injected failure", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, name+": cannot write: ") || strings.Contains(msg, filepath.Base(tmpName)) {
		t.Fatalf("message %q: want it to name %s and not %s", msg, name, tmpName)
	}
	fi, _ := os.Stat(name)
	if got := content(t, name); got != "original" || fi.Mode().Perm() != 0o640 {
		t.Fatalf("after a failed write the file holds %q, mode %v", got, fi.Mode().Perm())
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("directory holds %q, want only the file", got)
	}
	// The temporary file was named by the pattern RemoveStale removes.
	if !staleName.MatchString(filepath.Base(tmpName)) || !strings.HasPrefix(filepath.Base(tmpName), ".a.txt"+tempInfix) {
		t.Fatalf("temporary file %s does not follow the pattern", tmpName)
	}
}

// Stale temporary files of exactly this package's pattern are removed
// before the first write in their directory; anything else stays.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * StaleAge)
	files := map[string]bool{ // name: removed
		".a.txt.promptfmt-123.tmp":  true,
		".b.md.promptfmt-9.tmp":     true,
		".young.promptfmt-1.tmp":    false, // a live writer's, perhaps
		".a.txt.tmp123":             false, // not ours
		"a.promptfmt-1.tmp":         false, // no dot
		".a.txt.promptfmt-12x.tmp":  false,
		".a.txt.promptfmt-123.tmpx": false,
		"keep.txt":                  false,
	}
	for name := range files {
		p := filepath.Join(dir, name)
		write(t, p, "x", 0o644)
		if name != ".young.promptfmt-1.tmp" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := WriteFile(filepath.Join(dir, "new.txt"), []byte("n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, removed := range files {
		_, err := os.Stat(filepath.Join(dir, name))
		if gone := errors.Is(err, fs.ErrNotExist); gone != removed {
			t.Errorf("%s: removed = %v, want %v", name, gone, removed)
		}
	}
}

// The policy as a property: over random kinds of file (new, regular,
// symbolic link, chain of links, dangling link, directory), modes, hard
// links, force and injected failures, a write either puts data in the file
// the name leads to, keeping links and mode, or fails with an *Error naming
// the name and leaves every file byte-identical; and no temporary file is
// ever left behind.
func TestWriteProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 17))
	defer func() { beforeRename = nil }()
	for round := range 300 {
		dir := t.TempDir()
		kind := rng.IntN(6)
		perm := []os.FileMode{0o644, 0o600, 0o444, 0o400}[rng.IntN(4)]
		force, inject, hardLink := rng.IntN(2) == 0, rng.IntN(5) == 0, rng.IntN(4) == 0
		target := filepath.Join(dir, "t.txt")
		name := target
		if kind != 0 && kind != 5 {
			write(t, target, "before", perm)
			if hardLink {
				require(t, os.Link(target, filepath.Join(dir, "hard.txt")))
			}
		}
		switch kind {
		case 2:
			name = filepath.Join(dir, "link.txt")
			require(t, os.Symlink("t.txt", name))
		case 3:
			name = filepath.Join(dir, "chain.txt")
			require(t, os.Symlink("t.txt", filepath.Join(dir, "link.txt")))
			require(t, os.Symlink("link.txt", name))
		case 4:
			name = filepath.Join(dir, "dangling.txt")
			require(t, os.Symlink("missing.txt", name))
		case 5:
			require(t, os.Mkdir(target, 0o755))
		}
		before := snapshot(t, dir)
		beforeRename = nil
		if inject {
			beforeRename = func(string) error { return syscall.EIO }
		}
		err := Write(name, []byte("after"), Options{Perm: 0o640, Force: force})
		after := snapshot(t, dir)
		for n := range after {
			if strings.Contains(n, tempInfix) {
				t.Fatalf("round %d: temporary file %s left", round, n)
			}
		}
		wantFail := inject || kind == 4 || kind == 5 ||
			(kind != 0 && !force && (perm&0o200 == 0 || hardLink && runtime.GOOS != "windows"))
		if wantFail {
			var e *Error
			if !errors.As(err, &e) || e.Path != name || !strings.HasPrefix(err.Error(), name+": cannot write") {
				t.Fatalf("round %d (kind %d, perm %v, force %v, inject %v, hard %v): err = %v, want an *Error naming %s", round, kind, perm, force, inject, hardLink, err, name)
			}
			if !maps.Equal(before, after) {
				t.Fatalf("round %d: a failed write changed the directory:\n%v\n%v", round, before, after)
			}
			continue
		}
		if err != nil {
			t.Fatalf("round %d (kind %d, perm %v, force %v, hard %v): %v", round, kind, perm, force, hardLink, err)
		}
		for n, v := range before {
			switch {
			case n == "t.txt":
				want := fmt.Sprintf("file %v after", perm)
				if kind == 0 {
					t.Fatal("t.txt existed before a new write")
				}
				if after[n] != want {
					t.Fatalf("round %d: t.txt is %q, want %q", round, after[n], want)
				}
			case after[n] != v:
				t.Fatalf("round %d: %s changed from %q to %q", round, n, v, after[n])
			}
		}
		if kind == 0 && after["t.txt"] != "file -rw-r----- after" {
			t.Fatalf("round %d: new file is %q", round, after["t.txt"])
		}
	}
}

func require(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// snapshot describes every entry of dir: a link's target, a file's mode
// and contents.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, n := range entries(t, dir) {
		p := filepath.Join(dir, n)
		li, err := os.Lstat(p)
		require(t, err)
		switch {
		case li.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			out[n] = "link " + target
		case li.IsDir():
			out[n] = "dir"
		default:
			b, _ := os.ReadFile(p)
			out[n] = fmt.Sprintf("file %v %s", li.Mode().Perm(), b)
		}
	}
	return out
}

// A file written as a stream: nothing changes until Commit; Close without
// Commit leaves the file as it was and no temporary file behind; the
// policy's refusals come from Create, before anything is written.
func TestCreateStream(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "data.jsonl")
	write(t, name, "old\n", 0o640)

	f, err := Create(name, Options{Perm: 0o600})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"one\n", "two\n"} {
		if _, err := f.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	if got := content(t, name); got != "old\n" {
		t.Fatalf("before Commit the file is %q, want it as it was", got)
	}
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := content(t, name); got != "one\ntwo\n" {
		t.Fatalf("after Commit: %q", got)
	}
	if fi, _ := os.Stat(name); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
	if _, err := f.Write([]byte("late")); err == nil {
		t.Error("Write after Commit succeeded")
	}
	if err := f.Close(); err != nil {
		t.Error(err)
	}

	f, err = Create(name, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("dropped")); err != nil {
		t.Fatal(err)
	}
	f.Close()
	f.Close() // twice is harmless
	if got := content(t, name); got != "one\ntwo\n" {
		t.Fatalf("Close without Commit changed the file: %q", got)
	}
	if got := entries(t, dir); len(got) != 1 {
		t.Fatalf("left behind: %v", got)
	}
	if err := f.Commit(); err == nil {
		t.Error("Commit after Close succeeded")
	}

	if runtime.GOOS != "windows" && os.Getuid() != 0 {
		if err := os.Chmod(name, 0o444); err != nil {
			t.Fatal(err)
		}
		_, err = Create(name, Options{})
		var e *Error
		if !errors.As(err, &e) || !errors.Is(err, ErrReadOnly) {
			t.Fatalf("Create of a read-only file: %v", err)
		}
		if got := entries(t, dir); len(got) != 1 {
			t.Fatalf("a refused Create left: %v", got)
		}
	}
}
