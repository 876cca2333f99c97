package sdktest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"testing"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/formats"
	"github.com/promptfmt/promptfmt/internal/formattest"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// bodies returns the bodies f writes, by a name for errors: every example
// and test body of the module, read in its own format and sent
// (Document.ForModel, promptfmt.Send), and generated documents, sent and,
// where f takes them exactly, written as files.
func bodies(t *testing.T, f promptfmt.Format) map[string][]byte {
	out := map[string][]byte{}
	write := func(name string, doc *promptfmt.Document, opts ...promptfmt.Option) {
		var b bytes.Buffer
		if err := f.Write(&b, doc, opts...); err == nil {
			out[name] = b.Bytes()
		}
	}
	var files []string
	for _, glob := range []string{"../testdata/examples/*", "../provider/testdata/*/*.json"} {
		m, _ := filepath.Glob(glob)
		files = append(files, m...)
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		from, err := formats.Detect(file, src)
		if err != nil {
			continue
		}
		doc, err := from.Parse(src)
		if err != nil {
			continue
		}
		sent := doc.ForModel()
		if from.Name() == f.Name() {
			sent.Meta, sent.Layout = doc.Meta, doc.Layout
			write(file+" as read", doc)
		}
		write(file+" sent", sent, promptfmt.Send())
	}
	r, rq := rand.New(rand.NewPCG(21, 1)), rand.New(rand.NewPCG(21, 2))
	for i := range 300 {
		doc := formattest.WithRequest(formattest.Document(r), rq)
		sent := doc.ForModel()
		write(fmt.Sprintf("generated %d sent", i), sent, promptfmt.Send())
		write(fmt.Sprintf("generated %d", i), doc)
		// What --lossy sends: the document changed to what f takes.
		adapted, _, err := promptfmt.Adapt(sent, func(d *promptfmt.Document) error {
			return f.Write(io.Discard, d, promptfmt.Send())
		})
		if err == nil {
			write(fmt.Sprintf("generated %d adapted and sent", i), adapted, promptfmt.Send())
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s wrote no body", f.Name())
	}
	return out
}

// jsonDiff names the first place two JSON texts differ as values, "" for
// none.
func jsonDiff(a, b []byte) string {
	x, err := jsonvalue.Decode(a)
	if err != nil {
		return "the first is not JSON: " + err.Error()
	}
	y, err := jsonvalue.Decode(b)
	if err != nil {
		return "the SDK's is not JSON: " + err.Error()
	}
	return diff("$", x, y)
}

func diff(path string, x, y any) string {
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok {
			return fmt.Sprintf("%s: %s, the SDK's %s", path, jsonvalue.Describe(x), jsonvalue.Describe(y))
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		sort.Strings(keys)
		for _, k := range keys {
			xv, xok := x[k]
			yv, yok := y[k]
			switch {
			case !yok:
				return fmt.Sprintf("%s.%s is not kept by the SDK", path, k)
			case !xok:
				return fmt.Sprintf("%s.%s is added by the SDK", path, k)
			}
			if d := diff(path+"."+k, xv, yv); d != "" {
				return d
			}
		}
		return ""
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return fmt.Sprintf("%s: an array of %d, the SDK's %v", path, len(x), jsonvalue.Describe(y))
		}
		for i := range x {
			if d := diff(fmt.Sprintf("%s[%d]", path, i), x[i], y[i]); d != "" {
				return d
			}
		}
		return ""
	}
	if !numbersEqual(x, y) && !reflect.DeepEqual(x, y) {
		return fmt.Sprintf("%s: %s %#v, the SDK's %s %#v", path, jsonvalue.Describe(x), x, jsonvalue.Describe(y), y)
	}
	return ""
}

// numbersEqual: JSON has one number type; 1 and 1.0 are the same number.
func numbersEqual(x, y any) bool {
	f := func(v any) (float64, bool) {
		switch v := v.(type) {
		case int64:
			return float64(v), true
		case float64:
			return v, true
		}
		return 0, false
	}
	a, ok1 := f(x)
	b, ok2 := f(y)
	return ok1 && ok2 && a == b
}

// withoutMembers returns body without the top-level members names: the
// API's members an SDK sets itself (stream: the SDK's streaming call).
func withoutMembers(t *testing.T, body []byte, names ...string) []byte {
	return edited(t, body, func(m map[string]any) {
		for _, n := range names {
			delete(m, n)
		}
	})
}

// edited returns body, a JSON object, as edit changes it.
func edited(t *testing.T, body []byte, edit func(map[string]any)) []byte {
	t.Helper()
	v, err := jsonvalue.Decode(body)
	if err != nil {
		t.Fatal(err)
	}
	if m, ok := v.(map[string]any); ok {
		edit(m)
	}
	out, err := jsonvalue.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// sorted returns the bodies by their names, in the order of the names.
func sorted(all map[string][]byte) (names []string, bodies [][]byte) {
	for n := range all {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		bodies = append(bodies, all[n])
	}
	return names, bodies
}
