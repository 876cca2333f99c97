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
// # Anthropic Messages
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
//     {"type":"image","source":{"type":"url","url"}} for http(s) URLs;
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
//   - Refused: names, audio, files other than PDF, image detail, file ids,
//     filenames on images, media in assistant messages.
//
// # Gemini generateContent
//
// Field names are the REST API's snake_case spellings (system_instruction,
// inline_data, mime_type, file_data, file_uri, function_call,
// function_response), which the API accepts as it does camelCase.
//
//   - System and developer messages go to "system_instruction":
//     {"parts":[{"text"}, ...]}, one part for each text part; as for
//     Anthropic, only before the conversation has started.
//   - user messages are "user" contents, assistant messages "model"
//     contents, tool messages "user" contents; consecutive contents of the
//     same role are merged, as for Anthropic (the API matches a turn of
//     function calls with one turn holding all their responses).
//   - Parts: {"text"}; {"inline_data":{"mime_type","data"}} for base64 data
//     (media type required); {"file_data":{"mime_type","file_uri"}} for URLs
//     of any scheme (mime_type left out when unknown); media may be in user
//     and model contents.
//   - {"function_call":{"id","name","args"}}: args are the arguments, which
//     must be a JSON object, passed through; "id" (left out when empty) is
//     the call id, which the function_response answering it repeats.
//   - {"function_response":{"id","name","response"}}: the name is the
//     part's ToolName, else that of the earlier tool_call with its id (else
//     refused). Decision: "response" is the result itself when it is a JSON
//     object, else {"output": the result text}, the key the API documents
//     for a function's output.
//   - Empty text is treated as for Anthropic (Gemini refuses an empty text
//     parameter); blank text is sent.
//   - Refused: names, image detail, file ids, filenames.
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
// /v1/chat/completions is [OpenAI]'s. The Batch API's other urls
// (/v1/embeddings, /v1/completions, /v1/moderations) are named in the
// error that refuses them; /v1/responses is too until the Responses body
// is read from a batch.
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
