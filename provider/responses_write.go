package provider

import (
	"io"
	"maps"
	"unicode/utf8"

	"github.com/promptfmt/promptfmt"
)

// writeResponses writes doc as a Responses request body.
func writeResponses(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(nameOpenAIResponses, &s, nil, opts); err != nil {
		return err
	}
	lay := layoutOf(nameOpenAIResponses, doc.Layout)
	m := newMapper(nameOpenAIResponses, "Responses API", doc.Messages)
	m.send = s.Send
	iw := itemWriter{mapper: m, rl: lay.responses, read: lay.metadata}
	instructions, input := iw.items()
	var body object
	req := &doc.Request
	if req.Model != "" {
		body.add("model", req.Model)
	}
	if instructions != nil {
		body.add("instructions", *instructions)
	}
	if input != nil {
		body.add("input", input)
	}
	reqErrs := append(checkRequest(nameOpenAIResponses, req), responsesRequest(&body, req, lay.responses)...)
	meta, metaErrs := bodyMeta(nameOpenAIResponses, "the Responses API", doc, responsesBodyMembers,
		body.ownNow(responsesOwn, lay.meta), lay.meta)
	body = append(body, meta...)
	if err := joinErrs(m.errs, reqErrs, metaErrs, promptfmt.CommentErrors(doc, nameOpenAIResponses)); err != nil {
		return err
	}
	return writeBody(w, body)
}

// itemWriter maps the messages to instructions and input items.
type itemWriter struct {
	*mapper
	rl   *responsesLayout // nil for a document read from elsewhere
	read map[string]bool  // the metadata keys read from a Responses body
	out  []object
	// open is whether the last item written is an assistant's message or
	// function_call, which a function_call after it would join on reading.
	open bool
}

// items returns the instructions (nil for none) and the input: a string
// for one plain user message where that is the body's form, else the
// items; nil when the body read had no input and has none.
func (iw *itemWriter) items() (*string, any) {
	var instructions *string
	start := 0
	if s, ok := iw.instructions(); ok {
		instructions, start = &s, 1
	}
	for i := start; i < len(iw.msgs); i++ {
		iw.message(i)
	}
	rl := iw.rl
	if len(iw.out) == 0 && instructions != nil && rl != nil && rl.input == "" {
		return instructions, nil
	}
	if len(iw.out) == 1 && (rl == nil || rl.input != "array") {
		it := iw.out[0]
		if len(it) == 3 && it[0].key == "type" && rl == nil { // the type written for the SDKs (messageItem)
			it = it[1:]
		}
		if len(it) == 2 && it[0].key == "role" && it[0].value == "user" && it[1].key == "content" {
			if s, ok := it[1].value.(string); ok {
				return instructions, s
			}
		}
	}
	if iw.out == nil {
		return instructions, []object{}
	}
	return instructions, iw.out
}

// instructions returns the text of the first message when it goes in
// "instructions": a system message of one plain text part, read from
// there (or, for a document read from elsewhere, any such message).
func (iw *itemWriter) instructions() (string, bool) {
	if len(iw.msgs) == 0 || iw.rl != nil && !iw.rl.instructions {
		return "", false
	}
	msg := &iw.msgs[0]
	parts := content(msg)
	if msg.Role != "system" || msg.Name != "" || msg.Disabled || len(msg.Metadata) > 0 || len(parts) != 1 ||
		parts[0] != promptfmt.Text(parts[0].Value) || !utf8.ValidString(parts[0].Value) {
		return "", false // an input item, whose refusals say what is wrong
	}
	return parts[0].Value, true
}

// message maps message i to its items.
func (iw *itemWriter) message(i int) {
	iw.checkMessage(i)
	iw.noName(i)
	msg := &iw.msgs[i]
	switch msg.Role {
	case "system", "developer", "user":
		iw.input(i)
	case "assistant":
		iw.assistant(i)
	case "tool":
		iw.tool(i)
	case reasoningRole:
		iw.reasoning(i)
	default:
		iw.badRole(i)
	}
	iw.partExtra = nil
}

// add appends an item; open says whether a function_call after it joins
// it on reading.
func (iw *itemWriter) add(it object, open bool) {
	iw.out = append(iw.out, it)
	iw.open = open
}

