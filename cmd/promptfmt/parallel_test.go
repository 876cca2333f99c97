package main

import (
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// TestParallelOrder: jobs that finish in a random order still print in
// index order, and the worst status wins.
func TestParallelOrder(t *testing.T) {
	const n = 200
	rng := rand.New(rand.NewPCG(3, 4))
	delays := make([]time.Duration, n)
	for i := range delays {
		delays[i] = time.Duration(rng.IntN(300)) * time.Microsecond
	}
	for _, workers := range []int{0, 1, 7} {
		var out, errOut strings.Builder
		c := &cli{stdout: &out, stderr: &errOut}
		status := c.parallel(n, workers, func(fc *cli, i int) int {
			time.Sleep(delays[i])
			fmt.Fprintf(fc.stdout, "%d\n", i)
			fmt.Fprintf(fc.stderr, "e%d\n", i)
			if i == 17 {
				return exitInvalid
			}
			return exitOK
		})
		var want, wantErr strings.Builder
		for i := range n {
			fmt.Fprintf(&want, "%d\n", i)
			fmt.Fprintf(&wantErr, "e%d\n", i)
		}
		assert.Equal(t, want.String(), out.String(), "workers=%d", workers)
		assert.Equal(t, wantErr.String(), errOut.String(), "workers=%d", workers)
		assert.Equal(t, exitInvalid, status)
	}
	assert.Equal(t, exitOK, (&cli{stdout: io.Discard, stderr: io.Discard}).parallel(0, 0, nil), "no jobs")
}
