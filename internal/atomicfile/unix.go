//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"time"
)

const staleAge = 10 * time.Second

// writable reports whether the mode bits let this process write the file:
// the owner's bits for its owner, the group's for a member, the others'
// for the rest. Root may write any file, but a file no one may write is
// read-only to root too, as editors treat it.
func writable(fi fs.FileInfo) bool {
	m := fi.Mode().Perm()
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return m&0o200 != 0
	}
	euid := os.Geteuid()
	switch {
	case euid == 0:
		return m&0o222 != 0
	case uint64(euid) == uint64(st.Uid):
		return m&0o200 != 0
	case inGroup(uint64(st.Gid)):
		return m&0o020 != 0
	}
	return m&0o002 != 0
}

func inGroup(gid uint64) bool {
	if uint64(os.Getegid()) == gid {
		return true
	}
	groups, _ := os.Getgroups()
	return slices.ContainsFunc(groups, func(g int) bool { return uint64(g) == gid })
}

func links(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// chown gives the temporary file the replaced file's owner and group,
// where they differ and the system allows it.
func chown(f *os.File, fi fs.FileInfo) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	uid, gid := int(st.Uid), int(st.Gid)
	if uid == os.Geteuid() && gid == os.Getegid() {
		return
	}
	if f.Chown(uid, gid) != nil {
		f.Chown(-1, gid) // the group alone, which an owner in it may set
	}
}

// lockFile locks f exclusively; closing f releases the lock.
func lockFile(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// removeIfUnlocked removes path unless a live writer holds its lock.
func removeIfUnlocked(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if lockFile(f) != nil {
		return false
	}
	return os.Remove(path) == nil
}
