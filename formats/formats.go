// Package formats is the registry of promptfmt's formats: every format
// package's Format, found by name or by file. Adding a format is one
// package and one line in All.
//
//	f, err := formats.Detect("chat.stf", src)
//	doc, err := f.Parse(src)
package formats

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/dotprompt"
	"github.com/promptfmt/promptfmt/pdl"
	"github.com/promptfmt/promptfmt/prapti"
	"github.com/promptfmt/promptfmt/promptfile"
	"github.com/promptfmt/promptfmt/prompty"
	"github.com/promptfmt/promptfmt/provider"
	"github.com/promptfmt/promptfmt/stf"
)

// All returns every format, in the order the command lists them.
func All() []promptfmt.Format {
	return []promptfmt.Format{prapti.Format, stf.Format, pdl.Format, promptfile.Format, prompty.Format, dotprompt.Format,
		provider.OpenAI, provider.OpenAIResponses, provider.Anthropic, provider.Gemini}
}

// Providers returns the formats of providers' request bodies, which a
// document is written in to be sent (promptfmt messages --as and request
// --as): what Document.ForModel returns, in a provider's body.
func Providers() []promptfmt.Format {
	return []promptfmt.Format{provider.OpenAI, provider.OpenAIResponses, provider.Anthropic, provider.Gemini}
}

// Datasets returns the datasets: JSON Lines files of conversations, one
// request body a line, read and written as streams of records (they are
// many documents, so no Format).
func Datasets() []*provider.Dataset {
	return []*provider.Dataset{provider.OpenAIJSONL, provider.OpenAIBatch}
}

// Names returns the names of All, in order.
func Names() []string {
	var names []string
	for _, f := range All() {
		names = append(names, f.Name())
	}
	return names
}

// ByName returns the format called name.
func ByName(name string) (promptfmt.Format, error) {
	for _, f := range All() {
		if f.Name() == name {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unknown format %q (want %s)", name, strings.Join(Names(), ", "))
}

// Detect returns the format of the file called filename holding src: the
// one that reads its extension, or, when several do, the one whose Sniff
// takes src. An error says why none could be told.
func Detect(filename string, src []byte) (promptfmt.Format, error) {
	ext := strings.ToLower(filepath.Ext(filename))
	var owners []promptfmt.Format
	for _, f := range All() {
		if slices.Contains(f.Extensions(), ext) {
			owners = append(owners, f)
		}
	}
	switch len(owners) {
	case 0:
		return nil, fmt.Errorf("cannot tell the format of %s from its extension (known: %s)", filename, strings.Join(extensions(), " "))
	case 1:
		return owners[0], nil
	}
	var sniffed []promptfmt.Format
	for _, f := range owners {
		if f.Sniff(src) {
			sniffed = append(sniffed, f)
		}
	}
	if len(sniffed) == 1 {
		return sniffed[0], nil
	}
	names := make([]string, len(owners))
	for i, f := range owners {
		names[i] = f.Name()
	}
	return nil, fmt.Errorf("cannot tell whether %s is %s from its content", filename, strings.Join(names, " or "))
}

func extensions() []string {
	var out []string
	for _, f := range All() {
		out = append(out, f.Extensions()...)
	}
	return out
}
