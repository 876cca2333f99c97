package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// Property over generated documents, for every target format: writing
// either succeeds and the output reads back as the same document, or each
// refusal names its thing at a source line; lossy conversion (Adapt)
// always ends in a document the target writes and reads back identically,
// and one it changed is always told by at least one change, each at a line.
func TestConversionMatrixProperty(t *testing.T) {
	r, rr := rand.New(rand.NewPCG(18, 2026)), rand.New(rand.NewPCG(21, 2026))
	for n := range 400 {
		generated := formattest.WithRequest(formattest.Document(r), rr)
		for i := range formats {
			to := &formats[i]
			what := fmt.Sprintf("case %d to %s", n, to.name)
			doc := generated
			var out bytes.Buffer
			err := to.write(&out, doc)
			if err == nil {
				back, err := readBack(to, out.Bytes())
				require.NoError(t, err, "%s: the output does not read back:\n%s", what, out.String())
				require.True(t, promptfmt.Equal(doc, back), "%s: written without a word, read back changed\nwant %s\ngot  %s\n%s", what, show(doc), show(back), out.String())
				continue
			}
			promptfmt.Locate(doc, err)
			var ue *promptfmt.UnsupportedError
			for _, e := range formattest.Flatten(err) {
				require.True(t, errors.As(e, &ue), "%s: a refusal that is not an UnsupportedError: %v", what, e)
				// A thing has a line; the document as a whole (no message
				// for the model) has none.
				if ue.Index >= 0 || ue.Thing == promptfmt.ThingMeta || ue.Thing == promptfmt.ThingComment || ue.Thing == promptfmt.ThingRequest ||
					ue.Thing == promptfmt.ThingMessages && len(doc.Messages) > 1 {
					require.NotZero(t, ue.Line, "%s: a refusal without a line: %v", what, ue)
				}
			}
			fitted, changes, err := promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return to.write(io.Discard, d) })
			if err != nil {
				continue // nothing can meet it (ThingOther): convert --lossy reports it
			}
			out.Reset()
			require.NoError(t, to.write(&out, fitted), what)
			back, err := readBack(to, out.Bytes())
			require.NoError(t, err, "%s: lossy output does not read back:\n%s", what, out.String())
			require.True(t, promptfmt.Equal(fitted, back), "%s: lossy output reads back changed\nwant %s\ngot  %s", what, show(fitted), show(back))
			require.NotEmpty(t, changes, "%s: refused, then fitted without a change", what)
			for _, c := range changes {
				require.True(t, c.Line > 0 || c.Index < 0 && !strings.Contains(c.Done, "metadata"), "%s: a change without a line: %v", what, c)
			}
		}
	}
}

// readBack reads a written file as a user of its format gets it: a
// template (a .prompty always, a .pdl with template syntax) loaded and
// rendered, the rest parsed.
func readBack(f *formatInfo, out []byte) (*promptfmt.Document, error) {
	if f.load != nil && (f.isTemplate == nil || f.isTemplate(out)) {
		tpl, err := f.load(out, "")
		if err != nil {
			return nil, err
		}
		return tpl.Document(nil)
	}
	return f.parse(out)
}

func show(doc *promptfmt.Document) string {
	b, _ := jsonvalue.Encode(doc)
	return string(b)
}
