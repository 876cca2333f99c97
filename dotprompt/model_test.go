package dotprompt

import "testing"

func TestModelName(t *testing.T) {
	for _, c := range []struct{ ref, plugin, name string }{
		{"googleai/gemini-2.0-flash", "googleai", "gemini-2.0-flash"},
		{"vertexai/gemini-2.5-pro", "vertexai", "gemini-2.5-pro"},
		{"vertexai/publishers/meta/models/llama", "vertexai", "publishers/meta/models/llama"},
		{"gemini-2.0-flash", "", "gemini-2.0-flash"},
		{"/gemini", "", "/gemini"},
		{"googleai/", "", "googleai/"},
		{"", "", ""},
	} {
		plugin, name := ModelName(c.ref)
		if plugin != c.plugin || name != c.name {
			t.Errorf("ModelName(%q) = %q, %q, want %q, %q", c.ref, plugin, name, c.plugin, c.name)
		}
		if plugin != "" && plugin+"/"+name != c.ref {
			t.Errorf("ModelName(%q): %q and %q do not make it back", c.ref, plugin, name)
		}
	}
}
