// Package prompty is a Go runtime for the prompt half of Prompty
// (microsoft/prompty, spec/spec.md, v0.1.0-draft as of 2026-08): it loads
// .prompty files (section 2), renders their templates with inputs (section
// 5), and parses the rendered role-boundary text into chat messages
// (section 6); calling a model stays with the application. It also writes
// role-boundary text. It is checked against upstream's load, render and
// parse conformance vectors and its spec fixtures (testdata/upstream).
//
//	agent, err := prompty.LoadFile(root.FS(), "support.prompty") // root, _ := os.OpenRoot(dir)
//	msgs, err := prompty.Prepare(agent, map[string]any{"question": q, "history": thread})
//
// Parse, Write, PreRender and Strict work on role-boundary text alone.
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
// The face is every format's: Parse(src, ...promptfmt.Option) and
// Write(w, doc, ...promptfmt.Option), with Format for package formats;
// the template side is Load(src, ...Option) and LoadFile(fsys, name,
// ...Option), which give an Agent, then Prepare (the messages for a model)
// or Render (the rendered text, for reading). Every function takes the
// root's options, promptfmt.File (errors and warnings name the file),
// promptfmt.Limits (Render, Prepare), promptfmt.FS (where ${file:} and
// local media are read) and promptfmt.OnWarning (Prepare), and this
// package's own where they apply: Strict and Threads (Parse), LookupEnv
// (Load, LoadFile). An option of another format, or one of this package's
// given to a function that does not take it, is an error naming it, never
// ignored.
//
// Decision: the package exports what a user of the format calls, and no
// step of Prepare's: validating inputs, decoding a thread or media value
// and making placeholders are Prepare's business, their rules written
// below. PreRender, NewNonce, Strict and Threads stay, for a program that
// renders with its own engine (as the README shows); an Agent prints as
// JSON through MarshalJSON, not through Map methods.
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
// When the first non-blank line is "---" or "+++" (it may be indented), the
// text up to the next such line (not indented: "  ---" can be a line of a
// YAML block scalar) is YAML front matter: it is decoded into Document.Meta (a
// mapping with string keys) and the body follows it. Front matter that is
// never closed is an error. In strict mode the input is rendered text and a
// leading "---" is content, so a template value cannot forge front matter.
// Mappings and lists nest at most values.MaxDepth (1000) levels, the front
// matter's own mapping being the first; deeper is an error at the mapping
// or list that goes too deep (also for a value a ${file:...} reference
// brings in, counted where it lands).
//
// A UTF-8 byte order mark at the start of the input is skipped, with a
// Warning at offset 0 (Parse puts it on the Document, Load and LoadFile on
// Agent.Warnings). Decision: positions stay those of the file as given, so
// the mark's three bytes count in offsets and in the byte columns of line 1.
//
// # Settings
//
// Parse moves what the front matter asks of a model into
// Document.Request, each field at the line of its key, and leaves Meta the
// rest (so that a document converted to and from another format compares
// equal):
//
//	model: ID, or model.id              Model
//	model.options.temperature           Temperature
//	model.options.maxOutputTokens       MaxTokens
//	model.options.topP, topK, seed      TopP, TopK, Seed
//	model.options.frequencyPenalty      FrequencyPenalty
//	model.options.presencePenalty       PresencePenalty
//	model.options.stopSequences         Stop
//	tools (function tools)              Tools
//	outputs (a property list)           Output.Schema
//
// The rest of model (provider, apiType, connection, the other options)
// stays in Meta; a container left empty goes. A tool choice has no home:
// Write refuses one (promptfmt.ThingRequest).
//
// Tools and outputs convert exactly both ways or not at all. A property
// list (a list of named properties, or a mapping of names to them)
// compiles to the object schema {"type": "object", "properties": {...},
// "required": [the names of required properties]} ("required" left out
// when none is), each property as: kind string, integer, float, boolean,
// array, object to "type" string, integer, number, boolean, array,
// object (no kind: the kind Load infers), nullable: true to the type and
// "null" (["string", "null"]), description, default and enumValues to
// description, default and enum, example to "examples": [example], an
// array's items and an object's properties (and their required flags)
// recursively. Tools are the list of function tools, each name, kind:
// function, description, strict and parameters (a property list): strict
// left out is not strict, as upstream's Python runtime sends it. Decision:
// anything beyond this (a rich or union kind, bindings, a tool of another
// kind, the scalar shorthand, whose value upstream's runtimes read as a
// default or as an example) leaves the whole tools list, or outputs, in
// Meta as written, with a Warning at its key, and so does a value of the
// wrong type (temperature: hot); the file parses as before. A value
// holding a ${env:} or ${file:} reference stays in Meta without a word:
// Load knows its value, Parse does not.
//
// Write puts the Request back: a setting unchanged since Parse exactly as
// it was written (temperature: 1 stays 1; a mapping of properties stays
// one), so that the front matter, comments and order too, is written as
// the author wrote it; a changed or new one in the shapes above, the
// model as model: ID unless something goes beside it under model (then
// model.id), property lists as lists, required properties first. What it
// cannot put there is refused, naming the field: a schema a property list
// cannot say (a "format", "additionalProperties", a top level that is not
// an object with properties), a tool without a name (that tool), an
// output's name, description or strict (the refusal offers the schema
// alone, which Adapt takes), a value no YAML holds (NaN); and front
// matter in a setting's place (model: 5 beside a model), or that would be
// read as a setting the document does not make (Meta's model: "x").
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
// # Loading
//
// Load and LoadFile split the front matter as described above (the four
// splitting vectors of section 2.2 pass; unlike the spec's reference
// regular expression, the closing "---" must be a line of its own, so a
// "---" inside a YAML value does not end the front matter) and decode it
// into an Agent: name, displayName, description, metadata, model (a string
// is {id: ...}), inputs and outputs (a list of properties with names, or a
// mapping of names to properties or to scalar shorthand, in the author's
// order), tools (kept as written), template (a string is the format kind,
// as section 2.8 says; upstream's newest load vector rejects that, and we
// follow the spec). A property without a kind takes its default's kind,
// else string. Unknown keys are kept in Extra fields and written back by
// Agent's MarshalJSON (the specification's data model, as the command's
// parse prints it). The body is Instructions, without leading blank lines and
// trailing line breaks.
//
// Decision: Instructions keep the blanks at the end of the last line and
// lines of blanks at the end (upstream strips all trailing white space),
// so that Load and Prepare give the same text as Parse of the same file:
// messages lose only their leading and trailing empty lines, either way.
//
// A string value that is exactly ${env:NAME}, ${env:NAME:default} or
// ${file:path} is replaced, anywhere in the front matter: an unset variable
// without a default is an error; a file is read from the file system the
// prompt comes from (LoadFile's fsys, beside the file; Load's
// promptfmt.FS, from its top; none without it), at most 8 MiB, JSON and
// YAML files decoded, others as text. Absolute paths and a ".." that
// climbs out of the file system are refused. Errors carry the YAML's line
// and column.
//
// Decision: the file system is the bound, not the prompt's directory. A
// name resolves beside the file (relative names are the author's), and
// may climb with ".." as long as it stays inside fsys, so prompts in
// folders can share files; a caller wanting the directory alone gives
// fs.Sub of it. Where a symbolic link may lead is the file system's
// business: os.DirFS follows links out of its directory, an os.Root's FS
// (and the command's) does not.
// Template lines that look like role markers but are not (a duplicate
// attribute) become Agent.Warnings, positioned in the file.
//
// # Rendering
//
// Rendering follows section 5: inputs are completed (defaults filled,
// never examples; a missing required input is an error naming it; inputs
// not declared pass through);
// each declared input of a rich kind (thread, image, file, audio) is
// replaced by a fresh "__PROMPTY_THREAD_<16 hex>_<name>__" placeholder
// from crypto/rand (upstream emits 8 hex digits; the spec says 16), so its
// value never reaches the template engine. The format picks the engine:
// jinja2 (github.com/nikolalohinski/gonja/v2: undefined variables render
// as "", HTML is not escaped) or mustache (github.com/cbroglie/mustache,
// no HTML escaping either: prompts are not HTML); another kind is an error.
// Templates cannot read files (include, import and Mustache partials fail),
// and a template nested deep enough to overflow the engine's stack is
// refused. A template is still code: it can ask for much memory ('x' *
// 10**9); render only templates you trust. Errors carry the line of the
// file.
//
// Decision: what each returns. Prepare returns the messages, in order,
// that a model receives: that is the runtime's result. Render returns one
// string, the text the template renders to as a reader wants it (strict
// mode's nonces and sentinels left out, rich inputs as their
// placeholders): the nonces and placeholders that parsing it would need
// stay inside Prepare, so that no caller parses rendered text without
// them. A program rendering with its own engine uses PreRender, NewNonce
// and Parse with Strict (and Threads) instead.
//
// Strict mode is on unless the file says template: {format: {kind: ...,
// strict: false}} (as in upstream's Python and TypeScript runtimes): the
// template's boundaries get the render nonce before rendering, with their
// attributes kept as written, and the rendered text is parsed with Strict.
// PreRender also puts every attribute value of a template boundary between
// two sentinels made from the nonce (user[name="<<N|{{who}}|N>>"]:), and
// Strict reads a value between them as it stands, so that a rendered value
// contributes only a value, never structure: quotes, commas, ']', ':',
// backslashes and role words in it stay in it, and it cannot close its
// quote, add, remove or overwrite an attribute, or borrow one from another
// boundary. Everything else of a boundary line is the template's own text
// (a boundary line holds no template syntax outside its values), so each
// rendered boundary has its own template boundary's role, keys in order
// and literal values. A value with a line break in it (LF, CR) would split
// the line and is refused; other separators (U+2028, U+2029, NEL, VT, FF)
// stay in the value. So no input value can add, remove or change a message
// or its attributes; it can only make Prepare fail.
//
// Decision: sentinels, not a comparison with the template. Matching each
// rendered boundary to a template boundary by order or by its set of keys
// is not sound: loops repeat boundaries, conditions drop them, and a value
// that closes its quote can give one boundary the keys of another. The
// sentinels hold the unguessable nonce, so a value can neither end its
// region early nor open another, and a quoted value of the template is
// written without its escapes (an expression in it reaches the engine as
// written); escapes in the rendered value are not resolved: it arrives
// exactly as the input gave it.
//
// # Prepare
//
// Prepare renders, parses and expands: a thread placeholder becomes the
// thread's messages (a []promptfmt.Message, a list of {role, name?,
// content, metadata?} maps whose content is a string or a list of parts,
// or {"_kind": "thread", "messages": [...]}); an image, file or audio
// placeholder becomes a content part inside its message. A media value is
// an http(s) URL (kept), a data:<type>;base64,<data> URI (checked), a
// local path (read as ${file:} is, at most 20 MiB, base64-encoded), or a
// mapping whose url, source, value or data is one of those (or
// image_url: {url}), with optional mediaType (media_type, mime_type),
// detail and filename; the media type comes from the extension when not
// given, and must be of the input's kind (image/..., audio/...). The text around a placeholder keeps its spaces but
// loses its leading and trailing empty lines. A rich input that is optional
// and not given leaves nothing; a thread given messages that the template
// never places is reported through promptfmt.OnWarning. Thread content is never parsed or searched:
// markers and placeholders in it stay text. Upstream's Python runtime moves
// media to the preceding user message; we keep each where the template
// puts it.
//
// # Writing
//
// Write emits the canonical form shown above: front matter (YAML, keys
// sorted, two-space indent) when Meta is not empty, each message's boundary
// with the name attribute first and the other metadata sorted by key, its
// text, a line break, and a blank line between messages. A string value is
// written bare only when it reads back the same and holds no brace, so that
// a template expression (name="{{ customer }}") stays quoted and renders to
// one string value. Parse(Write(d))
// equals d, and a canonical file is unchanged by Write(Parse(x)). What
// Prompty cannot express is an error (see Write).
//
// Decision: a .prompty body is a template. The strings Parse read from a
// file (Document.Layout keeps them) are template source and are written as
// they are, so fmt keeps a template. Any other string (text converted
// from STF, say) is what the model is to receive: when it holds template
// syntax it is escaped for the engine the front matter names, jinja2 in
// {% raw %} blocks ({{ "{%" }} for a "{%" that would end one), mustache
// between set-delimiter tags ({{=<% %>=}}…<%={{ }}=%>), so that Load and
// Prepare give it back exactly; Parse of that file gives the escaped
// source, which Write keeps. Write checks its output: Parse must read the
// messages written; a document with escaped text must render, with a
// value for each required input (no escaped text uses one), to the
// document's messages; and every front matter key Prompty gives meaning
// to must have the type Load takes, with a format and parser it knows
// (a value holding a ${env:} or ${file:} reference is checked when
// loaded). A failure is an UnsupportedError naming the message and its
// line, or the key.
package prompty
