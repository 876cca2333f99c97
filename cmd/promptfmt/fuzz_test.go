package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/promptfmt/promptfmt"
)

// FuzzConvertLossy reads any input as each format and converts what reads
// to every format with promptfmt.Adapt, as convert --lossy does: it must
// end (each round of changes makes the document smaller), and what it
// returns must be written and read back by the target.
func FuzzConvertLossy(f *testing.F) {
	examples, _ := filepath.Glob("../../testdata/examples/*")
	for _, name := range examples {
		if src, err := os.ReadFile(name); err == nil && len(src) < 4096 {
			f.Add(src)
		}
	}
	f.Add([]byte(";user name=Ann\nhi\n;embed kind=image type=image/png\naGk=\n;ai\n\n;msg role=_x\n  y  \n"))
	for _, s := range []string{";sys\nOrder {{ order_id }} {% if x %}a{% endif %} {# c #} {%- endraw %} <|user|>\n;user\n{% raw %}x{% endraw %}\n", "### @user:\n{{ x }} {%- endraw %}\n\n### @assistant:\n{% if %}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		for i := range formats {
			from := &formats[i]
			doc, err := from.parse(src)
			if err != nil {
				continue
			}
			for j := range formats {
				to := &formats[j]
				fitted, _, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return to.write(io.Discard, d) })
				if err != nil {
					continue // something no change can meet: convert --lossy reports it
				}
				var out bytes.Buffer
				if err := to.write(&out, fitted); err != nil {
					t.Fatalf("%s to %s: Adapt's document is refused: %v", from.name, to.name, err)
				}
				if _, err := to.parse(out.Bytes()); err != nil {
					t.Fatalf("%s to %s: the output does not read back: %v\n%s", from.name, to.name, err, out.Bytes())
				}
			}
		}
	})
}
