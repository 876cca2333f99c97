// Package pdl reads and writes PDL, the Prompt Description Language of
// ragit (github.com/baehyunsol/ragit, crates/pdl): a template that renders
// to turns of a conversation, with images and a schema the model's answer
// must match. The schema language and the answer check are in package
// pdl/schema.
//
// Every function takes the same options, promptfmt.Option: this package's
// (Inputs, NonStrict, MaxMediaSize) and those of every format
// (promptfmt.File names the file on errors and warnings, promptfmt.Limits
// bounds the template's work, promptfmt.FS is where images and includes
// are read, promptfmt.OnWarning is told each warning); another format's
// option is an error. Load reads bytes, LoadFile(fsys, name) a file of a
// file system; Parse is Load's Document, and Format is the package as a
// promptfmt.Format.
//
//	<|schema|>
//
//	[int { min: 1, max: {{ documents | length }} }]
//
//	<|system|>
//
//	You pick documents about {{ topic }}.
//
//	<|user|>
//
//	{% for d in documents %}{{ loop.index }}. {{ d }}
//	{% endfor %}
//	<|media(chart.png)|>
//
//	<|assistant|>
//
// # Reading
//
// A file is read in three steps, as upstream does.
//
// 1. The template. The file is rendered as a Tera template (ragit uses
// Tera 1.20) by gonja, configured to behave like Tera where ragit relies
// on it: {{ }}, {% if/elif/else %}, {% for %} with loop.index and
// loop.index0, filters such as length and safe, %, ==, {# #} comments,
// {%- -%} and {% raw %}. The variables come from the Inputs option. An
// undefined variable in output is an error naming it; in an if or elif
// condition it is false. Include, import and extends read from the
// promptfmt.FS option's file system as media do (see below); without one,
// templates read no files. A file without "{{", "{%" or "{#" renders to
// itself and skips the engine.
//
// Every {{ }} output is escaped as upstream's escape_pdl_tokens does:
// "&" to "&amp;", "|>" to "|&gt;", "<|" to "&lt;|" (quotes and HTML pass
// unchanged), whatever the value's type (a list holding "<|user|>" too),
// unless the output's last filter is safe. An input value therefore can
// never make a turn, an image or a schema.
//
// 2. Turns. The rendered text is split into lines (CRLF and a lone CR
// read as LF). A line that, trimmed of Unicode white space, is <|user|>,
// <|system|>, <|assistant|>, <|schema|> or <|reasoning|>, in any case,
// starts a turn. Each turn is trimmed as a whole; an empty turn in the
// middle is kept as a message of one empty text part (the model's empty
// message, as every format gives it); only an empty last message is
// dropped (ragit's prompts end with an empty <|assistant|>).
//   - A <|reasoning|> turn never reaches the model. Upstream drops it; we
//     keep its text as a hidden message of role RoleReasoning (see
//     promptfmt.Message.Hidden), so that nothing read is lost and Write
//     puts it back.
//   - The <|schema|> turn's text is not unescaped. Parsed, it goes into
//     Prompt.Schema, its text (trimmed) into Prompt.SchemaText, and
//     into the Document as the output the answer must match (see
//     Settings); it never reaches the model.
//
// 3. Content. In user, system and assistant turns, <|media(path)|> and
// <|raw_media(type:base64)|> become image parts, the rest text parts
// (text between images keeps its white space). A token is everything from
// "<|" to the first "|>" after it; no "|>" means the rest is text. Text
// parts are then unescaped ("&lt;" to "<", "&gt;" to ">", "&amp;" to "&"),
// so an author writes &lt;|user|&gt; for a literal "<|user|>".
//   - media(path): the image type comes from the extension (png, jpg,
//     jpeg, gif, webp, svg; any case). The file is read from the
//     promptfmt.FS option's file system, the path relative to its root
//     (LoadFile: to the file's directory), and may not leave it: no
//     absolute path, no ".." above its root. At most MaxMediaSize bytes
//     (20 MB by default) are read. Without a file system, media cannot be
//     read.
//   - raw_media(type:base64): type as above; the data is standard base64
//     with padding, no white space (as upstream's base64 STANDARD).
//   - Image contents are never checked, as upstream.
//
// # Strict and non-strict
//
// Strict mode (the default) refuses, each with a *promptfmt.ParseError:
// a template error; an unknown all-letters separator such as <|foo|>;
// text before the first separator; a second schema turn; a schema that
// does not parse; an unknown inline token; an unreadable image; and the
// rules of upstream's Pdl::validate, with its messages: "A pdl file is
// empty.", "<|user|> appeared twice in a row.", "<|assistant|> appeared
// twice in a row.", "<|system|> must appear at top.", "A pdl file ends
// with <|assistant|>.".
//
// NonStrict follows upstream's fallbacks instead, and records a warning on
// the Document for each: a template error makes the unrendered file the
// text; text before the first separator is a system turn; an unknown
// separator is text; a bad schema is ignored and the last schema wins; a
// turn whose tokens fail is one text part as written (not unescaped); the
// order of turns is not checked.
//
// # Positions
//
// Errors carry the line and column in the file the author wrote. When the
// template changed the text, the error is placed at the line of the file
// that holds the offending text nearest to where it was rendered, and the
// message names the rendered line; text that a value made (through
// | safe) has no place in the file, and the message gives its rendered
// line and column.
//
// # Settings
//
// The schema turn is what PDL asks of a model beyond its turns. Decision:
// when its schema has a JSON Schema (schema.Schema.JSONSchema: str,
// int, float, bool, arrays and objects of them, bounds as minLength and
// maxLength, minimum and maximum, minItems and maxItems, every field of
// an object required and no other key allowed), Parse makes it
// Document.Request.Output (Schema that JSON Schema, at the turn's line)
// and Meta holds no schema; otherwise (yesno, code and tasklist are
// extraction modes, which no JSON Schema says, anywhere in the schema),
// or when non-strict reading could not parse it, the text stays in
// Meta[SchemaKey] as before, without a warning: it is PDL's own. Two
// differences stay in the mapping, written in JSONSchema's documentation:
// str bounds count bytes where JSON Schema counts characters, and an int
// takes no 1.0, which JSON Schema's integer does.
//
// Write writes the output back as the schema turn: the text as written
// while the output is unchanged ([int{min:1}] stays so), else the
// schema's canonical form (schema.FromJSONSchema). It refuses
// (promptfmt.ThingRequest) a JSON Schema no PDL schema says (a field not
// required, a "format", a union type, JSON of any shape), an output's
// name, description or strict (offering the schema alone, which Adapt
// takes), and every other setting: PDL has no place for a model, a
// temperature or tools. A Meta schema that would read back as an output
// (Meta[SchemaKey] "int" in a document without one) is refused too.
//
// # Writing
//
// Write emits canonical PDL; see Write. Parse(Write(d)) equals d for every
// document Write accepts, and Write(Parse(x)) is accepted for every x that
// Parse reads strictly. Writing a parsed template writes what it rendered
// to; IsTemplate tells a file whose comments, variables or loops that
// would lose.
//
// # Decisions where upstream or the issue left room
//
//   - Template engine: gonja's Jinja is close to Tera, not equal. A list
//     prints as ['a', 'b'] (Tera: [a, b]) and a map as a dict (Tera:
//     [object]). Tera leaves a macro call's output unescaped; here only a
//     final | safe does, so write {{ m() | safe }}. An attribute of an
//     undefined name in a condition ({% if nobody.x %}) is an error, as in
//     gonja; ragit's prompts never do this.
//   - Escaping is per output, exactly as upstream: a template that writes
//     "<" and ">" around a value ({{ "<" }}{{ v }}{{ ">" }}) gives the
//     value the power to form a token, there as here.
//   - A lone CR ends a line (upstream keeps it as text); an input that is
//     not UTF-8 is an error. A leading byte order mark is skipped with a
//     warning, as in every format (upstream reads it as text before the
//     first turn); positions still count its three bytes.
//   - Upstream's synthetic <|assistant|> and Rust's str::lines are not
//     needed: the turns are found in one pass over the text.
//   - The template's values are given by the Inputs option, Prompty's word
//     for them, not under ragit's name (tera::Context): in Go, Context
//     reads as context.Context, which Schema.Ask takes beside them. The
//     command keeps --context as ragit's name for --inputs.
//   - Files are read through an fs.FS (promptfmt.FS, or LoadFile's), so
//     an embed.FS works and confinement is the file system's: os.DirFS
//     follows a symbolic link out of its directory, os.Root.FS does not
//     (the command refuses such links). A path may climb with ".." as far
//     as the file system's root, so upstream's media(../images/x.webp)
//     beside a prompts directory reads when the file system holds both.
//     The former AnyMediaPath (any file the process can read, absolute
//     paths too) is gone: an fs.FS has no names outside it; a caller that
//     trusts its files gives a file system that holds them.
package pdl
