package prompty

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/promptfmt/promptfmt"
)

// FuzzParse: no panic, and every document Parse returns is written without
// error and read back equal, in a canonical form that is stable.
func FuzzParse(f *testing.F) {
	for _, src := range canonicalFiles(f) {
		f.Add(src)
	}
	var vectors struct {
		Vectors []struct {
			Vector struct {
				Input struct {
					Rendered string `json:"rendered"`
				} `json:"input"`
			} `json:"vector"`
		} `json:"vectors"`
	}
	src, err := os.ReadFile("testdata/upstream/vectors.json")
	if err != nil {
		f.Fatal(err)
	}
	if err := json.Unmarshal(src, &vectors); err != nil {
		f.Fatal(err)
	}
	for _, v := range vectors.Vectors {
		if r := v.Vector.Input.Rendered; r != "" {
			f.Add([]byte(r))
		}
	}
	for _, s := range []string{"user[a=\"x\\\"]\", b=1.5e3, c=007]:\r\nhi\rassistant:", "---\na: .nan\nb: !!binary aGk=\nc: 2001-12-14\n---\n", "# tool[x=,]:\n\n\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			return
		}
		var out bytes.Buffer
		if err := Write(&out, doc); err != nil {
			t.Fatalf("Write of a parsed document failed: %v\ninput: %q", err, src)
		}
		back, err := Parse(out.Bytes())
		if err != nil {
			t.Fatalf("re-parse failed: %v\nwritten: %q", err, out.String())
		}
		if !promptfmt.Equal(doc, back) {
			t.Fatalf("round trip changed the document\ninput:   %q\nwritten: %q\nbefore: %+v\nafter:  %+v", src, out.String(), doc, back)
		}
		var again bytes.Buffer
		if err := Write(&again, back); err != nil || again.String() != out.String() {
			t.Fatalf("canonical form not stable: %v\n%q\n%q", err, out.String(), again.String())
		}
	})
}
