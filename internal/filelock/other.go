//go:build !(linux || darwin || dragonfly || freebsd || netbsd || openbsd)

package filelock

func lock(path string) (func() error, error) { return createLock(path) }
