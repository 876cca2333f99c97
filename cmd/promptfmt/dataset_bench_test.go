package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/provider"
)

// benchJSONL writes the shared benchmark conversation as a fine-tuning
// file of records of ten messages (about 1,700 records, 4.5 MB).
func benchJSONL(b *testing.B) (string, int64) {
	msgs := corpus.Conversation(formattest.BenchSize).ForModel().Messages
	var buf bytes.Buffer
	w := provider.OpenAIJSONL.NewWriter(&buf)
	for i := 0; i < len(msgs); i += 10 {
		if err := w.Write(provider.Record{Doc: &promptfmt.Document{Messages: msgs[i:min(i+10, len(msgs))]}}); err != nil {
			b.Fatal(err)
		}
	}
	file := filepath.Join(b.TempDir(), "data.jsonl")
	if err := os.WriteFile(file, buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	return file, int64(buf.Len())
}

// BenchmarkDatasetConvert runs the command over a fine-tuning file:
// checked, converted into a batch (a stream in, a stream out), and split
// into STF files (one file a record, written atomically).
func BenchmarkDatasetConvert(b *testing.B) {
	file, size := benchJSONL(b)
	for _, bc := range []struct {
		name string
		args func(b *testing.B) []string
	}{
		{"check", func(*testing.B) []string { return []string{"check", file} }},
		{"to-batch", func(*testing.B) []string { return []string{"convert", "-t", "openai-batch", file} }},
		{"split-stf", func(b *testing.B) []string { return []string{"convert", "-t", "stf", "-o", b.TempDir(), file} }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			b.ReportAllocs()
			for b.Loop() {
				b.StopTimer()
				args := bc.args(b)
				b.StartTimer()
				if status := run(args, nil, io.Discard, io.Discard); status != exitOK {
					b.Fatalf("%v: status %d", args, status)
				}
			}
		})
	}
}
