package provider

import "github.com/promptfmt/promptfmt"

// Missing returns what provider f's API requires of a whole request that
// req does not set, by the member's name in f's body: "model" (Chat
// Completions' and Anthropic's; Gemini's generateContent names the model
// in its URL, and a Responses request may take it from a stored prompt,
// as the SDKs have it) and Anthropic's "max_tokens". A body written without them is well
// formed, and the messages alone need none, but the API refuses it as a
// request: a caller sending one asks Missing first (promptfmt request
// refuses it, naming the flag that sets each).
func Missing(f promptfmt.Format, req promptfmt.Request) []string {
	var missing []string
	if req.Model == "" && (f.Name() == nameOpenAI || f.Name() == nameAnthropic) {
		missing = append(missing, "model")
	}
	if req.MaxTokens == nil && f.Name() == nameAnthropic {
		missing = append(missing, "max_tokens")
	}
	return missing
}
