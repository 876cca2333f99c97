package formats_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/formats"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/lines"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The registry: names and extensions unique, each format found by its
// name and by a file of each of its extensions.
func TestRegistry(t *testing.T) {
	seen := map[string]bool{}
	for _, f := range formats.All() {
		require.False(t, seen[f.Name()], "two formats named %s", f.Name())
		seen[f.Name()] = true
		got, err := formats.ByName(f.Name())
		require.NoError(t, err)
		require.Equal(t, f.Name(), got.Name())
		require.NotEmpty(t, f.Extensions())
		for _, ext := range f.Extensions() {
			require.True(t, strings.HasPrefix(ext, ".") && strings.ToLower(ext) == ext, "%s: extension %q", f.Name(), ext)
			if shared(ext) {
				continue // the content decides (TestSniff)
			}
			got, err := formats.Detect("a"+strings.ToUpper(ext), nil)
			require.NoError(t, err)
			require.Equal(t, f.Name(), got.Name())
		}
	}
	_, err := formats.ByName("nope")
	require.ErrorContains(t, err, `unknown format "nope" (want prapti, stf, pdl, promptfile, prompty, dotprompt, openai, openai-responses, anthropic, gemini)`)
	_, err = formats.Detect("a.txt", nil)
	require.ErrorContains(t, err, "cannot tell the format of a.txt")
}

// The contract, checked once for every format on the same inputs:
//   - Write either writes a file that Parse reads, and
//     writing what it read gives the same bytes (fmt is idempotent), and
//     reads back the document itself: a template format's file loaded
//     and rendered without inputs, whatever its texts hold (escaped
//     template syntax included); another's parsed, when no text holds
//     template syntax;
//     or it refuses with UnsupportedErrors of its own format only, each
//     about a message or the document, and writes nothing;
//   - invalid UTF-8 is a ParseError at its byte, line and column;
//   - every ParseError's position is in the source and agrees with
//     lines.Position.
func TestConformance(t *testing.T) {
	r, rr := rand.New(rand.NewPCG(19, 1)), rand.New(rand.NewPCG(21, 1))
	for _, f := range formats.All() {
		t.Run(f.Name(), func(t *testing.T) {
			homes, settings := requestHomes[f.Name()]
			written, kept := 0, 0
			for n := range 300 {
				doc := formattest.WithRequest(formattest.Document(r), rr)
				if !settings {
					doc.Request = promptfmt.Request{}
				}
				var out bytes.Buffer
				err := f.Write(&out, doc)
				if err != nil {
					require.Empty(t, out.Bytes(), "case %d: a refused write writes nothing", n)
					refused := map[string]bool{}
					for _, e := range formattest.Flatten(err) {
						var ue *promptfmt.UnsupportedError
						require.True(t, errors.As(e, &ue), "case %d: a refusal that is not an UnsupportedError: %v", n, e)
						require.Equal(t, f.Name(), ue.Format, "case %d", n)
						require.Less(t, ue.Index, len(doc.Messages), "case %d", n)
						if ue.Thing == promptfmt.ThingRequest {
							require.Contains(t, doc.Request.Fields(), ue.Key, "case %d: a refusal of a setting the document does not make: %v", n, e)
							refused[ue.Key] = true
						}
					}
					// A setting without a home is refused, never dropped.
					for _, field := range doc.Request.Fields() {
						require.True(t, slices.Contains(homes, field) || refused[field], "case %d: %s has no home, and no refusal says so", n, field)
					}
					// What the format can hold of it, then, as convert --lossy does.
					before := doc
					if doc, _, err = promptfmt.Adapt(doc, func(d *promptfmt.Document) error { return f.Write(io.Discard, d) }); err != nil {
						continue
					}
					for _, field := range doc.Request.Fields() {
						require.True(t, refused[field] || sameField(before, doc, field), "case %d: Adapt changed the setting %s, which was not refused", n, field)
					}
					out.Reset()
					require.NoError(t, f.Write(&out, doc), "case %d: Adapt's document is refused", n)
				}
				written++
				kept += len(doc.Request.Fields())
				back, err := f.Parse(out.Bytes())
				require.NoError(t, err, "case %d:\n%s", n, out.String())
				var again bytes.Buffer
				require.NoError(t, f.Write(&again, back), "case %d", n)
				require.Equal(t, out.String(), again.String(), "case %d: writing what was read changes the file", n)
				require.True(t, promptfmt.EqualRequests(doc.Request, back.Request), "case %d: the settings read back changed\n%s", n, out.String())
				if tf, ok := f.(promptfmt.TemplateFormat); ok {
					// A template's users read it loaded and rendered.
					tpl, err := tf.Load(out.Bytes())
					require.NoError(t, err, "case %d:\n%s", n, out.String())
					got, err := tpl.Render(context.Background(), nil)
					require.NoError(t, err, "case %d:\n%s", n, out.String())
					require.True(t, promptfmt.Equal(doc, got), "case %d: renders back changed\n%s", n, out.String())
				} else if !templateSyntax(doc) {
					require.True(t, promptfmt.Equal(doc, back), "case %d: read back changed\n%s", n, out.String())
				}
			}
			require.Greater(t, written, 100, "too few documents written to test anything")
			if settings && len(homes) > 0 && f.Name() != "prapti" {
				require.NotZero(t, kept, "no setting written: nothing tested")
			}

			src := []byte("ok\nbad \xff here\n")
			_, err := f.Parse(src)
			var pe *promptfmt.ParseError
			require.ErrorAs(t, err, &pe)
			assert.Equal(t, [3]int{2, 5, 7}, [3]int{pe.Line, pe.Col, pe.Offset}, "invalid UTF-8 at its byte")
		})
	}
}