// extras sorts message i's metadata into its item's members and its
// parts' (partExtra), and returns the item's.
func (iw *itemWriter) extras(i int, known, own map[string]bool) object {
	read := iw.read
	msg := &iw.msgs[i]
	cloned := false
	for k := range msg.Metadata {
		if j, name, ok := splitPartKey(k); ok && !read[k] && j < len(msg.Content) && responsesPartMembers[msg.Content[j].Kind][name] {
			if !cloned { // the layout's own set is left alone
				read, cloned = maps.Clone(iw.read), true
				if read == nil {
					read = map[string]bool{}
				}
			}
			read[k] = true
		}
	}
	extra, parts := iw.messageExtras(i, known, own, read)
	iw.partExtra = parts
	return extra
}

// withExtras appends extra members to item it, refusing one that names a
// member the mapping wrote (key names it in metadata).
func (iw *itemWriter) withExtras(i int, it object, extra object, key func(string) string) object {
	for _, e := range extra {
		if it.has(e.key) {
			iw.fail(i, promptfmt.ThingMetadata, "the metadata key %q, which names a member the mapping writes itself", key(e.key)).Key = key(e.key)
			continue
		}
		it = append(it, e)
	}
	return it
}

func messageKey(k string) string { return k }

// messageItem is a message item of message i holding parts: content a
// string for one plain text part, as the body read had it.
func (iw *itemWriter) messageItem(i int, parts []object, extra object) object {
	msg := &iw.msgs[i]
	var it object
	if iw.rl == nil || iw.rl.typed[i] {
		// Decision: the type is written unless the body read left it out:
		// the API takes a message item without it, but the official SDKs
		// tell their input items apart by it, and drop one without it.
		it.add("type", "message")
	}
	it.add("role", msg.Role)
	if len(parts) == 1 && len(parts[0]) == 2 && parts[0][0].key == "type" && parts[0][0].value == textType(msg.Role) &&
		(iw.rl == nil || !iw.rl.arrays[i]) {
		it.add("content", parts[0][1].value)
	} else {
		it.add("content", parts)
	}
	return iw.withExtras(i, it, extra, messageKey)
}

// textPart is text part j of message i.
func (iw *itemWriter) textPart(i, j int, s string) object {
	t := textType(iw.msgs[i].Role)
	if iw.rl != nil && iw.rl.textTypes[[2]int{i, j}] != "" {
		t = iw.rl.textTypes[[2]int{i, j}]
	}
	return iw.partWithExtras(i, j, object{{"type", t}, {"text", s}})
}

// partWithExtras gives part j of message i its own members.
func (iw *itemWriter) partWithExtras(i, j int, p object) object {
	return iw.withExtras(i, p, iw.partExtra[j], func(k string) string { return partKey(j, k) })
}

// input maps a system, developer or user message: text and media in a
// message item; a user's tool_result parts each a function_call_output
// item in its place (with promptfmt.Send).
func (iw *itemWriter) input(i int) {
	msg := &iw.msgs[i]
	extra := iw.extras(i, responsesMessageMembers, responsesMessageOwn)
	var run []object
	results := 0
	parts := content(msg)
	for j := range parts {
		p := &parts[j]
		if !iw.checkPart(i, j, p) {
			continue
		}
		switch p.Kind {
		case promptfmt.KindText:
			run = append(run, iw.textPart(i, j, p.Value))
		case promptfmt.KindImage, promptfmt.KindFile, promptfmt.KindAudio:
			if part, ok := iw.media(i, j, p); ok {
				run = append(run, iw.partWithExtras(i, j, part))
			}
		case promptfmt.KindToolResult:
			if msg.Role != "user" {
				iw.misplaced(i, j, p)
				continue
			}
			if !iw.send {
				iw.failPart(i, j, "a tool_result in a user message (the Responses API's results are function_call_output items of their own: promptfmt.Send, or request --as, writes it as one)")
				continue
			}
			if run != nil {
				iw.add(iw.messageItem(i, run, extra), false)
				run, extra = nil, nil
			}
			results++
			iw.result(i, j, p, nil)
		default:
			iw.misplaced(i, j, p)
		}
	}
	if run != nil || results == 0 {
		if run == nil {
			run = []object{} // every part refused: the errors say why
		}
		iw.add(iw.messageItem(i, run, extra), false)
	}
}

