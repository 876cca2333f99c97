package provider

// Telling the providers' bodies apart: they share the extension .json.
// Sniff looks at the member names of the top level and the names and
// "type"/"role" values found at any depth, in one pass over the text
// without decoding it.
//
// Decision: a body both OpenAI and Anthropic read the same way (messages
// of user and assistant text, and nothing only one of them has) is
// OpenAI's: its Sniff takes it, Anthropic's needs a mark of its own.

// marks is what sniffing found.
type marks struct {
	array bool            // the text is an array
	top   map[string]bool // the top level's member names
	any   map[string]bool // member names at any depth, "type"/"role" values as "=value", role values as "role=value" too
}

// sniffMarks scans src; ok is false when it does not start as JSON.
func sniffMarks(src []byte) (marks, bool) {
	m := marks{top: map[string]bool{}, any: map[string]bool{}}
	i := 0
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
		i++
	}
	if len(src)-i >= 3 && src[i] == 0xEF && src[i+1] == 0xBB && src[i+2] == 0xBF {
		i += 3
		for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r') {
			i++
		}
	}
	if i >= len(src) || src[i] != '{' && src[i] != '[' {
		return m, false
	}
	m.array = src[i] == '['
	depth := 0
	var lastKey string // the member name before the value being read
	for ; i < len(src); i++ {
		switch c := src[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			start := i + 1
			for i++; i < len(src) && src[i] != '"'; i++ {
				if src[i] == '\\' {
					i++
				}
			}
			if i >= len(src) {
				return m, true
			}
			s := string(src[start:i])
			j := i + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\n' || src[j] == '\r') {
				j++
			}
			if j < len(src) && src[j] == ':' { // a member name
				if depth == 1 && !m.array {
					m.top[s] = true
				}
				m.any[s] = true
				lastKey = s
			} else if lastKey == "type" || lastKey == "role" {
				m.any["="+s] = true
				if lastKey == "role" {
					m.any["role="+s] = true // Anthropic's tool_choice has type "tool"
				}
			}
		}
	}
	return m, true
}

func (m marks) has(names ...string) bool {
	for _, n := range names {
		if m.any[n] {
			return true
		}
	}
	return false
}

func (m marks) hasTop(names ...string) bool {
	for _, n := range names {
		if m.top[n] {
			return true
		}
	}
	return false
}

// anthropicMarks are what only an Anthropic body has.
func (m marks) anthropic() bool {
	return m.hasTop("system", "stop_sequences", "top_k", "thinking", "anthropic_version", "mcp_servers", "container",
		"output_config", "inference_geo", "diagnostics") ||
		m.has("=tool_use", "=tool_result", "=document", "source", "tool_use_id", "input_schema", "cache_control", "=base64")
}

// openAIMarks are what only a Chat Completions body has.
func (m marks) openAI() bool {
	return m.hasTop("n", "response_format", "logit_bias", "frequency_penalty", "presence_penalty", "seed",
		"max_completion_tokens", "user", "stream_options", "logprobs", "top_logprobs", "modalities", "audio") ||
		m.has("tool_calls", "tool_call_id", "image_url", "input_audio", "file_data", "=system", "=developer", "role=tool", "=function")
}

func sniffOpenAI(src []byte) bool {
	m, ok := sniffMarks(src)
	if !ok {
		return false
	}
	if m.array {
		return true
	}
	return m.top["messages"] && !m.anthropic() && !m.hasTop("contents", "input", "instructions")
}

func sniffAnthropic(src []byte) bool {
	m, ok := sniffMarks(src)
	return ok && !m.array && m.top["messages"] && m.anthropic() && !m.openAI() && !m.hasTop("contents", "input", "instructions")
}

func sniffGemini(src []byte) bool {
	m, ok := sniffMarks(src)
	return ok && !m.array && m.hasTop("contents") && !m.hasTop("messages", "input")
}

// sniffResponses takes a body with input or instructions and no other
// provider's conversation.
func sniffResponses(src []byte) bool {
	m, ok := sniffMarks(src)
	return ok && !m.array && m.hasTop("input", "instructions") && !m.hasTop("messages", "contents", "system_instruction", "systemInstruction")
}
