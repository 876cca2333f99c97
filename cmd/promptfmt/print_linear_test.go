package main

import (
	"io"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt/internal/growth"
)

// parse prints a document whose metadata nests n deep (a front matter, a
// Prapti configuration value, STF metadata) in memory linear in n, though
// its indented JSON grows with n²: the indentation is streamed, never
// built.
func TestPrintJSONIsLinear(t *testing.T) {
	for _, c := range []struct{ format, open, close, suffix string }{
		{"promptfile", "---\nx: ", "", "\n---\nbody\n"},
		{"prapti", "% x = ", "", "\n### @user:\n\nhi\n"},
		{"stf", ";meta\n", "", "\n;end\n;user\nhi\n"},
	} {
		f, err := lookupFormat(c.format, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, nest := range [][2]string{{`{"a": `, "}"}, {"[", "]"}} {
			what := c.format + " " + nest[0]
			growth.Linear(t, what, 250, func(n int) float64 {
				src := c.open + strings.Repeat(nest[0], n-1) + "1" + strings.Repeat(nest[1], n-1) + c.suffix // n levels with the top one
				doc, err := f.parse([]byte(src))
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				cl := &cli{stdout: io.Discard, stderr: io.Discard}
				return growth.AllocBytes(func() {
					if status := cl.printJSON(doc); status != exitOK {
						t.Fatalf("%s: status %d", what, status)
					}
				})
			})
		}
	}
}
