//go:build !unix

package main

import "os"

// readFile is os.ReadFile (see readfile_unix.go).
func readFile(name string) ([]byte, error) { return os.ReadFile(name) }
