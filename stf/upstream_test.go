package stf

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/homes"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The upstream goldens in testdata/upstream (see its SOURCE.md), run as
// tests. Upstream's final-LF rule differs from ours (see the package doc):
// upstream's reading of X is our reading of X+"\n", for every X, so each
// decode case is checked that way, and X itself is checked too when it does
// not end in LF (then both readings agree).

// decodeDeviations are the decode cases whose outcome differs from
// upstream's on purpose; the value is the reason. Each is still run: the
// test checks that we really do differ (want names our outcome).
var decodeDeviations = map[string]struct{ reason, want string }{
	"crlf_line_endings":                 {"a CR before LF on a command line is tolerated, so CRLF files parse", "ok"},
	"kv_uppercase_key":                  {"argument keys are [a-z][a-z0-9_]* as the spec says; upstream accepts and drops Name=x", "error"},
	"msg_role_arg_on_role_command":      {"role= on ;user names a role the command does not set: an error, not silently ignored", "error"},
	"kv_unknown_key":                    {"unknown arguments are kept in Metadata, not dropped", "ok"},
	"comment_invalid_line_inside_block": {"inside a block comment every line is ignored, as the issue's rule says", "ok"},
	"raw_with_args":                     {";raw takes no arguments; upstream parses and ignores them", "error"},
}

type golden struct {
	Name    string          `json:"name"`
	OK      bool            `json:"ok"`
	Options map[string]any  `json:"decoder_options"`
	Result  json.RawMessage `json:"result"`
	Error   string          `json:"error_message"`
}

