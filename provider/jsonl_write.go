package provider

import (
	"fmt"
	"io"
	"maps"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// Writer writes a dataset's records, one line each.
type Writer struct {
	d    *Dataset
	w    io.Writer
	opts []promptfmt.Option
	body compactor // the body of the record being written
	line []byte    // the line being written, reused
	err  error     // sticky: a failed write
}

// NewWriter returns a writer of records to w. The options are those of
// the bodies' format's Write: with none, a document is written as a file
// is (strictly: what would not read back the same is refused);
// [promptfmt.Send] writes it as it is sent.
func (d *Dataset) NewWriter(w io.Writer, opts ...promptfmt.Option) *Writer {
	return &Writer{d: d, w: w, opts: opts}
}

// Write writes rec.Doc as one line: in a fine-tuning file its Chat
// Completions body; in a batch file the request {"custom_id": rec.ID,
// "method": "POST", "url": rec.URL, "body": ...}. The body is compact
// JSON, as its format's Write writes it otherwise. What the body's format
// cannot express is returned as that Write returns it (UnsupportedErrors)
// and nothing is written: the writer may go on with the next record.
// Each line is one Write to the underlying writer (give a
// bufio.Writer for many small records); after that fails, every Write
// returns its error.
func (w *Writer) Write(rec Record) error {
	if w.err != nil {
		return w.err
	}
	if rec.Doc == nil {
		return fmt.Errorf("%s: a record without a document", w.d.name)
	}
	var e batchEndpoint
	if w.d.batch {
		var ok bool
		if e, ok = endpointOf(rec.URL); !ok {
			return fmt.Errorf("%s: record %q: unknown url %q (written: %s)", w.d.name, rec.ID, rec.URL, endpointURLs())
		}
		if rec.ID == "" {
			return fmt.Errorf("%s: a batch request needs a custom_id (the record's ID)", w.d.name)
		}
	} else {
		if rec.ID != "" || rec.URL != "" {
			return fmt.Errorf("%s: a fine-tuning record has no custom_id or url (the record has %q, %q)", w.d.name, rec.ID, rec.URL)
		}
		e = batchEndpoints[0] // the Chat Completions body
	}
	doc := rec.Doc
	if !w.d.batch {
		doc = withFineTuningMembers(doc)
	}
	w.body.reset()
	if err := e.format.Write(&w.body, doc, w.opts...); err != nil {
		return err
	}
	line := w.line[:0]
	if w.d.batch {
		line = append(line, `{"custom_id":`...)
		line = jsonvalue.AppendString(line, rec.ID)
		line = append(line, `,"method":"POST","url":`...)
		line = jsonvalue.AppendString(line, e.url)
		line = append(line, `,"body":`...)
		line = append(line, w.body.out...)
		line = append(line, '}')
	} else {
		line = append(line, w.body.out...)
	}
	line = append(line, '\n')
	w.line = line
	if _, err := w.w.Write(line); err != nil {
		w.err = err
		return err
	}
	return nil
}

// fineTuningMessageMembers are the members a fine-tuning record's message
// has beyond a Chat Completions message's: an assistant message's weight
// (0 or 1: whether it is trained on), as OpenAI's reference documents
// FineTuneChatCompletionRequestAssistantMessage.
var fineTuningMessageMembers = []string{"weight"}

// withFineTuningMembers returns doc, or a shallow copy whose layout lets
// the Chat Completions writer write fine-tuning members from metadata
// (a weight read from another format's file: STF's ;extra), as it writes
// the members a body it read had.
func withFineTuningMembers(doc *promptfmt.Document) *promptfmt.Document {
	lay := layoutOf(nameOpenAI, doc.Layout)
	missing := false
	for _, k := range fineTuningMessageMembers {
		missing = missing || !lay.metadata[k]
	}
	if !missing {
		return doc
	}
	c := *lay
	c.metadata = maps.Clone(lay.metadata)
	for _, k := range fineTuningMessageMembers {
		c.readMetadata(k)
	}
	out := *doc
	out.Layout = &c
	return &out
}

// compactor takes the JSON text a body's Write writes (indented) and
// keeps it compact: the white space between tokens dropped, strings as
// they are. It keeps its state between writes, which may cut the text
// anywhere.
type compactor struct {
	out              []byte
	inString, escape bool
}

func (c *compactor) reset() { c.out, c.inString, c.escape = c.out[:0], false, false }

func (c *compactor) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		b := p[i]
		switch {
		case c.escape:
			c.escape = false
		case c.inString:
			// Copy the run up to the next quote or backslash at once.
			j := i
			for j < len(p) && p[j] != '"' && p[j] != '\\' {
				j++
			}
			c.out = append(c.out, p[i:j]...)
			if j == len(p) {
				return len(p), nil
			}
			i, b = j, p[j]
			if b == '"' {
				c.inString = false
			} else {
				c.escape = true
			}
		case b == '"':
			c.inString = true
		case b == ' ' || b == '\n' || b == '\t' || b == '\r':
			continue
		}
		c.out = append(c.out, b)
	}
	return len(p), nil
}
