// Package promptkind tells the two formats that share the .prompt
// extension apart by content: PromptCritical's prompt files (promptfile)
// and Google's Dotprompt. Both packages' Sniff call Of, so that a file one
// takes the other refuses.
package promptkind

import (
	"bytes"
	"regexp"

	"github.com/promptfmt/promptfmt/internal/lines"
)

// Kind is what the content of a .prompt file says it is.
type Kind int

const (
	// Neither: no key or helper of either format (a bare body). Decision:
	// such a file is a promptfile, as it was before Dotprompt was read.
	Neither Kind = iota
	// PromptFile: a PromptCritical key (prompt-id, created-at, sha1-hash,
	// the seed's id: P<n>) and no Dotprompt key or helper.
	PromptFile
	// Dotprompt: a Dotprompt key (model, config, input, output, ...,
	// dotted extensions) or helper ({{role}}, {{history}}, ...) and no
	// PromptCritical key.
	Dotprompt
	// Both: PromptCritical keys and Dotprompt's own keys or helpers; the
	// caller must name the format (-f).
	Both
)

// The front matter keys of PromptCritical: any one is decisive for it.
var promptFileKeys = [][]byte{[]byte("prompt-id:"), []byte("created-at:"), []byte("sha1-hash:")}

// The seed's "id: P42" is a prompt file's id; Dotprompt has no id key.
var seedID = regexp.MustCompile(`^id:\s*["']?P[0-9]+["']?\s*$`)

// Dotprompt's reserved keys only it uses (model, name, description and
// version are shared with prompt files, which often name a model: they
// count for Dotprompt only when no PromptCritical key is there).
var dotStrong = regexp.MustCompile(`^(config|input|output|tools|toolDefs|variant|maxTurns|ext|raw)\s*:|^[A-Za-z_][\w-]*\.[\w.-]+\s*:`)
var dotWeak = regexp.MustCompile(`^(model|name|description|version)\s*:`)

// Dotprompt's helpers in a body: role markers, history, media, section,
// partials (the Handlebars that a PromptCritical body would not hold).
var dotHelper = regexp.MustCompile(`\{\{~?\s*(role\s+["']|history\s*~?\}\}|media\s+url=|section\s+["']|>\s*[\w/.-]+|json\s)`)

// Of reads the start of src (lines.Head): its front matter keys at the
// top level (after any "#" comment and blank lines, which Dotprompt
// allows before it), and the helpers of its body.
func Of(src []byte) Kind {
	pf, strong, weak, helper := false, false, false, false
	state := 0 // 0 before the first line, 1 in front matter, 2 in the body
	for line := range lines.Head(src) {
		trimmed := bytes.TrimRight(line, " \t\r")
		switch state {
		case 0:
			if bytes.Equal(trimmed, []byte("---")) {
				state = 1
				continue
			}
			// Dotprompt's runtimes allow lines of "#" comments and
			// blanks before the front matter (a licence header).
			if bytes.HasPrefix(line, []byte("#")) || len(trimmed) == 0 {
				helper = helper || dotHelper.Match(line)
				continue
			}
			state = 2
		case 1:
			if bytes.Equal(trimmed, []byte("---")) {
				state = 2
				continue
			}
			for _, k := range promptFileKeys {
				if bytes.HasPrefix(line, k) {
					pf = true
				}
			}
			// Each pattern runs only on lines that have what it needs (a
			// byte test is far cheaper than a match): checking a tree of
			// prompt files runs this on every line of their front matter.
			pf = pf || bytes.HasPrefix(trimmed, []byte("id:")) && seedID.Match(trimmed)
			colon := bytes.IndexByte(line, ':') >= 0
			word := leadingWord(line)
			strong = strong || colon && (strongWords[string(word)] || bytes.IndexByte(line, '.') >= 0) && dotStrong.Match(line)
			weak = weak || colon && weakWords[string(word)] && dotWeak.Match(line)
			continue
		}
		helper = helper || bytes.Contains(line, []byte("{{")) && dotHelper.Match(line)
	}
	switch {
	case pf && (strong || helper):
		return Both
	case pf:
		return PromptFile
	case strong || weak || helper:
		return Dotprompt
	}
	return Neither
}

// strongStart reports whether line starts with the first letter of one of
// dotStrong's keys.
// leadingWord is the run of ASCII letters line starts with: dotStrong's
// first and dotWeak's keys must be all of it, so a line whose word is not
// one of theirs is not matched at all.
func leadingWord(line []byte) []byte {
	i := 0
	for i < len(line) && (line[i]|0x20 >= 'a' && line[i]|0x20 <= 'z') {
		i++
	}
	return line[:i]
}

var strongWords = map[string]bool{"config": true, "input": true, "output": true, "tools": true, "toolDefs": true,
	"variant": true, "maxTurns": true, "ext": true, "raw": true}

var weakWords = map[string]bool{"model": true, "name": true, "description": true, "version": true}
