package builtins

import "github.com/promptfmt/promptfmt/internal/gonja/exec"

var GlobalVariables = exec.NewContext(map[string]any{
	"gonja": map[string]any{
		"version": "v2.9.1",
	},
})
