package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/require"
)

// The tests every provider format shares: reading the payloads of the
// providers' docs and SDKs (testdata/<format>/*.json), each against the
// document it must read as (NAME.want, go test -update rewrites them),
// and writing them back.

// parsed is how a test prints a document read: its request, metadata and
// messages with their lines.
type parsed struct {
	Request  promptfmt.Request `json:"request,omitzero"`
	Meta     map[string]any    `json:"meta,omitempty"`
	Messages []parsedMessage   `json:"messages"`
}

type parsedMessage struct {
	Line    int               `json:"line"`
	Message promptfmt.Message `json:"message"`
}

func show(doc *promptfmt.Document) []byte {
	p := parsed{Request: doc.Request, Meta: doc.Meta}
	for _, m := range doc.Messages {
		p.Messages = append(p.Messages, parsedMessage{m.Line, m})
	}
	var b bytes.Buffer
	if err := jsonvalue.Write(&b, p); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// docPayload is one file of testdata/<format>/: what it must read as, or
// the error it must give (NAME.err).
func docPayloads(t *testing.T, f promptfmt.Format) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", f.Name(), "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	return files
}

// testDocPayloads reads each payload: it reads as its .want says, or fails
// as its .err says; what reads is written back (strict) as the same body
// but for normalize's changes, and that reads back as the same document.
func testDocPayloads(t *testing.T, f promptfmt.Format, normalize func(any) any) {
	for _, name := range docPayloads(t, f) {
		t.Run(filepath.Base(name), func(t *testing.T) {
			src, err := os.ReadFile(name)
			require.NoError(t, err)
			base := strings.TrimSuffix(name, ".json")
			doc, err := f.Parse(src, promptfmt.File(name))
			if err != nil {
				got := []byte(err.Error() + "\n")
				if *update {
					require.NoError(t, os.WriteFile(base+".err", got, 0o644))
					return
				}
				want, rerr := os.ReadFile(base + ".err")
				require.NoError(t, rerr, "%v", err)
				require.Equal(t, string(want), string(got))
				checkPositions(t, src, err)
				return
			}
			// Of the providers' formats, its own alone takes it (.json is
			// shared: formats.Detect asks Sniff).
			var took []string
			for _, g := range []promptfmt.Format{OpenAI, OpenAIResponses, Anthropic, Gemini} {
				if g.Sniff(src) {
					took = append(took, g.Name())
				}
			}
			require.Equal(t, []string{f.Name()}, took, "formats whose Sniff takes it")
			if *update {
				require.NoError(t, os.WriteFile(base+".want", show(doc), 0o644))
			} else {
				want, err := os.ReadFile(base + ".want")
				require.NoError(t, err)
				require.Equal(t, string(want), string(show(doc)), "go test -update rewrites %s.want", base)
			}
			var out bytes.Buffer
			require.NoError(t, f.Write(&out, doc))
			back, err := f.Parse(out.Bytes())
			require.NoError(t, err, out.String())
			require.True(t, promptfmt.Equal(doc, back), "read back changed:\n%s", out.String())
			var again bytes.Buffer
			require.NoError(t, f.Write(&again, back))
			require.Equal(t, out.String(), again.String(), "fmt is not idempotent")
			// As encoding/json reads them: 1.0 and 1 are one number.
			var orig, written any
			require.NoError(t, json.Unmarshal(src, &orig))
			require.NoError(t, json.Unmarshal(out.Bytes(), &written))
			require.Equal(t, normalize(orig), written, "the body written back differs from the payload:\n%s", out.String())
		})
	}
}

// checkPositions checks that every ParseError of err is positioned in src.
func checkPositions(t *testing.T, src []byte, err error) {
	t.Helper()
	for _, e := range formattest.Flatten(err) {
		var pe *promptfmt.ParseError
		require.True(t, errors.As(e, &pe), "%T is not a ParseError: %v", e, e)
		require.True(t, pe.Line > 0 && pe.Offset <= len(src), "%v: offset %d", e, pe.Offset)
	}
}

// parseCase is a body and what it reads as, or the error it gives.
type parseCase struct {
	name, body string
	want       *promptfmt.Document // Layout, Lines and KeyLines are not compared
	err        string
	// writeErr is the error writing what was read gives, when the
	// provider refuses what it holds (an empty text).
	writeErr string
}

func testParse(t *testing.T, f promptfmt.Format, cases []parseCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := f.Parse([]byte(tt.body))
			if tt.err != "" {
				require.EqualError(t, err, tt.err)
				require.Nil(t, doc)
				checkPositions(t, []byte(tt.body), err)
				return
			}
			require.NoError(t, err)
			if tt.want.Messages == nil {
				tt.want.Messages = []promptfmt.Message{}
			}
			if !promptfmt.Equal(tt.want, doc) || doc.Messages == nil {
				t.Fatalf("read\n%s\nwant\n%s", show(doc), show(tt.want))
			}
			// What was read is written back as a body that reads as it.
			var out bytes.Buffer
			if tt.writeErr != "" {
				require.EqualError(t, f.Write(&out, doc), tt.writeErr)
				return
			}
			require.NoError(t, f.Write(&out, doc))
			back, err := f.Parse(out.Bytes())
			require.NoError(t, err, out.String())
			require.True(t, promptfmt.Equal(doc, back), "read back changed:\n%s", out.String())
		})
	}
}

// writeCase is a document and the errors writing it gives (strict, or
// sending), each with its nearest part or request where one is offered.
type writeCase struct {
	name string
	doc  *promptfmt.Document
	send bool
	err  string
	// nearest is the nearest part of each error that has one, in order.
	nearest []promptfmt.ContentPart
	// body is what is written when err is empty: compact JSON.
	body string
}

func testWrite(t *testing.T, f promptfmt.Format, cases []writeCase) {
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var opts []promptfmt.Option
			if tt.send {
				opts = append(opts, promptfmt.Send())
			}
			var out bytes.Buffer
			err := f.Write(&out, tt.doc, opts...)
			if tt.err == "" {
				require.NoError(t, err)
				var c bytes.Buffer
				require.NoError(t, json.Compact(&c, out.Bytes()))
				require.Equal(t, tt.body, c.String())
				return
			}
			require.EqualError(t, err, tt.err)
			require.Empty(t, out.Bytes(), "a refused write writes nothing")
			var nearest []promptfmt.ContentPart
			for _, e := range formattest.Flatten(err) {
				var ue *promptfmt.UnsupportedError
				require.True(t, errors.As(e, &ue), "%T", e)
				require.Equal(t, f.Name(), ue.Format)
				if ue.NearestPart != nil {
					nearest = append(nearest, *ue.NearestPart)
				}
			}
			if !reflect.DeepEqual(tt.nearest, nearest) {
				t.Fatalf("nearest parts %+v, want %+v", nearest, tt.nearest)
			}
		})
	}
}
