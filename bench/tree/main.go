// Command tree measures `promptfmt check DIR` over a tree of many small
// files beside the floor of the same work: walking the tree and reading
// every file on all cores in Go, doing nothing with them. Both run in
// turn in one session, and the medians are printed as files per second:
//
//	go build -o /tmp/promptfmt ./cmd/promptfmt
//	go run ./bench/tree -bin /tmp/promptfmt -dir /tmp/tree -files 100000
//
// The tree is made once (100 directories of small files of every format
// that reads files alone: STF, Prapti, Prompty, PDL, prompt files) and
// kept in dir for the next run.
package main

import (
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"time"

	"github.com/promptfmt/promptfmt/promptfile"
)

func main() {
	bin := flag.String("bin", "promptfmt", "the promptfmt binary")
	dir := flag.String("dir", "/tmp/promptfmt-tree", "where the tree is made and kept")
	files := flag.Int("files", 100_000, "number of files")
	rounds := flag.Int("n", 5, "rounds of each")
	flag.Parse()
	if err := makeTree(*dir, *files); err != nil {
		fail(err)
	}
	var check, read []float64
	for range *rounds {
		start := time.Now()
		cmd := exec.Command(*bin, "check", *dir)
		if out, err := cmd.CombinedOutput(); err != nil {
			fail(fmt.Errorf("%v: %v\n%.2000s", cmd, err, out))
		}
		check = append(check, float64(*files)/time.Since(start).Seconds())
		start = time.Now()
		n, err := walkRead(*dir)
		if err != nil {
			fail(err)
		}
		if n != *files {
			fail(fmt.Errorf("read %d files, want %d", n, *files))
		}
		read = append(read, float64(*files)/time.Since(start).Seconds())
	}
	c, r := median(check), median(read)
	fmt.Printf("files %d, cores %d, rounds %d\n", *files, runtime.NumCPU(), *rounds)
	fmt.Printf("promptfmt check DIR  %8.0f files/s (median)\n", c)
	fmt.Printf("walk + read in Go    %8.0f files/s (median)\n", r)
	fmt.Printf("ratio                %8.2f\n", c/r)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "tree:", err)
	os.Exit(1)
}

func median(xs []float64) float64 {
	slices.Sort(xs)
	return xs[len(xs)/2]
}

// samples are small files, one of each format, that check finds clean.
var samples = map[string]string{
	".stf":     ";system\nYou are a careful site-reliability assistant.\n;user name=\"Ross\"\nWhy did the rollout stall at %d%%?\n;assistant\nThe canary failed its readiness probe.\n",
	".md":      "### @system:\nYou are a careful site-reliability assistant.\n\n### @user:\nWhy did the rollout stall at %d%%?\n\n### @assistant:\nThe canary failed its readiness probe.\n",
	".prompty": "---\nname: stall\n---\nsystem:\nYou are a careful site-reliability assistant.\n\nuser:\nWhy did the rollout stall at %d%%?\n",
	".pdl":     "<|system|>\n\nYou are a careful site-reliability assistant.\n\n<|user|>\n\nWhy did the rollout stall at %d%%?\n",
}

// promptFile is a prompt file with every key check wants.
func promptFile(i int) []byte {
	body := fmt.Sprintf("Why did the rollout stall at %d%%?\n", i)
	return fmt.Appendf(nil, "---\nprompt-id: P%d\ncreated-at: \"2025-06-28T14:37:22Z\"\nsha1-hash: %s\n---\n\n%s", i, promptfile.Hash(body), body)
}

// makeTree writes n files under dir, unless it holds them already.
func makeTree(dir string, n int) error {
	if _, err := os.Stat(filepath.Join(dir, "done")); err == nil {
		return nil
	}
	exts := []string{".stf", ".md", ".prompty", ".pdl", ".prompt"}
	for i := range n {
		sub := filepath.Join(dir, fmt.Sprintf("d%03d", i%100))
		if i < 100 {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return err
			}
		}
		ext := exts[i%len(exts)]
		name := filepath.Join(sub, fmt.Sprintf("f%06d%s", i, ext))
		src := fmt.Appendf(nil, samples[ext], i)
		if ext == ".prompt" {
			src = promptFile(i)
		}
		if err := os.WriteFile(name, src, 0o644); err != nil {
			return err
		}
	}
	return os.WriteFile(filepath.Join(dir, "done"), nil, 0o644)
}

// walkRead lists the files under dir (all but the marker) and reads each
// on all cores, as the command does, and returns how many it read.
func walkRead(dir string) (int, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() != "done" {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return 0, err
	}
	jobs := make(chan string)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for range 4 * runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for f := range jobs {
				if _, err := os.ReadFile(f); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
				}
			}
		}()
	}
	for _, f := range files {
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	return len(files), firstErr
}
