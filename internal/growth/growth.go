// Package growth tests that a cost grows linearly with the size of the
// input, without timing assertions: a test measures a deterministic cost
// (bytes allocated, or a count of work the code under test keeps) at n and
// at 4n, and fails when it grows by more than MaxRatio. Linear code grows
// 4×; quadratic code 16×.
package growth

import (
	"runtime"
	"testing"
)

// MaxRatio is how much a cost may grow from n to 4n and still count as
// linear: room for n log n and for constant overheads, well short of 16.
const MaxRatio = 8

// Linear fails t when cost(4n) > MaxRatio × cost(n). cost returns a
// deterministic measure of the work for an input of size n, such as
// AllocBytes of a call.
func Linear(t testing.TB, what string, n int, cost func(n int) float64) {
	t.Helper()
	small, large := cost(n), cost(4*n)
	if small <= 0 {
		small = 1
	}
	ratio := large / small
	t.Logf("%s: %.0f at n=%d, %.0f at 4n: ×%.1f", what, small, n, large, ratio)
	if ratio > MaxRatio {
		t.Errorf("%s grows ×%.1f from n=%d to 4n (%.0f to %.0f); linear is ×4, at most ×%d allowed", what, ratio, n, small, large, MaxRatio)
	}
}

// AllocBytes returns the bytes f allocates on the heap (the least of three
// runs, so that a background allocation does not count).
func AllocBytes(f func()) float64 {
	best := -1.0
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		if b := float64(after.TotalAlloc - before.TotalAlloc); best < 0 || b < best {
			best = b
		}
	}
	return best
}

// NotUnderRace skips t when the race detector is on: a test that parses
// thousands of inputs to measure their growth runs ten times slower under
// it and measures the detector's allocations besides. .ci/run runs these
// tests again without it (go test -run Linear), so each runs once a CI.
func NotUnderRace(t *testing.T) {
	if race {
		t.Skip("measured without the race detector (.ci/run runs the growth tests on their own)")
	}
}
