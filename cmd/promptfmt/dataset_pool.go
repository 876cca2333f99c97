package main

import (
	"bytes"
	"runtime"
	"sync"
)

// filePool writes a split's files on several goroutines. The records are
// read and converted in order on the caller's goroutine, so that what is
// printed about them comes in the file's order; writing a file is mostly
// waiting for the system to make it durable (atomicfile syncs the file
// and its directory), which several writes do at once. At most twice as
// many files as workers wait in memory. A write that fails ends the run:
// the caller prints its diagnostics (drain) and stops reading.
type filePool struct {
	jobs  chan fileJob
	wg    sync.WaitGroup
	mu    sync.Mutex
	fails [][]byte // the diagnostics of each failed write, not yet printed
	nFail int
}

type fileJob struct {
	path string
	data []byte
}

// newFilePool starts the writers: 4 a core, as parallel runs jobs that
// block on files.
func (c *cli) newFilePool(force bool) *filePool {
	workers := 4 * runtime.GOMAXPROCS(0)
	p := &filePool{jobs: make(chan fileJob, workers)}
	for range workers {
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			for j := range p.jobs {
				var diag bytes.Buffer
				fc := *c
				fc.stdout, fc.stderr = &diag, &diag
				if fc.writeFile(j.path, j.data, force) != exitOK {
					p.mu.Lock()
					p.fails = append(p.fails, diag.Bytes())
					p.nFail++
					p.mu.Unlock()
				}
			}
		}()
	}
	return p
}

// write queues a file; it waits while the writers are all busy.
func (p *filePool) write(path string, data []byte) { p.jobs <- fileJob{path, data} }

// drain prints the diagnostics of the writes that failed since the last
// drain and reports whether any write has failed.
func (p *filePool) drain(c *cli) bool {
	p.mu.Lock()
	fails := p.fails
	p.fails = nil
	failed := p.nFail > 0
	p.mu.Unlock()
	for _, d := range fails {
		c.stderr.Write(d)
	}
	return failed
}

// close waits for every queued file, prints what failed, and returns how
// many writes failed.
func (p *filePool) close(c *cli) int {
	close(p.jobs)
	p.wg.Wait()
	p.drain(c)
	return p.nFail
}

// ordered runs load(i) for i in [0, n) on all cores (4 goroutines a core,
// as parallel: loading reads files) and hands each result to use in
// order, on this goroutine. At most a window of results waits to be used,
// so memory stays flat however large n is. When use returns false, no
// more loads start and the results of those running are dropped.
func ordered[T any](n int, load func(i int) T, use func(i int, v T) bool) {
	workers := 4 * runtime.GOMAXPROCS(0)
	window := 2 * workers
	slots := make([]chan T, window) // result i waits in slot i%window
	for k := range slots {
		slots[k] = make(chan T, 1)
	}
	tokens := make(chan struct{}, window) // a load started and not yet used
	jobs := make(chan int)
	stop := make(chan struct{})
	go func() {
		defer close(jobs)
		for i := range n {
			select {
			case tokens <- struct{}{}:
			case <-stop:
				return
			}
			select {
			case jobs <- i:
			case <-stop:
				return
			}
		}
	}()
	for range min(workers, n) {
		go func() {
			for i := range jobs {
				slots[i%window] <- load(i)
			}
		}()
	}
	for i := range n {
		v := <-slots[i%window]
		<-tokens
		if !use(i, v) {
			close(stop)
			return
		}
	}
}
