package provider

// layout is what a provider format's Parse keeps of how the body was
// written (Document.Layout), so that its Write writes back the same body:
// the members it read that the model has no field for, and spellings the
// model does not hold. Another format's document has none, and is written
// in the canonical spelling, its unknown metadata refused.
type layout struct {
	format   string
	meta     map[string]bool // body members kept in Meta
	metadata map[string]bool // message (and partKey) members kept in metadata
	// maxTokens is the member MaxTokens was read from (OpenAI's
	// max_tokens or max_completion_tokens).
	maxTokens string
	// stopString is whether a single stop sequence was a string.
	stopString bool
	// camel is whether a Gemini body spelled its members in camelCase.
	camel bool
	// spelled is whether a member has decided camel (the first one that
	// has two spellings); spelling is how each name (in lowerCamelCase)
	// that has two was first spelled, for a body that mixes them.
	spelled  bool
	spelling map[string]string
	// roleless is whether no content of a Gemini body had a role: its
	// user contents are written without one.
	roleless bool
	// contentsObject is whether a Gemini body's contents was one object,
	// the shorthand the REST examples use for a list of one; partsObject,
	// by content index (-1: the system instruction), whether its parts
	// were.
	contentsObject bool
	partsObject    map[int]bool
	// toolParams names, by tool, the member a Gemini function declaration
	// gave its schema in when it was "parameters" (OpenAPI's subset), not
	// parametersJsonSchema; outputSchema is "responseSchema" when the
	// output schema was read from there.
	toolParams   map[string]string
	outputSchema string
	// modeLower is whether a Gemini function calling mode was written in
	// lower case ("auto"), as the REST examples do.
	modeLower bool
	// responses is what a Responses body says beyond its meaning; nil
	// for a document read from elsewhere.
	responses *responsesLayout
}

// layoutOf returns doc's layout when format's Parse made it, else an
// empty one.
func layoutOf(format string, layoutValue any) *layout {
	if l, ok := layoutValue.(*layout); ok && l.format == format {
		return l
	}
	return &layout{format: format}
}

func (l *layout) readMeta(key string) {
	if l.meta == nil {
		l.meta = map[string]bool{}
	}
	l.meta[key] = true
}

func (l *layout) readMetadata(key string) {
	if l.metadata == nil {
		l.metadata = map[string]bool{}
	}
	l.metadata[key] = true
}
