package dotprompt

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/promptfmt/promptfmt"
)

// The json helper writes what Dotprompt's Go runtime writes.
func TestJSONHelper(t *testing.T) {
	v := map[string]any{"a": []any{1, "x<y", map[string]any{}}, "b": []any{}, "c": map[string]any{"d": nil}}
	compact, _ := json.Marshal(v)
	two, _ := json.MarshalIndent(v, "", "  ")
	none, _ := json.MarshalIndent(v, "", "")
	for _, c := range []struct{ tag, want string }{
		{"{{json v}}", string(compact)},
		{"{{json v indent=2}}", string(two)},
		{"{{json v indent=-3}}", string(none)},
		{"{{json v indent=0}}", string(none)},
	} {
		tpl, err := Load([]byte(c.tag))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := tpl.Render(context.Background(), map[string]any{"v": v})
		if err != nil {
			t.Fatalf("%s: %v", c.tag, err)
		}
		if got := doc.Messages[0].Text(); got != c.want {
			t.Errorf("%s = %q, want %q", c.tag, got, c.want)
		}
	}
	tpl, _ := Load([]byte(`{{json v indent="2"}}`))
	if _, err := tpl.Render(context.Background(), map[string]any{"v": 1}); err == nil || !strings.Contains(err.Error(), "not an integer") {
		t.Errorf("a string indent: %v", err)
	}
}

// A json of a json doubles the backslashes, and an indent of a billion
// spaces is a billion bytes a line: both are refused before they are
// built, within MaxBytes, in a moment (the runtime's own helper takes all
// memory on the first and builds the indent a space at a time on the
// second, for hours).
func TestJSONHelperBounded(t *testing.T) {
	deep := "{{json " + strings.Repeat("(json ", 60) + "v" + strings.Repeat(")", 60) + "}}"
	mb := promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 1 << 20})
	for _, c := range []struct {
		src    string
		inputs map[string]any
		limits []promptfmt.Option // the default's 256 MiB takes seconds to build
	}{
		{deep, map[string]any{"v": `"`}, []promptfmt.Option{mb}},
		{"{{json v indent=1000000000}}", map[string]any{"v": []any{1, 2}}, nil},
		{"{{json v indent=1099511627776}}", map[string]any{"v": []any{[]any{[]any{1}}}}, nil},
		{"{{#each xs}}{{json @root indent=100}}{{/each}}", map[string]any{"xs": make([]any, 300), "pad": strings.Repeat("x", 10_000)}, []promptfmt.Option{mb}},
	} {
		tpl, err := Load([]byte(c.src))
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, err = tpl.Render(context.Background(), c.inputs, c.limits...)
		if err == nil || !strings.Contains(err.Error(), "MaxBytes") {
			t.Errorf("%.60s: %v", c.src, err)
		}
		t.Logf("%.40s: refused in %v", c.src, time.Since(start))
	}
	// Within the limit the chain renders, and the limit is the caller's.
	tpl, _ := Load([]byte("{{json (json (json v))}}"))
	doc, err := tpl.Render(context.Background(), map[string]any{"v": `"`})
	if err != nil || doc.Messages[0].Text() != `"\"\\\"\\\\\\\"\\\"\""` {
		t.Errorf("json of json of json: %v %v", doc, err)
	}
	if _, err := tpl.Render(context.Background(), map[string]any{"v": `"`}, promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 10})); err == nil {
		t.Error("MaxBytes 10 allowed 26 bytes of json")
	}
	// Each rendering has the whole budget again.
	for range 3 {
		if _, err := tpl.Render(context.Background(), map[string]any{"v": `"`}, promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 40})); err != nil {
			t.Fatal(err)
		}
	}
}

// indentedSize is the length encoding/json's indenter gives.
func FuzzIndentedSize(f *testing.F) {
	for _, s := range []string{`{"a":[1,{},[]],"b":"x,\":{["}`, `[[[[]]]]`, `"\\"`, `{}`, `1`, `[{"":{"":[null,true]}}]`} {
		f.Add(s, 2)
	}
	f.Fuzz(func(t *testing.T, s string, indent int) {
		var compact, out bytes.Buffer
		if json.Compact(&compact, []byte(s)) != nil {
			return
		}
		indent = indent % 64
		if indent < 0 {
			indent = -indent
		}
		if err := json.Indent(&out, compact.Bytes(), "", strings.Repeat(" ", indent)); err != nil {
			t.Fatal(err)
		}
		if got := indentedSize(compact.Bytes(), indent, math.MaxInt64); got != int64(out.Len()) {
			t.Fatalf("indentedSize(%q, %d) = %d, want %d", compact.String(), indent, got, out.Len())
		}
		if got := indentedSize(compact.Bytes(), indent, int64(out.Len())-1); out.Len() > 0 && got < int64(out.Len()) {
			t.Fatalf("indentedSize under a limit of %d gave %d, under it", out.Len()-1, got)
		}
	})
}

// jsonStringSize is the length json.Marshal gives a string.
func FuzzJSONStringSize(f *testing.F) {
	for _, s := range []string{"", `a"b\c`, "\b\f\n\r\t\x00\x1f\x7f", "<&>", "\u2028\u2029é😀", "\xff\xc3", "\xe2\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out, _ := json.Marshal(s)
		if got := jsonStringSize(s); got != int64(len(out)) {
			t.Fatalf("jsonStringSize(%q) = %d, json.Marshal gives %d bytes", s, got, len(out))
		}
	})
}
