package provider

import "github.com/promptfmt/promptfmt/internal/wire"

// OpenAI's Responses API request body: what is shared by its reader
// (responses_read.go) and writer (responses_write.go).

const nameOpenAIResponses = "openai-responses"

// The members of a Responses request body (wire.ResponsesBody: the
// official SDK's, and stream). Those the Request holds are read into it;
// the rest are kept in Meta.
var responsesBodyMembers = keys(wire.ResponsesBody...)

// responsesOwn are the body members the mapping writes from the messages
// and the Request. Meta holds one of them only as read from a body of
// this format, when the Request could not hold it exactly (a list of
// built-in tools); it is written back when the mapping does not write the
// member itself.
var responsesOwn = keys("input", "instructions", "model", "temperature", "top_p", "max_output_tokens", "tools",
	"tool_choice", "text")

// The members of the input items the model keeps in metadata, as the
// SDK's item types name them (wire.ResponsesMessage, ResponsesOutput,
// ResponsesReasoning): written from any document's metadata, where other
// keys are written only when read from a Responses body.
var (
	responsesMessageMembers   = keys(wire.ResponsesMessage...)
	responsesOutputMembers    = keys(wire.ResponsesOutput...)
	responsesReasoningMembers = keys(wire.ResponsesReasoning...)
)

// responsesPartMembers are the members of the SDK's content parts and
// function_call items beyond the model's fields (wire.ResponsesPart), by
// the kind of the part whose metadata keeps them (under partKey): written
// from any document's metadata.
var responsesPartMembers = kindKeys(wire.ResponsesPart)

// The item members the mapping writes itself: metadata may not name them.
var (
	responsesMessageOwn   = keys("type", "role", "content")
	responsesOutputOwn    = keys("type", "call_id", "output") // and "name", but for null
	responsesReasoningOwn = keys("type")
	// A function_call's members beyond these are kept in its message's
	// metadata under partKey(j, member).
	responsesCallOwn = []string{"type", "call_id", "name", "arguments"}
)

// reasoningRole is the role of a hidden message that holds a reasoning
// item: never sent to a model (a role starting with "_"), its members in
// the message's metadata.
const reasoningRole = "_reasoning"

// responsesLayout is what a Responses body says beyond its meaning, kept
// so that fmt writes the body back as it was. Messages and parts are
// counted as in the Document; a note that no longer fits the document (a
// message since changed) is ignored, the canonical spelling written.
type responsesLayout struct {
	// instructions is whether the first message was read from
	// "instructions" (else from an input item, or there was none).
	instructions bool
	// input is how the input was written: "string", "array", or ""
	// when the body had none.
	input string
	// typed are the messages whose item said "type": "message".
	typed map[int]bool
	// arrays are the messages of one text part written as an array.
	arrays map[int]bool
	// textTypes are the text parts written with the other role's type
	// (input_text in an assistant message, output_text in another), by
	// [2]int{message, part}.
	textTypes map[[2]int]string
	// looseTools are the tools read without "strict", which Responses
	// takes as strict: true.
	looseTools map[int]bool
}
