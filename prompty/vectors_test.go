package prompty

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/stretchr/testify/require"
)

// parseVector is an upstream Parser.parse conformance vector.
type parseVector struct {
	Name  string `json:"name"`
	Input struct {
		Rendered     string                         `json:"rendered"`
		ThreadInputs map[string][]promptfmt.Message `json:"thread_inputs"`
	} `json:"input"`
	Expected struct {
		Messages []map[string]any `json:"messages"`
	} `json:"expected"`
}

// upstreamVectors returns the vectors of vectors.json for one operation.
func upstreamVectors(t *testing.T, operation string) []json.RawMessage {
	t.Helper()
	var current struct {
		Vectors []struct {
			Operation string          `json:"operation"`
			Vector    json.RawMessage `json:"vector"`
		} `json:"vectors"`
	}
	src, err := os.ReadFile("testdata/upstream/vectors.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(src, &current))
	var out []json.RawMessage
	for _, v := range current.Vectors {
		if v.Operation == operation {
			out = append(out, v.Vector)
		}
	}
	return out
}

func loadParseVectors(t *testing.T) map[string][]parseVector {
	t.Helper()
	out := map[string][]parseVector{}
	for _, raw := range upstreamVectors(t, "parse") {
		var pv parseVector
		require.NoError(t, json.Unmarshal(raw, &pv))
		out["current"] = append(out["current"], pv)
	}
	var legacy []parseVector
	src, err := os.ReadFile("testdata/upstream/legacy_parse_vectors.json")
	require.NoError(t, err)
	require.NoError(t, json.Unmarshal(src, &legacy))
	out["legacy"] = legacy
	require.Len(t, out["current"], 19)
	require.Len(t, out["legacy"], 15)
	return out
}

// project turns our messages into the vector shape, as upstream's runtime
// adapters do: role, content and metadata (omitted when empty). The name
// attribute is Message.Name here and metadata upstream; the projection puts
// it back, so the attribute vectors compare like for like.
func project(t *testing.T, msgs []promptfmt.Message) []map[string]any {
	var out []map[string]any
	for _, m := range msgs {
		meta := map[string]any{}
		for k, v := range m.Metadata {
			meta[k] = v
		}
		if m.Name != "" {
			meta["name"] = m.Name
		}
		p := map[string]any{"role": m.Role, "content": m.Content}
		if len(meta) > 0 {
			p["metadata"] = meta
		}
		out = append(out, p)
	}
	// Through JSON, so that int64(7) and the vector's 7 compare equal.
	b, err := json.Marshal(out)
	require.NoError(t, err)
	var back []map[string]any
	require.NoError(t, json.Unmarshal(b, &back))
	return back
}

// The adapter finds the renderer's placeholder for each thread input in the
// rendered text, as upstream's Python adapter does.
func threadsFor(v parseVector) map[string][]promptfmt.Message {
	if v.Input.ThreadInputs == nil {
		return nil
	}
	threads := map[string][]promptfmt.Message{}
	for name, msgs := range v.Input.ThreadInputs {
		re := regexp.MustCompile(`__PROMPTY_THREAD_[0-9a-fA-F]+_` + regexp.QuoteMeta(name) + `__`)
		for _, ph := range re.FindAllString(v.Input.Rendered, -1) {
			threads[ph] = msgs
		}
	}
	return threads
}

// Every upstream parse vector passes; none needs a deviation.
func TestUpstreamParseVectors(t *testing.T) {
	for set, vectors := range loadParseVectors(t) {
		for _, v := range vectors {
			t.Run(set+"/"+v.Name, func(t *testing.T) {
				var opts []promptfmt.Option
				if th := threadsFor(v); th != nil {
					opts = append(opts, Threads(th))
				}
				doc, err := Parse([]byte(v.Input.Rendered), opts...)
				require.NoError(t, err)
				require.Equal(t, v.Expected.Messages, project(t, doc.Messages))
				if v.Input.ThreadInputs == nil {
					roundTrip(t, doc)
				}
			})
		}
	}
}
