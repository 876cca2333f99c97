package prompty

import (
	"encoding/json"
	"os"
	"testing"
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
		if doc, err := Parse(src); err == nil {
			thisFormat.RoundTrip(t, doc)
		}
	})
}
