package builtins

import controlStructures "github.com/promptfmt/promptfmt/internal/gonja/builtins/control_structures"

// ControlStructures exports all builtins controlStructures
var ControlStructures = controlStructures.All
