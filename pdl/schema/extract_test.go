package schema

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

const (
	msgNoBool      = "I cannot find `boolean` in your output. Please make sure that your output contains a valid boolean value."
	msgBothBool    = "Your output contains both `true` and `false`. Please be specific."
	msgYesNo       = "Just say yes or no."
	msgNoCode      = "I cannot find a code block in your response. Please give me a fenced code block. An opening and closing fence consist of 3 or more backtick characters."
	msgTwoCode     = "It seems like your response has more than 1 code block. Please give me exactly 1 code block."
	msgNoTasks     = "I cannot find a task list in your output. Please give me a markdown task list. A task list consists of lines where each line starts with \"-\", followed by a whitespace, followed by \"[ ]\" (if the task is not complete) or \"[X]\" (if the task is complete), and followed by a task."
	msgTwoTasks    = "I see multiple task lists in your output. Please give me exactly one task list."
	msgNoInt       = "I cannot find `integer` in your output. Please make sure that your output contains a valid numeric value."
	msgManyInt     = "I see more than 1 candidates that look like `integer`. I don't know which one to choose. Please give me just one `integer`."
	msgNoFloat     = "I cannot find `float` in your output. Please make sure that your output contains a valid numeric value."
	msgManyFloat   = "I see more than 1 candidates that look like `float`. I don't know which one to choose. Please give me just one `float`."
	msgParseNumber = "I cannot parse your output. Please make sure that your output contains a valid numeric value with valid data."
	msgNoArray     = "I cannot find `array` in your output. Please make sure that your output contains a valid json value."
	msgManyArray   = "I see more than 1 candidates that look like `array`. I don't know which one to choose. Please give me just one `array`."
	msgParseJSON   = "I cannot parse your output. Please make sure that your output contains a valid json value with valid data."
	msgNoObject    = "I cannot find `object` in your output. Please make sure that your output contains a valid json value."
	msgManyObject  = "I see more than 1 candidates that look like `object`. I don't know which one to choose. Please give me just one `object`."
	msgGenericTest = "Please make sure that your output has a correct schema."
)

type extractCase struct {
	schema, input string
	want          any    // the value, when msg is ""
	msg           string // the exact message for the model
}

func runExtract(t *testing.T, tests []extractCase) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.schema+"/"+tc.input, func(t *testing.T) {
			s, err := Parse([]byte(tc.schema))
			require.NoError(t, err)
			v, err := s.Extract(tc.input)
			if tc.msg != "" {
				require.Error(t, err, "got %#v", v)
				ve, ok := err.(*ValueError)
				require.True(t, ok, "%T", err)
				require.Equal(t, tc.msg, ve.Msg)
				require.Equal(t, tc.msg, err.Error())
				require.Nil(t, v)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, v)
		})
	}
}

func TestExtractBool(t *testing.T) {
	runExtract(t, []extractCase{
		{"bool", "true", true, ""},
		{"bool", "false", false, ""},
		{"bool", "The answer is TRUE.", true, ""},
		{"bool", "False!", false, ""},
		{"bool", "untrue", true, ""}, // a substring, as upstream
		{"bool", "It's either true or false.", nil, msgBothBool},
		{"bool", "yes", nil, msgNoBool},
		{"bool", "", nil, msgNoBool},
		{"bool", "tru e", nil, msgNoBool},
		{"bool", "ＴＲＵＥ", nil, msgNoBool}, // ASCII only
		{"boolean", "\xfftrue\xfe", true, ""},
		{"yesno", "yes", true, ""},
		{"yesno", "YES.", true, ""},
		{"yesno", "no", false, ""},
		{"yesno", "nope", false, ""},
		{"yesno", "I know", false, ""}, // "know" holds "no"
		{"yesno", "Yes, I know", nil, msgYesNo},
		{"yesno", "yes or no", nil, msgYesNo},
		{"yesno", "maybe", nil, msgYesNo},
		{"yesno", "", nil, msgYesNo},
		{"yesno", "ye s", nil, msgYesNo},
	})
}

