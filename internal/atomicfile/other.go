//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package atomicfile

import (
	"io/fs"
	"os"
	"time"
)

// Without flock(2) a live writer's temporary file cannot be told from a
// dead one's but by its age, so the age is generous.
const staleAge = time.Hour

// writable reads the owner's write bit, which is how Go reports the
// read-only attribute on Windows.
func writable(fi fs.FileInfo) bool { return fi.Mode().Perm()&0o200 != 0 }

func links(fs.FileInfo) uint64 { return 1 }

func chown(*os.File, fs.FileInfo) {}

func lockFile(*os.File) error { return nil }

func removeIfUnlocked(path string) bool { return os.Remove(path) == nil }
