package provider

import (
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/wire"
)

// The members of a generateContent request body (wire.GeminiBody: what
// the official SDK writes, and model). The REST API reads each in
// lowerCamelCase or snake_case (protobuf's JSON); both are members.
var geminiBodyMembers = bothSpellings(wire.GeminiBody...)

// geminiRequestMembers are the body members the mapping writes from the
// Request.
var geminiRequestMembers = bothSpellings("model", "generationConfig", "tools", "toolConfig")

// geminiDataKinds are the members that make a part what it is; the model
// holds the first five.
var geminiDataKinds = []string{"text", "inlineData", "fileData", "functionCall", "functionResponse",
	"executableCode", "codeExecutionResult", "toolCall", "toolResponse"}

// bothSpellings makes a set of names in lowerCamelCase and snake_case.
func bothSpellings(names ...string) map[string]bool {
	set := make(map[string]bool, 2*len(names))
	for _, n := range names {
		set[n], set[snakeKey(n)] = true, true
	}
	return set
}

// camelKey returns a member name in lowerCamelCase: "system_instruction"
// is "systemInstruction".
func camelKey(k string) string {
	if !strings.Contains(k, "_") {
		return k
	}
	b := make([]byte, 0, len(k))
	up := false
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case c == '_' && len(b) > 0:
			up = true
			continue
		case up && 'a' <= c && c <= 'z':
			c -= 'a' - 'A'
		}
		up = false
		b = append(b, c)
	}
	return string(b)
}

// snakeKey returns a member name in snake_case: "systemInstruction" is
// "system_instruction".
func snakeKey(k string) string {
	n := 0
	for i := 0; i < len(k); i++ {
		if 'A' <= k[i] && k[i] <= 'Z' {
			n++
		}
	}
	if n == 0 {
		return k
	}
	b := make([]byte, 0, len(k)+n)
	for i := 0; i < len(k); i++ {
		c := k[i]
		if 'A' <= c && c <= 'Z' {
			b = append(b, '_', c+('a'-'A'))
			continue
		}
		b = append(b, c)
	}
	return string(b)
}

// geminiName returns member name k in lowerCamelCase; the first name
// that has two spellings decides the layout's.
func geminiName(k string, lay *layout) string {
	c := camelKey(k)
	if c == k && snakeKey(k) == k {
		return c // one word: one spelling
	}
	if !lay.spelled {
		lay.spelled, lay.camel = true, c == k
	}
	if _, ok := lay.spelling[c]; !ok {
		if lay.spelling == nil {
			lay.spelling = map[string]string{}
		}
		lay.spelling[c] = k
	}
	return c
}

// anA puts "a" or "an" before a word.
func anA(word string) string {
	if word != "" && strings.ContainsRune("aeiouAEIOU", rune(word[0])) {
		return "an " + word
	}
	return "a " + word
}

// twice reports a member whose name, in either spelling, an object has
// already, and returns whether it was one.
func (r *reader) twice(seen map[string]string, name string, m *jsontree.Member) bool {
	if prev, ok := seen[name]; ok {
		r.errorAt(m.KeyOff, "both %s and %s (two spellings of one member: give one)", prev, m.Key)
		return true
	}
	seen[name] = m.Key
	return false
}

// readGemini reads a generateContent body: contents, and the system
// instruction before them.
func readGemini(r *reader, root *jsontree.Value) {
	lay := &layout{format: nameGemini}
	r.doc.Layout = lay
	if !r.is(root, jsontree.Object, "a generateContent body") {
		return
	}
	found := false // contents
	seen := map[string]string{}
	req := &r.doc.Request
	for i := range root.Members {
		m := &root.Members[i]
		name := geminiName(m.Key, lay)
		if r.twice(seen, name, m) {
			continue
		}
		// Each member read where it is, so that lines are counted in one
		// pass; the system instruction is the first message wherever it is.
		switch name {
		case "contents":
			found = true
			r.geminiContents(&m.Value, lay)
		case "systemInstruction":
			if msg, ok := r.geminiSystem(&m.Value, lay); ok {
				r.doc.Messages = slices.Insert(r.doc.Messages, 0, msg)
			}
		case "model":
			req.Model, _ = r.str(&m.Value, "model")
			r.setLine(promptfmt.FieldModel, m.KeyOff)
		case "generationConfig":
			r.geminiGeneration(m, lay)
		case "tools":
			tools, ok := geminiTools(&m.Value, lay)
			if !ok {
				r.keep(m, lay)
				continue
			}
			req.Tools = tools
			r.setLine(promptfmt.FieldTools, m.KeyOff)
		case "toolConfig":
			r.geminiToolConfig(m, lay)
		default:
			r.keep(m, lay)
		}
	}
	if !found {
		r.errorf(root, "a generateContent body needs contents")
	}
	if r.doc.Messages == nil {
		r.doc.Messages = []promptfmt.Message{}
	}
}

