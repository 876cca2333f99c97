// Command goparse times promptfmt's parsers in process, as the upstream
// scripts beside it time theirs: FORMAT FILE RUNS prints the median
// seconds of RUNS parses of FILE (after one that is not counted).
package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/promptfmt/promptfmt/formats"
)

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: goparse FORMAT FILE RUNS")
		os.Exit(2)
	}
	f, err := formats.ByName(os.Args[1])
	check(err)
	src, err := os.ReadFile(os.Args[2])
	check(err)
	runs, err := strconv.Atoi(os.Args[3])
	check(err)
	doc, err := f.Parse(src)
	check(err)
	var times []float64
	for range runs {
		start := time.Now()
		_, err := f.Parse(src)
		times = append(times, time.Since(start).Seconds())
		check(err)
	}
	slices.Sort(times)
	fmt.Printf("%.6f %d\n", times[len(times)/2], len(doc.Messages))
}

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "goparse:", err)
		os.Exit(1)
	}
}
