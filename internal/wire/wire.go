// Package wire lists the members of the providers' request bodies that
// the provider package writes back from a document's Meta and metadata:
// the members of each body, and of the messages and content parts in it,
// by the names the providers' official Go SDKs give them. The provider
// package writes by these lists; the test module sdktest (its own go.mod)
// checks every name against the JSON fields of the SDK's request types,
// so that a list cannot name a member the SDK does not have, nor a body
// list leave one out.
//
// Decision: the lists live here, not in package provider, so that sdktest
// can read them (an internal package is visible to the module's tree,
// sdktest included); the provider package makes its sets from them.
package wire

import "github.com/promptfmt/promptfmt"

// OpenAIBody are the members of a Chat Completions request body: the JSON
// names of openai-go's ChatCompletionNewParams (github.com/openai/openai-go/v3
// v3.98.0), and stream, which the SDK sets for NewStreaming.
var OpenAIBody = []string{"messages", "model", "audio", "frequency_penalty", "function_call", "functions",
	"logit_bias", "logprobs", "max_completion_tokens", "max_tokens", "metadata", "modalities", "moderation", "n",
	"parallel_tool_calls", "prediction", "presence_penalty", "prompt_cache_key", "prompt_cache_options",
	"prompt_cache_retention", "reasoning_effort", "response_format", "safety_identifier", "seed", "service_tier",
	"stop", "store", "stream", "stream_options", "temperature", "tool_choice", "tools", "top_logprobs", "top_p",
	"user", "verbosity", "web_search_options"}

// OpenAIMessage are the members of a Chat Completions message beyond role,
// name, content, tool_calls and tool_call_id: an assistant message's
// (ChatCompletionAssistantMessageParam) audio, refusal and legacy
// function_call.
var OpenAIMessage = []string{"audio", "refusal", "function_call"}

// ResponsesBody are the members of a Responses request body: the JSON
// names of openai-go's responses.ResponseNewParams, and stream, which the
// SDK sets for NewStreaming.
var ResponsesBody = []string{"access_programs", "background", "context_management", "conversation", "image",
	"include", "input", "instructions", "max_output_tokens", "max_tool_calls", "metadata", "model", "moderation",
	"parallel_tool_calls", "previous_response_id", "prompt", "prompt_cache_key", "prompt_cache_options",
	"prompt_cache_retention", "reasoning", "safety_identifier", "service_tier", "store", "stream", "stream_options",
	"temperature", "text", "tool_choice", "tools", "top_logprobs", "top_p", "truncation", "user"}

// The members of the Responses input items that a message's metadata
// keeps, as the SDK's item types name them: a message's
// (EasyInputMessageParam, ResponseInputItemMessageParam,
// ResponseOutputMessageParam), a function_call_output's
// (ResponseInputItemFunctionCallOutputParam) and a reasoning item's
// (ResponseReasoningItemParam).
var (
	ResponsesMessage   = []string{"id", "status", "phase"}
	ResponsesOutput    = []string{"id", "status", "namespace", "caller"}
	ResponsesReasoning = []string{"id", "summary", "content", "encrypted_content", "status"}
)

// ResponsesPart are the members of the SDK's content parts
// (ResponseInputTextParam, ResponseOutputTextParam,
// ResponseInputImageParam, ResponseInputFileParam) and function_call items
// (ResponseFunctionToolCallParam) beyond the model's fields, by the kind of
// the part whose metadata keeps them.
var ResponsesPart = map[promptfmt.Kind][]string{
	promptfmt.KindText:     {"annotations", "logprobs", "prompt_cache_breakpoint"},
	promptfmt.KindImage:    {"prompt_cache_breakpoint"},
	promptfmt.KindFile:     {"prompt_cache_breakpoint"},
	promptfmt.KindToolCall: {"id", "status", "namespace", "caller", "async"},
}

// AnthropicBody are the members of a Messages request body: those of
// anthropic-sdk-go's MessageNewParams (v1.84.0, API version 2023-06-01;
// v2.15.0, API version 2026-10-21, drops temperature, top_k and top_p and
// adds nothing), and stream, which the SDK sets for NewStreaming.
var AnthropicBody = []string{"model", "messages", "max_tokens", "system", "metadata", "stop_sequences", "stream",
	"temperature", "top_k", "top_p", "tools", "tool_choice", "thinking", "service_tier", "container",
	"inference_geo", "cache_control", "output_config", "speed", "diagnostics"}

// AnthropicMessage are the members of a turn (MessageParam), which the
// mapping writes itself: a turn has no other.
var AnthropicMessage = []string{"role", "content"}

// AnthropicPart are the members of each kind of block beyond those the
// mapping writes: TextBlockParam's, ImageBlockParam's,
// DocumentBlockParam's, ToolUseBlockParam's and ToolResultBlockParam's.
var AnthropicPart = map[promptfmt.Kind][]string{
	promptfmt.KindText:       {"cache_control", "citations"},
	promptfmt.KindImage:      {"cache_control", "transformations"},
	promptfmt.KindFile:       {"cache_control", "citations", "context"},
	promptfmt.KindToolCall:   {"cache_control", "caller", "toolset_name"},
	promptfmt.KindToolResult: {"cache_control", "is_error", "toolset_name"},
}

// GeminiBody are the members of a generateContent request body
// (GenerateContentRequest), in lowerCamelCase: those google.golang.org/genai
// v1.77.0 writes for the Gemini API or Vertex AI, and model, which the
// request holds where its URL does not (a batch request's). The REST API
// reads each in snake_case too.
var GeminiBody = []string{"contents", "model", "systemInstruction", "generationConfig", "safetySettings",
	"tools", "toolConfig", "cachedContent", "labels", "serviceTier", "store", "continuationToken", "modelArmorConfig",
	"outputConfig"}

// GeminiContent are the members of a content (genai's Content), which the
// mapping writes itself: a content has no other.
var GeminiContent = []string{"role", "parts"}

// GeminiPart are the members of a part beyond its data (genai's Part: a
// thought, its signature, a video's offsets, ...).
var GeminiPart = []string{"thought", "thoughtSignature", "videoMetadata", "mediaResolution", "partMetadata"}