func TestExtractString(t *testing.T) {
	runExtract(t, []extractCase{
		{"str", "Anything is okay", "Anything is okay", ""},
		{"str", "  padded \n", "  padded \n", ""},
		{"str", "", "", ""},
		// Upstream fails on these (Debug quoting then JSON); we keep the text.
		{"str", "nul\x00 esc\x1b", "nul\x00 esc\x1b", ""},
		{"str", "e\u0301 and ❤\ufe0f", "e\u0301 and ❤\ufe0f", ""},
		{"str", "bad \xff byte", "bad \ufffd byte", ""},
		{"str { max: 10 }", "This is not okay", nil, "Your output is too long. Make sure that the output has at most 10 characters. Currently, it has 16 characters."},
		{"str { max: 10 }", "0123456789", "0123456789", ""},
		{"str { min: 3 }", "ab", nil, "Your output is too short. Make sure that the output has at least 3 characters. Currently, it has 2 characters."},
		{"str { min: 3 }", "한", "한", ""}, // 3 bytes: lengths count bytes
		{"str { min: 2, max: 2 }", "é", "é", ""},
	})
}

func TestExtractCode(t *testing.T) {
	runExtract(t, []extractCase{
		{"code", "This adds 2 numbers.\n\n```\ndef add(a, b):\n    return a + b\n```", "def add(a, b):\n    return a + b", ""},
		{"code", "```python\nprint(1)\n```\nDone.", "print(1)", ""},
		{"code", "``` python 3\nprint(1)\n```", "print(1)", ""},
		{"code", "  ```\n  x\n  ```", "x", ""},
		{"code", "```\r\nx\r\ny\r\n```\r\n", "x\ny", ""},
		{"code", "```\n\n  indented\n\n```", "indented", ""},
		{"code", "```\n```", "", ""},
		{"code", "```\nunclosed\nstill code", "unclosed\nstill code", ""},
		{"code", "````\n```\ninner\n```\n````", "```\ninner\n```", ""},
		{"code", "```\nx\n`````", "x", ""}, // a longer closing fence closes
		{"code", "```\nx\n``` ``", "x\n``` ``", ""},
		{"code", "```\n```python\n```", "```python", ""},
		{"code", "There's no code here", nil, msgNoCode},
		{"code", "```c++\nint x;\n```", "", ""}, // "```c++" is no fence: the block is the empty one at the end
		{"code", "```c++\nint x;", nil, msgNoCode},
		{"code", "~~~\nx\n~~~", nil, msgNoCode},
		{"code", "``\nx\n``", nil, msgNoCode},
		{"code", "a```\nx\n```", "", ""},
		{"code", "```\na\n```\ntext\n```\nb\n```", nil, msgTwoCode},
		{"code", "```\na\n```\n```", nil, msgTwoCode},
		{"code", "```\na\n```\n````js", nil, msgTwoCode},
		{"code", "```\na\n```\n``", "a", ""},
		{"code { max: 5 }", "```\nprint(1)\n```", nil, "Your output is too long. Make sure that the output has at most 5 characters. Currently, it has 8 characters."},
		{"code { min: 1 }", "```\n```", nil, "Your output is too short. Make sure that the output has at least 1 characters. Currently, it has 0 characters."},
	})
}

