package provider

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the provider sections of testdata/golden/*.txtar")

// A golden file is a txtar archive: a comment saying what the case is
// about, then "-- input.json --", the messages (promptfmt's JSON, plus
// "line" for Message.Line), then for each provider either
// "-- NAME.json --", the request as encoded, or "-- NAME.err --", the
// error text. go test -update rewrites the provider sections.

type section struct {
	name string
	data []byte
}

func parseTxtar(src []byte) (comment []byte, sections []section) {
	var cur *section
	for len(src) > 0 {
		line, rest, _ := bytes.Cut(src, []byte("\n"))
		if n, ok := bytes.CutPrefix(line, []byte("-- ")); ok {
			if n, ok := bytes.CutSuffix(n, []byte(" --")); ok {
				sections = append(sections, section{name: string(n)})
				cur = &sections[len(sections)-1]
				src = rest
				continue
			}
		}
		end := len(line) + 1
		if end > len(src) {
			end = len(src)
		}
		if cur == nil {
			comment = append(comment, src[:end]...)
		} else {
			cur.data = append(cur.data, src[:end]...)
		}
		src = src[end:]
	}
	return comment, sections
}

func formatTxtar(comment []byte, sections []section) []byte {
	var b bytes.Buffer
	b.Write(comment)
	for _, s := range sections {
		b.WriteString("-- " + s.name + " --\n")
		b.Write(s.data)
	}
	return b.Bytes()
}

// inputMessage is a message in a golden input: promptfmt's JSON and its line.
type inputMessage struct {
	promptfmt.Message
	Line int `json:"line,omitempty"`
}

func decodeInput(t *testing.T, data []byte) []promptfmt.Message {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var in []inputMessage
	require.NoError(t, dec.Decode(&in), "input.json")
	msgs := make([]promptfmt.Message, len(in))
	for i, m := range in {
		msgs[i] = m.Message
		msgs[i].Line = m.Line
	}
	return msgs
}

// encode is how the tests print a request: indented, without HTML escapes.
func encode(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	require.NoError(t, enc.Encode(v))
	return b.Bytes()
}

// exported returns the section a provider's answer makes.
func exported(t *testing.T, name string, msgs []promptfmt.Message) section {
	v, err := export(name, msgs)
	if err != nil {
		checkErrors(t, name, msgs, err)
		return section{name: name + ".err", data: []byte(err.Error() + "\n")}
	}
	return section{name: name + ".json", data: encode(t, v)}
}

// checkErrors checks that err joins *promptfmt.UnsupportedError values of
// the right format, message and line.
func checkErrors(t *testing.T, format string, msgs []promptfmt.Message, err error) {
	t.Helper()
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok, "%s: the error is not a join: %T", format, err)
	for _, e := range joined.Unwrap() {
		var ue *promptfmt.UnsupportedError
		require.True(t, errors.As(e, &ue), "%s: %T is not an UnsupportedError", format, e)
		require.Equal(t, format, ue.Format)
		require.True(t, ue.Index >= 0 && ue.Index < len(msgs), "message index %d", ue.Index)
		require.Equal(t, msgs[ue.Index].Line, ue.Line)
	}
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			comment, sections := parseTxtar(src)
			require.NotEmpty(t, sections)
			require.Equal(t, "input.json", sections[0].name, "the first section")
			msgs := decodeInput(t, sections[0].data)
			got := []section{sections[0]}
			for _, name := range exportNames() {
				got = append(got, exported(t, name, msgs))
			}
			if *update {
				require.NoError(t, os.WriteFile(file, formatTxtar(comment, got), 0o644))
				return
			}
			require.Equal(t, len(got), len(sections), "sections (go test -update rewrites them)")
			for i := 1; i < len(got); i++ {
				require.Equal(t, sections[i].name, got[i].name)
				require.Equal(t, string(sections[i].data), string(got[i].data), "%s (go test -update rewrites it)", got[i].name)
			}
		})
	}
}
