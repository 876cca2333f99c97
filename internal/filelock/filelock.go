// Package filelock serialises processes around a shared file: the prompt
// store draws IDs under it so that concurrent writers never collide.
//
// Where the system has flock(2) the lock is the kernel's: it is released
// when its holder exits, however it exits. Elsewhere it is a lock file
// created exclusively, which a crashed holder leaves behind; a waiter
// removes it once it is older than Stale.
package filelock

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// Lock blocks until this process holds the lock at path, creating the file
// when missing, and returns the function that releases it.
func Lock(path string) (unlock func() error, err error) {
	return lock(path)
}

// Stale is how old a lock file must be before a waiter decides that its
// holder crashed (lock files only; a draw holds the lock for milliseconds).
const Stale = 30 * time.Second

// createLock is the portable lock: exclusive creation of path.
func createLock(path string) (func() error, error) {
	wait := time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid()) // for whoever finds it left behind
			if err := f.Close(); err != nil {
				os.Remove(path)
				return nil, err
			}
			return func() error { return os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > Stale {
			os.Remove(path)
			continue
		}
		time.Sleep(wait)
		wait = min(2*wait, 50*time.Millisecond)
	}
}