func TestExtractTaskList(t *testing.T) {
	list := "- [ ] TODO: do whatever\n- [X] Complete: do something"
	runExtract(t, []extractCase{
		{"tasklist", "\n" + list, list, ""},
		{"tasklist", "Plan:\n\n" + list + "\n\nThat's all.", list, ""},
		{"tasklist", "* [ ] a\n* [O] b\n\nHaHaHa\n", "* [ ] a\n* [O] b", ""},
		{"tasklist", "+ [ ] a\n  note\n+ [x] b", "+ [ ] a\n  note\n+ [x] b", ""},
		{"tasklist", "- [ ] a\nnote\nsecond note\n- [ ] b", nil, msgTwoTasks},
		{"tasklist", "- [ ] a\nnote one\n- [ ] b\nnote two\n", "- [ ] a\nnote one\n- [ ] b", ""},
		{"tasklist", "- [ ] a\n\n- [ ] b", nil, msgTwoTasks},
		{"tasklist", "- [ ] a\n* [ ] b", nil, "I see multiple task lists in your output, each having different markers: `*` and `-`. Please give me exactly one task list."},
		{"tasklist", "-[ ] tight", "-[ ] tight", ""},
		{"tasklist", "-\t[ ]\tx", "-\t[ ]\tx", ""},
		{"tasklist", "- [é] x", "- [é] x", ""},
		{"tasklist", "- []] x", "- []] x", ""},
		{"tasklist", "\u3000- [ ] x", "\u3000- [ ] x", ""},
		{"tasklist", "- [ ]  ", "- [ ]  ", ""}, // \s+.+ : two blanks are enough
		{"tasklist", "- [ ] ", nil, msgNoTasks},
		{"tasklist", "- [ ]x", nil, msgNoTasks},
		{"tasklist", "- [ab] x", nil, msgNoTasks},
		{"tasklist", "1. [ ] x", nil, msgNoTasks},
		{"tasklist", "- This is not a task list", nil, msgNoTasks},
		{"tasklist", "", nil, msgNoTasks},
		{"tasklist { min: 3 }", "- [ ] a\n  - [ ] a.1\n- [ ] b", nil, "Your output is too short. Make sure that the output has at least 3 characters. Currently, it has 2 characters."},
		{"tasklist { max: 1 }", list, nil, "Your output is too long. Make sure that the output has at most 1 characters. Currently, it has 2 characters."},
		{"tasklist { min: 2, max: 2 }", list, list, ""},
	})
}

func TestExtractInt(t *testing.T) {
	runExtract(t, []extractCase{
		{"int", "42", int64(42), ""},
		{"int", "Answer: -3", int64(-3), ""},
		{"int", "The answer is 7.", int64(7), ""},
		{"int", "The answer is 7.5.", nil, "I want an integer, but I can only find a float literal: `7.5`. Could you give me an integer literal?"},
		{"int", "1.5 or 2.5", nil, msgNoInt},
		{"int", "no number here", nil, msgNoInt},
		{"int", "It is 5, I said 5", int64(5), ""},
		{"int", "5 or 005", int64(5), ""},
		{"int", "005 or 5", nil, msgParseNumber}, // the first is chosen, and JSON has no leading zeros
		{"int", "It's 5 or 6", nil, msgManyInt},
		{"int", "gpt-4o answer: 3", nil, msgManyInt}, // candidates -4 and 3
		{"int", "a well-known answer: 3", int64(3), ""},
		{"int", "well-known", nil, msgParseNumber}, // the lone "-" is the one candidate
		{"int", "7.5 and 8", int64(8), ""},
		{"int", "[1, 2] and {\"a\": 3}", nil, msgNoInt}, // numbers inside JSON do not count
		{"int", "5[1]", nil, msgManyInt},                // '[' is consumed by the number: 1 counts
		{"int", "99999999999999999999", nil, "Your output has a wrong type. It has to be `integer`, not `float`."},
		{"int", strings.Repeat("9", 400), nil, msgParseNumber},
		{"int", strings.Repeat("9", 40) + " " + strings.Repeat("8", 40) + " then 3", int64(3), ""}, // beyond i128: skipped
		{"int", "-0", int64(0), ""},
		{"int", "0 or -0", int64(0), ""},
		{"int", "-9223372036854775808", int64(-9223372036854775808), ""},
		{"int { min: 0, max: 100 }", "150", nil, "Your output is too big. Make sure that the output is at most 100."},
		{"int { min: 0, max: 100 }", "-1", nil, "Your output is too small. Make sure that the output is at least 0."},
		{"int { min: -3 }", "-3", int64(-3), ""},
		{"int { min: -3 }", "-4", nil, "Your output is too small. Make sure that the output is at least -3."},
	})
}

