package builtins

import (
	methods "github.com/promptfmt/promptfmt/internal/gonja/builtins/methods"
	"github.com/promptfmt/promptfmt/internal/gonja/exec"
)

// Methods exports all builtins methods.
var Methods exec.Methods = methods.All
