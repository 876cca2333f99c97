//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package filelock

import (
	"errors"
	"os"
	"syscall"
)

func lock(path string) (func() error, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	for {
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX)
		if !errors.Is(err, syscall.EINTR) {
			break
		}
	}
	if err != nil {
		f.Close()
		return nil, &os.PathError{Op: "flock", Path: path, Err: err}
	}
	// Closing the file releases the lock.
	return f.Close, nil
}
