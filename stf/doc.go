// Package stf reads and writes STF, the Simple Text Format for LLM
// conversations of 123jimin-llm/llm-msg-io: command lines that start with
// ';' over plain text.
//
//	;sys
//	You are a careful assistant.
//	;user name="Ross"
//	Why did the rollout stall?
//	;ai
//	The canary failed its readiness probe.
//
// Parse and Write take promptfmt.Option, as every format's functions do
// (Format is this package as a promptfmt.Format): promptfmt.File names the
// file on Parse's errors and warnings, DefaultRole is this package's own,
// and an option of another format is an error. Write takes Parse's
// options so that one list serves both; none changes what it writes, and
// neither do promptfmt's template options (STF has no templates).
//
// This comment is the specification as this package implements it: the
// seed specification (upstream doc/stf/README.md at 80bd52f), the commands
// upstream added since (at 70dba2c), and our decisions where either is
// silent, each marked "Decision". Differences from upstream's code are
// marked "Upstream".
//
// # Lines
//
// A file is UTF-8 (invalid bytes are an error at their offset; a leading
// byte order mark is ignored with a warning). Lines are split on LF only.
// A line starting with ";;" is a data line whose first ';' is dropped; a
// line not starting with ';' is a data line (a blank before ';' makes it
// data); every other line is a command line.
//
// The file's final LF ends its last line; it is not content, as the seed
// says ("may end with an empty line, which will be ignored"): ";user\nHi\n"
// holds "Hi", and ";user\nHi\n\n" holds "Hi\n". Upstream keeps the final
// LF as content ("Hi\n"); we follow the specification, and since our writer
// ends every file with LF, files round-trip either way.
//
// Decision (CR): a CR before the LF of a command line is ignored, so CRLF
// files parse (upstream rejects them). When every LF of the file follows a
// CR, the file is a CRLF file and the CR of every line ending is dropped
// from data too. When the file mixes line endings, a CR in a data line is
// content, kept exactly: it was written on purpose, or the file could not
// have mixed endings. The writer writes LF.
//
// # Data lines
//
// Consecutive data lines form a text: the lines joined with LF, the last
// line's LF removed; an empty line after the last one gives the text a
// trailing LF (";user\n\n;ai": the user text is ""; two empty lines, "\n").
// Text goes to the current message; text split by a comment, ;extra or ;meta
// joins without a separator. Blank lines (spaces, tabs, CR) outside a
// message are ignored; any other data line outside a message is an error,
// unless the DefaultRole option starts a message for it. Whitespace inside
// messages is kept exactly.
//
// # Comments
//
// After the ';' and optional blanks, "#" or "//" makes the line a comment.
// "/*" opens and "*/" closes a block comment; blocks nest; the rest of the
// line after the marker is ignored, so "; /* x */" opens a block. Inside a
// block every line is ignored, malformed command lines too (Upstream
// rejects those). An unmatched "*/" is an error at its line; an unclosed
// "/*" at the end of the file is an error at the outermost unclosed one.
// Upstream's decoder drops comments and its encoder writes none.
//
// Decision (comments): Parse keeps each comment, as written, in
// Document.Comments, anchored to its place among the messages: before a
// message, or inside one before a part or before a line of a text part;
// Write puts each back there, so fmt keeps comments where the user wrote
// them. A comment inside a ;raw block is written before the block, one
// inside a ;meta or ;extra block where the block interrupted the text;
// between two messages it belongs to the first (after its content),
// unless that one is a ;raw block. Writers of other formats refuse the
// comments (convert --lossy drops them, and says so).
//
// Decision (layout): Parse keeps the data of ;meta and ;extra blocks as
// written and the order of a command's arguments (Document.Layout); Write
// writes the blocks back as they were (the user's key order, JSON5
// comments and style) while the Document still holds exactly what they
// say, else afresh with sorted keys, and arguments in their written order.
//
// # Command lines
//
// A command line is ';', optional blanks, a name [a-z][a-z0-9]*, then the
// arguments, in one of two forms:
//
//	;msg role=user name="John Doe" id=m1
//	;msg {role: 'user', name: "John Doe"}
//
// key=value pairs are separated by blanks (space, tab), with optional
// blanks around '='. A key is [a-z][a-z0-9_]* (Upstream also accepts
// uppercase keys). A value is bare (a run of non-blank characters that may
// hold '=' or inner quotes but must not end with a quote) or quoted with '
// or " and JSON5 string escapes, ending on the same line. All such values
// are strings: id=007 is "007". The JSON5 form is one object literal, with
// comments allowed, on the rest of the line; its values may be any JSON5
// value. Errors, each at its line and column: a duplicate key, a key
// without '=', an empty bare value (write key=""), a bare value ending in a
// quote, an unterminated quote, mixing both forms, JSON5 that is malformed
// or not an object, an unknown or uppercase command name, a line starting
// with ';' that is neither a command nor a comment.
//
// # Commands
//
//	user, assistant/ai, system/sys, developer/dev, tool
//	    start a message of that role (assistant for ai, and so on).
//	message/msg
//	    start a message of the role given by role=; without it, of the
//	    current message's role, else the default role, else an error.
//	raw ... end
//	    the data lines up to ;end are one JSON5 message object (below);
//	    after it there is no current message.
//	extra ... end
//	    the data lines up to ;end are a JSON5 object merged into the current
//	    message's Metadata (its keys win); an error without a message.
//	meta ... end
//	    the same, merged into Document.Meta; allowed anywhere.
//	flush
//	    end the current message: data lines after it need a new one.
//	end
//	    end the pending raw, extra or meta block; the rest of the line is
//	    ignored unless it starts with a letter or digit (";end raw" is fine,
//	    ";endx" is the unknown command "endx"). An error with no block open.
//	call name=TOOL id=ID
//	    the next line is a tool call's JSON arguments: a tool_call part.
//	embed kind=image|audio|file type=MEDIA/TYPE detail=D
//	    the next line is a URL, a data: URI or base64 (no blanks): a media
//	    part of that kind.
//
// Role commands and msg take name= (Message.Name), id= and call_id= (kept
// in Metadata under those keys); these must be strings. Any other argument
// is kept in Metadata, never dropped (Upstream ignores unknown arguments).
// role= on a role command is an error, not ignored as upstream does: it
// names a role the command does not set. raw, extra, meta, flush and end
// take no arguments (Upstream ignores them).
//
// Decision (call, embed): the seed lists call and embed as "line" commands
// without defining them, and upstream never implemented them. Here each
// takes exactly the next line, which must be a data line (";;" escape
// allowed; a CR before its LF is a line ending, as on command lines), appends its part to the current message (an error without
// one), and text before and after stays in order around it: the message's
// content is a list of parts.
//
// Decision (empty name): name="" (on a role command, ;msg or in a ;raw
// object) is read as no name, the model's Name "", with a warning: the
// writer leaves it out, so the file would otherwise change silently.
//
// Decision (non-object blocks): upstream lets ;extra and ;meta hold any
// JSON5 value and replaces the old one when either is not an object. Here
// an object is merged; any other value is kept under the key "extra" (in
// the message's Metadata) or "meta" (in Document.Meta), so nothing is lost
// and the writer can put it back.
//
// A ;raw message object has upstream's fields: role (required), content (a
// string, or an array of parts {type: 'text', text}, {type: 'image' |
// 'audio' | 'file', url or data, format, file_id, name}), name, id,
// call_id, reasoning, refusal (strings, kept in Metadata),
// tool_calls ([{id, call_id, name, arguments}], appended as tool_call
// parts; an id and a different call_id is an error), extra (merged into
// Metadata as ;extra is). We add disabled (a boolean), parts of type
// tool_call {id, name, arguments} and tool_result {id, name, content}, a
// media part's detail, and keep any other top-level field in Metadata.
// A part field this model cannot hold is an error naming it.
//
// # Settings
//
// Decision: what a document asks of a model is kept in ;meta under the
// one key request, each setting under the name and in the shape of its
// JSON in promptfmt.Request: ;meta {request: {model: 'gpt-4o',
// temperature: 0.2}} holds model (a string), temperature, topP, topK,
// maxTokens, stop (a list of strings), seed, frequencyPenalty,
// presencePenalty, tools ([{name, description, parameters, strict}],
// parameters a JSON Schema), toolChoice ({mode: 'auto' | 'none' |
// 'required', tool}), output ({name, description, schema, strict}).
// Every field of the Request has its home here, and none takes the place
// of the metadata another format keeps in ;meta (a prompt file's model,
// Prompty's model object, Dotprompt's output). Parse moves them into
// Document.Request (each at the line of its ;meta command) and Meta keeps
// the other keys. A setting whose value the Request cannot hold exactly
// (temperature: 'hot', a tool with a member it has no field for,
// toolChoice: {mode: 'any'}) stays in Meta as written, with a warning at
// its ;meta line: the file parses as before. An integer where a number is
// wanted is that number, and a number without a fraction where an integer
// is wanted that integer.
//
// Write puts the settings back into ;meta: the blocks as written while
// neither Meta nor the settings changed (temperature: 1 stays 1, not
// 1.0), else afresh. It refuses (promptfmt.UnsupportedError, the field or
// the key named) a value no file holds (NaN, text that is not UTF-8,
// nesting past values.MaxDepth), and a Meta key that is a setting's place
// or would read as one: Meta's model: 'gpt-4o' is read back as the
// Request's model, so a document holding it in Meta (a prompt file's
// model, where the prompt came from) cannot be written as it is;
// convert --lossy drops it.
//
// JSON5 is read to the JSON5 1.0 specification, with two decisions: an
// integer that fits an int64 is an int64 (other numbers float64), and a
// duplicate key is an error, not a silent overwrite.
//
// # Writing
//
// Write writes the canonical form, with the comments and layout Parse kept
// (see the decisions above): the comments before the first ;meta block,
// ;meta when Document.Meta is not empty; then each message as its role
// command (;user, ;ai, ;sys, ;dev, ;tool, or ;msg role=X), name=, id=,
// call_id=, then the other string metadata whose key fits
// [a-z][a-z0-9_]*, sorted (arguments read from a file keep their order);
// then its parts in order: text as data lines, every line starting with
// ';' written ";;", tool calls as ;call, media as ;embed; then an ;extra
// block for the remaining metadata. Values are quoted only when needed (empty, blanks,
// quotes, ';', control characters), with JSON escapes. JSON5 blocks are
// written as upstream writes them: two-space indents, single quotes,
// a comma after every member, keys sorted (blocks read from a file are
// written as read while they still hold the same values). A message the command form
// cannot hold (disabled, adjacent or empty text parts among others, a
// multi-line tool call, a tool result, a media value with blanks, a file
// id or file name) is written as a ;raw block. So every Document can be
// written but one whose Meta takes a setting's place (see Settings), and
// Parse(Write(doc)) equals doc. The file ends with LF.
package stf
