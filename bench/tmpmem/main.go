package main

import (
	"fmt"
	"os"
	"runtime"

	"github.com/promptfmt/promptfmt/formats"
)

func main() {
	f, _ := formats.ByName(os.Args[1])
	src, _ := os.ReadFile(os.Args[2])
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	doc, err := f.Parse(src)
	if err != nil {
		panic(err)
	}
	runtime.ReadMemStats(&b)
	peak := b.HeapSys
	runtime.GC()
	runtime.ReadMemStats(&b)
	fmt.Printf("%s: %d msgs, src %d MB, live after %d MB, total alloc %d MB, heapsys %d MB\n", os.Args[1], len(doc.Messages), len(src)>>20, (b.HeapAlloc-a.HeapAlloc)>>20, (b.TotalAlloc-a.TotalAlloc)>>20, peak>>20)
	runtime.KeepAlive(doc)
}
