package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/promptfmt/promptfmt/promptfile"
)

const storeFiles = 10_000

var (
	storeOnce sync.Once
	storeDir  string
	storeErr  error
)

// store10k writes a store of 10,000 typical prompt files, once per run.
func store10k(b *testing.B) string {
	storeOnce.Do(func() {
		storeDir, storeErr = os.MkdirTemp("", "promptfmt-bench-store")
		if storeErr != nil {
			return
		}
		for i := 1; i <= storeFiles && storeErr == nil; i++ {
			body := fmt.Sprintf("Prompt number %d of the population.\nRewrite the instruction below so that a model follows it exactly:\n\nDiscard all HTML tags, keeping the text between them.\n", i)
			src := fmt.Sprintf("---\nprompt-id: \"P%d\"\ncreated-at: \"2025-06-28T14:37:22Z\"\nsha1-hash: \"%s\"\nancestors:\n  - P%d\ngenerator: mutate\nmodel: gpt-4o\n---\n\n%s",
				i, promptfile.Hash(body), max(1, i/2), body)
			storeErr = os.WriteFile(filepath.Join(storeDir, fmt.Sprintf("P%d.prompt", i)), []byte(src), 0o644)
		}
	})
	if storeErr != nil {
		b.Fatal(storeErr)
	}
	return storeDir
}

// benchStore runs the command over the store and reports files per second.
func benchStore(b *testing.B, args ...string) {
	dir := store10k(b)
	args = append(args, dir)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		if status := run(args, nil, io.Discard, io.Discard); status != exitOK {
			b.Fatalf("%v: status %d", args, status)
		}
	}
	b.ReportMetric(float64(storeFiles*b.N)/b.Elapsed().Seconds(), "files/s")
}

// BenchmarkStoreVerify: promptfmt promptfile verify over 10,000 files.
func BenchmarkStoreVerify(b *testing.B) { benchStore(b, "promptfile", "verify") }

// BenchmarkStoreCheck: promptfmt check over the same files.
func BenchmarkStoreCheck(b *testing.B) { benchStore(b, "check") }

// BenchmarkStoreRead is the baseline: listing and reading the 10,000 files
// on all cores, doing nothing with them.
func BenchmarkStoreRead(b *testing.B) {
	dir := store10k(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		files, err := expand([]string{dir}, isPromptFile)
		if err != nil {
			b.Fatal(err)
		}
		c := &cli{stdout: io.Discard, stderr: io.Discard}
		c.parallel(len(files), 0, func(fc *cli, i int) int {
			if _, err := os.ReadFile(files[i]); err != nil {
				b.Error(err)
			}
			return exitOK
		})
	}
	b.ReportMetric(float64(storeFiles*b.N)/b.Elapsed().Seconds(), "files/s")
}
