package dotprompt

import (
	"context"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/promptfmt/promptfmt"
)

// {{log}} reaches Render's warnings, not the process's logger, and counts
// against MaxBytes.
func TestLog(t *testing.T) {
	var logged strings.Builder
	log.SetOutput(&logged)
	defer log.SetOutput(os.Stderr)
	tpl, err := Load([]byte("{{#each xs}}{{log this}}{{/each}}hi"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := tpl.Render(context.Background(), map[string]any{"xs": []any{"a", 2}})
	if err != nil || doc.Messages[0].Text() != "hi" || len(doc.Warnings) != 2 || doc.Warnings[0].Msg != "{{log}}: a" || doc.Warnings[1].Msg != "{{log}}: 2" {
		t.Fatalf("%v %v", doc, err)
	}
	if logged.Len() > 0 {
		t.Errorf("the process's logger was given %q", logged.String())
	}
	_, err = tpl.Render(context.Background(), map[string]any{"xs": []any{strings.Repeat("x", 100)}}, promptfmt.Limits(promptfmt.TemplateLimits{MaxBytes: 10}))
	if err == nil || !strings.Contains(err.Error(), "MaxBytes") {
		t.Errorf("100 bytes logged under MaxBytes 10: %v", err)
	}
}