// geminiGeneration reads generationConfig: the sampling settings and the
// output's form are the Request's; its other members (thinkingConfig,
// candidateCount, ...) are kept in Meta under its key, written back into
// it.
func (r *reader) geminiGeneration(m *jsontree.Member, lay *layout) {
	v := &m.Value
	if !r.is(v, jsontree.Object, m.Key) {
		return
	}
	req := &r.doc.Request
	var mime, schema, jsonSchema *jsontree.Member
	var held []string
	seen := map[string]string{}
	for i := range v.Members {
		c := &v.Members[i]
		name := geminiName(c.Key, lay)
		if r.twice(seen, name, c) {
			continue
		}
		field := ""
		switch name {
		case "responseMimeType":
			mime = c
			continue
		case "responseSchema":
			schema = c
			continue
		case "responseJsonSchema":
			jsonSchema = c
			continue
		default:
			if field = geminiSettings[name]; field == "" {
				continue
			}
			r.setting(req, field, &c.Value, c.Key)
			if why := geminiRange(req, field); why != "" {
				r.errorf(&c.Value, "%s %s is out of the range of Gemini's %s (%s)", c.Key, c.Value.Str, name, why)
			}
		}
		held = append(held, c.Key)
		r.setLine(field, c.KeyOff)
	}
	// The output: JSON mode, or JSON of a schema. Any other form (text/x.enum,
	// both schemas) stays in Meta as written.
	if mime != nil && mime.Value.Kind == jsontree.String && mime.Value.Str == "application/json" {
		s := schema
		if s == nil {
			s = jsonSchema
		}
		switch {
		case schema == nil && jsonSchema == nil:
			req.Output = &promptfmt.Output{}
			held = append(held, mime.Key)
		case schema != nil && jsonSchema != nil || s.Value.Kind != jsontree.Object:
		default:
			// Decision: Gemini's structured output holds the answer to the
			// schema (constrained decoding, no switch): Strict.
			req.Output = &promptfmt.Output{Schema: s.Value.Any().(map[string]any), Strict: true}
			held = append(held, mime.Key, s.Key)
			if s == schema {
				lay.outputSchema = "responseSchema"
			}
		}
		if req.Output != nil {
			r.setLine(promptfmt.FieldOutput, mime.KeyOff)
		}
	}
	r.restMeta(m, lay, held...)
}

// geminiTools reads tools when they are one tool of function declarations
// the model holds exactly (name, description, and a schema in parameters
// or parametersJsonSchema), or none; ok is false for any other list
// (Google Search, code execution, several tools), which Meta keeps.
func geminiTools(v *jsontree.Value, lay *layout) ([]promptfmt.Tool, bool) {
	if v.Kind != jsontree.Array || len(v.Elems) > 1 {
		return nil, false
	}
	if len(v.Elems) == 0 {
		return []promptfmt.Tool{}, true
	}
	t := &v.Elems[0]
	if t.Kind != jsontree.Object || len(t.Members) != 1 || geminiName(t.Members[0].Key, lay) != "functionDeclarations" ||
		t.Members[0].Value.Kind != jsontree.Array {
		return nil, false
	}
	decls := t.Members[0].Value.Elems
	tools := make([]promptfmt.Tool, 0, len(decls))
	var params map[string]string
	for i := range decls {
		d := &decls[i]
		if d.Kind != jsontree.Object {
			return nil, false
		}
		key := ""
		for k := range d.Members {
			switch geminiName(d.Members[k].Key, lay) {
			case "name", "description":
			case "parameters", "parametersJsonSchema":
				if key != "" {
					return nil, false // the API takes one of them
				}
				key = d.Members[k].Key
			default:
				return nil, false // response, behavior, ...
			}
		}
		tool, ok := functionTool(d, key)
		if !ok {
			return nil, false
		}
		if key != "" && camelKey(key) == "parameters" {
			if params == nil {
				params = map[string]string{}
			}
			params[tool.Name] = "parameters"
		}
		tools = append(tools, tool)
	}
	lay.toolParams = params
	return tools, true
}

