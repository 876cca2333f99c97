// Package sdktest checks the request bodies promptfmt writes against the
// providers' official Go SDKs, so that no member is unknown to the SDK, of
// a type it does not take, or out of its place (the SDKs drop the first
// silently when they decode). It is a module of its own so that
// promptfmt's go.mod does not carry the SDKs; .ci/run runs it.
//
// The bodies (bodies_test.go): every example and provider test body of
// the module, read in its own format and sent (promptfmt.Send), and as
// read when it is the provider's own; and 300 generated documents, with
// generated requests (formattest.WithRequest), sent, written as files, and
// changed by promptfmt.Adapt to what the provider takes and sent (what
// --lossy sends).
//
// The checks: each body is decoded into the SDK's request types, encoded
// again and compared with the body as JSON values:
//
//   - OpenAI Chat Completions: openai.ChatCompletionNewParams
//     (github.com/openai/openai-go/v3 v3.98.0).
//   - OpenAI Responses: responses.ResponseNewParams (the same module).
//   - Anthropic Messages: MessageNewParams of
//     github.com/anthropics/anthropic-sdk-go v1.84.0 and /v2 v2.15.0, both:
//     v1 (API version 2023-06-01) takes every member promptfmt writes; v2
//     (2026-10-21) removed temperature, top_k and top_p, and is checked on
//     the rest. The SDK cannot be built beside promptfmt's dotprompt
//     package (its invopop/jsonschema is v0.14, the Dotprompt runtime's
//     v0.13, whose API differs), so it runs as a command in a module of its
//     own, anthropic/, which the tests start with go run.
//   - Gemini generateContent: google.golang.org/genai v1.77.0. genai has no
//     type for the body; each member is decoded into the genai type genai
//     builds it from (geminiRequest: contents into []*Content, the other
//     members and generationConfig's into GenerateContentConfig), and the
//     request is sent by genai's own client, for the Gemini API or Vertex
//     AI, to a test server: the body genai sends must be the body.
//
// And TestMemberLists checks the provider package's documented member
// lists (internal/wire) against the SDKs' JSON fields (by reflection, for
// Gemini by the members genai writes for each field of
// GenerateContentConfig): every member listed is the SDK's, and a body's
// list is all of the SDK's request members. TestChecksCatch feeds each
// check bodies with a member misnamed, mistyped or misplaced: each must
// fail.
//
// Exceptions, each narrow, each for a form the API takes that the SDK
// cannot decode, or a member the SDK sets itself:
//
//   - stream (all): the SDKs set it for their streaming call; no params
//     field holds it.
//   - A tool_choice naming a function (OpenAI Chat and Responses):
//     openai-go's unions decode it into none of their variants; it is
//     checked against the variant's type instead (functionChoice).
//   - Responses input items (typedItems): an item with a role and no type
//     is given the type "message", a member set to null is left out, and
//     an earlier output message's id and status: the API takes each, the
//     SDK's decoder cannot tell them.
//   - Anthropic: the string shorthands (system, a turn's content, a
//     tool_result's content) stand for one text block, which the SDK
//     decodes them as; max_tokens, required, comes back 0 from a body
//     without it (only that 0 passes); v2 is not given temperature, top_k
//     and top_p, and must differ from v1 by exactly those members.
//   - Gemini: snake_case member names are made lowerCamelCase, by genai's
//     types, before decoding (the REST API reads both; genai's json tags
//     are camelCase; map keys and free JSON such as args and schemas are
//     data and left alone); one object where a list of messages goes
//     (contents, parts: the API's own examples write it so) is a list of
//     one; model is sent in the URL, and checked there; genai adds an empty
//     generationConfig, a system instruction's role "user" and null for no
//     contents, which pass where the body had none; a zero (0, false, [])
//     in a field genai cannot send it from (a non-pointer field tagged
//     omitempty: maxOutputTokens, stopSequences) passes, its type still
//     checked by decoding.
package sdktest
