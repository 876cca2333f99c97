package main

import (
	"bytes"
	"runtime"
)

// parallel runs job for 0..n-1 on workers goroutines (all cores when
// workers is 0; in order, on this one, when it is 1). Each job writes to
// its own cli, whose output is printed in index order as soon as every job
// before it has finished; a bounded number of jobs run ahead of the
// printing, so memory stays flat however many files there are. It returns
// the worst status.
func (c *cli) parallel(n, workers int, job func(fc *cli, i int) int) int {
	if n == 1 || workers == 1 {
		worst := exitOK
		for i := range n {
			worst = max(worst, job(c, i))
		}
		return worst
	}
	if workers <= 0 {
		workers = 4 * runtime.GOMAXPROCS(0) // reading files blocks: keep every core busy
	}
	type result struct {
		out, err bytes.Buffer
		status   int
		done     chan struct{}
	}
	results := make([]*result, n)
	for i := range results {
		results[i] = &result{done: make(chan struct{})}
	}
	// window holds a token per job allowed to run ahead of the printer.
	window := make(chan struct{}, 8*workers)
	jobs := make(chan int)
	go func() {
		for i := range n {
			window <- struct{}{}
			jobs <- i
		}
		close(jobs)
	}()
	for range min(workers, n) {
		go func() {
			for i := range jobs {
				r := results[i]
				fc := *c
				fc.stdout, fc.stderr = &r.out, &r.err
				r.status = job(&fc, i)
				close(r.done)
			}
		}()
	}
	worst := exitOK
	for i, r := range results {
		<-r.done
		c.stdout.Write(r.out.Bytes())
		c.stderr.Write(r.err.Bytes())
		worst = max(worst, r.status)
		results[i] = nil
		<-window
	}
	return worst
}