// geminiToolConfig reads toolConfig: a functionCallingConfig the
// ToolChoice holds exactly is the Request's (its other members kept in
// Meta under toolConfig); else Meta keeps it all as written.
func (r *reader) geminiToolConfig(m *jsontree.Member, lay *layout) {
	v := &m.Value
	if v.Kind != jsontree.Object {
		r.keep(m, lay)
		return
	}
	var fcc *jsontree.Member
	for i := range v.Members {
		if geminiName(v.Members[i].Key, lay) == "functionCallingConfig" {
			fcc = &v.Members[i]
		}
	}
	if fcc == nil {
		r.keep(m, lay)
		return
	}
	choice, lower, ok := geminiChoice(&fcc.Value, lay)
	if !ok {
		r.keep(m, lay)
		return
	}
	r.doc.Request.ToolChoice, lay.modeLower = choice, lower
	r.setLine(promptfmt.FieldToolChoice, m.KeyOff)
	r.restMeta(m, lay, fcc.Key)
}

// geminiChoice reads a functionCallingConfig: mode AUTO, NONE or ANY,
// and for ANY at most one allowed function (written in upper case, or
// lower as the REST examples do: lower says which).
func geminiChoice(v *jsontree.Value, lay *layout) (choice *promptfmt.ToolChoice, lower, ok bool) {
	if v.Kind != jsontree.Object {
		return nil, false, false
	}
	mode := ""
	var names []string
	for i := range v.Members {
		c := &v.Members[i].Value
		switch geminiName(v.Members[i].Key, lay) {
		case "mode":
			if c.Kind != jsontree.String {
				return nil, false, false
			}
			mode = c.Str
		case "allowedFunctionNames":
			if c.Kind != jsontree.Array || len(c.Elems) != 1 || c.Elems[0].Kind != jsontree.String || c.Elems[0].Str == "" {
				return nil, false, false
			}
			names = append(names, c.Elems[0].Str)
		default:
			return nil, false, false
		}
	}
	lower = mode == strings.ToLower(mode)
	if !lower && mode != strings.ToUpper(mode) {
		return nil, false, false
	}
	switch strings.ToUpper(mode) {
	case "AUTO":
		choice = &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceAuto}
	case "NONE":
		choice = &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceNone}
	case "ANY":
		choice = &promptfmt.ToolChoice{Mode: promptfmt.ToolChoiceRequired}
		if names != nil {
			choice.Tool = names[0]
		}
		return choice, lower, true
	default:
		return nil, false, false
	}
	return choice, lower, names == nil
}

// geminiSystem reads the system instruction as the first message: one
// system message of text parts. Its other members are its metadata.
func (r *reader) geminiSystem(v *jsontree.Value, lay *layout) (promptfmt.Message, bool) {
	if !r.is(v, jsontree.Object, "the systemInstruction") {
		return promptfmt.Message{}, false
	}
	msg := promptfmt.Message{Role: "system", Line: r.lineOf(v.Off)}
	var parts *jsontree.Value
	for i := range v.Members {
		m := &v.Members[i]
		if m.Key == "parts" {
			parts = &m.Value
			continue
		}
		r.metadata(&msg, m.Key, &m.Value, lay)
	}
	if parts == nil {
		r.errorf(v, "a systemInstruction without parts")
		return msg, false
	}
	r.geminiParts(parts, &msg, -1, lay)
	return msg, true
}

// geminiContents reads contents: an array of contents, or one.
func (r *reader) geminiContents(v *jsontree.Value, lay *layout) {
	switch v.Kind {
	case jsontree.Array:
		roles := 0
		if r.doc.Messages == nil {
			r.doc.Messages = make([]promptfmt.Message, 0, len(v.Elems)+1)
		}
		for i := range v.Elems {
			if r.geminiContent(&v.Elems[i], i, lay) {
				roles++
			}
		}
		lay.roleless = len(v.Elems) > 0 && roles == 0
	case jsontree.Object:
		lay.contentsObject = true
		lay.roleless = !r.geminiContent(v, 0, lay)
	default:
		r.errorf(v, "contents must be an array of contents, not %s", v.Kind)
	}
}