func TestExtractFloat(t *testing.T) {
	runExtract(t, []extractCase{
		{"float", "The answer is 1.5", 1.5, ""},
		{"float", "정답은 1.5입니다.", 1.5, ""},
		{"float", "The answer is 7.", int64(7), ""},
		{"float", "3", int64(3), ""},
		{"float", "2 or 2.0 or 2.", int64(2), ""},
		{"float", "2.0 or 2", 2.0, ""},
		{"float", "It's either 1.5 or 2", nil, msgManyFloat},
		{"float", "nothing", nil, msgNoFloat},
		{"float", "well-known 2.5", 2.5, ""},  // "-" does not read as a number
		{"float", "-.5", nil, msgParseNumber}, // reads as a number, but is no JSON
		{"float", "1.2.3", nil, msgManyFloat}, // 1.2, then 3
		{"float", strings.Repeat("9", 400), nil, msgParseNumber},
		{"float { max: 0.0 }", "0.5", nil, "Your output is too big. Make sure that the output is at most 0."},
		{"float { min: -1 }", "-1.5", nil, "Your output is too small. Make sure that the output is at least -1."},
		{"float { min: 0.25, max: 0.75 }", "0.5", 0.5, ""},
	})
}

func TestExtractArray(t *testing.T) {
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	runExtract(t, []extractCase{
		{"[int]", "[1, 2, 3]", []any{int64(1), int64(2), int64(3)}, ""},
		{"[int]", "I guess [1, 2, 3].\n\nAnswer: [1, 2, 3]", []any{int64(1), int64(2), int64(3)}, ""},
		{"[int]", "I guess [1, 2, 3]. No: [1, 3]", nil, msgManyArray},
		{"[int]", "[1, 2,] then [4]", []any{int64(4)}, ""}, // the broken one is skipped
		{"[int]", "[1, 2,] then [4] and [5]", nil, msgManyArray},
		{"[int]", "[1, 2,]", nil, msgParseJSON}, // one candidate: chosen as is
		{"[int]", "[1, 2,] and [3,]", nil, msgNoArray},
		{"[int]", "[1, 2", nil, msgNoArray},         // unclosed: dropped
		{"[int]", "[1} [2]", nil, msgNoArray},       // a mismatched closer stops the scan
		{"[int]", "[1] ] [1]", []any{int64(1)}, ""}, // a stray closer outside JSON is nothing
		{"[int]", "5[1]", nil, msgNoArray},          // the number consumes '['
		{"[int]", "{\"a\": [1]}", nil, msgNoArray},  // only top-level spans count
		{"[str]", `Parser: ["[]", "]"]`, []any{"[]", "]"}, ""},
		{"[str]", `["a\"]", "\\"]`, []any{`a"]`, `\`}, ""},
		{"[]", "[1, \"x\", null]", []any{int64(1), "x", nil}, ""},
		{"[]", "[1] or [1.0]", nil, msgManyArray}, // integers and floats differ
		{"[]", deep(127), nested(126), ""},
		{"[]", deep(128), nil, msgParseJSON}, // serde_json's recursion limit
		{"[]", deep(200) + " " + deep(1), []any{}, ""},
		{"[[int]]", "[1, 2, 3]", nil, "The first value of your output has a wrong type. Make sure all the elements are `array`, not `integer`."},
		{"[[int]]", "[[1, 2, 3], []]", []any{[]any{int64(1), int64(2), int64(3)}, []any{}}, ""},
		{"[[int]]", "[[1, true]]", nil, msgGenericTest},
		{"[int { max: 400 }]", "[20, 2300]", nil, "The second value of your output is too big. Make sure that the value is at most 400."},
		{"[int { max: 4 }]", "[0, 1, 2, 3, 4, 5]", nil, "The 6th value of your output is too big. Make sure that the value is at most 4."},
		{"[int { max: 3 }]", "[0, 1, 2, 3, 4]", nil, "The fifth value of your output is too big. Make sure that the value is at most 3."},
		{"[int { max: 2 }]", "[0, 1, 2, 3]", nil, "The forth value of your output is too big. Make sure that the value is at most 2."},
		{"[int { max: 1 }]", "[0, 1, 2]", nil, "The third value of your output is too big. Make sure that the value is at most 1."},
		{"[int { min: 1 }]", "[0]", nil, "The first value of your output is too small. Make sure that the value is at least 1."},
		{"[int { max: 19 }]", "[" + strings.Repeat("0, ", 20) + "20]", nil, "The 21th value of your output is too big. Make sure that the value is at most 19."},
		{"[str { max: 1 }]", `["ab"]`, nil, "The first value of your output is too long. Make sure that the value has at most 1 characters. Currently, it has 2 characters."},
		{"[[] { max: 1 }]", `[[1, 2]]`, nil, "The first value of your output is too long. Make sure that the value has at most 1 elements. Currently, it has 2 elements."},
		{"[int] { max: 5 }", "[1, 2, 3, 4, 5, 6]", nil, "Your output is too long. Make sure that the output has at most 5 elements. Currently, it has 6 elements."},
		{"[int] { max: 5 }", "[1, 2, 3, 4, 5, true]", nil, "The 6th value of your output has a wrong type. Make sure all the elements are `integer`, not `boolean`."},
		{"[int] { min: 2 }", "[1]", nil, "Your output is too short. Make sure that the output has at least 2 elements. Currently, it has 1 elements."},
		{"[float]", "[1, 2.5, null]", nil, "The third value of your output has a wrong type. Make sure all the elements are `float`, not `null`."},
		{"[int]", "[1.5]", nil, "The first value of your output has a wrong type. Make sure all the elements are `integer`, not `float`."},
		{"[int]", "[1e2]", nil, "The first value of your output has a wrong type. Make sure all the elements are `integer`, not `float`."},
		{"[]", "[1e400]", nil, msgParseJSON},
		{"[bool]", `[true, "yes"]`, nil, "The second value of your output has a wrong type. Make sure all the elements are `boolean`, not `string`."},
		{"[yesno]", `[1]`, nil, "The first value of your output has a wrong type. Make sure all the elements are `yes or no`, not `integer`."},
		{"[code]", `[{}]`, nil, "The first value of your output has a wrong type. Make sure all the elements are `code`, not `object`."},
		{"[tasklist]", `[[]]`, nil, "The first value of your output has a wrong type. Make sure all the elements are `markdown task list`, not `array`."},
		{"[tasklist { min: 1 }]", `["- [ ] a"]`, []any{"- [ ] a"}, ""},
		{"[{ a: int }]", `[{"a": 1}, {"b": 2}]`, nil, msgGenericTest},
	})
}

func TestExtractObject(t *testing.T) {
	person := map[string]any{"name": "bae", "age": int64(28)}
	runExtract(t, []extractCase{
		{"{ name: str, age: int }", `{ "name": "bae", "age": 28 }`, person, ""},
		{"{ name: str, age: int }", `This is the result: { "name": "bae", "age": 28 }`, person, ""},
		{"{ name: str, age: int }", `{"name": "bae", "age": 28} again {"age": 28, "name": "bae"}`, person, ""},
		{"{ name: str, age: int }", `{ "e": true } { "name": "bae", "age": 28 }`, nil, msgManyObject},
		{"{ name: str, age: int }", `[{ "name": "bae", "age": 28 }]`, nil, msgNoObject},
		{"{ name: str, age: int }", "[]", nil, msgNoObject},
		{"{ name: str, age: int }", `{"name": "bae", "age": 28,}`, nil, msgParseJSON},
		{"{ name: str, age: int }", `{"a": "}"} {"a": "}"}`, nil, "Your output is missing fields : name, age. Make sure that your output contains 2 keys: name, age"},
		{"{ name: str, age: int }", "{}", nil, "Your output is missing fields : name, age. Make sure that your output contains 2 keys: name, age"},
		{"{ name: str, age: int }", `{"name": "bae"}`, nil, "Your output is missing a field: age. Make sure that your output contains 2 keys: name, age"},
		{"{ name: str }", `{}`, nil, "Your output is missing a field: name. Make sure that your output contains 1 key: name"},
		{"{ name: str }", `{"name": "bae", "x": 1}`, nil, "Your output has an unnecessary key: x. Make sure that the output contains a key: name"},
		{"{ name: str, age: int }", `{"name": "bae", "age": 1, "z": 1, "b": 2}`, nil, "Your output has unnecessary keys: b, z. Make sure that the output contains keys: name, age"},
		{"{}", `{"x": 1}`, nil, "Your output has an unnecessary key: x. Make sure that the output contains keys: "},
		{"{}", `{}`, map[string]any{}, ""},
		{"{ name: str, age: int }", `{"age": "28"}`, nil, "Field `age` of your output has a wrong type. Make sure that the field is `integer`, not `string`."},
		{"{ name: str, age: int }", `{"age": 28, "name": 5}`, nil, "Field `name` of your output has a wrong type. Make sure that the field is `string`, not `integer`."},
		{"{ name: str, age: int }", `{"name": 1, "age": "x"}`, nil, "Field `name` of your output has a wrong type. Make sure that the field is `string`, not `integer`."}, // schema order
		{"{ age: int { max: 100 } }", `{"age": 120}`, nil, "Field `age` of your output is too big. Make sure that the field is at most 100."},
		{"{ s: str { len_min: 5 } }", `{"s": "abc"}`, nil, "Field `s` of your output is too short. Make sure that the field has at least 5 characters. Currently, it has 3 characters."},
		{"{ a: [int] { max: 1 } }", `{"a": [1, 2]}`, nil, "Field `a` of your output is too long. Make sure that the field has at most 1 elements. Currently, it has 2 elements."},
		{"{ a: [int] }", `{"a": [true]}`, nil, msgGenericTest},
		{"{ a: { b: int } }", `{"a": {}}`, nil, msgGenericTest},
		{"{ a: { b: int } }", `{"a": {"b": 1, "c": 2}}`, nil, msgGenericTest},
		{"{ a: { b: int } }", `{"a": {"b": 1}}`, map[string]any{"a": map[string]any{"b": int64(1)}}, ""},
		{"{ a: yesno, b: bool }", `{"a": true, "b": null}`, nil, "Field `b` of your output has a wrong type. Make sure that the field is `boolean`, not `null`."},
		{"{ a: float }", `{"a": 1}`, map[string]any{"a": int64(1)}, ""},
		{"{ \"first name\": str }", `{"first name": "x"}`, map[string]any{"first name": "x"}, ""},
		{"{ a: int }", `{"a": 1, "a": 2}`, map[string]any{"a": int64(2)}, ""}, // the last duplicate wins, as in serde_json
		{"{ a: [int] }", `{"a": [` + strings.Repeat("[", 130) + strings.Repeat("]", 130) + `]}`, nil, msgParseJSON},
	})
}

func TestExtractInvalidSchema(t *testing.T) {
	for name, s := range map[string]*Schema{
		"zero type":       {},
		"bad type":        {Type: 42},
		"bool with bound": {Type: TypeBool, Min: IntBound(1)},
		"min above max":   {Type: TypeInt, Min: IntBound(2), Max: IntBound(1)},
		"float min > max": {Type: TypeFloat, Min: FloatBound(2), Max: FloatBound(1)},
		"negative length": {Type: TypeString, Max: IntBound(-1)},
		"nil field":       {Type: TypeObject, Fields: []Field{{Name: "a"}}},
		"duplicate field": {Type: TypeObject, Fields: []Field{{"a", &Schema{Type: TypeInt}}, {"a", &Schema{Type: TypeInt}}}},
		"fields on int":   {Type: TypeInt, Fields: []Field{{"a", &Schema{Type: TypeInt}}}},
		"elem on str":     {Type: TypeString, Elem: &Schema{Type: TypeInt}},
		"bad elem":        {Type: TypeArray, Elem: &Schema{}},
		"too deep":        deepSchema(maxDepth + 1),
		"NaN bound":       {Type: TypeFloat, Max: FloatBound(math.NaN())},
		"infinite bound":  {Type: TypeFloat, Min: FloatBound(math.Inf(-1))},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := s.Extract("[]")
			require.Error(t, err)
			require.NotErrorAs(t, err, new(*ValueError))
			require.Contains(t, err.Error(), "pdl/schema: ")
		})
	}
	var nilSchema *Schema
	_, err := nilSchema.Extract("x")
	require.Error(t, err)
	_, err = deepSchema(maxDepth).Extract("[]")
	require.NoError(t, err)
}

// nested returns n arrays around an empty array.
func nested(n int) any {
	v := []any{}
	for range n {
		v = []any{v}
	}
	return v
}

func deepSchema(n int) *Schema {
	s := &Schema{Type: TypeInt}
	for range n {
		s = &Schema{Type: TypeArray, Elem: s}
	}
	return s
}

// TestExtractDeep: huge nesting in the answer returns promptly.
func TestExtractDeep(t *testing.T) {
	arr, err := Parse([]byte("[int]"))
	require.NoError(t, err)
	obj, err := Parse([]byte("{ a: int }"))
	require.NoError(t, err)
	num, err := Parse([]byte("int"))
	require.NoError(t, err)
	mb := 1 << 20
	for _, tc := range []struct {
		name  string
		s     *Schema
		input string
		msg   string
	}{
		{"1 MB of [", arr, strings.Repeat("[", mb), msgNoArray},
		{"1 MB of {", obj, strings.Repeat("{", mb), msgNoObject},
		{"1 MB of [ then ]", arr, strings.Repeat("[", mb/2) + strings.Repeat("]", mb/2), msgParseJSON},
		{"1 MB of [] pairs", arr, strings.Repeat("[]", mb/2), ""},
		{"1 MB of [[]] pairs", arr, strings.Repeat("[[]]", mb/4), "The first value of your output has a wrong type. Make sure all the elements are `integer`, not `array`."},
		{"1 MB of [1] [2]", arr, strings.Repeat("[1] [2] ", mb/8), msgManyArray},
		{"1 MB of [1] [x]", arr, strings.Repeat("[1] [x] ", mb/8), ""},
		{"1 MB of \"", obj, "{" + strings.Repeat(`"`, mb), msgNoObject},
		{"1 MB of \\", obj, `{"` + strings.Repeat(`\`, mb), msgNoObject},
		{"1 MB of digits", num, strings.Repeat("7", mb), msgParseNumber},
		{"1 MB of 7 7", num, strings.Repeat("7 ", mb/2), ""},
		{"1 MB of -", num, strings.Repeat("-", mb), msgNoInt}, // many "-" candidates, none a number
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, err := tc.s.Extract(tc.input)
			if tc.msg == "" {
				require.NoError(t, err)
				if tc.s == num {
					require.Equal(t, int64(7), v)
				} else {
					require.NotNil(t, v)
				}
				return
			}
			require.Error(t, err)
			require.Equal(t, tc.msg, err.Error())
		})
	}
}
