package provider

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// FuzzReadJSONL: the record reader on any bytes, as both datasets: no
// panic; every problem is a record's ParseError whose line, column and
// offset agree and fall in the file (lines end at LF); a line over the
// limit is a record's error; what reads is written (strictly) or refused
// with UnsupportedErrors only, and what is written reads back as the
// same record.
func FuzzReadJSONL(f *testing.F) {
	files, _ := filepath.Glob("testdata/jsonl/*.jsonl")
	for _, file := range files {
		if src, err := os.ReadFile(file); err == nil && len(src) < 8<<10 {
			f.Add(src)
		}
	}
	good := `{"messages":[{"role":"user","content":"hi"}]}`
	f.Add([]byte(good + "\n\n" + `{"messages": [{"content": "x"}]}` + "\r\n[1]"))
	f.Add([]byte("\uFEFF" + `{"custom_id":"a","method":"POST","url":"/v1/chat/completions","body":` + good + "}\n" + `{"custom_id":"a","url":"/v1/embeddings"}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		for _, d := range []*Dataset{OpenAIJSONL, OpenAIBatch} {
			r := d.NewReader(bytes.NewReader(src), MaxLine(200))
			last := 0
			for {
				rec, err := r.Read()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s: Read: %v", d.Name(), err)
				}
				if rec.Line <= last {
					t.Fatalf("%s: line %d after %d", d.Name(), rec.Line, last)
				}
				last = rec.Line
				if rec.Err != nil {
					if rec.Doc != nil {
						t.Fatalf("%s: a record with both a document and an error", d.Name())
					}
					for _, e := range formattest.Flatten(rec.Err) {
						var pe *promptfmt.ParseError
						if !errors.As(e, &pe) {
							t.Fatalf("%s: not a ParseError: %v", d.Name(), e)
						}
						checkPlace(t, src, rec.Line, pe.Line, pe.Col, pe.Offset, e.Error())
					}
					continue
				}
				for _, w := range rec.Doc.Warnings {
					checkPlace(t, src, rec.Line, w.Line, w.Col, w.Offset, w.String())
				}
				var out bytes.Buffer
				err = d.NewWriter(&out).Write(rec)
				if err != nil {
					for _, e := range formattest.Flatten(err) {
						var ue *promptfmt.UnsupportedError
						if !errors.As(e, &ue) {
							t.Fatalf("%s: line %d: a refusal that is not an UnsupportedError: %v", d.Name(), rec.Line, e)
						}
					}
					continue
				}
				back, err := d.NewReader(&out).Read()
				if err != nil || back.Err != nil {
					t.Fatalf("%s: line %d written does not read: %v %v\n%s", d.Name(), rec.Line, err, back.Err, out.Bytes())
				}
				if back.ID != rec.ID || back.URL != rec.URL || !promptfmt.Equal(back.Doc, rec.Doc) {
					t.Fatalf("%s: line %d read back changed\nsource: %q\nwritten: %s", d.Name(), rec.Line, rec.Raw, out.Bytes())
				}
			}
		}
	})
}

// checkPlace checks a problem's place: on its record's line, its column
// and offset agreeing, inside the file.
func checkPlace(t *testing.T, src []byte, recLine, line, col, off int, msg string) {
	t.Helper()
	if line != recLine || off < 0 || off > len(src) {
		t.Fatalf("%s: line %d offset %d, for the record of line %d in %d bytes", msg, line, off, recLine, len(src))
	}
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	if bytes.Count(src[:start], []byte("\n"))+1 != line || off-start+1 != col {
		t.Fatalf("%s: offset %d is not line %d column %d", msg, off, line, col)
	}
}
