// Package schema is ragit's PDL schema language: a small type language
// that says what a model's answer must hold, the extractor that finds that
// value in free-form model output, and the messages that tell the model
// what was wrong, so that a retry loop can ask again.
//
// This comment is the specification as this package implements it. It
// follows upstream (baehyunsol/ragit at 7f94f97, crates/pdl/src/schema*,
// MIT) fact for fact, including every message sent to a model, except
// where the list "Differences from upstream" at the end says otherwise.
//
// # Grammar
//
//	schema     = base [ constraint ]
//	base       = keyword | object | array
//	keyword    = "str" | "string" | "int" | "integer" | "float" | "number"
//	           | "bool" | "boolean" | "yesno" | "code" | "tasklist"
//	object     = "{" [ field { "," field } [ "," ] ] "}"
//	field      = name ":" schema
//	name       = identifier | string
//	array      = "[" [ schema ] "]"
//	constraint = "{" [ bound { "," bound } [ "," ] ] "}"
//	bound      = ( "min" | "len_min" | "max" | "len_max" ) ":" number
//
// Tokens: whitespace (space, tab, CR, LF) separates them and is otherwise
// ignored. An identifier is [A-Za-z_-]+; digits end it, so "key1" is the
// identifier "key" and the number 1. A string is '...' or "..." with no
// escapes (it cannot hold its own quote) and must be UTF-8. A number is
// [0-9][0-9.]* or, at the start of a token, -[0-9][0-9.]*; it is an
// integer when it fits an int64, else a float ("1.", "1.5"); "1.2.3" and
// numbers beyond the float64 range are errors. ( ) groups are tokens but
// never a valid schema. Any other character is an error.
//
// A brace group right after a base is that base's constraint: "[int]{max:
// 3}" bounds the array, "[int {max: 3}]" its elements. An object's fields
// keep their written order; a field name may be any identifier or string,
// keywords included. "[]" is an array whose elements are not checked;
// "[T]" holds exactly one element schema. "{}" is an object with no fields.
//
// Errors are *promptfmt.ParseError with Format "pdl" and the byte offset,
// line and column inside the schema text. Groups nest at most 100 deep
// (deeper is an error, so no input can exhaust the stack), and parsing is
// linear in the input.
//
// # Constraints
//
// min and max are inclusive; len_min and len_max are aliases. A bound
// written twice is an error ("A constraint `len_min` appears more than
// once."), as is any other key ("`foo` is not a valid constraint"). What
// they bound depends on the type:
//
//	int        the value; integers only ("\"0.5\" is not a valid integer.")
//	float      the value; any number
//	str        the string's length in bytes (the messages say characters)
//	code       the extracted code's length in bytes
//	tasklist   the number of task items that are not indented
//	array      the number of elements
//	bool, yesno, object
//	           none: "Type `boolean` cannot have constraint `min`";
//	           an empty {} is allowed
//
// For every type min must not exceed max ("`min` (5) is greater than `max`
// (2)."), and the counts (str, code, tasklist, array) must not be negative
// ("`min` is supposed to be a positive integer, but is -3"). These checks
// run at every nesting level.
//
// # Extraction
//
// [Schema.Extract] finds the value in a model's answer, then checks it
// against the schema. Invalid UTF-8 in the answer is first replaced by
// U+FFFD. By the top-level type:
//
//   - bool: the answer, ASCII-lower-cased, must contain "true" or "false"
//     as a substring, not both. Both: "Your output contains both `true`
//     and `false`. Please be specific." Neither: "I cannot find `boolean`
//     in your output. Please make sure that your output contains a valid
//     boolean value."
//   - yesno: the same with "yes" and "no" ("nope" is no, and so is "I
//     know"); both or neither: "Just say yes or no." The value is a bool.
//   - str: the whole answer, untrimmed.
//   - code: the answer's one fenced code block. An opening fence is a line
//     of optional spaces, 3 or more backticks, then optionally a space and
//     an info string of ASCII letters, digits and spaces ("```c++" is not a
//     fence). A closing fence is a line of spaces and at least as many
//     backticks; a shorter one is code. The closing fence may be missing.
//     The value is the lines in between joined with LF, trimmed of white
//     space. Lines end at LF, and a CR before the LF is dropped. No fence:
//     "I cannot find a code block in your response. Please give me a fenced
//     code block. An opening and closing fence consist of 3 or more
//     backtick characters." Another opening fence after the block: "It
//     seems like your response has more than 1 code block. Please give me
//     exactly 1 code block."
//   - tasklist: the answer's one markdown task list. An item is a line
//     matching ^(\s*)([-+*])\s*\[.\]\s+.+$ (\s is Unicode white space). The
//     list starts at the first item; later items must use its marker, else
//     "I see multiple task lists in your output, each having different
//     markers: `*` and `-`. Please give me exactly one task list." (new
//     marker first). One non-item line in the whole list is kept (the
//     first); a blank line, or a second non-item line, ends the list. An
//     item after the end: "I see multiple task lists in your output. Please
//     give me exactly one task list." No item: "I cannot find a task list
//     in your output. Please give me a markdown task list. A task list
//     consists of lines where each line starts with "-", followed by a
//     whitespace, followed by "[ ]" (if the task is not complete) or "[X]"
//     (if the task is complete), and followed by a task." The value is the
//     kept lines joined with LF.
//   - int, float, array, object: the jsonish scanner below picks one
//     candidate text, which is decoded as JSON with jsonvalue.Decode
//     (integers that fit are int64, other numbers float64). Nesting deeper
//     than 127 levels and numbers beyond the float64 range do not decode,
//     as in serde_json. A candidate that does not decode: "I cannot parse
//     your output. Please make sure that your output contains a valid
//     numeric value with valid data." (json value for arrays and objects).
//
// The jsonish scanner makes one pass over the bytes. Outside JSON, a digit
// or '-' starts a number; digits continue it and one '.' makes it a float;
// any other byte ends it and is consumed, not re-examined (so in "5[1]" the
// '[' starts nothing). An integer counts as an integer and as a float
// candidate, a float only as a float; a lone "-" (as in "well-known") is an
// integer candidate. '{' or '[' starts JSON: a stack follows the brackets,
// skipping strings with their backslash escapes; when it empties the span
// is an object or array candidate. Only these top-level spans count (an
// object inside an array is not an object candidate) and numbers inside
// them are ignored. A mismatched closer stops the whole scan, and an
// unclosed span at the end is dropped. Then, by type:
//
//   - int: exactly one integer candidate is chosen as is. With none and
//     exactly one float candidate ending in '.' ("The answer is 7."), that
//     float without its '.'; with none and one other float: "I want an
//     integer, but I can only find a float literal: `7.5`. Could you give me
//     an integer literal?". With several, those that read as a 128-bit
//     integer must all equal the first, which is chosen.
//   - float: every float candidate that reads as a number must equal the
//     first, which is chosen without a trailing '.' (so "7." gives the
//     integer 7).
//   - array, object: exactly one candidate is chosen as is; with several,
//     those that decode must all be equal JSON values (the same answer
//     repeated after the reasoning is fine), and the first is chosen.
//
// No candidate (or none that reads): "I cannot find `integer` in your
// output. Please make sure that your output contains a valid numeric
// value." (`float`, `array` and `object` with "json value" for the last
// two.) Unequal candidates: "I see more than 1 candidates that look like
// `integer`. I don't know which one to choose. Please give me just one
// `integer`."
//
// # Validation
//
// The value is then checked against the schema at every level. An array's
// elements are checked before its length (the first bad element is
// reported); an object's fields in schema order (the first bad one is
// reported), then missing keys, then keys the schema does not have. bool
// and yesno take a JSON bool; str, code and tasklist a string; float any
// number; int an int64 (a float, or an integer beyond int64, is a
// `float`). The messages, exactly:
//
//	Your output is too small. Make sure that the output is at least 3.
//	Your output is too long. Make sure that the output has at most 10 characters. Currently, it has 16 characters.
//	Your output is too short. Make sure that the output has at least 2 elements. Currently, it has 1 elements.
//	Your output has a wrong type. It has to be `integer`, not `float`.
//	Field `age` of your output is too big. Make sure that the field is at most 100.
//	Field `name` of your output has a wrong type. Make sure that the field is `string`, not `integer`.
//	The forth value of your output is too big. Make sure that the value is at most 400.
//	The 6th value of your output has a wrong type. Make sure all the elements are `integer`, not `boolean`.
//	Your output is missing fields : name, age. Make sure that your output contains 2 keys: name, age
//	Your output is missing a field: age. Make sure that your output contains 2 keys: name, age
//	Your output has an unnecessary key: x. Make sure that the output contains a key: name
//	Your output has unnecessary keys: x, y. Make sure that the output contains keys: name, age
//	Please make sure that your output has a correct schema.
//
// Numbers get "small"/"big" with "is at least"/"is at most" and no
// "Currently" sentence; float bounds print as Rust prints them ("0" for
// 0.0). Lengths get "short"/"long" with "has at least"/"has at most", in
// "characters" for str, code and tasklist (the tasklist count is items,
// but upstream says characters) and "elements" for arrays. Ordinals are
// first, second, third, forth (sic), fifth, then 6th, 7th, ..., 21th,
// 22th. Type names are integer, float, string, boolean, yes or no, code,
// markdown task list, array, object and null. Missing and unnecessary keys
// are reported only for the top-level object, missing ones in schema order
// and unnecessary ones sorted, each message without a final period (and
// with the stray space of "fields :"). Any problem deeper than one level
// inside an object field or array element is the last, generic sentence.
//
// # JSON Schema
//
// [Schema.JSONSchema] gives the JSON Schema of the values a schema
// accepts, for a schema without an extraction mode (yesno, code,
// tasklist: their values are found in free text, not given as JSON);
// [FromJSONSchema] is its exact inverse, refusing what a PDL schema
// cannot say. A schema converts to JSON Schema and back to an equal one.
//
// # Retry loop
//
// [Schema.Ask] is upstream's send_and_validate: it calls a [Model] with the
// conversation, up to [Tries] times (default 3). When the answer does not
// fit, it appends the answer as an assistant message and the error text as
// a user message and calls again with the whole conversation. When every
// try failed it returns the [Default] (default nil) and says so in
// [Result]. Tries(0) makes no call. A model error ends the loop at once.
// [Render] formats a value for printing as upstream's render_pdl_schema.
//
// # Differences from upstream
//
//   - Negative numbers are allowed in constraints: "int { min: -3 }"
//     parses. Upstream's tokenizer reads "-3" as the identifier "-" and the
//     number 3, so no negative bound can be written (its parse test asserts
//     that this fails). For str, code, tasklist and array a negative bound
//     is an error; upstream checks this for str and array only, and code
//     and tasklist join them because a negative length bound makes no sense.
//   - Constraints are checked at parse time at every nesting level, and
//     during validation at every level. Upstream checks only the top-level
//     constraint when parsing, so "[int {min: 0.5}]" parses and then makes
//     Rust panic during validation, and "{a: bool {min: 1}}" is silently
//     accepted.
//   - Tokens after the top-level schema are an error ("int int", "int8" =
//     "int" then 8). Upstream ignores them silently.
//   - A field name written twice in one object is an error. Upstream keeps
//     both, which makes the schema impossible to satisfy.
//   - Schemas nest at most 100 levels and parsing is linear; upstream
//     recurses without a limit.
//   - str, code and tasklist values are the text itself. Upstream quotes
//     the text with Rust's Debug formatting and reads it back as JSON,
//     which fails on text holding NUL or other control characters,
//     combining marks (U+0301) or emoji variation selectors (U+FE0F),
//     because Debug writes them as \u{...}; the model then gets "I cannot
//     parse your output..." and cannot fix it.
//   - JSON is decoded by encoding/json (through jsonvalue.Decode), not
//     serde_json: "-0" is the integer 0 (some serde_json versions read a
//     float), and a lone surrogate escape such as "\ud800" becomes U+FFFD
//     (serde_json rejects it). Integers beyond int64 are float64
//     (serde_json keeps those up to 2^64-1 as integers; both are `float` to
//     an int schema).
//   - Invalid UTF-8 in an answer becomes U+FFFD; upstream receives answers
//     as Rust strings, which cannot hold it.
//   - A number in a schema beyond the float64 range is an error; upstream
//     reads it as infinity (a float bound of inf, or "\"inf\" is not a
//     valid integer.").
//   - [Result] says whether the default was used, how many tries were made
//     and what the conversation was; upstream's callers cannot tell.
package schema
