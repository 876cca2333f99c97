// Package provider reads and writes providers' request bodies through the
// model: each is a [promptfmt.Format] of its own, with the same face as
// the text formats.
//
//	OpenAI     {"model", "messages": [...], "temperature", ...}      Chat Completions
//	Anthropic  {"model", "system", "messages": [...], "max_tokens", ...}  Messages
//	Gemini     {"system_instruction", "contents": [...], ...}        generateContent
//
// Parse reads a body into a Document: its messages, the request's
// settings into Document.Request (model, temperature, max tokens, stop
// sequences, tools, tool choice, the output schema), every other member
// of the body into Meta and every member of a message or part the model
// has no field for into the message's metadata, so that Write writes the
// body back. Write writes a Document as a whole body.
//
// A document is written in two ways. Without options, as a file is
// written (promptfmt convert, fmt): Write writes only what Parse reads
// back as the same document, and refuses the rest, offering the nearest
// form the provider keeps where there is one
// ([promptfmt.UnsupportedError].NearestPart, NearestRequest). With
// [promptfmt.Send], to send it: Write writes what the provider takes in
// the form it takes it, as the sections below describe (results of calls
// where the provider wants them, media as it wants them); use it on what
// [promptfmt.Document.ForModel] returns, the messages a model receives
// without their metadata, as promptfmt messages --as and request --as do.
//
//	doc, err := provider.OpenAI.Parse(body)              // a Chat Completions body
//	err = provider.Anthropic.Write(w, doc.ForModel(), promptfmt.Send()) // the same request, for Claude
//
// A body is written with the settings the document has: one written to
// be sent as a request needs what the API requires of one (Chat
// Completions' and Anthropic's model, Anthropic's max_tokens), which [Missing] names when the document lacks
// it (promptfmt request refuses such a body).
//
// # Reading
//
// The body is JSON (RFC 8259, UTF-8) read strictly: a member named twice
// in one object, nesting deeper than 1000 and a number too large for a
// float64 are errors, as are a message without a role, an unknown role,
// part or item type (named), a member of the wrong JSON type, a tool
// result without the id of its call, a call without a name, base64 data
// that does not decode: each a [*promptfmt.ParseError] at its line and
// column, several at once, and no document.
//
// Decision (nothing dropped): a member of the body that is not a setting
// the Request holds goes to Meta as read (user, stream, metadata,
// logit_bias...); a setting whose value the Request cannot hold exactly (a
// tools list holding a tool that is not a function, a tool_choice with
// options the model has no field for, a response format that is not a
// JSON schema or JSON mode) stays in Meta as written, rather than being
// half read; a member of a message the model has no field for (an
// assistant's refusal) goes to its metadata, and a member of a content
// part beyond the model's fields to its message's metadata under
// "content.N.member" (N the part's index in Content). Write writes them
// back where they were; a metadata key that no body of the provider has
// (another format's metadata) is refused. Each message's Line is the line
// of its object.
//
// Decision (one form for one meaning): fmt writes a body in one form: a
// member order of its own, "content" left out (not null) beside tool
// calls, a tool message's one text part as a string. The spellings the
// model does not keep but a body means (max_tokens or
// max_completion_tokens, a stop sequence given as a string) are kept
// from the body read.
//
// # Reading OpenAI Chat Completions
//
// The body is an object with "messages", or a bare array of messages.
// Roles system, developer, user, assistant and tool; "name" is the
// message's name. Content is a string (one text part) or parts: text;
// image_url (Value the URL or data: URI as given, Detail); input_audio
// (Value the base64 data, MediaType audio/wav or audio/mpeg for the
// formats wav and mp3); file (Value the file_data data: URI, or ID the
// file_id; Filename). Content null or left out is one empty text part,
// but beside tool_calls, which are tool_call parts after the text (Value
// the arguments as written, ID, ToolName). A tool message is one
// tool_result part (Value its content: a string, or the text of its one
// text part; ID its tool_call_id). The settings: model, temperature,
// top_p, max_completion_tokens or max_tokens (not both), stop, seed,
// frequency_penalty, presence_penalty, tools (function tools), tool_choice
// and response_format (json_schema, json_object).
//
// # Nothing is dropped or changed silently
//
// What a provider cannot express is an error, never left out: Write
// writes nothing and returns every problem at once, each a
// [*promptfmt.UnsupportedError] (Format "openai", "anthropic" or
// "gemini"; Index the message's index; Line its line; What the problem),
// joined with errors.Join. A problem
// with one part starts with its 1-based number: "part 2: ...". Refused
// everywhere:
//
//   - a disabled message: it never reaches a model, so it is not the
//     caller's LLMMessages;
//   - a role, name or part field that is not valid UTF-8 (JSON would
//     replace the bad bytes);
//   - a part of a kind the model does not define, or with a field its kind
//     does not use ([promptfmt.ContentPart.StrayField]);
//   - a role the provider has no equivalent for, such as "critic" or a
//     hidden "_head";
//   - a tool_call without a tool name, or (OpenAI, Anthropic) without an id;
//     a tool_result without an id, except for Gemini when it names its tool;
//   - a tool_result whose ToolName differs from the name of the earlier
//     tool_call with its id: it would be given to the wrong tool;
//   - media the provider cannot take (below), and media data that is not
//     valid base64.
//
// Decision (metadata): what is sent ([promptfmt.Document.ForModel]) has
// no message metadata: it is what a format attaches to a message
// (tickets, ids, the model a reply came from) and no provider has a place
// for it; the conversation the model reads is role, name and content.
// ForModel turns the one use into what it means: a "tool" message of text
// whose "tool_call_id" or "call_id" metadata names its call (STF's ";tool
// call_id=c1") becomes a tool_result part. Written as a file, a message's
// metadata is written back only where it came from (see Reading).
//
// Decision (no content): a message with no parts is read as the one empty
// text part the model uses for no content.
//
// Decision (conversation rules): the mappings keep the order of messages
// and parts and do not check the rules the APIs apply to a whole
// conversation (at least one message, results following their calls,
// Anthropic's tool_result blocks first in their turn) or to values (name
// and id patterns, image detail words, supported media types beyond those
// named below): the API reports those with its own words.
//
// # Media values
//
// An image, audio or file part's Value is one of the forms the formats of
// this module produce:
//
//   - a data: URI, "data:image/png;base64,iVBOR...": its media type and its
//     data (a data: URI that is not base64 is refused). A MediaType on the
//     part must agree with the URI's (case aside);
//   - bare base64 data, with the media type in MediaType (PDL's images,
//     Prompty's local files);
//   - a URL: any other value that starts with a scheme, "https:", "gs:".
//
// Data sent as base64 is checked: standard alphabet, padded, no line
// breaks; empty data is refused. A part's media type must be
// type/subtype and fit its kind (an image part's starts with image/, an
// audio part's with audio/; OpenAI's audio also takes the bare words wav
// and mp3). A URL part's media type is sent only where the API has a field
// for it (Gemini's file_data); elsewhere the server reads the type from
// the resource.
//
// # Writing OpenAI Chat Completions
//
// The body: "model", "messages", the Request's settings (temperature,
// top_p, max_completion_tokens, or max_tokens when the body read had it,
// stop, seed, frequency_penalty, presence_penalty, tools as function
// tools, tool_choice as a mode or {"type":"function",...}, the output as
// a json_schema response_format, or json_object for an Output with no
// schema), then Meta's members. A top-k setting is refused (Chat
// Completions has none); an output schema without a name is refused with
// the nearest request, which names it "output" (OpenAI needs a name).
// Roles system, developer, user, assistant and tool, each message in
// order, with its name in "name":
//
//   - Content that is one text part is a string; any other content is an
//     array of parts: {"type":"text","text"} (empty text is sent as is),
//     {"type":"image_url","image_url":{"url","detail"}},
//     {"type":"input_audio","input_audio":{"data","format"}},
//     {"type":"file","file":{"file_data","file_id","filename"}}.
//   - Images are http(s) URLs or data: URIs (base64 data becomes one, so it
//     needs its media type); Detail goes in "detail". A file id, a
//     filename or another scheme is refused.
//   - Audio is base64 data with format "wav" (audio/wav, audio/x-wav,
//     audio/wave) or "mp3" (audio/mpeg, audio/mp3); the bare words wav and
//     mp3 (STF's format field) are accepted as the media type. Other types,
//     URLs, detail, file ids and filenames are refused.
//   - Files are base64 data sent as a data: URI in "file_data" (media type
//     required), or a file id (the part's ID, with no Value) in "file_id";
//     Filename goes in "filename". A file URL, or both an id and data, is
//     refused. A file id's media type is not sent (the upload has one).
//   - Media go only in user messages; system, developer, assistant and
//     tool content is text.
//   - An assistant's tool_call parts are "tool_calls":
//     [{"id","type":"function","function":{"name","arguments"}}], with
//     "content" left out when there is no text. Decision: arguments are
//     sent verbatim, not checked as JSON: the API takes them as a string,
//     and models do produce arguments that are not valid JSON, which a
//     replayed conversation must keep. A text part after a tool_call is
//     refused: OpenAI puts an assistant's text before its calls.
//   - Each tool_result part is a message {"role":"tool","tool_call_id",
//     "content": the result}, in the part's place: with Send, a user
//     message holding text, then results, then text is sent as a user
//     message, tool messages, a user message, and a tool message of two
//     results as two; written as a file, each of these is refused (it
//     would read back as other messages). Decision: ToolName on a result
//     is not sent (the id names the call; see the check above), so a
//     file refuses it, offering the result without it.
//   - A tool message holds tool_result parts only; a name on it is
//     refused.
//   - Written as a file, a media part must be in the one form reading
//     gives back (an image as a URL or data: URI without a media type,
//     audio as base64 with audio/wav or audio/mpeg, a file as a data: URI
//     or an id): another form of the same media is refused, offering that
//     form (NearestPart); with Send it is written as OpenAI takes it.
//   - tool_call parts outside assistant messages and tool_result parts
//     outside user and tool messages are refused.
//
// # OpenAI Responses
//
// The Responses API's request body ("openai-responses"), read and written
// whole. Member names are those of the official Go SDK's
// responses.ResponseNewParams (github.com/openai/openai-go/v3 v3.98.0).
//
// Reading:
//
//   - The body is an object with "input", "instructions" or both.
//     "instructions" is a first system message (decision 5 of the import
//     mapping: the API calls it "a system (or developer) message"); a
//     string input is one user message.
//   - model, temperature, top_p, max_output_tokens, tools, tool_choice and
//     text are the Request, when it holds them exactly: function tools
//     {"type":"function","name","description","parameters","strict"};
//     "auto", "none", "required" or {"type":"function","name"};
//     {"format":{"type":"json_schema","name","description","schema","strict"}}
//     or {"format":{"type":"json_object"}}. Another value (built-in tools,
//     a text verbosity, null) and every other member are kept in Meta as
//     written, and written back.
//   - Decision (strict tools): the API makes a function without "strict"
//     strict (it normalizes the schema), so such a tool reads as Strict,
//     and a tool that is not Strict is written with "strict": false. A
//     tool read without "strict" is written back without it.
//   - Message items, with or without "type":"message": roles user,
//     assistant, system and developer. Content is a string (one text
//     part) or parts: input_text and output_text are text;
//     input_image is an image {Value: image_url, an http(s) URL or a data:
//     URI kept whole, or ID: file_id; Detail}; input_file is a file
//     {Value: file_data (a data: URI or base64, kept whole) or file_url, or
//     ID: file_id; Filename; Detail}. Media in an assistant message, a
//     refusal part (the model has none), input_audio (not in the SDK's
//     request content) and any other part type are errors.
//   - A function_call is a tool_call {Value: arguments verbatim, ID:
//     call_id (not the item's id), ToolName: name}, in the assistant
//     message the item right before it made (a message item or a
//     function_call), else in a new one: an assistant's text and parallel
//     calls are one message, as in Chat Completions.
//   - A function_call_output is a tool message of one tool_result {Value:
//     output, ID: call_id, ToolName: name when given}. An output that is
//     an array of content is an error: the model's results are text.
//   - Decision (reasoning items): a reasoning item is a hidden message,
//     role "_reasoning", of one empty text part, the item's members (id,
//     summary, encrypted_content, status, ...) its metadata. Nothing is
//     lost and fmt writes it back in its place; being hidden, it never
//     reaches a model (messages does not print it, messages --as leaves
//     it out). Other item types of the API (web_search_call,
//     computer_call, item_reference, ...) are errors naming the type.
//   - Kept in metadata: an item's members beyond the mapping's (a message
//     item's id, status, phase; a function_call_output's id, status), a
//     part's (partKey: an output_text's annotations and logprobs), a
//     function_call's (its item id and status, under the partKey of its
//     tool_call part).
//   - Errors: an item without a type or role, a message without a role,
//     an unknown role, item type or part type (named), content of another
//     JSON type, a text part without text, an input_image or input_file
//     without a source or with two, an image_url that is no URL, a
//     file_data that is a URL or a file_url that is data, base64 that does
//     not decode, a function_call without call_id, name or arguments, a
//     function_call_output without call_id or output.
//
// Writing: model, instructions, input, the Request's settings, then Meta.
//
//   - Refused: top-k, stop sequences, seed and the penalties: the
//     Responses API has no member for them.
//   - Decision (instructions): a first system message of one plain text
//     part is written as "instructions" when it was read from there, and
//     for a document read from another format; else it is an input item.
//     fmt keeps each where it was.
//   - The input is a string when it is one user message of one plain text
//     part (unless read as an array), else items. A message item's content
//     is a string for one plain text part (unless read as an array), else
//     parts: input_text (output_text in an assistant message, or as read),
//     input_image, input_file. "type":"message" is written as read, and
//     for another format's message whose metadata has an id (an output
//     item's id goes with its type).
//   - Images are http(s) URLs or data: URIs (base64 data becomes one);
//     files are a file_id, an http(s) file_url, or file_data (a data: URI;
//     data of no known type as it is). Audio and names are refused.
//   - An assistant's text is a message item, its tool_calls function_call
//     items after it; each tool_result a function_call_output item.
//   - Without promptfmt.Send, what would not read back the same is
//     refused: a media part in another form (image data and its media
//     type, offered as the data: URI: NearestPart); a tool_result in a
//     user message; a second tool_result in a tool message; text after a
//     tool_call; an assistant message that starts with a call right after
//     an assistant's message or call (it would read back joined to it:
//     ThingMessages, which Adapt meets by joining them). With Send they
//     are written as the API takes them, in order.
//   - A "_reasoning" message is its reasoning item, from its metadata (its
//     content must be empty); other hidden roles are refused.
//   - Metadata keys written from any document: the members the SDK's
//     items and parts have (above); other keys only when read from a
//     Responses body. An assistant message of tool calls alone has no
//     message item, so its message-level metadata is refused; a key that
//     names a member the mapping writes (a null "name" read beside a tool
//     name set since) is refused, never written twice.
//   - Decision (numbers), for every provider body: a whole number read as
//     a float (2.0) is written as one, with its ".0", so that Meta,
//     metadata and schemas read back the same (encoding/json would write
//     2, which reads back as an integer).
//
// # Anthropic Messages
//
// [Anthropic] reads and writes the body of POST /v1/messages. Its members
// are those of the official SDK's MessageNewParams (anthropic-sdk-go
// v1.84.0, API version 2023-06-01; v2.15.0, API version 2026-10-21), and
// stream.
//
// Reading:
//
//   - system, a string or an array of text blocks, is the first message:
//     one system message, a text part for each block (a turn's array is
//     one message everywhere). A block of another type is an error.
//   - messages: roles user and assistant, kept; a user turn of tool_result
//     blocks stays a user message. Consecutive turns of one role stay
//     separate messages. content is a string (one text part) or blocks:
//     text; image and document (user turns only), whose source is base64
//     data (value: the data, checked; mediaType: media_type), a url (value:
//     the URL) or a file (id: file_id), a document's title its Filename;
//     tool_use (assistant turns only) a tool_call {id, toolName: name,
//     value: input, a JSON object, as compact JSON text}; tool_result (user
//     turns only) a tool_result {id: tool_use_id, value: content, a string
//     or the text of its one text block, "" when absent}. No content, or
//     an empty array, is the one empty text part.
//   - Errors (file:line:col): invalid JSON, a wrong JSON type, a message
//     without role or content, an unknown role, a block without a type or
//     of a type the model has no part for (thinking, search_result, server
//     tool blocks: named), a source of another type or with an unknown
//     member, base64 that does not decode, a tool_use without id, name or
//     an object input, a tool_result without tool_use_id or with content of
//     several blocks or a non-text one, media in an assistant turn, a
//     tool_use in a user turn, a tool_result in an assistant turn.
//   - A message's members beyond role and content are its metadata; a
//     block's beyond the mapping's (cache_control, citations, is_error,
//     context, caller) are kept in the message's metadata under
//     "content.<part>.<member>", and written back into the block.
//   - model, max_tokens, temperature, top_p, top_k and stop_sequences are
//     the Request's. tools is when every tool is a custom tool of name,
//     description, input_schema (an object) and strict: true (type
//     "custom" read as such); tool_choice when it is {"type": "auto" |
//     "any" | "none"} or {"type": "tool", "name"} (any and a named tool are
//     mode required); output_config's format when it is {"type":
//     "json_schema", "schema": object}, its other members (effort) kept in
//     Meta under output_config and written back beside it. What the Request
//     cannot hold exactly (server tools, disable_parallel_tool_use) stays
//     in Meta as written, as does every other member (metadata, thinking,
//     service_tier, cache_control, ...).
//   - Decision: Anthropic's structured output always holds the answer to
//     the schema (constrained decoding; it has no switch), so it reads as
//     an Output with Strict, and writing an Output without Strict is
//     refused unless sending (the nearest request holds it strictly).
//   - Decision (sampling): temperature, top_p and top_k are read and
//     written. API version 2026-10-21 (SDK v2) removed them and answers a
//     body that has them with an error naming them; version 2023-06-01,
//     which the v1 SDKs send, takes them. The body does not say which
//     version it is for.
//
// Writing: model, max_tokens, system, messages, then the other settings
// under the names above and Meta (bodyMeta's rules). Seed and the
// penalties are refused (Anthropic has none); tools without parameters
// are refused, in one refusal whose nearest request gives each
// {"type": "object"} (the API needs an input_schema); an output of JSON
// without a schema, or with a name or description, is refused (the
// nearest drops the name and description). Written to be kept, a turn of
// one text part without members of its own is a string, the API's
// shorthand (sent, content is blocks, as the export wrote it); a system
// prompt of one such text is a string either way. Meta merged into output_config, and a
// member the Request could fill written from Meta (a tools list of server
// tools, from this format or another), must read back as they are: the
// writer reads them back with the reader, and refuses what would not (an
// empty object merged with the request's settings). Values of Meta,
// metadata and schemas are written so that they read back as they are: a
// float that is an integer keeps a fraction (1.0), which encoding/json
// would drop, making it read back as an integer.
//
// Written to be kept (no option), what reads back as another document is
// refused, with the nearest part or request where there is one: a
// developer message (it reads back as system); a second system message
// (the system prompt is one message); a system message after the
// conversation has started; a tool message (its results are a user
// turn's: promptfmt.Send writes it so); an empty text part; tool_call
// arguments that are not the compact JSON a reader gives back (the nearest
// is compacted), or not an object; a tool_result's ToolName (Anthropic
// names only the call: the nearest has none); media in a form the body
// does not keep: a data: URI (the nearest is its base64 data and media
// type), a media type not in lower case, a media type on a URL or file id
// (the API has no field for it), detail, an image's filename, a file id
// beside data. Turns of one role are written as they are: the API joins
// them itself.
//
// Sent (promptfmt.Send), the document is written as Anthropic takes it,
// as the export was:
//
//   - System and developer messages go to the top-level "system": a
//     string when the system prompt is one text, else an array of
//     {"type":"text","text"} blocks, one for each text part of each
//     message, in order. Decision: they may only come before the first
//     user, assistant or tool message; a later one is refused ("a system
//     message after the conversation has started cannot be expressed"),
//     since moving it to the top would change what the model reads, and
//     Anthropic has no system turn.
//   - user and assistant messages keep their role; tool messages become
//     user turns. Content is always an array of blocks.
//   - Decision (consecutive turns): messages that map to the same role are
//     merged into one turn, their blocks in order. The API combines
//     consecutive same-role turns itself, so the model reads the same; and
//     the results of parallel calls, one tool message each, must share the
//     user turn that follows the calls.
//   - Blocks: {"type":"text","text"};
//     {"type":"image","source":{"type":"base64","media_type","data"}} for
//     image/jpeg, image/png, image/gif and image/webp data (the media type
//     in lower case, as the API's list has it), or
//     {"type":"image","source":{"type":"url","url"}} for http(s) URLs, or
//     {"type":"image","source":{"type":"file","file_id"}} for a file id;
//     {"type":"document","source":...} the same way for PDF files
//     (application/pdf data, or a URL whose media type is PDF or unknown),
//     with the filename as its "title";
//     {"type":"tool_use","id","name","input"} with the arguments, which must
//     be a JSON object, passed through; {"type":"tool_result","tool_use_id",
//     "content"} with the result text ("content" left out when empty).
//   - Decision (empty text): Anthropic refuses empty and blank text blocks.
//     An empty text part beside other content carries nothing and is left
//     out; a message with no other content is refused ("an empty message
//     cannot be expressed"), and so is a text part of only white space.
//   - Refused: names, audio, files other than PDF, image detail,
//     filenames on images, a file id beside data, media in assistant
//     messages.
//
// # Gemini generateContent
//
// [Gemini] reads and writes the body of POST
// /v1beta/models/{model}:generateContent (GenerateContentRequest). Its
// members are what google.golang.org/genai v1.77.0 writes from
// GenerateContentConfig for the Gemini API and Vertex AI (contents,
// systemInstruction, generationConfig, safetySettings, tools, toolConfig,
// cachedContent, labels, serviceTier, store, continuationToken,
// modelArmorConfig, outputConfig), and model.
//
// Decision (model): GenerateContentRequest has a model member (required:
// "models/{model}"); generateContent takes it from its URL, a batch
// request's inlined request carries it in the body (genai's batches
// write it there). So "model" is read into the Request's Model as written
// and written from it, in both ways of writing; a caller posting to
// generateContent, whose URL names the model, may leave it out.
//
// Decision (spelling): the REST API reads every member in lowerCamelCase
// or snake_case (protobuf's JSON), and the examples use both:
// system_instruction, inline_data and mime_type in the REST docs,
// systemInstruction, inlineData and mimeType from the SDKs, and some mix
// them. Both are read (a member given in both spellings is an error);
// Write spells each name as the body read first spelled it, and a name
// the body did not have as the first name read that has two spellings
// (snake_case for a document from elsewhere, as the REST docs do). Meta's
// keys and part members are written as read.
//
// Reading:
//
//   - systemInstruction (a Content) is the first message: one system
//     message, a text part for each of its parts, which must be text. Its
//     members beyond parts (a role, which the SDK writes) are the
//     message's metadata, written back.
//   - contents: an array of Content, or one (the REST examples'
//     shorthand, kept in the layout, as is a content's one part given as
//     an object). Role user is user, model is assistant, a content without
//     role is user (the API's default; when no content has one, Write
//     leaves it out again as long as every content is the user's). Any
//     other role is an error. Contents of one role stay separate messages.
//   - Parts: exactly one data member each: text; inlineData {mimeType,
//     data, displayName} and fileData {mimeType, fileUri, displayName},
//     whose kind is the MIME type's family (image/*, audio/*, else file;
//     file data without a MIME type is a file), value the data (checked)
//     or the URI, displayName the Filename; functionCall {id, name, args}
//     (model contents only) a tool_call {id when present, toolName, value:
//     args as compact JSON text, "" when absent}; functionResponse {id,
//     name, response} (user contents only) a tool_result {id when present,
//     toolName: name, value: the output string when response is exactly
//     {"output": string} (as the writer wraps text), else the response as
//     compact JSON text}. A part's other members (thought,
//     thoughtSignature, videoMetadata, ...) are kept in the message's
//     metadata under "content.<part>.<member>", written back into the part.
//   - Errors (file:line:col): invalid JSON (the REST examples' trailing
//     commas and raw line breaks in strings included), a wrong JSON type,
//     a body without contents, a content without parts, an unknown role, an
//     empty part, a part with two data members, a part of a kind the model
//     has no part for (executableCode, codeExecutionResult, toolCall,
//     toolResponse: named), an unknown member of inlineData, fileData,
//     functionCall or functionResponse (willContinue, parts, scheduling:
//     named), inline data without a MIME type or with data that is not
//     base64, a call without a name or with args that are not an object, a
//     response without a name or a response object, a call in a user
//     content, a response in a model content, a part other than text in
//     the system instruction.
//   - generationConfig: temperature, topP, topK, maxOutputTokens,
//     stopSequences, seed, presencePenalty and frequencyPenalty are the
//     Request's; responseMimeType "application/json" is its Output: JSON
//     mode alone, or with responseJsonSchema or responseSchema (an object)
//     the schema. Its other members (thinkingConfig, candidateCount, a
//     responseMimeType of another type) are kept in Meta under
//     generationConfig (as spelled) and written back into it.
//   - tools is the Request's when it is one tool of functionDeclarations
//     of name, description and a schema in parametersJsonSchema or
//     parameters (or no tool); toolConfig's functionCallingConfig when its
//     mode is AUTO, NONE or ANY (upper or lower case, as written), ANY with
//     at most one allowed function (a named tool), toolConfig's other
//     members kept in Meta under toolConfig. Anything else (Google Search,
//     several tools, mode VALIDATED) stays in Meta as written, as does
//     every other member.
//   - Decision (schemas): responseSchema and a declaration's parameters
//     take OpenAPI 3.0's subset (type names may be upper case, "OBJECT"),
//     responseJsonSchema and parametersJsonSchema JSON Schema. Both read
//     into the schema as written, the layout keeping which member it came
//     from so fmt writes it back there; written from elsewhere, a schema
//     goes to the JSON Schema members, the model's dialect. A schema read
//     from the OpenAPI members and written for another provider is passed
//     as written: that provider reports what JSON Schema does not allow.
//   - Decision: Gemini's structured output holds the answer to the schema
//     (constrained decoding, no switch): an Output with a schema reads as
//     Strict, as Anthropic's does; JSON mode reads without.
//   - A setting past its protobuf type's range (below) is an error at its
//     place, as the API's own reader has it: what is read can be written.
//
// Writing: model, systemInstruction, contents, tools
// ([{functionDeclarations}], a tool's schema in parametersJsonSchema),
// toolConfig ({functionCallingConfig: {mode, allowedFunctionNames}}: auto
// AUTO, none NONE, required ANY, a named tool ANY with it allowed),
// generationConfig, then Meta. Refused: tools held strictly (Gemini's
// declarations have no strict: the nearest request holds none so), an
// output schema's name or description (the nearest drops them), JSON mode
// held strictly, and a number past its protobuf type's range: temperature,
// topP and the penalties are floats (32-bit), topK, maxOutputTokens and
// seed int32s (the API's JSON reader refuses a value past them; genai's
// types cannot hold one; found by sdktest). Meta's members merged into generationConfig and
// toolConfig, and a request member written from Meta, must read back as
// they are, as for Anthropic.
//
// Written to be kept (no option), what reads back as another document is
// refused, with the nearest part or request where there is one: a
// developer message, a second system message, a system message after the
// conversation has started, a tool message (its responses are a user
// content's), an empty text part, tool_call arguments that are not compact
// JSON (the nearest is compacted) or not an object, a tool_result without
// the name of its tool (the nearest has that of the call with its id) or
// whose result reads back otherwise (a JSON object not compact, or
// {"output": text}: the nearest is what it reads back as), media in a form
// the body does not keep: a data: URI (the nearest is its data and type),
// a kind its MIME type does not say (a file of image/png reads back as an
// image), a URL without a MIME type on an image; detail and file ids,
// which Gemini has no place for.
//
// Sent (promptfmt.Send), as the export was:
//
//   - System and developer messages go to system_instruction, as for
//     Anthropic only before the conversation has started.
//   - user messages are "user" contents, assistant messages "model"
//     contents, tool messages "user" contents; consecutive contents of the
//     same role are merged, as for Anthropic (the API matches a turn of
//     function calls with one turn holding all their responses).
//   - Parts: {"text"}; {"inline_data":{"mime_type","data"}} for base64 data
//     (media type required); {"file_data":{"mime_type","file_uri"}} for URLs
//     of any scheme (mime_type left out when unknown); a filename is the
//     data's display_name; media may be in user and model contents.
//   - {"function_call":{"id","name","args"}}: args are the arguments, which
//     must be a JSON object, passed through (left out when the part has
//     none); "id" (left out when empty) is the call id, which the
//     function_response answering it repeats.
//   - {"function_response":{"id","name","response"}}: the name is the
//     part's ToolName, else that of the earlier tool_call with its id (else
//     refused). Decision: "response" is the result itself when it is a JSON
//     object, else {"output": the result text}, the key the API documents
//     for a function's output.
//   - Empty text is treated as for Anthropic (Gemini refuses an empty text
//     parameter); blank text is sent.
//   - Refused: names, image detail, file ids.
//
// # Datasets
//
// A dataset is a JSON Lines file of conversations: one record a line,
// each a request body. It holds many documents, so it is no
// [promptfmt.Format] but a [*Dataset], read and written as a stream of
// [Record]s:
//
//	OpenAIJSONL  {"messages": [...], "tools": [...], "parallel_tool_calls": false}   fine-tuning
//	OpenAIBatch  {"custom_id", "method": "POST", "url": "/v1/chat/completions", "body": {...}}   Batch API input
//
//	r := provider.OpenAIJSONL.NewReader(f, promptfmt.File("train.jsonl"))
//	for {
//		rec, err := r.Read() // io.EOF at the end; another error ends the reading
//		if err != nil { ... }
//		if rec.Err != nil { ... } // this record's problems: go on, or stop
//		use(rec.Line, rec.Doc)
//	}
//	w := provider.OpenAIBatch.NewWriter(out)
//	err = w.Write(provider.Record{ID: "request-1", Doc: doc})
//
// Reading: a fine-tuning record is a Chat Completions body that is an
// object with "messages", read as [OpenAI] reads a body (its "tools" are
// the Request's, "parallel_tool_calls" and any other member Meta's, an
// assistant message's "weight" its metadata). A batch request has exactly
// custom_id (a non-empty string: Record.ID), method ("POST"), url
// (Record.URL) and body, an object read as the url's format reads a body:
// a /v1/chat/completions body as [OpenAI] reads one, a /v1/responses body
// as [OpenAIResponses] does. The Batch API's other urls (/v1/embeddings,
// /v1/completions, /v1/moderations) hold no conversation: the error that
// refuses them names them.
//
// Decision (positions): a problem is a [*promptfmt.ParseError] at the
// line of its record and the column of its byte in that line (lines end
// at LF; a CR before it is part of the line break), its Offset the
// file's; the messages' Line, and the lines of metadata keys and request
// fields, are the record's line. A record's problems are its own:
// Record.Err holds them, Record.Doc is nil, and the next Read goes on with
// the next line. Read's error is only for what ends the reading: io.EOF,
// a failed read, a bad option.
//
// Decision (memory): a reader holds one line at a time, so memory does
// not grow with the file; a line is bounded by [MaxLine] (default
// [DefaultMaxLine], 64 MiB: a fine-tuning record may carry images as
// base64, up to 10 MB each). A longer line is a record whose error is at
// the first byte past the limit; it is read through without being held.
// Decision: blank lines are no records (they are counted in Line); a byte
// order mark is allowed before the first record (a warning), nowhere
// else.
//
// Writing: Write writes a record's document as one line of compact JSON,
// the body its format's Write writes (without options, strictly: what
// would not read back the same is refused with UnsupportedErrors and
// nothing is written; the writer goes on with the next record). A
// fine-tuning record's body may hold the message member "weight" from
// any document's metadata (STF's ;extra holds it). A batch request needs
// an ID; its URL defaults to /v1/chat/completions. Decision (batch-wide
// rules): custom_ids unique in a file, one model a batch, at most 50,000
// requests are the API's rules for a whole file, which a stream of records
// does not check (promptfmt convert checks the custom_ids it writes).
package provider
