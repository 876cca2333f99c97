package sdktest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/provider"
	"google.golang.org/genai"
)

// geminiRequest is a generateContent body (GenerateContentRequest) in the
// SDK's types. genai has no type for the body: it builds it from
// Models.GenerateContent's arguments, contents and a
// GenerateContentConfig, whose generation settings it writes into
// generationConfig and the rest beside contents. So generationConfig is
// decoded as a GenerateContentConfig too, and each other member into the
// GenerateContentConfig field of its name (embedded), but outputConfig,
// which genai writes from the field GenerationOutputConfig.
type geminiRequest struct {
	Contents         []*genai.Content              `json:"contents"`
	GenerationConfig *genai.GenerateContentConfig  `json:"generationConfig"`
	Model            string                        `json:"model"`
	OutputConfig     *genai.GenerationOutputConfig `json:"outputConfig"`
	*genai.GenerateContentConfig
}

// geminiSDK sends requests with genai's own client, for the Gemini API
// and for Vertex AI, to a server of the test's that keeps the body and the
// path of the last one: the body genai writes is the body it sends.
type geminiSDK struct {
	clients map[genai.Backend]*genai.Client
	mu      sync.Mutex
	body    []byte
	path    string
}

func newGeminiSDK(t *testing.T) *geminiSDK {
	s := &geminiSDK{clients: map[genai.Backend]*genai.Client{}}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		s.body, s.path = b, r.URL.Path
		s.mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"candidates":[]}`)
	}))
	t.Cleanup(srv.Close)
	for _, b := range []genai.Backend{genai.BackendGeminiAPI, genai.BackendVertexAI} {
		c, err := genai.NewClient(context.Background(), &genai.ClientConfig{Backend: b, APIKey: "key",
			HTTPOptions: genai.HTTPOptions{BaseURL: srv.URL}})
		if err != nil {
			t.Fatal(err)
		}
		s.clients[b] = c
	}
	return s
}

// send sends a request by backend b and returns the body and path sent.
func (s *geminiSDK) send(b genai.Backend, model string, contents []*genai.Content, cfg *genai.GenerateContentConfig) (body []byte, path string, err error) {
	s.mu.Lock()
	s.body, s.path = nil, ""
	s.mu.Unlock()
	if _, err := s.clients[b].Models.GenerateContent(context.Background(), model, contents, cfg); err != nil {
		return nil, "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.body, s.path, nil
}

// TestGemini: every generateContent body, its members decoded into
// genai's types (google.golang.org/genai v1.77.0, see geminiRequest) and
// sent by genai's client, is the body genai sends, but for the documented
// exceptions.
func TestGemini(t *testing.T) {
	sdk := newGeminiSDK(t)
	n := 0
	for name, body := range bodies(t, provider.Gemini) {
		if p := geminiProblem(t, sdk, body); p != "" {
			t.Errorf("%s: %s\n%s", name, p, body)
		}
		n++
	}
	if n < 50 {
		t.Fatalf("only %d bodies checked", n)
	}
}

// geminiProblem says how genai reads body otherwise, "" for not.
func geminiProblem(t *testing.T, sdk *geminiSDK, body []byte) string {
	v, err := jsonvalue.Decode(body)
	if err != nil {
		return "not JSON: " + err.Error()
	}
	// promptfmt writes snake_case unless the body read was camelCase;
	// the REST API reads both, genai's types only camelCase.
	v = protoJSON(v, reflect.TypeFor[geminiRequest]())
	camel, err := jsonvalue.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	var req geminiRequest
	if err := json.Unmarshal(camel, &req); err != nil {
		return "genai's types refuse the body: " + err.Error()
	}
	cfg := req.GenerateContentConfig
	if cfg == nil {
		cfg = &genai.GenerateContentConfig{}
	}
	if req.GenerationConfig != nil {
		// The generation settings join the config's other fields.
		b, err := json.Marshal(req.GenerationConfig)
		if err == nil {
			err = json.Unmarshal(b, cfg)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg.GenerationOutputConfig = req.OutputConfig
	// Decision (model): generateContent takes the model from its URL;
	// genai puts it there, so the body's model is checked against the
	// path genai sends to.
	model := req.Model
	if model == "" {
		model = "gemini-model"
	}
	var errs []string
	for _, b := range []genai.Backend{genai.BackendGeminiAPI, genai.BackendVertexAI} {
		// A body for one of them: genai refuses, for the Gemini API, a
		// member only Vertex AI takes (outputConfig, modelArmorConfig) and
		// the other way round (store).
		sent, path, err := sdk.send(b, model, req.Contents, cfg)
		if err != nil {
			errs = append(errs, fmt.Sprintf("%s: %v", b, err))
			continue
		}
		if p, err := url.PathUnescape(path); err != nil || !strings.HasSuffix(p, "models/"+strings.TrimPrefix(model, "models/")+":generateContent") {
			return fmt.Sprintf("genai sends model %q to %s", model, path)
		}
		if d := jsonDiff(geminiExpected(t, camel), geminiSent(t, camel, sent)); d != "" {
			return fmt.Sprintf("genai (%s) sends the body otherwise (an unknown or mistyped member): %s\ngenai sends: %s", b, d, sent)
		}
		return ""
	}
	return "genai refuses the request: " + strings.Join(errs, "; ")
}

// geminiExpected is the body (camelCase) as genai must send it: without
// model (sent in the URL), and without a member set to a zero genai's
// field cannot send (see withoutUnsendableZeros).
func geminiExpected(t *testing.T, camel []byte) []byte {
	return edited(t, camel, func(m map[string]any) {
		delete(m, "model")
		withoutUnsendableZeros(m, reflect.TypeFor[geminiRequest]())
	})
}

// geminiSent is the body genai sent without what genai adds itself to
// any request, when the body did not have it: an empty generationConfig
// (it always writes the config's generation settings there), a system
// instruction's role "user" (GenerateContentConfig.setDefaults; the API
// ignores it), and contents null for none (a nil slice).
func geminiSent(t *testing.T, camel, sent []byte) []byte {
	var body map[string]any
	if err := json.Unmarshal(camel, &body); err != nil {
		t.Fatal(err)
	}
	return edited(t, sent, func(m map[string]any) {
		if g, ok := m["generationConfig"].(map[string]any); ok && len(g) == 0 && body["generationConfig"] == nil {
			delete(m, "generationConfig")
		}
		si, _ := m["systemInstruction"].(map[string]any)
		bsi, _ := body["systemInstruction"].(map[string]any)
		if si != nil && bsi != nil && si["role"] == "user" && bsi["role"] == nil {
			delete(si, "role")
		}
		if c, ok := body["contents"].([]any); ok && len(c) == 0 && m["contents"] == nil {
			m["contents"] = []any{}
		}
	})
}

// protoJSON returns v, a JSON value of Go type t, with the member names of
// its objects that are protobuf messages (Go structs) in lowerCamelCase,
// as genai's json tags have them: the REST API reads protobuf's JSON,
// which takes the proto field name (snake_case) too. The members of maps
// and of free JSON (a function call's args, a JSON schema) are left as
// they are: they are data, not field names.
//
// It also makes an object where t is a list of messages a list of one:
// the API's JSON reader takes one object for a repeated field, and the
// Gemini API's own REST examples write contents and parts so
// (provider/testdata/gemini/rest-system-instruction.json,
// rest-function-calling.json), which promptfmt writes back as read; genai's
// slices cannot decode it.
func protoJSON(v any, t reflect.Type) any {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(m))
		for k, x := range m {
			k = camelKey(k)
			if f, ok := jsonField(t, k); ok {
				x = protoJSON(x, f.Type)
			}
			out[k] = x
		}
		return out
	case reflect.Slice:
		if m, ok := v.(map[string]any); ok && isMessage(t.Elem()) {
			v = []any{m}
		}
		a, ok := v.([]any)
		if !ok {
			return v
		}
		for i := range a {
			a[i] = protoJSON(a[i], t.Elem())
		}
		return a
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		for k, x := range m {
			m[k] = protoJSON(x, t.Elem())
		}
		return m
	}
	return v
}

// isMessage reports whether t is a struct or a pointer to one.
func isMessage(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Struct
}

// withoutUnsendableZeros removes from m, an object of Go type t, and the
// objects in it, each member whose value is a zero (0, false, an empty
// array) in a field genai cannot send it from: a number, bool or slice
// field (not a pointer) tagged omitempty, as maxOutputTokens (int32) or
// stopSequences. The API reads such a member (an empty list is no list);
// genai writes nothing. Its JSON type was still checked: it was decoded.
func withoutUnsendableZeros(v any, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return
		}
		for k, x := range m {
			f, ok := jsonField(t, k)
			if !ok {
				continue
			}
			_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if strings.Contains(opts, "omitempty") && jsonZero(x, f.Type.Kind()) {
				delete(m, k)
				continue
			}
			withoutUnsendableZeros(x, f.Type)
		}
	case reflect.Slice:
		a, _ := v.([]any)
		for _, x := range a {
			withoutUnsendableZeros(x, t.Elem())
		}
	case reflect.Map:
		m, _ := v.(map[string]any)
		for _, x := range m {
			withoutUnsendableZeros(x, t.Elem())
		}
	}
}

// jsonZero reports whether x is the zero a Go field of kind k leaves out
// under omitempty, of the kinds withoutUnsendableZeros lets pass.
func jsonZero(x any, k reflect.Kind) bool {
	switch k {
	case reflect.Int, reflect.Int32, reflect.Int64, reflect.Float32, reflect.Float64:
		return numbersEqual(x, int64(0))
	case reflect.Bool:
		return x == false
	case reflect.Slice:
		a, ok := x.([]any)
		return ok && len(a) == 0
	}
	return false
}

// jsonField returns the exported field of struct t, or of a struct
// embedded in it, whose JSON name is name.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for _, f := range reflect.VisibleFields(t) {
		if n, _, _ := strings.Cut(f.Tag.Get("json"), ","); n == name && f.IsExported() {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// camelKey returns a proto field name in lowerCamelCase, as protobuf's
// JSON names it: "system_instruction" is "systemInstruction".
func camelKey(k string) string {
	var b strings.Builder
	up := false
	for i := 0; i < len(k); i++ {
		c := k[i]
		if c == '_' && b.Len() > 0 {
			up = true
			continue
		}
		if up && 'a' <= c && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b.WriteByte(c)
	}
	return b.String()
}
