// Package dotprompt reads and writes Dotprompt files (.prompt), Google's
// prompt format used by Firebase Genkit (google/dotprompt): YAML front
// matter over a Handlebars template.
//
//	---
//	model: googleai/gemini-2.0-flash
//	config:
//	  temperature: 0.9
//	input:
//	  schema:
//	    subject: string, what the joke is about
//	---
//	{{role "system"}}
//	You are a comedian.
//	{{role "user"}}
//	Tell me a joke about {{subject}}.
//
// It is not PromptCritical's prompt file (package promptfile), which
// shares the extension; the content tells them apart (see Sniff below).
//
// # Reading
//
// The file is UTF-8; a leading byte order mark is ignored with a warning.
// Front matter is found as Dotprompt's runtimes find it: it opens with a
// line "---" and closes at the next "---" line (blanks after either
// allowed), which a line break must end; lines of "#" comments and blanks
// may come before it (a licence header, as the runtimes allow since
// 2026: it is the file's one Dotprompt comment, which Write puts back).
// It becomes Meta, every key kept, and MetaNode its YAML, so that Write
// keeps key order, comments and style. The schemas (input.schema,
// output.schema) are kept as written, Picoschema or JSON Schema.
// Decision: front matter that is never closed, or closed by a "---"
// ending the file with no line break, is an error (the runtimes would
// read the whole file as a template, YAML included). As the runtimes do, the body of a file with front
// matter is trimmed of white space (Unicode's) at both ends; without
// front matter the whole file is the body, untouched.
//
// The body is a template; Parse gives the messages its role markers
// describe, as Dotprompt's runtimes split a rendered template:
//
//   - a top-level {{role "system"}}, {{role "user"}}, {{role "model"}} or
//     {{role "tool"}} (not inside a block such as {{#if}}) starts a message
//     of that role ("model" is the model's "assistant") when the current
//     one holds anything but white space, else it relabels the current
//     one; text before the first marker is a user message. Decision: a
//     marker naming another role is an error (Genkit refuses it).
//   - a top-level {{media url="U" contentType="T"}} whose arguments are
//     string literals is a media part: its Value the url, MediaType the
//     content type, its kind image or audio by the type's prefix, else
//     file; without a content type, by the type its url says (a data:
//     URL's, else its extension's: cat.jpg is an image), as a model's API
//     takes it. A media tag whose url is an expression is template text.
//   - text between markers is one text part, kept verbatim as template
//     source (expressions, blocks, comments, {{history}}, {{section}},
//     partials and escapes such as "\{{" as written): the line break after
//     a marker written on a line of its own is the text's, as it is in
//     what the runtimes render. Text of white space only between markers
//     is dropped, as the runtimes drop it; a message with nothing else is
//     no message. Decision: {{history}} and {{section "x"}} stay text in
//     the message they are in: they are placed when rendered.
//
// A marker's white space control strips the text beside it as
// Handlebars does ({{~role "user"}} the white space before it, "~}}" the
// white space after it: Go's \s, as raymond reads it), so the text is what
// the runtimes render; the layout keeps what was stripped, for Write.
//
// Tags are read as raymond's lexer reads them: "\{{" is a literal "{{",
// with any "{" right after it, and "\\{{" a backslash before a tag;
// comments and string arguments are read whole. A tag never closed,
// "}}}" closing a "{{" tag, a {{/x}} that closes no block or another
// block than the one open ({{#if}} ... {{/each}}), and a block never
// closed are errors at their position. Load reads the rest of the
// grammar as the engine's parser does, with the engine's lexer, the
// template and each partial, before the runtime sees them: what that
// parser would refuse is an error at its line and column (in the
// partial's file for a partial), never handed to it (it would leave a
// goroutine blocked for each such template). Decision: a block helper
// called out of a block ({{if x}}, {{json (each xs)}}) is an error at
// its place: handlebars.js renders it as nothing, but the engine renders
// the block around it in its place, which calls it again until the Go
// stack overflows (a fatal error: {{#if t}}{{if t}}{{/if}}, found by
// FuzzHanded). The blanks inside comments
// are handed to the engine as "x" (what a comment holds is never
// rendered): its lexer costs n²/2 steps for a run of n of them.
//
// # Writing
//
// Write writes the front matter from Meta (MetaNode when it still holds
// Meta), then each message after its role marker. Decision: the first
// user message has no marker when the front matter alone makes the file
// Dotprompt's (a model or config key...) and its text starts with no
// white space (which the body's trimming would take); otherwise every
// message has one, so that the file reads as Dotprompt's by its content.
// A file with front matter ends with a line break (trimmed when read).
// Decision: the line breaks the writer makes (the licence header, the
// front matter, the last) are CRLF when every line of the file read ended
// in CRLF, since its text, CRs included, is written as read: fmt leaves
// such a file as it is rather than mixing the two.
//
// Decision (as package prompty does): the texts Parse read (Document.
// Layout keeps them) are template source and are written as they are, with
// the white space control of the markers beside them as read; any other
// text is what a model is to receive, and is escaped so that the file
// renders it back exactly: each "{{" as "\{{" (raymond's lexer then takes
// the "{"s after it as text too), and a "{{" after k backslashes as those
// and one more, an empty comment "{{!}}", then "\{{" (k+1 backslashes
// before a tag print k). Such text goes on lines of its own: the marker
// before it is written {{role "user"~}} and a line break, the marker after
// it a line break and {{~role "model"}}, "~" stripping those line breaks,
// where the text does not start (end) with white space that "~" would
// strip too (Unicode's, as handlebars.js reads \s); this also parts a
// text ending with "{" ("{{{" would open a triple stash) or a backslash (it
// would escape the marker), or starting with "}" ("}}}"), from the marker.
// Parse of such a file gives the escaped source, which Write keeps. When
// such text holds a brace or backslash (and no source text is written),
// Write checks its output:
// the file loaded and rendered must give the document's messages, else an
// UnsupportedError names the message.
//
// What Dotprompt cannot hold is an UnsupportedError, and nothing is
// written: a role other than user, assistant, system and tool; a name;
// message metadata; a disabled message; tool calls and results; a message
// of white space only, and a text part of white space only beside media
// (the runtimes drop them); text parts side by side; white space (Unicode's)
// at the end of the last text of a file with front matter; text holding
// "<<<dotprompt:", the start of the markers Dotprompt's helpers render to,
// which the runtimes split a rendered template at whatever printed them;
// a media part holding data rather than a URL, with a detail, id or
// filename, a quote, backslash, angle bracket or white space in its url or
// content type, or a content type of another kind; comments of another
// format; front matter Encode refuses, and a PromptCritical key
// (prompt-id, created-at, sha1-hash, id: P<n>), which would make the file
// a promptfile.
//
// # Rendering
//
// Load reads a file as a template and Template.Render renders it with
// inputs into the messages a model receives, by Dotprompt's own Go runtime
// (github.com/google/dotprompt/go, on its Handlebars fork
// mbleigh/raymond): no HTML escaping, input.default merged under the
// inputs, role, history, media and section markers split as the runtime
// splits them ("model" is "assistant"). The Data option takes Dotprompt's
// whole data argument (input, messages as history, context as @
// variables), as promptfmt messages --inputs does for a Dotprompt file;
// History gives the history alone. Partials {{> name}} are read when the
// file is loaded from the FS option (the command's: the file's directory,
// which no name leaves): "dir/name" is dir/_name.prompt, as Dotprompt's
// directory store names it. Decision: this package finds the names, not
// the runtime, whose resolver takes a tag's hash arguments as part of the
// name ({{> card title="x"}} would look for "card title=\"x\""); the
// tags are found by Handlebars' lexer, so "{{> name}}" in a comment, a
// raw block or escaped text ("\{{> name}}", as Write writes text) names
// none. Without the FS option a template naming a partial is an error at
// Load, at the tag (the engine would fail at rendering, with no place).
// Decision: a template calling a helper that is neither Handlebars' nor
// Dotprompt's ({{list items}}, {{#if (eq a b)}}: a name given arguments),
// one that Genkit's code registers (ai.defineHelper), is an error at
// Load, at the tag: the engine would render it as nothing, where
// handlebars.js refuses it. A name without arguments is a value. Check,
// which reads a file as Load does without making it ready to render
// (promptfmt check uses it), allows such a helper: the host may register it.
// Decision: front matter that this package's YAML reader takes and the
// runtime's (goccy/go-yaml) does not ("A: !!binary" with no value) is an
// error at Load, at goccy's place: the runtime would print its error to
// standard output and render the whole file, front matter included, as
// the template, where Parse gives Meta.
// Decision: a {{section "name"}} marker renders a part with metadata
// only ({purpose: name, pending: true}), a place Genkit fills later with
// content of its own (its output instructions, context documents); it has
// no content for a model, and this package's model no part without
// content (message metadata would lose its place among the parts): it is
// left out, with a warning naming the message and the section. A media
// part whose url renders empty is kept, as the runtime makes it, with a
// warning. Inputs are the properties input.schema declares (compiled as Schemas says, in the
// file's order), else input.default's keys.
//
// Bounded: the source and each partial (Limits' MaxSource, before they
// are read or parsed); blocks ({{else if}} links counted) and
// sub-expressions nested more than MaxDepth deep, at Load (the engine
// recurses on each, parsing and rendering); partials, before rendering:
// one that includes itself (the engine would recurse until the Go stack
// overflows) is an error, as are partials nested deeper than MaxDepth
// and partials whose expansion comes to more than MaxOutput bytes of
// template; the rendered text and media URLs (MaxOutput, after
// rendering); a canceled context (checked before and after).
//
// The engine (raymond) has no budget, no cancellation, and builds some
// text in quadratic time, so the loops are rendered by helpers of this
// package's, with the engine's output: {{#each}}, and a section
// ({{#items}}...{{/items}}: a block whose name is a path, without
// arguments, and no helper's), which Load hands to a helper of its own
// (FuzzHanded holds the two renderings the same); and a value printed
// alone ({{items}}), which the engine prints, for a list, item by item
// into a string that it copies each time. The work: each pass of a loop
// costs the template's tags (partials expanded), and past MaxSteps the
// rendering stops (a k-deep nest of loops over n items is n^k passes).
// MaxBytes bounds what these helpers build (a long value printed by
// many tags counts each time, a loop's passes each time), and json,
// each output reckoned before it is made (the runtime's json builds a json of a json
// of ... n deep in 2^n bytes, and an indent of a billion a space at a
// time), and {{log}}, whose values become Render's warnings (the
// engine's writes to the process's logger). The output is checked
// against MaxOutput after rendering.
//
// What the engine itself builds outside these is then the template's
// text, partials expanded (within MaxOutput), once, and the values of
// tags, each passed through print (a value or a helper's
// value printed, {{lookup m k}}) or json, and so charged. Data given by
// Go code that contains itself, which the engine would print until the
// Go stack overflows, is refused before rendering (promptfmt.Template).
//
// # Schemas
//
// input.schema and output.schema are Picoschema or JSON Schema; Schema,
// Template.InputSchema and Template.OutputSchema compile them into JSON
// Schema as Dotprompt's spec does (internal/picoschema says how; its
// spec cases are its tests), not as its Go runtime does (which differs
// in seven of them). A bare name that is not a type is a named schema,
// which Genkit resolves from its registry (ai.defineSchema). Decision:
// this package has no registry; the caller gives the named schemas to
// those functions, and a name they lack is an error naming it, at its
// place in the file. Reading and rendering need none: Parse (and so Load
// and check) compiles both schemas with any name standing for a named
// schema, and what the runtimes would refuse (a modifier other than
// array, object and enum, an enum without a list, a value that is
// neither a string nor a mapping...) is a ParseError at its place; Write
// refuses such a schema in Meta. The runtime renders with every name
// resolved to an empty schema, as it would otherwise fail on one it does
// not know.
//
// # Settings
//
// What a file asks of a model is Document.Request, read from the front
// matter by Parse (and by Render, from the file it renders) and written
// back there by Write; Meta keeps the rest. Homes: model; config's
// temperature, topP, topK, maxOutputTokens (MaxTokens), stopSequences
// (Stop), and seed, frequencyPenalty and presencePenalty (Genkit passes
// config's keys to the model's plugin, whose names these are); tools, a
// list of names (Tools of a name each: Dotprompt names the tools its host
// defines, so a tool with a description, parameters or strict is refused,
// and toolDefs stays Meta); output.schema, Picoschema or JSON Schema, as
// the JSON Schema it compiles to (Output.Schema). Decision: an unchanged
// setting is written as written (Picoschema stays Picoschema, 1 stays
// 1); a changed output schema is written as JSON Schema, and one that
// Dotprompt's Go runtime cannot load (it has no place for a list of
// types) is refused. A schema naming a schema the host registers is no
// setting here and stays Meta; output.format stays Meta (it is the
// runtime's, not the request's). An output with a name, description or
// strict, or without a schema, and a tool choice have no home: refused
// (UnsupportedError, ThingRequest), and --lossy drops them (keeping the
// schema). A value the Request cannot hold (temperature: hot) stays in
// the front matter with a warning at its line.
//
// Decision (model): model is a Genkit model reference, the plugin that
// serves the model, a slash, then the model's name as that plugin's
// provider knows it (googleai/gemini-2.0-flash: the Gemini API's
// gemini-2.0-flash). Parse and Render keep it as written in
// Request.Model, as Dotprompt's runtime renders it: a file converted and
// read back names the same model. What sends the request without Genkit,
// as promptfmt request --as does, gives the provider the name alone
// (ModelName): the plugin prefix is Genkit's, and a provider refuses it.
//
// # File names
//
// Dotprompt's directory store (and Genkit, which loads a prompts
// directory) names a prompt by its file: name.prompt, name.variant.prompt
// for a variant (the text after the last dot; Genkit's own loaders cut at
// the first), _name.prompt a partial, dir/name for a file in a
// sub-directory of the store. Decision: Parse takes the file as written
// (Meta is its front matter; fmt adds nothing). Load with the File option
// names the template as a Genkit user expects: the Document Render
// returns has the name and variant the file's name gives in Meta, where
// the front matter has none (a name or variant written there wins, as
// Dotprompt's runtimes read it); a partial's file, or one not ending in
// .prompt, gives none. A file alone does not say where its store starts,
// so its name has no directory. Partials: {{> name}} is _name.prompt and
// {{> dir/name}} dir/_name.prompt, read from the FS option; a variant's
// partial, {{> name.variant}}, is _name.variant.prompt, the file Genkit
// registers as the partial name.variant and the store loads for name
// with that variant.
//
// # Telling Dotprompt from a prompt file
//
// Sniff and promptfile's Sniff share one rule (internal/promptkind), so
// that a file one takes the other refuses: a PromptCritical key in the
// front matter means promptfile; else a Dotprompt key (model, config,
// input, output, tools, name, variant, a dotted extension key...) or
// helper in the body (role, history, media, section, a partial) means
// Dotprompt. Both (a PromptCritical key with a key or helper only
// Dotprompt uses) is neither's: formats.Detect asks for -f. Decision: a
// file with neither (a bare body, or empty front matter) stays a promptfile,
// as every .prompt was read before this package; -f dotprompt reads it.
package dotprompt
