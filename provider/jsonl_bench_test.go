package provider

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/corpus"
	"github.com/promptfmt/promptfmt/internal/formattest"
)

// benchDataset is the shared benchmark conversation cut into records of
// ten messages (about 1,700), as a fine-tuning file or a batch.
func benchDataset(b *testing.B, d *Dataset) ([]Record, []byte) {
	msgs := corpus.Conversation(formattest.BenchSize).ForModel().Messages
	var recs []Record
	for i := 0; i < len(msgs); i += 10 {
		rec := Record{Doc: &promptfmt.Document{Messages: msgs[i:min(i+10, len(msgs))]}}
		if d == OpenAIBatch {
			rec.ID = fmt.Sprintf("request-%d", i/10+1)
		}
		recs = append(recs, rec)
	}
	var out bytes.Buffer
	w := d.NewWriter(&out)
	for _, rec := range recs {
		if err := w.Write(rec); err != nil {
			b.Fatal(err)
		}
	}
	return recs, out.Bytes()
}

// BenchmarkJSONLRead reads every record of the dataset into documents.
func BenchmarkJSONLRead(b *testing.B) {
	for _, d := range []*Dataset{OpenAIJSONL, OpenAIBatch} {
		b.Run(d.Name(), func(b *testing.B) {
			_, src := benchDataset(b, d)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				r := d.NewReader(bytes.NewReader(src))
				for {
					rec, err := r.Read()
					if err == io.EOF {
						break
					}
					if err != nil || rec.Err != nil {
						b.Fatal(err, rec.Err)
					}
				}
			}
		})
	}
}

// BenchmarkJSONLReadBaseline is what a program would do with
// encoding/json: each line of the fine-tuning file decoded into a struct
// of its shape.
func BenchmarkJSONLReadBaseline(b *testing.B) {
	_, src := benchDataset(b, OpenAIJSONL)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		sc := bufio.NewScanner(bytes.NewReader(src))
		sc.Buffer(nil, DefaultMaxLine)
		for sc.Scan() {
			var body chatBody
			if err := json.Unmarshal(sc.Bytes(), &body); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkJSONLWrite writes the records (strictly, as convert does).
func BenchmarkJSONLWrite(b *testing.B) {
	for _, d := range []*Dataset{OpenAIJSONL, OpenAIBatch} {
		b.Run(d.Name(), func(b *testing.B) {
			recs, src := benchDataset(b, d)
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				w := d.NewWriter(io.Discard)
				for _, rec := range recs {
					if err := w.Write(rec); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
