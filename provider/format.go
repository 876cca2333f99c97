package provider

import (
	"fmt"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
)

// The provider formats, for package formats. Each reads and writes one
// provider's request body (.json) through the model, as the package
// documentation describes.
var (
	// OpenAI is OpenAI's Chat Completions request body ("openai").
	OpenAI promptfmt.Format = bodyFormat{name: nameOpenAI, parse: readOpenAI, write: writeOpenAI, sniff: sniffOpenAI}
	// OpenAIResponses is OpenAI's Responses API request body
	// ("openai-responses").
	OpenAIResponses promptfmt.Format = bodyFormat{name: nameOpenAIResponses, parse: readResponses, write: writeResponses, sniff: sniffResponses}
	// Anthropic is Anthropic's Messages request body ("anthropic").
	Anthropic promptfmt.Format = bodyFormat{name: nameAnthropic, parse: readAnthropic, write: writeAnthropic, sniff: sniffAnthropic}
	// Gemini is Google's Gemini generateContent request body ("gemini").
	Gemini promptfmt.Format = bodyFormat{name: nameGemini, parse: readGemini, write: writeGemini, sniff: sniffGemini}
)

type bodyFormat struct {
	name  string
	parse func(r *reader, root *jsontree.Value)
	write func(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error
	sniff func(src []byte) bool
}

func (f bodyFormat) Name() string          { return f.name }
func (f bodyFormat) Extensions() []string  { return []string{".json"} }
func (f bodyFormat) Sniff(src []byte) bool { return f.sniff(src) }

func (f bodyFormat) Parse(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	if f.parse == nil {
		return nil, errNotYet(f.name)
	}
	return parse(f.name, src, opts, f.parse)
}

func (f bodyFormat) Write(w io.Writer, doc *promptfmt.Document, opts ...promptfmt.Option) error {
	return f.write(w, doc, opts)
}

func errNotYet(name string) error {
	return fmt.Errorf("%s: reading a request body is not built yet", name)
}
