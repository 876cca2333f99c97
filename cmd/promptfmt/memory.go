package main

import (
	"runtime/debug"
	"sync"
)

// largeInput is the size from which an input sets the heap's soft limit.
const largeInput = 8 << 20

var memory struct {
	sync.Mutex
	large int64 // bytes of the large inputs read so far
}

// noteInput tells the garbage collector how much memory a large input
// may take: four times its size plus 64 MiB (48 MiB of heap, the rest
// for the program itself), the README's bound. By default the collector
// lets the heap grow to twice what is live before it collects; for a
// large file whose document is most of the heap, that headroom would be
// the largest cost. The limit is soft: the collector works harder near
// it, and gives up (never failing) when the document itself needs more,
// as a file of tiny messages does. Inputs add up, so that many large
// files read at once are not held to one file's bound.
func noteInput(n int) {
	if n < largeInput {
		return
	}
	memory.Lock()
	defer memory.Unlock()
	memory.large += int64(n)
	debug.SetMemoryLimit(4*memory.large + 48<<20)
}