// geminiContent reads content k and reports whether it gave a role.
func (r *reader) geminiContent(v *jsontree.Value, k int, lay *layout) bool {
	if !r.is(v, jsontree.Object, "a content") {
		return false
	}
	role := "user" // the API's default
	roleV := v.Get("role")
	if roleV != nil {
		s, ok := r.str(roleV, "role")
		if !ok {
			return true
		}
		switch s {
		case "user":
		case "model":
			role = "assistant"
		default:
			r.errorf(roleV, "unknown role %q (Gemini's are user and model)", s)
			return true
		}
	}
	msg := promptfmt.Message{Role: role, Line: r.lineOf(v.Off)}
	var parts *jsontree.Value
	for i := range v.Members {
		m := &v.Members[i]
		switch m.Key {
		case "role":
		case "parts":
			parts = &m.Value
		default:
			r.metadata(&msg, m.Key, &m.Value, lay)
		}
	}
	if parts == nil {
		r.errorf(v, "a content without parts")
		return roleV != nil
	}
	r.geminiParts(parts, &msg, k, lay)
	r.doc.Messages = append(r.doc.Messages, msg)
	return roleV != nil
}

// geminiParts reads the parts (an array, or one part) of content k (-1:
// the system instruction) into msg.
func (r *reader) geminiParts(v *jsontree.Value, msg *promptfmt.Message, k int, lay *layout) {
	switch v.Kind {
	case jsontree.Array:
		msg.Content = make([]promptfmt.ContentPart, 0, len(v.Elems))
		for i := range v.Elems {
			r.geminiPart(&v.Elems[i], msg, lay)
		}
	case jsontree.Object:
		if lay.partsObject == nil {
			lay.partsObject = map[int]bool{}
		}
		lay.partsObject[k] = true
		r.geminiPart(v, msg, lay)
	default:
		r.errorf(v, "parts must be an array of parts, not %s", v.Kind)
		return
	}
	if len(msg.Content) == 0 {
		msg.Content = []promptfmt.ContentPart{promptfmt.Text("")}
	}
}

// geminiPart reads one part: its data member is the part; the others
// (thought, thoughtSignature, videoMetadata, ...) are kept in the
// message's metadata.
func (r *reader) geminiPart(p *jsontree.Value, msg *promptfmt.Message, lay *layout) {
	if !r.is(p, jsontree.Object, "a part") {
		return
	}
	var data *jsontree.Member
	kind := ""
	for i := range p.Members {
		m := &p.Members[i]
		name := geminiName(m.Key, lay)
		if !contains(geminiDataKinds, name) {
			continue
		}
		if data != nil {
			r.errorAt(m.KeyOff, "a part with both %s and %s (a part holds one)", data.Key, m.Key)
			return
		}
		data, kind = m, name
	}
	if data == nil {
		if len(p.Members) == 0 {
			r.errorf(p, "an empty part")
		} else {
			r.errorf(p, "a part without text, inlineData, fileData, functionCall or functionResponse")
		}
		return
	}
	v := &data.Value
	var part promptfmt.ContentPart
	ok := true
	switch {
	case kind == "text":
		part.Kind = promptfmt.KindText
		part.Value, ok = r.str(v, data.Key)
	case !contains(geminiDataKinds[:5], kind):
		r.errorAt(data.KeyOff, "%s part (the model has no part of this kind)", anA(data.Key))
		return
	case msg.Role == "system":
		r.errorAt(data.KeyOff, "%s part in the systemInstruction (it holds text)", anA(data.Key))
		return
	case kind == "inlineData":
		part, ok = r.geminiMedia(v, data.Key, lay, true)
	case kind == "fileData":
		part, ok = r.geminiMedia(v, data.Key, lay, false)
	case kind == "functionCall":
		if msg.Role != "assistant" {
			r.errorAt(data.KeyOff, "a %s in a user content (only the model calls functions)", data.Key)
			return
		}
		part, ok = r.geminiCall(v, lay)
	default: // functionResponse
		if msg.Role != "user" {
			r.errorAt(data.KeyOff, "a %s in a model content (responses go in a user content)", data.Key)
			return
		}
		part, ok = r.geminiResponse(v, lay)
	}
	if !ok {
		return
	}
	j := len(msg.Content)
	for i := range p.Members {
		if m := &p.Members[i]; m != data {
			r.metadata(msg, partKey(j, m.Key), &m.Value, lay)
		}
	}
	msg.Content = append(msg.Content, part)
}

// members reads the members of object v, each by its lowerCamelCase name,
// which must be among names; it reports the first that is not.
func (r *reader) members(v *jsontree.Value, what string, lay *layout, names ...string) (map[string]*jsontree.Value, bool) {
	if !r.is(v, jsontree.Object, what) {
		return nil, false
	}
	out := make(map[string]*jsontree.Value, len(v.Members))
	seen := map[string]string{}
	for i := range v.Members {
		m := &v.Members[i]
		name := geminiName(m.Key, lay)
		if !contains(names, name) {
			r.errorAt(m.KeyOff, "unknown member %q of %s", m.Key, what)
			return nil, false
		}
		if r.twice(seen, name, m) {
			return nil, false
		}
		out[name] = &m.Value
	}
	return out, true
}

