// Package prompty reads and writes Prompty role-boundary text: the text a
// .prompty template renders to, which section 6 ("Parsing") of the Prompty
// specification (microsoft/prompty, spec/spec.md, v0.1.0-draft as of
// 2026-08) splits into chat messages. It is checked against the 19 upstream
// Parser.parse conformance vectors (testdata/upstream).
//
//	---
//	name: support
//	---
//	system:
//	You are a helpful assistant.
//
//	user[name="Ross", priority=2]:
//	Where is my order?
//
// # Boundaries
//
// A role boundary is a whole line: optional blanks, an optional single '#',
// optional blanks, a role (system, user, assistant, developer or tool, any
// case; the message's role is lower case), an optional attribute block
// directly after the role, optional blanks, ':' and optional blanks. Blanks
// are space, tab, VT and FF. Anything else on the line (`user: hi`,
// `say user: hi`, `## user:`, `user [a=1]:`, `users:`) makes it content.
//
// The attribute block is `[k=v, k2="v 2"]`: keys are ASCII letters, digits
// and '_'; attributes are separated by commas, and a trailing comma is
// allowed. A quoted value may hold commas, ']' and the escapes \" and \\
// (any other backslash is itself). An unquoted value runs to the next ',' or
// ']' and loses its trailing blanks; it becomes a bool when it is true or
// false (any case), an int64 or float64 when it is a JSON number, and stays
// a string otherwise. Quoted values always stay strings. Upstream also
// coerces quoted values and accepts 007, +1 or inf as numbers; we do not,
// so that no value changes on the way through ("007" keeps its zeros, and
// an integer too large for int64 stays a string). The "name" and "nonce"
// attributes are never coerced. "name" becomes Message.Name (upstream puts
// it in metadata); the rest go to Message.Metadata. A line shaped like a
// boundary whose attribute block does not parse (duplicate key, missing '=',
// unterminated quote) is content, with a Warning on the Document.
//
// # Messages
//
// LF, CRLF and a lone CR end lines, and no CR is left in content; no other
// character (U+2028, VT, FF, NEL) ends a line. A message's content is the
// text between its boundary and the next, as one text part, without its
// leading and trailing empty lines; lines holding only blanks and inner
// empty lines stay. A boundary followed by another boundary, or on the last
// line, gives a message whose text is "" (as the spec says; upstream's
// Python and TypeScript runtimes drop it). Text before the first boundary is
// a system message unless it is only white space. Markdown, including
// inline images and fenced code, is plain text: a boundary line inside a
// fenced block still splits (as upstream does).
//
// # Front matter
//
// When the first non-blank line is "---" or "+++", the text up to the next
// such line is YAML front matter: it is decoded into Document.Meta (a
// mapping with string keys) and the body follows it. Front matter that is
// never closed is an error. In strict mode the input is rendered text and a
// leading "---" is content, so a template value cannot forge front matter.
//
// # Strict mode and threads
//
// PreRender rewrites every boundary of a template to carry a render nonce
// (keeping its other attributes); Parse with Strict(nonce) then requires that
// nonce on every boundary line, with or without content and on the last
// line too, and fails with "Role marker nonce mismatch — possible injection"
// otherwise. The nonce is an opaque string, never coerced, and is removed
// from the metadata. This closes the holes of upstream runtimes: attributes
// dropped by pre-rendering, unchecked bare or trailing boundaries, and
// nonces read as numbers.
//
// With Threads, every placeholder "__PROMPTY_THREAD_<hex>_<name>__" that is
// a key of the map is replaced by that thread's messages with their own
// roles; the text before and after it stays in messages of the containing
// role (trimmed of empty lines, left out when empty). Every placeholder of a
// message is expanded, in order (upstream expands only the first); one not
// in the map stays text.
//
// # Writing
//
// Write emits the canonical form shown above: front matter (YAML, keys
// sorted, two-space indent) when Meta is not empty, each message's boundary
// with the name attribute first and the other metadata sorted by key, its
// text, a line break, and a blank line between messages. Parse(Write(d))
// equals d, and a canonical file is unchanged by Write(Parse(x)). What
// Prompty cannot express is an error (see Write).
package prompty
