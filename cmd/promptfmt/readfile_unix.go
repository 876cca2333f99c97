//go:build unix

package main

import (
	"os"
	"sync"
	"syscall"
)

// readFile is os.ReadFile in fewer system calls: open, read to the end,
// close, where os.ReadFile also asks the file's size twice (once to tell
// whether the poller can wait on it, once to size its buffer). A tree of
// small files spends most of its time in these calls. The file is read
// into a shared buffer and copied out at its size; on any error, and for
// a file larger than the buffer, os.ReadFile reads it again, so that
// errors read as they always have.
func readFile(name string) ([]byte, error) {
	fd, err := retry(func() (int, error) { return syscall.Open(name, syscall.O_RDONLY|syscall.O_CLOEXEC, 0) })
	if err != nil {
		return os.ReadFile(name)
	}
	defer syscall.Close(fd)
	bp := readBuffers.Get().(*[]byte)
	defer readBuffers.Put(bp)
	buf := *bp
	n := 0
	for n < len(buf) {
		k, err := retry(func() (int, error) { return syscall.Read(fd, buf[n:]) })
		if err != nil {
			return os.ReadFile(name)
		}
		if k == 0 {
			return append(make([]byte, 0, n), buf[:n]...), nil
		}
		n += k
	}
	return os.ReadFile(name) // larger than the buffer
}

// retry runs a system call again while a signal interrupts it.
func retry(call func() (int, error)) (int, error) {
	for {
		n, err := call()
		if err != syscall.EINTR {
			return n, err
		}
	}
}

// readBuffers are readFile's buffers, one for each file being read.
var readBuffers = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}