func TestUpstreamDecode(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/decode/*.json")
	require.NoError(t, err)
	require.Len(t, files, 120)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".json")
		t.Run(name, func(t *testing.T) {
			var g golden
			require.NoError(t, json.Unmarshal(readFile(t, file), &g))
			src := readFile(t, strings.TrimSuffix(file, ".json")+".stf")
			var opts []promptfmt.Option
			if r, ok := g.Options["default_role"].(string); ok {
				opts = append(opts, DefaultRole(r))
			}
			dev, deviates := decodeDeviations[name]
			for _, in := range inputs(src) {
				doc, err := Parse(in.src, opts...)
				if doc != nil {
					doc.Comments = nil // upstream drops comments; we keep them beside the messages
				}
				switch {
				case deviates && dev.want == "error":
					assert.Error(t, err, "%s (deviation: %s)", in.what, dev.reason)
				case deviates:
					require.NoError(t, err, "%s (deviation: %s)", in.what, dev.reason)
					if g.OK {
						assert.False(t, promptfmt.Equal(upstreamDoc(t, g.Result), doc), "%s: expected to differ from upstream: %s", in.what, dev.reason)
					}
				case !g.OK:
					assert.Error(t, err, "%s: upstream fails with %q", in.what, g.Error)
				default:
					require.NoError(t, err, in.what)
					want := upstreamDoc(t, g.Result)
					assert.True(t, promptfmt.Equal(want, doc), "%s\nwant %s\ngot  %s", in.what, js(want), js(doc))
				}
			}
		})
	}
}

type input struct {
	what string
	src  []byte
}

// inputs are the sources whose reading must match upstream's reading of
// src: src+"\n" always, and src itself when it does not end in LF.
func inputs(src []byte) []input {
	in := []input{{"with a final LF added", append(bytes.Clone(src), '\n')}}
	if !bytes.HasSuffix(src, []byte("\n")) {
		in = append(in, input{"as recorded", src})
	}
	return in
}

// TestUpstreamFinalLF checks the deviation itself: for recorded files that
// end in LF, upstream's last text keeps that LF and ours does not.
func TestUpstreamFinalLF(t *testing.T) {
	for _, name := range []string{"upstream_trailing_newline", "eof_two_newlines", "eof_three_newlines"} {
		src := readFile(t, "testdata/upstream/decode/"+name+".stf")
		var g golden
		require.NoError(t, json.Unmarshal(readFile(t, "testdata/upstream/decode/"+name+".json"), &g))
		want := upstreamDoc(t, g.Result)
		last := &want.Messages[len(want.Messages)-1].Content[0]
		require.True(t, strings.HasSuffix(last.Value, "\n"), name)
		last.Value = strings.TrimSuffix(last.Value, "\n")
		doc, err := Parse(src)
		require.NoError(t, err)
		assert.True(t, promptfmt.Equal(want, doc), "%s: want %s, got %s", name, js(want), js(doc))
	}
}

// encodeDeviations are the encode cases where our canonical output differs
// from upstream's (beyond the final LF every file of ours ends with).
var encodeDeviations = map[string]string{
	"content_parts_raw":  "an image part is written as ;embed, not as a ;raw block",
	"reasoning_dropped":  "reasoning is kept (as an argument), not dropped",
	"tool_calls_dropped": "tool calls are kept (as ;call), not dropped",
	"no_messages":        "an empty document is an empty file, with no final LF",
	"extra_block":        "string metadata that fits an argument is written on the command line (;ai model=gpt-4o)",
	"extra_on_empty":     "string metadata that fits an argument is written on the command line",
	"quoting":            "an empty name is no name in the model, so name=\"\" is not written",
}

func TestUpstreamEncode(t *testing.T) {
	files, err := filepath.Glob("testdata/upstream/encode/*.stf")
	require.NoError(t, err)
	require.Len(t, files, 15)
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".stf")
		t.Run(name, func(t *testing.T) {
			base := strings.TrimSuffix(file, ".stf")
			in := upstreamDoc(t, readFile(t, base+".json"))
			upstreamOut := readFile(t, file)
			var out bytes.Buffer
			require.NoError(t, Write(&out, in))
			if reason, ok := encodeDeviations[name]; ok {
				assert.NotEqual(t, string(upstreamOut)+"\n", out.String(), reason)
			} else {
				assert.Equal(t, string(upstreamOut)+"\n", out.String())
			}
			// Ours reads back to the input, all of it.
			back, err := Parse(out.Bytes())
			require.NoError(t, err)
			assert.True(t, promptfmt.Equal(in, back), "round trip: want %s, got %s", js(in), js(back))
			// Upstream's output reads as upstream reads it (with the LF
			// upstream's encoder leaves off).
			doc, err := Parse(append(upstreamOut, '\n'))
			require.NoError(t, err)
			want := upstreamDoc(t, readFile(t, base+".roundtrip.json"))
			assert.True(t, promptfmt.Equal(want, doc), "upstream output: want %s, got %s", js(want), js(doc))
		})
	}
}

func TestUpstreamArgs(t *testing.T) {
	var cases []struct {
		Name   string
		Input  string
		OK     bool
		Result json.RawMessage
	}
	require.NoError(t, json.Unmarshal(readFile(t, "testdata/upstream/args.json"), &cases))
	require.Len(t, cases, 35)
	deviations := map[string]string{
		"key_uppercase": "argument keys are lowercase, as the spec says",
	}
	for _, c := range cases {
		p := &parser{src: []byte(c.Input)}
		args, err := p.parseArgs(c.Input, 0)
		if reason, ok := deviations[c.Name]; ok {
			assert.Error(t, err, "%s: %s", c.Name, reason)
			continue
		}
		if !c.OK {
			assert.Error(t, err, c.Name)
			continue
		}
		require.NoError(t, err, c.Name)
		got := map[string]any{}
		for _, a := range args {
			got[a.key] = a.value()
		}
		want := decodeJSON(t, c.Result).(map[string]any)
		assert.True(t, promptfmt.Equal(&promptfmt.Document{Meta: want}, &promptfmt.Document{Meta: got}), "%s: want %v, got %v", c.Name, want, got)
	}
}

// upstreamDoc maps upstream's decoded data ({messages, metadata}) to the
// model as the package doc says: name to Name; id, call_id, reasoning,
// refusal to Metadata; extra merged into Metadata (or under "extra");
// content parts and tool_calls to parts; metadata merged into Meta.
func upstreamDoc(t *testing.T, raw []byte) *promptfmt.Document {
	t.Helper()
	data := decodeJSON(t, raw).(map[string]any)
	doc := &promptfmt.Document{}
	if md, ok := data["metadata"]; ok {
		merge(&doc.Meta, "meta", md)
		// Upstream's metadata, with the settings read as ours are.
		doc.Meta, _, _ = homes.Take(doc.Meta, requestHomes, &doc.Request, nil)
	}
	for _, x := range data["messages"].([]any) {
		um := x.(map[string]any)
		m := promptfmt.Message{Role: um["role"].(string)}
		if n, ok := um["name"].(string); ok {
			m.Name = n
		}
		for _, k := range []string{"id", "call_id", "reasoning", "refusal"} {
			if v, ok := um[k]; ok {
				setMeta(&m.Metadata, k, v)
			}
		}
		switch c := um["content"].(type) {
		case string:
			m.Content = []promptfmt.ContentPart{promptfmt.Text(c)}
		case []any:
			for _, y := range c {
				p := y.(map[string]any)
				switch p["type"] {
				case "text":
					m.Content = append(m.Content, promptfmt.Text(p["text"].(string)))
				default:
					part := promptfmt.ContentPart{Kind: promptfmt.Kind(p["type"].(string))}
					for _, k := range []string{"url", "data"} {
						if v, ok := p[k].(string); ok {
							part.Value = v
						}
					}
					m.Content = append(m.Content, part)
				}
			}
		}
		if calls, ok := um["tool_calls"].([]any); ok {
			for _, y := range calls {
				c := y.(map[string]any)
				m.Content = append(m.Content, promptfmt.ContentPart{Kind: promptfmt.KindToolCall,
					ID: c["id"].(string), ToolName: c["name"].(string), Value: c["arguments"].(string)})
			}
		}
		if len(m.Content) == 0 {
			m.Content = []promptfmt.ContentPart{promptfmt.Text("")}
		}
		if e, ok := um["extra"]; ok {
			merge(&m.Metadata, "extra", e)
		}
		doc.Messages = append(doc.Messages, m)
	}
	return doc
}

// decodeJSON decodes JSON into the model's values: integers as int64.
func decodeJSON(t *testing.T, raw []byte) any {
	t.Helper()
	v, err := jsonvalue.Decode(raw)
	require.NoError(t, err)
	return v
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	require.NoError(t, err)
	return b
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