// Every ParseError any format returns for the corpora's files cut short,
// or with a byte changed, is positioned in the source, consistently.
func TestPositions(t *testing.T) {
	files, _ := filepath.Glob("../testdata/examples/*")
	for _, f := range formats.All() {
		for _, name := range files {
			src, err := os.ReadFile(name)
			if err != nil || !slices.Contains(f.Extensions(), filepath.Ext(name)) {
				continue
			}
			for cut := 0; cut < len(src); cut += max(1, len(src)/50) {
				for _, in := range [][]byte{src[:cut], mutate(src, cut)} {
					_, err := f.Parse(in)
					var pe *promptfmt.ParseError
					if !errors.As(err, &pe) {
						continue
					}
					if pe.Line == 0 { // about the file as a whole
						require.Zero(t, pe.Offset, "%s at %d: %v", name, cut, err)
						continue
					}
					require.True(t, pe.Offset >= 0 && pe.Offset <= len(in), "%s: offset %d of %d", name, pe.Offset, len(in))
					line, col := lines.Position(in, pe.Offset)
					require.Equal(t, [2]int{line, col}, [2]int{pe.Line, pe.Col}, "%s at %d: %v", name, cut, err)
				}
			}
		}
	}
}

// Exactly one Sniff of the formats of an extension takes every example
// file, and Detect finds that one.
func TestSniff(t *testing.T) {
	files, _ := filepath.Glob("../testdata/examples/*")
	seen := map[string]bool{}
	for _, name := range files {
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		var took []string
		owned := false
		for _, f := range formats.All() {
			if slices.Contains(f.Extensions(), filepath.Ext(name)) {
				owned = true
				if f.Sniff(src) {
					took = append(took, f.Name())
				}
			}
		}
		if !owned || templateInputs[filepath.Base(name)] {
			continue // not a format's file (an image, a template's inputs)
		}
		require.Len(t, took, 1, "%s: taken by %v", name, took)
		seen[took[0]] = true
		got, err := formats.Detect(name, src)
		require.NoError(t, err)
		require.Equal(t, took[0], got.Name(), name)
	}
	require.Len(t, seen, len(formats.All()), "an example of every format")
}

// shared reports whether several formats read ext.
// templateInputs are the example files that hold a template's inputs,
// plain JSON, not a request body.
var templateInputs = map[string]bool{"inputs.json": true, "pick.json": true, "joke.json": true}

func shared(ext string) bool {
	n := 0
	for _, f := range formats.All() {
		if slices.Contains(f.Extensions(), ext) {
			n++
		}
	}
	return n > 1
}

func mutate(src []byte, at int) []byte {
	out := slices.Clone(src)
	if at < len(out) {
		out[at] = "\"{[<|:;%#\n"[at%10]
	}
	return out
}

// requestHomes are the fields of a Request each format has a home for.
var requestHomes = map[string][]string{
	"dotprompt": {promptfmt.FieldModel, promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldTopK, promptfmt.FieldMaxTokens,
		promptfmt.FieldStop, promptfmt.FieldSeed, promptfmt.FieldFrequencyPenalty, promptfmt.FieldPresencePenalty, promptfmt.FieldTools, promptfmt.FieldOutput},
	"openai": {promptfmt.FieldModel, promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldMaxTokens,
		promptfmt.FieldStop, promptfmt.FieldSeed, promptfmt.FieldFrequencyPenalty, promptfmt.FieldPresencePenalty, promptfmt.FieldTools,
		promptfmt.FieldToolChoice, promptfmt.FieldOutput},
	"openai-responses": {promptfmt.FieldModel, promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldMaxTokens,
		promptfmt.FieldTools, promptfmt.FieldToolChoice, promptfmt.FieldOutput},
	"stf": (&promptfmt.Request{Model: "m", Temperature: new(float64), TopP: new(float64), TopK: new(int64), MaxTokens: new(int64),
		Stop: []string{}, Seed: new(int64), FrequencyPenalty: new(float64), PresencePenalty: new(float64), Tools: []promptfmt.Tool{},
		ToolChoice: &promptfmt.ToolChoice{}, Output: &promptfmt.Output{}}).Fields(),
	"prompty": {promptfmt.FieldModel, promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldTopK, promptfmt.FieldMaxTokens,
		promptfmt.FieldStop, promptfmt.FieldSeed, promptfmt.FieldFrequencyPenalty, promptfmt.FieldPresencePenalty, promptfmt.FieldTools, promptfmt.FieldOutput},
	"pdl": {promptfmt.FieldOutput},
	// Prapti's are configuration lines: a document without them refuses
	// every setting, and Adapt makes it what its lines set.
	"prapti": {promptfmt.FieldModel, promptfmt.FieldTemperature, promptfmt.FieldTopP, promptfmt.FieldMaxTokens, promptfmt.FieldStop,
		promptfmt.FieldFrequencyPenalty, promptfmt.FieldPresencePenalty},
	"promptfile": {},
}

// sameField reports whether two documents make the same setting field.
func sameField(a, b *promptfmt.Document, field string) bool {
	x, y := a.Request.Clone(), b.Request.Clone()
	for _, f := range append(x.Fields(), y.Fields()...) {
		if f != field {
			x.Clear(f)
			y.Clear(f)
		}
	}
	return promptfmt.EqualRequests(x, y)
}

func templateSyntax(doc *promptfmt.Document) bool {
	for _, m := range doc.Messages {
		for _, p := range m.Content {
			if strings.Contains(p.Value, "{{") || strings.Contains(p.Value, "{%") || strings.Contains(p.Value, "{#") {
				return true
			}
		}
		if strings.Contains(m.Name, "{") {
			return true
		}
	}
	return false
}