// assistant maps an assistant message: its text in a message item, its
// tool calls function_call items after it.
func (iw *itemWriter) assistant(i int) {
	msg := &iw.msgs[i]
	extra := iw.extras(i, responsesMessageMembers, responsesMessageOwn)
	var run []object
	sawCall, wroteText := false, false
	flush := func() {
		if run != nil {
			iw.add(iw.messageItem(i, run, extra), true)
			run, extra, wroteText = nil, nil, true
		}
	}
	parts := content(msg)
	for j := range parts {
		p := &parts[j]
		if !iw.checkPart(i, j, p) {
			continue
		}
		switch p.Kind {
		case promptfmt.KindText:
			if sawCall && !iw.send {
				iw.failPart(i, j, "a text part after a tool_call (it reads back as a message of its own: promptfmt.Send, or request --as, writes it after the call)")
				continue
			}
			run = append(run, iw.textPart(i, j, p.Value))
		case promptfmt.KindToolCall:
			flush()
			if !wroteText && !sawCall && iw.open && !iw.send {
				iw.fail(i, promptfmt.ThingMessages, "an assistant message that starts with a tool_call, right after an assistant's message or call (it reads back joined to that message)")
			}
			sawCall = true
			if !iw.toolCall(i, j, p, true) {
				continue
			}
			it := object{{"type", "function_call"}, {"call_id", p.ID}, {"name", p.ToolName}, {"arguments", p.Value}}
			iw.add(iw.partWithExtras(i, j, it), true)
		default:
			iw.misplaced(i, j, p)
		}
	}
	flush()
	if !wroteText {
		for _, e := range extra {
			iw.fail(i, promptfmt.ThingMetadata, "the metadata key %q (an assistant message of tool calls alone has no message item to hold it)", e.key).Key = e.key
		}
	}
}

// tool maps a tool message: a function_call_output item for each result.
func (iw *itemWriter) tool(i int) {
	msg := &iw.msgs[i]
	extra := iw.extras(i, responsesOutputMembers, responsesOutputOwn)
	if !hasToolResults(msg) {
		// STF's ";tool call_id=c1" reply: Document.ForModel makes it a
		// result; written as it is, it would read back changed.
		iw.fail(i, promptfmt.ThingRole, "a tool message holds the results of calls (tool_result parts); this one holds none")
		return
	}
	for j := range msg.Content {
		p := &msg.Content[j]
		switch {
		case !iw.checkPart(i, j, p):
		case p.Kind != promptfmt.KindToolResult:
			iw.misplaced(i, j, p)
		case !iw.send && j > 0:
			iw.failPart(i, j, "a second tool_result in a tool message (a function_call_output is a message of its own: promptfmt.Send, or request --as, writes an item for each)")
		default:
			iw.result(i, j, p, extra)
			extra = nil
		}
	}
}

// result writes tool_result part j of message i as a function_call_output.
func (iw *itemWriter) result(i, j int, p *promptfmt.ContentPart, extra object) {
	if _, ok := iw.toolResult(i, j, p, true); !ok {
		return
	}
	it := object{{"type", "function_call_output"}, {"call_id", p.ID}}
	if p.ToolName != "" {
		it.add("name", p.ToolName)
	}
	it.add("output", p.Value)
	it = iw.withExtras(i, iw.partWithExtras(i, j, it), extra, messageKey)
	iw.add(it, false)
}

// reasoning maps a hidden reasoning message: its item, from its metadata.
func (iw *itemWriter) reasoning(i int) {
	extra := iw.extras(i, responsesReasoningMembers, responsesReasoningOwn)
	for j, p := range content(&iw.msgs[i]) {
		if p != promptfmt.Text("") {
			iw.failPart(i, j, "%s in a reasoning message (its item is in its metadata; content would be lost)", article(p.Kind))
		}
	}
	iw.add(append(object{{"type", "reasoning"}}, extra...), false)
}

