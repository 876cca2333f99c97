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
// warning; a closing fence must be as long as the opening one.
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
// Text before the first heading is the hidden message _head, kept only
// when it holds text or configuration lines. Roles starting with _ are
// hidden. Hidden and disabled messages stay in the Document but never
// reach LLMMessages.
//
// A message's text is its lines without the configuration lines (each with
// its line feed), trimmed of leading and trailing white space, as upstream
// does. It stays raw markdown. Decision: a line of text whose first
// character after at most three spaces (and one block quote marker) is a
// backslash loses that backslash when, without its leading backslashes, it
// would read as a heading or a configuration line: "\% x" is the text
// "% x". This is the escape Write uses; upstream has none.
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
// warning at their line: the file still parses.
//
// Each message keeps its configuration lines in Metadata[MetaConfig] as a
// list of objects: source (the line as written), line, enabled, quoted,
// exclusive, kind, name, value or var, args, error, and offset (where the
// line stood in the message's text). Config reads them as ConfigLines;
// Assignments lists those in effect.
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
// four spaces, all of which Parse trims. Known limit: a text that leaves a
// fenced code block or an HTML block open after its first line
// ("Look:\n```"; Parse returns one only at the end of a file) cannot be
// written unless nothing follows it (no configuration line after it in
// its message, no message after it); Write refuses it rather than let it
// swallow what follows. Append adds replies exactly as upstream does.
//
// CR and CRLF line endings read as LF; invalid UTF-8 is an error.
package prapti
