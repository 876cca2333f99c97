package stf

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
)

// FuzzParse: no panic, errors are positioned, and every document Parse
// returns is written without error and read back equal:
// Parse(Write(Parse(x))) equals Parse(x).
func FuzzParse(f *testing.F) {
	files, _ := filepath.Glob("testdata/upstream/decode/*.stf")
	canon, _ := filepath.Glob("testdata/canonical/*.stf")
	for _, name := range append(append(files, canon...), "../testdata/examples/support.stf") {
		src, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	for _, s := range []string{";user a=\"x\\\"\" b=c=d {\r\n;;x\r\n", ";raw\n{role:'u',content:[{type:'image',data:'x',name:'n'}],disabled:true}\n;end\n",
		";ai\n;call name=f\n{}\n;embed kind=file\nx\n;extra\n[NaN]\n;end\n;flush\n\n", "\ufeff;/*\n;!!!\n;*/\n;msg role=x {}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		doc, err := Parse(src)
		if err != nil {
			pe, ok := err.(*promptfmt.ParseError)
			if !ok || pe.Line < 1 || pe.Col < 1 || pe.Offset < 0 || pe.Offset > len(src) {
				t.Fatalf("error without a position: %#v", err)
			}
			return
		}
		thisFormat.RoundTrip(t, doc)
	})
}
