// Package promptfile reads and writes prompt files (.prompt) as
// PromptCritical keeps its prompt population (pragsmike/PromptCritical,
// docs/prompt-representation.md, the seed's "Prompt file format"): YAML
// front matter that is never sent to a model, over an immutable body
// protected by a SHA-1 hash. It is not Google's Dotprompt, which shares the
// extension.
//
//	---
//	prompt-id: "P42"
//	created-at: "2022-08-17T14:37:22Z"
//	sha1-hash: "3b215be875d3e5c583e1a4bd80a358243b4747b1"
//	generator: human
//	---
//
//	Find more precise way to state this instruction:
//	Discard all HTML tags.
//
// Parse, Write, Verify, VerifyHeld and Fix take promptfmt options, as
// every format's functions do (Format is this package in package formats'
// table): promptfmt.File names the file in their errors and warnings, and
// Fix has its own, IDFrom, CreatedAt and Rehash. Decision: an option of
// another format, and a Fix option given to another function, are errors
// naming them, never ignored. promptfmt's template options (Limits, FS,
// OnWarning) are accepted, as by every format, and change nothing: a
// prompt file has no template.
//
// # Reading
//
// The file is UTF-8; a leading byte order mark is ignored with a warning.
// CR, LF and CRLF all end lines. The first line must be "---" to open front
// matter; it closes at the next line that is "---" (trailing blanks are
// tolerated with a warning; "..." is not a closer, and later "---" lines
// are body text). Front matter that is never closed is an error: otherwise
// its YAML would be hashed as the body. A file whose first line is not
// "---" has no front matter: all of it is the body, and every mandatory key
// is missing. Empty front matter ("---" twice) is allowed.
//
// The front matter becomes Document.Meta, and its yaml.Node MetaNode, so
// that writing keeps key order, comments and style. The mandatory keys'
// plain values are read as strings: an unquoted created-at is not a time
// and an all-digit hash is not a number.
//
// The body starts at the first line after the front matter that is not
// whitespace only (the blank lines before it are not hashed), runs to the
// end of the file, has its line endings made LF and gains a final LF when
// its last line has none. Decision: an empty body is the empty string,
// whose hash is da39a3ee5e6b4b0d3255bfef95601890afd80709 (the seed is
// silent; upstream's code hashes "\n"). Decision: no Unicode normalisation
// (upstream later adopted NFC; the seed does not ask for it). The body is
// the Document's one message, role user, exactly as hashed.
//
// Mandatory keys: prompt-id (P followed by digits), created-at (an
// ISO-8601 UTC time such as 2022-08-17T14:37:22Z) and sha1-hash (40
// hexadecimal digits, either case). A missing or malformed mandatory key,
// and a body whose hash differs from sha1-hash, is a warning with line and
// column: the file still parses. Verify reports exactly those as failures,
// so promptfmt check (every warning) and promptfmt promptfile verify (the
// failures) report the same findings about the keys, at the same places;
// they differ only on the file's form (a byte order mark, blanks after
// ---), which check reports and verify, about integrity, does not. Other
// keys (ancestors, generator, model, meta-prompt id, metrics...) are kept
// as written.
//
// Decision (settings): the front matter records where a prompt came from
// (its model is the model that generated it), not a request to a model.
// So Parse sets nothing of Document.Request, model stays in Meta, and
// Write refuses every setting a document makes (promptfmt.ThingRequest,
// one for each field); convert --lossy drops them.
//
// Decision: the key id (the seed's own example writes it; upstream later
// adopted it) follows one rule, in one function both commands reach
// (findings in parse.go). Alone, it is read in place of prompt-id, but
// prompt-id is still missing: a failure, as the seed says every processor
// writes prompt-id ("promptfile fix" renames id). Its ID is held all the
// same: the store never issues it and verify's duplicate search sees it.
// Beside prompt-id, id naming the same ID (P04 is P4) is harmless; naming
// another is a failure at id (a prompt has one ID), the store holds both,
// and Fix refuses to choose between them.
//
// # Fixing
//
// Fix completes a file's mandatory metadata: a new ID where prompt-id is
// missing or malformed (id, when well formed, is renamed), the time now
// where created-at is missing or unreadable (a time with an offset, or a
// bare date, is rewritten in UTC instead), and the body's hash where
// sha1-hash is missing or cut short. It edits only the lines of those keys
// (a missing key gets a line of its own, after the mandatory key before
// it), so the body's bytes, the other keys, comments and line endings stay
// as written; front matter laid out so that a key's line cannot be replaced
// alone (a flow mapping, a value over several lines) is re-encoded with its
// comments instead. A hash that does not match the body is refused unless
// the Rehash option is given: the mismatch means the body was edited or
// corrupted, and fixing it silently would hide that.
// Decision: without CreatedAt, the time given is the time Fix runs
// (never a zero time, the year 1).
//
// # The prompt store
//
// A Store is a directory of prompt files named P<n>.prompt (on input any
// name ending in .prompt will do). IDs are drawn from a next-id file under
// a lock file; decision: the ID drawn is the smallest never handed out
// that no .prompt file in the store holds, by its name or by the
// prompt-id (or id) in its front matter, so IDs come in order, a file
// copied in or renamed by hand never has its ID issued again, and a
// deleted prompt's ID is not reused, since others may name it among their
// ancestors. VerifyHeld and DuplicateIDs let a caller verifying many files
// name every pair that holds one ID (promptfmt promptfile verify does).
// See Store for the locking and the atomic writes.
//
// Decision: converting into prompt files makes new prompts in a store
// (Store.Add; promptfmt convert -t promptfile -o STORE). Each converted
// document gets an ID the store draws and is written as P<n>.prompt, with
// created-at the time of the conversion (the caller's clock) unless the
// source has a well-formed one, and sha1-hash the body's hash. A prompt-id
// the source had belongs to another store, and is replaced; an id is
// removed; a malformed created-at and a wrong sha1-hash are replaced; each
// is returned as a change, so the converter says what it did. The other
// keys are kept. A document Write refuses spends no ID. To standard output
// (Store.Issue) the ID still comes from a store, named with -dir, and is
// spent there though no file is written: a prompt file has no ID outside a
// store, and printing one without an ID, or with one no store issued, would
// make a file that fails verification or whose ID may clash.
//
// # Writing files
//
// Every file this package writes (Store.Create and Add, the next-id file;
// and promptfmt's fmt -w, promptfile fix and convert -o) goes through one
// policy, internal/atomicfile: a temporary file ".NAME.promptfmt-N.tmp"
// beside the file, fsync, rename. Decision: a symbolic link is written
// through to its target, in the target's directory, and stays a link; a
// read-only file (by its mode bits, for root too) or one with other hard
// links is refused unless forced (promptfmt --force); the file keeps its
// mode and, where allowed, its owner; a failed write leaves the file as it
// was and its error names the file, never the temporary one; temporaries
// left by a killed run are removed by the next write in their directory.
package promptfile
