package provider

import (
	"bytes"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsontree"
)

// Dataset is a kind of JSON Lines file of conversations: one record a
// line, each a request body of one of this package's formats. A dataset
// holds many documents, so it is no [promptfmt.Format]: it is read record
// by record ([Dataset.NewReader]) and written record by record
// ([Dataset.NewWriter]), in memory that does not grow with the file. See
// the package documentation's section Datasets.
type Dataset struct {
	name  string
	batch bool
}

// The datasets.
var (
	// OpenAIJSONL is OpenAI's fine-tuning file for chat models
	// ("openai-jsonl"): a line is {"messages": [...], "tools": [...],
	// "parallel_tool_calls": ...}, a Chat Completions body read and
	// written as [OpenAI] reads and writes one.
	OpenAIJSONL = &Dataset{name: nameOpenAIJSONL}
	// OpenAIBatch is the input file of OpenAI's Batch API
	// ("openai-batch"): a line is {"custom_id", "method": "POST", "url",
	// "body"}, the body a request of the url's API.
	OpenAIBatch = &Dataset{name: nameOpenAIBatch, batch: true}
)

const (
	nameOpenAIJSONL = "openai-jsonl"
	nameOpenAIBatch = "openai-batch"
)

// Name is the dataset's name, as -f and -t take it.
func (d *Dataset) Name() string { return d.name }

// Extensions are the extensions of its files: ".jsonl", which both
// datasets share (Sniff tells them apart).
func (d *Dataset) Extensions() []string { return []string{".jsonl"} }

// Sniff reports whether src, the start of a file, reads as this dataset:
// the member names of its first record (a batch request has custom_id, or
// url and body; a fine-tuning record has messages and neither). src may
// end inside the first line.
func (d *Dataset) Sniff(src []byte) bool {
	// The first line that is not blank.
	for {
		i := bytes.IndexByte(src, '\n')
		if i < 0 || len(bytes.TrimSpace(src[:i])) > 0 {
			if i >= 0 {
				src = src[:i]
			}
			break
		}
		src = src[i+1:]
	}
	m, ok := sniffMarks(src)
	if !ok || m.array {
		return false
	}
	batch := m.top["custom_id"] || m.top["url"] && m.top["body"]
	if d.batch {
		return batch
	}
	return m.top["messages"] && !batch
}

// Record is one line of a dataset.
type Record struct {
	// Line is the 1-based line of the record in the file (read; Write
	// ignores it).
	Line int
	// ID is a batch request's custom_id; "" in a fine-tuning file.
	ID string
	// URL is a batch request's url, the API its body is for:
	// "/v1/chat/completions" (written for "") or "/v1/responses". "" in a
	// fine-tuning file.
	URL string
	// Doc is the conversation: the body read as its format's Parse reads
	// a body. Nil when Err is set.
	Doc *promptfmt.Document
	// Err holds the record's problems, each a [*promptfmt.ParseError] at
	// the line and column of the file (joined with errors.Join): the
	// record is skipped, the reading goes on.
	Err error
	// Raw is the line as read, without its line break: valid until the
	// next Read, nil for a line longer than the limit.
	Raw []byte
}

// batchEndpoint is a url whose batch requests are conversations, and the
// format of their bodies.
type batchEndpoint struct {
	url    string
	format promptfmt.Format
	read   func(r *reader, root *jsontree.Value)
}

// batchEndpoints are the urls a batch request is read from and written
// to; the first is written for a Record without one.
var batchEndpoints = []batchEndpoint{
	{"/v1/chat/completions", OpenAI, readOpenAI},
	{"/v1/responses", OpenAIResponses, readResponses},
}

// batchOther are the Batch API's other urls, named in the error that
// refuses them: their bodies are no conversations.
var batchOther = map[string]string{
	"/v1/embeddings":  "an embeddings request holds no conversation",
	"/v1/completions": "a legacy completions request holds a prompt, not a conversation",
	"/v1/moderations": "a moderations request holds no conversation",
}

// endpointOf returns the endpoint of url ("" for the first).
func endpointOf(url string) (batchEndpoint, bool) {
	if url == "" {
		return batchEndpoints[0], true
	}
	for _, e := range batchEndpoints {
		if e.url == url {
			return e, true
		}
	}
	return batchEndpoint{}, false
}

// endpointURLs lists the urls read, for messages.
func endpointURLs() string {
	s := ""
	for i, e := range batchEndpoints {
		if i > 0 {
			s += ", "
		}
		s += e.url
	}
	return s
}

// DefaultMaxLine is the longest line a dataset's reader reads unless
// [MaxLine] says otherwise: 64 MiB, room for the images a fine-tuning
// record may carry as base64 (OpenAI takes up to 10 MB an image and
// several images a record), while a line (a record's whole tree) is held
// in memory at once.
const DefaultMaxLine = 64 << 20

// MaxLine is an option of a dataset's reader: the longest line it reads,
// in bytes, line break not counted (n <= 0: DefaultMaxLine). A longer
// line is a record whose Err says so; it is skipped without being held in
// memory, and the reading goes on.
func MaxLine(n int) promptfmt.Option {
	return promptfmt.NewOption(optionGroup, "provider.MaxLine", func(t any) { t.(*readerSettings).maxLine = n })
}

// optionGroup is the name the datasets' options are made for: both
// datasets take them.
const optionGroup = "jsonl"

type readerSettings struct{ maxLine int }
