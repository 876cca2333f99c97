package formats_test

import (
	"fmt"
	"os"

	"github.com/promptfmt/promptfmt/formats"
)

// Detect finds a file's format by its extension (and by its content where
// formats share one); Parse reads it into the shared model.
func ExampleDetect() {
	name := "../testdata/examples/support.stf"
	src, err := os.ReadFile(name)
	if err != nil {
		panic(err)
	}
	f, err := formats.Detect(name, src)
	if err != nil {
		panic(err)
	}
	doc, err := f.Parse(src)
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Name(), len(doc.Messages), doc.Messages[0].Role)
	// Output: stf 6 system
}

// ByName finds a format by the name -f takes; Write writes any document
// in it.
func ExampleByName() {
	f, err := formats.ByName("pdl")
	if err != nil {
		panic(err)
	}
	fmt.Println(f.Name(), f.Extensions())
	// Output: pdl [.pdl]
}
