package dotprompt

import "strings"

// ModelName splits a Genkit model reference, a file's model, into the
// plugin that serves it and the model's name as that plugin's provider
// knows it: "googleai/gemini-2.0-flash" is "googleai" and
// "gemini-2.0-flash", "vertexai/publishers/meta/models/llama" is
// "vertexai" and the rest. A reference without a plugin (no slash, or
// nothing before or after the first) is its own name.
func ModelName(ref string) (plugin, name string) {
	plugin, name, ok := strings.Cut(ref, "/")
	if !ok || plugin == "" || name == "" {
		return "", ref
	}
	return plugin, name
}