// media maps an image or file part to an input_image or input_file part.
// Without promptfmt.Send, a part that would read back otherwise (data
// and a media type, which the API takes as a data: URI) is refused, the
// part it would read back as offered.
func (iw *itemWriter) media(i, j int, p *promptfmt.ContentPart) (object, bool) {
	ok := true
	bad := func(format string, args ...any) {
		iw.failPart(i, j, format, args...)
		ok = false
	}
	if p.Kind == promptfmt.KindAudio {
		bad("an audio part cannot be expressed (the Responses API takes no audio input)")
		return nil, false
	}
	if p.Kind == promptfmt.KindImage && p.Filename != "" {
		bad("an image part with a filename (%q) cannot be expressed", p.Filename)
	}
	t := "input_image"
	if p.Kind == promptfmt.KindFile {
		t = "input_file"
	}
	part := object{{"type", t}}
	back := promptfmt.ContentPart{Kind: p.Kind, Detail: p.Detail, Filename: p.Filename}
	switch {
	case p.ID != "":
		if p.Value != "" {
			bad("%s with both a file id and data or a URL cannot be expressed (the Responses API takes one)", article(p.Kind))
			return nil, false
		}
		if problem := checkFamily(p.Kind, p.MediaType); problem != "" {
			bad("%s", problem)
		}
		part.add("file_id", p.ID)
		back.ID = p.ID
	default:
		md, problem := readMedia(p)
		if problem != "" {
			bad("%s", problem)
			return nil, false
		}
		switch {
		case md.url != "":
			if !isHTTP(md.url) {
				bad("%s of scheme %q cannot be expressed (the Responses API takes http, https and data: URLs)", urlNoun(p.Kind), scheme(md.url))
			}
			if problem := checkFamily(p.Kind, md.mediaType); problem != "" {
				bad("%s", problem)
			}
			back.Value = md.url
		case md.mediaType == "" && p.Kind == promptfmt.KindFile:
			back.Value = p.Value // data of no known type: file_data as it was read
		default:
			if problem := checkMediaType(p.Kind, md.mediaType); problem != "" {
				bad("%s", problem)
			}
			back.Value = md.asDataURI()
		}
		switch {
		case p.Kind == promptfmt.KindImage:
			part.add("image_url", back.Value)
		case md.url != "":
			part.add("file_url", back.Value)
		default:
			part.add("file_data", back.Value)
		}
	}
	if p.Filename != "" && p.Kind == promptfmt.KindFile {
		part.add("filename", p.Filename)
	}
	if p.Detail != "" {
		part.add("detail", p.Detail)
	}
	if ok && back != *p && !iw.send {
		iw.failPart(i, j, "%s in a form the Responses API's body does not keep (it reads back as %s)", article(p.Kind), describeMedia(back)).NearestPart = &back
	}
	return part, ok
}

// responsesRequest adds the Request's settings under the Responses API's
// names, refusing those it has no member for.
func responsesRequest(body *object, req *promptfmt.Request, rl *responsesLayout) []error {
	var errs []error
	none := func(f, what string) {
		errs = append(errs, requestError(nameOpenAIResponses, f, what+" (the Responses API has none)"))
	}
	if req.Temperature != nil {
		body.add("temperature", *req.Temperature)
	}
	if req.TopP != nil {
		body.add("top_p", *req.TopP)
	}
	if req.MaxTokens != nil {
		body.add("max_output_tokens", *req.MaxTokens)
	}
	if req.TopK != nil {
		none(promptfmt.FieldTopK, "a top-k setting")
	}
	if req.Stop != nil {
		none(promptfmt.FieldStop, "stop sequences")
	}
	if req.Seed != nil {
		none(promptfmt.FieldSeed, "a seed")
	}
	if req.FrequencyPenalty != nil {
		none(promptfmt.FieldFrequencyPenalty, "a frequency penalty")
	}
	if req.PresencePenalty != nil {
		none(promptfmt.FieldPresencePenalty, "a presence penalty")
	}
	if req.Tools != nil {
		tools := make([]object, 0, len(req.Tools))
		for i, t := range req.Tools {
			fn := object{{"type", "function"}, {"name", t.Name}}
			if t.Description != "" {
				fn.add("description", t.Description)
			}
			if t.Parameters != nil {
				fn.add("parameters", t.Parameters)
			}
			// Decision: strict is written, false too: the API makes a
			// function without it strict. A tool read without it is
			// written back so.
			if !t.Strict || rl == nil || !rl.looseTools[i] {
				fn.add("strict", t.Strict)
			}
			tools = append(tools, fn)
		}
		body.add("tools", tools)
	}
	if c := req.ToolChoice; c != nil {
		switch {
		case c.Tool != "" && c.Mode == promptfmt.ToolChoiceRequired:
			body.add("tool_choice", object{{"type", "function"}, {"name", c.Tool}})
		case c.Tool == "" && (c.Mode == promptfmt.ToolChoiceAuto || c.Mode == promptfmt.ToolChoiceNone || c.Mode == promptfmt.ToolChoiceRequired):
			body.add("tool_choice", c.Mode)
		default:
			errs = append(errs, requestError(nameOpenAIResponses, promptfmt.FieldToolChoice, badChoice(c)))
		}
	}
	if req.Output != nil {
		js, jsonMode, err := openAIOutput(nameOpenAIResponses, req)
		switch {
		case err != nil:
			errs = append(errs, err)
		case jsonMode:
			body.add("text", object{{"format", object{{"type", "json_object"}}}})
		default:
			body.add("text", object{{"format", append(object{{"type", "json_schema"}}, js...)}})
		}
	}
	return errs
}
