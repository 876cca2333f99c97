// Package prapti reads and writes Prapti conversations (prapti-ai/prapti):
// markdown files in which "### @role:" headings start messages and "%"
// lines configure the tool.
//
//	% model = "gpt-4o"
//
//	### @system:
//
//	You are a terse reviewer.
//
//	### @user/Ross:
//
//	% temperature = 0.2
//	Review this:
//
//	```python
//	% not a configuration line: this is code
//	```
//
// Parse, Write and Append take promptfmt.Option, as every format's
// functions do (Format is this package as a promptfmt.Format):
// promptfmt.File names the file on the errors and warnings of Parse, and
// on the parse errors of the file Append adds to; an option of another
// format is an error. Prapti has no option of its own, and promptfmt's template
// options change nothing here; Write takes the options so that one list
// serves Parse and Write. Decision (NextPrompt): NextPrompt takes no
// options. It reads the file only for the name of its last user message
// and returns no error or warning for a file name to go on; a file that
// does not parse gives a user message without a name, as before.
//
// Upstream is a line scanner. This package reads the file as CommonMark
// (github.com/yuin/goldmark tells it the block structure, without parsing
// inline markup), as the seed's future directions ask: nothing inside a
// fenced or indented code block or an HTML block (a <!-- --> comment
// included) is a heading or a configuration line. Such lines are text,
// and reach the model.
//
// A fenced code block that is never closed runs to the end of the file, as
// CommonMark has it: every heading and configuration line after its
// opening fence is code. Decision: Parse reads it so, and warns at the
// opening fence ("fenced code block opened here is never closed: the rest
// of the file is inside it") whenever a top-level fence (not in a block
// quote or list item) is still open at the end of the file, whether or not
// it has swallowed a heading or configuration line yet, since anything
// added after it, a reply that Append adds included, is inside it. A fence
// in a block quote or list item ends with its container and gets no
// warning; a closing fence must be as long as the opening one. Decision:
// an HTML block that ends only at a marker ("<!--" at "-->", "<script",
// "<pre", "<style" and "<textarea" at their end tags, "<?" at "?>", "<!X"
// at ">", "<![CDATA[" at "]]>") gets the same warning, with a hint naming
// the marker, when it is top-level and still open at the end of the file;
// one that closes on its own first line does not. Those that end at a
// blank line swallow nothing Append adds.
//
// # Messages
//
// A message heading is a top-level ATX heading of level 3 (not inside a
// block quote, list, code block or HTML block) whose line is "###", blanks,
// "@role" or "@role/name", an optional colon and optional blanks. "//"
// before the "@" (with blanks around it or not) disables the message. Role
// and name are Unicode letters, digits and _. Decision: roles are
// case-insensitive and read in lower case (the seed's future direction;
// upstream keeps case); names keep theirs. Any other heading is text.
//
// Decision (near headings): upstream's blanks in a heading are Python's
// \s, any white space (see below), so that it reads "###\u00a0@user:",
// "### @user:\u2003" and "###\v@user:" as headings; CommonMark, and so
// Parse, only spaces and tabs. Parse reads such a line as text and warns
// at the first odd white space, with a hint to write a space, when the
// line would be a message heading with spaces in their place: goldmark
// reads the file again with those lines mended, so that a line in a list
// item or code block gets no warning. Only the blanks after "###" count:
// upstream allows only spaces before it.
//
// Decision (no heading): a file whose text (configuration lines aside)
// has no message heading at all is all _head, which reaches no model;
// Parse warns where its text starts. A file of configuration lines only,
// the form of upstream's configuration files, and a blank file, which
// upstream fills with its start template, get no warning.
//
// Text before the first heading is the hidden message _head, kept only
// when it holds text or configuration lines. Roles starting with _ are
// hidden. Hidden and disabled messages stay in the Document but never
// reach LLMMessages.
//
// A message's text is its lines without the configuration lines (each with
// its line feed), trimmed of leading and trailing white space, as upstream
// does. It stays raw markdown. White space is what upstream's Python
// str.strip trims (str.isspace): Go's unicode.IsSpace and the information
// separators U+001C to U+001F. The text after a configuration line's "%"
// is trimmed alike, Write refuses text that starts or ends with any of
// them, and Append trims them, so that a round trip is exact.
//
// Decision (escapes): a line of text, outside code and HTML blocks, whose
// first character after at most three spaces (and one block quote marker)
// is a backslash loses that one backslash when, without its leading
// backslashes, it would read as structure: a message heading, a
// configuration line, or the opening of a fenced code block ("```",
// "~~~") or of an HTML block that ends at a marker rather than at a blank
// line ("<!--", "<?", "<!X", "<![CDATA[", "<script", "<pre", "<style",
// "<textarea"). "\% x" is the text "% x", "\\% x" the text "\% x".
// Upstream has no escape (its user guide admits that fenced examples are
// read as live messages). A backslash before ASCII punctuation is
// markdown's own escape, so that a viewer shows "\### @user:" as the text
// "### @user:", not as a heading, and "\\%" as "\%". Write and Append put
// a backslash before every line of a text that would otherwise read as
// structure: a heading or configuration line outside code and HTML
// blocks, a fence or HTML block opener that is never closed in the text
// (it would swallow what follows), and a line that already reads as an
// escape. A closed code block is left as it is.
//
// Blocks nest at most MaxNesting deep: a file in which more block quotes
// and list items are open at once, on one line or by indentation across
// lines, is an error at the marker that opens one too many (goldmark's
// work grows with the depth times the size of the file).
//
// # Configuration lines
//
// A configuration line, in ordinary text or a block quote, starts with at
// most three spaces, then optionally ">" and blanks (one level of block
// quote), then optionally "//" and blanks (which disables it), then "%".
// Deviations from upstream, which allows any indentation before "%" but
// none before "//": a "%" line indented four spaces or a tab is text (it
// is an indented code block or continues a paragraph in CommonMark), and
// "  //% x" is a disabled configuration line (upstream reads text).
// "100% sure" mid-line is text.
//
// The text after "%", trimmed, splits as upstream splits it: an optional
// "!" (the line runs only in the last message), a name of letters,
// digits, _, -, ., / and \, then "=" and a literal for an assignment, or
// blanks and raw arguments for an action. The literal is strict JSON
// (integers become int64) or var(NAME). A line that does not split, an
// assignment without a value and a value that is not JSON (NaN and
// Infinity included, which upstream's Python accepts) are kept, with a
// warning at their line: the file still parses. Decision: so is a value
// that is JSON but has no JSON model value: a number too large for a
// float64 (1e400, -1e400, anywhere in the value) is refused with
// values.CheckFloat's message and values.NonFiniteHint, and a value whose
// arrays and objects nest deeper than values.MaxDepth with
// values.DepthMessage; the line keeps its error and has no value.
// Messages quote at most the first 60 bytes of a value.
//
// Each message keeps its configuration lines in Metadata[MetaConfig] as a
// list of objects: source (the line as written), enabled, quoted,
// exclusive, kind, name, value or var, args, error, and offset (where the
// line stood in the message's text). Config reads them as ConfigLines;
// Assignments lists those in effect.
//
// Decision (source lines): a configuration line's source line is where it
// was, not part of what it says, so fmt, which moves lines, keeps the
// value: it is in the message's KeyLines ("config" for the first line,
// "config.N" for the Nth), where Config finds it and promptfmt.Locate
// points refusals at it. A head of configuration lines before any heading
// has no line of its own (Line 0, as upstream); its refusals name the
// line of its first configuration line.
//
// # Settings
//
// The configuration lines stay where they are, in the messages'
// Metadata; Document.Request is their effect on the request Prapti sends
// through its default responder ("default", the openai.chat one its
// fallback configuration makes), each field at the line of the value it
// takes:
//
//	model, temperature       responders.default.model (.temperature), which
//	                         is bound to the variable model (vars.model)
//	top_p, max_tokens, stop  responders.default.top_p, .max_tokens, .stop
//	presence_penalty,        responders.default.presence_penalty,
//	frequency_penalty        .frequency_penalty
//
// The lines run as upstream runs them, in the order Assignments gives
// (enabled lines of enabled messages, "!" lines in the last message
// only). Decision: upstream's binding is followed: a value assigned to
// responders.default.model replaces the binding, so it wins over the
// variable whatever their order, and responders.default.model =
// var(NAME) binds it to another; a bound field takes its variable's last
// value, through var() references (at most 20 deep), when the variable
// has one. An assignment whose value the field does not take
// (temperature = "hot") leaves the field as it was, as upstream's
// validation does, with a warning at its line; so does a var() that
// leads to no value (upstream says nothing). null is a value only for
// max_tokens and stop (no limit): the Request leaves the field out; a
// stop string is a list of one. openai.chat has no top_k, seed, tools,
// tool choice or output schema, and the variables top_p or max_tokens
// are read by no responder. Decision: actions are not run, so
// responder.new and responder.push, which would make another responder
// active, are not followed.
//
// Decision: Write refuses (promptfmt.ThingRequest) each field of the
// Request that differs from what the configuration lines it writes set:
// Prapti keeps settings as lines of the conversation, and adding lines
// would add text to messages. The refusal offers what the lines set as
// the nearest request, which Adapt takes; a field no line sets is
// dropped.
//
// # Writing
//
// Write emits the layout Append produces, verified to read back as the
// same document; see Write. Escapes follow the blocks of what is written.
// Trimming can change the blocks of a text: an indented "    ```" (code)
// becomes "```", a fence, "    <!--" an HTML comment, and the blank line
// that ended an HTML block before a configuration line is gone, so that
// the text would swallow what follows it. Write then writes it another
// way that reads back the same: with a blank line between the text and
// the configuration lines after or before it, or its first line indented
// four spaces, all of which Parse trims. A fence or HTML block left open
// after the first line ("Look:\n```"; Parse returns one only at the end
// of a file) is escaped, so that it swallows nothing.
//
// Decision (what Write checks): a message's body is read back through
// goldmark's blocks as it is escaped (escapingStructure); one that ends
// inside a code or HTML block is parsed again alone, between two
// headings. A file whose messages all pass those checks is not parsed
// again as a whole: between top-level headings, which end every block
// that does not swallow them, the file reads as its messages read alone.
// Only a file with a message written another way (configuration lines in
// code, escaped openers) is parsed again whole (readsBack). FuzzParse
// holds the guarantee: whatever parses writes, and reads back the same.
//
// Decision (streaming): a document whose messages are all prose (no
// metadata, ordinary text whose every line starts, after at most three
// spaces, with a letter or a digit that starts no list) is proven before
// its text is made: Write checks every message, then writes the text as
// it makes it, in blocks of 64 KB, so that a large conversation's text is
// never held whole; nothing is written when a message is refused.
// FuzzStreamable holds it: such a document reads back, and streams the
// text it would write whole.
//
// Append adds replies in upstream's layout. Decision: unlike upstream, it
// escapes their lines as Write does, so that an answer holding
// "### @system:" or "% model = ..." cannot write the file's structure, and
// returns an error (promptfmt.UnsupportedError) for what a message cannot
// hold (images, tool calls, metadata) instead of dropping it. It trims the
// text, as upstream does and as Parse reads every message, and reads the
// result back: an answer appended to a file that ends inside a fence never
// closed is an error, not a swallowed reply. Decision (line ends): Append
// lays out what it adds after the file read with LF line ends, as Parse
// reads it, and writes it with the line end of the file's last line: a
// file with CRLF or CR line ends keeps them and gets the blank lines an
// LF file gets (upstream writes the platform's newline into any file, so
// that a CR file gets LF lines that read as extra blank ones); a file
// without a line end gets LF. A last line of white space other than
// spaces and tabs, which upstream counts as blank, is not blank to
// CommonMark (it may continue an HTML block): Append adds a blank line
// after it.
//
// CR and CRLF line endings read as LF; invalid UTF-8 is an error. A
// leading byte order mark is skipped with a warning; positions are those
// of the file.
package prapti