// memberString reads member name of ms, a string; required says it must
// be there and not empty.
func (r *reader) memberString(ms map[string]*jsontree.Value, name, what string, at *jsontree.Value, required bool) (string, bool) {
	v := ms[name]
	if v == nil {
		if required {
			r.errorf(at, "%s without %s", what, name)
		}
		return "", !required
	}
	s, ok := r.str(v, name)
	if ok && required && s == "" {
		r.errorf(v, "%s with an empty %s", what, name)
		return "", false
	}
	return s, ok
}

// geminiMedia reads inlineData (base64 data and its media type) or
// fileData (a URI, and its media type when given). The part's kind is
// the media type's family: image, audio, else file.
func (r *reader) geminiMedia(v *jsontree.Value, key string, lay *layout, inline bool) (promptfmt.ContentPart, bool) {
	what := "inlineData"
	fields := []string{"mimeType", "data", "displayName"}
	if !inline {
		what, fields = "fileData", []string{"mimeType", "fileUri", "displayName"}
	}
	ms, ok := r.members(v, key, lay, fields...)
	if !ok {
		return promptfmt.ContentPart{}, false
	}
	mt, ok1 := r.memberString(ms, "mimeType", what, v, inline)
	name, ok2 := r.memberString(ms, "displayName", what, v, false)
	value, ok3 := r.memberString(ms, fields[1], what, v, true)
	if !ok1 || !ok2 || !ok3 {
		return promptfmt.ContentPart{}, false
	}
	if inline {
		if err := checkBase64(value); err != nil {
			r.errorf(ms["data"], "%s data is not valid base64: %v", what, err)
			return promptfmt.ContentPart{}, false
		}
	}
	return promptfmt.ContentPart{Kind: geminiKind(mt), Value: value, MediaType: mt, Filename: name}, true
}

// geminiKind is the kind of a part of media type mt.
func geminiKind(mt string) promptfmt.Kind {
	switch b := baseType(mt); {
	case strings.HasPrefix(b, "image/"):
		return promptfmt.KindImage
	case strings.HasPrefix(b, "audio/"):
		return promptfmt.KindAudio
	}
	return promptfmt.KindFile
}

// geminiCall reads a functionCall: its args, a JSON object (when given),
// as compact JSON text.
func (r *reader) geminiCall(v *jsontree.Value, lay *layout) (promptfmt.ContentPart, bool) {
	ms, ok := r.members(v, "functionCall", lay, "id", "name", "args")
	if !ok {
		return promptfmt.ContentPart{}, false
	}
	id, ok1 := r.memberString(ms, "id", "a functionCall", v, false)
	name, ok2 := r.memberString(ms, "name", "a functionCall", v, true)
	if !ok1 || !ok2 {
		return promptfmt.ContentPart{}, false
	}
	p := promptfmt.ContentPart{Kind: promptfmt.KindToolCall, ID: id, ToolName: name}
	if args := ms["args"]; args != nil {
		if !r.is(args, jsontree.Object, "args") {
			return promptfmt.ContentPart{}, false
		}
		p.Value = r.compact(args)
	}
	return p, true
}

// geminiResponse reads a functionResponse: the result is the output
// string when response is {"output": string} (as a writer wraps text),
// else the response object as compact JSON text.
func (r *reader) geminiResponse(v *jsontree.Value, lay *layout) (promptfmt.ContentPart, bool) {
	ms, ok := r.members(v, "functionResponse", lay, "id", "name", "response")
	if !ok {
		return promptfmt.ContentPart{}, false
	}
	id, ok1 := r.memberString(ms, "id", "a functionResponse", v, false)
	name, ok2 := r.memberString(ms, "name", "a functionResponse", v, true)
	resp := ms["response"]
	if resp == nil {
		r.errorf(v, "a functionResponse without response")
		return promptfmt.ContentPart{}, false
	}
	if !ok1 || !ok2 || !r.is(resp, jsontree.Object, "response") {
		return promptfmt.ContentPart{}, false
	}
	p := promptfmt.ContentPart{Kind: promptfmt.KindToolResult, ID: id, ToolName: name}
	if len(resp.Members) == 1 && resp.Members[0].Key == "output" && resp.Members[0].Value.Kind == jsontree.String {
		p.Value = resp.Members[0].Value.Str
	} else {
		p.Value = r.compact(resp)
	}
	return p, true
}
