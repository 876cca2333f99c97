package provider

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/internal/jsontree"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/internal/lines"
)

// Reader reads a dataset's records one at a time, holding one line in
// memory however long the file.
type Reader struct {
	d       *Dataset
	br      *bufio.Reader
	file    string
	maxLine int
	err     error  // sticky: a bad option, a failed read, io.EOF
	line    int    // lines read
	off     int64  // offset of the next line
	buf     []byte // the line being read, reused
}

// NewReader returns a reader of r's records. Options: [promptfmt.File]
// names the file in errors, [MaxLine] bounds a line.
func (d *Dataset) NewReader(r io.Reader, opts ...promptfmt.Option) *Reader {
	var s promptfmt.Settings
	var rs readerSettings
	err := promptfmt.ApplyOptions(optionGroup, &s, &rs, opts)
	if rs.maxLine <= 0 {
		rs.maxLine = DefaultMaxLine
	}
	return &Reader{d: d, br: bufio.NewReaderSize(r, 64<<10), file: s.File, maxLine: rs.maxLine, err: err}
}

// Read returns the next record. A record that does not read has its
// problems in Record.Err, and the next Read goes on with the next line.
// The error is io.EOF after the last record, or what reading r failed
// with (or a bad option): the reading has ended, and every later Read
// returns it again. Blank lines are no records; they are counted in Line.
func (r *Reader) Read() (Record, error) {
	for r.err == nil {
		text, start, long, err := r.next()
		if err != nil {
			r.err = err
			if len(text) == 0 && !long {
				break
			}
		}
		r.line++
		if long {
			e := &promptfmt.ParseError{Format: r.d.name, File: r.file, Line: r.line, Col: r.maxLine + 1, Offset: int(start) + r.maxLine,
				Msg: fmt.Sprintf("a line longer than %d bytes (the limit of a record: provider.MaxLine raises it)", r.maxLine)}
			return Record{Line: r.line, Err: e}, nil
		}
		if len(bytes.Trim(text, " \t\r")) == 0 {
			continue
		}
		return r.d.record(text, r.line, start, r.file), nil
	}
	return Record{}, r.err
}

// next reads a line: its text without the line break ("\n", or "\r\n"),
// and the offset of its start. A line longer than maxLine is read to its
// end without being kept: long is set and text is empty.
func (r *Reader) next() (text []byte, start int64, long bool, err error) {
	r.buf = r.buf[:0]
	start = r.off
	for {
		chunk, err := r.br.ReadSlice('\n')
		r.off += int64(len(chunk))
		if !long {
			if len(r.buf)+len(chunk) > r.maxLine+2 { // room for "\r\n"
				long, r.buf = true, r.buf[:0]
			} else {
				r.buf = append(r.buf, chunk...)
			}
		}
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil && (err != io.EOF || len(r.buf) == 0 && !long):
			return nil, start, long, err
		}
		text = bytes.TrimSuffix(r.buf, []byte("\n"))
		text = bytes.TrimSuffix(text, []byte("\r"))
		if len(text) > r.maxLine {
			long, text = true, nil
		}
		return text, start, long, err
	}
}

// record reads one line, line number line at offset start of the file.
func (d *Dataset) record(text []byte, line int, start int64, file string) Record {
	rec := Record{Line: line, Raw: text}
	r := &reader{format: d.name, src: text, doc: &promptfmt.Document{}, line: 1}
	if err := diag.CheckUTF8(d.name, text); err != nil {
		rec.Err = relocate([]error{err}, line, start, file)
		return rec
	}
	src := text
	if n := lines.SkipBOM(text); n > 0 {
		if line == 1 {
			r.doc.Warnings = append(r.doc.Warnings, diag.Warnf(d.name, text, 0, "a byte order mark before the first record (ignored)"))
		}
		// Spaces in its place, so that positions count its bytes; after
		// line 1 the JSON reader refuses them as it does any other text.
		if line == 1 {
			src = append([]byte("   ")[:n:n], text[n:]...)
		}
	}
	root, err := jsontree.Parse(src)
	if err != nil {
		var je *jsonvalue.Error
		if errors.As(err, &je) {
			pe := diag.Errorf(d.name, text, je.Offset, "%s", je.Msg)
			pe.Hint = je.Hint
			err = pe
		}
		rec.Err = relocate([]error{err}, line, start, file)
		return rec
	}
	if d.batch {
		r.batchRequest(root, &rec)
	} else {
		r.fineTuning(root)
	}
	if len(r.errs) > 0 {
		rec.Err = relocate(r.errs, line, start, file)
		return rec
	}
	rec.Doc = r.doc
	placeDoc(rec.Doc, line, start, file)
	return rec
}

// fineTuning reads a fine-tuning record: a Chat Completions body that is
// an object with messages.
func (r *reader) fineTuning(root *jsontree.Value) {
	if !r.is(root, jsontree.Object, "a fine-tuning record") {
		return
	}
	if root.Get("messages") == nil {
		hint := ""
		if root.Get("input") != nil || root.Get("preferred_output") != nil {
			hint = " (a preference record, {\"input\", \"preferred_output\", ...}, is not read)"
		}
		r.errorf(root, "a fine-tuning record needs \"messages\"%s", hint)
		return
	}
	readOpenAI(r, root)
}

// batchRequest reads a batch request: custom_id, method, url and body,
// the body as its url's format reads it.
func (r *reader) batchRequest(root *jsontree.Value, rec *Record) {
	if !r.is(root, jsontree.Object, "a batch request") {
		return
	}
	var body, url *jsontree.Value
	for i := range root.Members {
		m := &root.Members[i]
		switch m.Key {
		case "custom_id":
			if id, ok := r.str(&m.Value, "custom_id"); ok {
				if id == "" {
					r.errorf(&m.Value, "an empty custom_id (it names the request's result)")
				}
				rec.ID = id
			}
		case "method":
			if method, ok := r.str(&m.Value, "method"); ok && method != "POST" {
				r.errorf(&m.Value, "method %q (a batch request's method is POST)", method)
			}
		case "url":
			url = &m.Value
		case "body":
			body = &m.Value
		default:
			r.errorAt(m.KeyOff, "unknown member %q of a batch request (its members are custom_id, method, url and body)", m.Key)
		}
	}
	for _, k := range []string{"custom_id", "method", "url", "body"} {
		if root.Get(k) == nil {
			r.errorf(root, "a batch request without %s", k)
		}
	}
	if url == nil {
		return
	}
	u, ok := r.str(url, "url")
	if !ok {
		return
	}
	e, ok := endpointOf(u)
	switch {
	case u == "":
		r.errorf(url, "an empty url (the batch's API: %s)", endpointURLs())
		return
	case !ok && batchOther[u] != "":
		r.errorf(url, "a batch request to %s: %s (read: %s)", u, batchOther[u], endpointURLs())
		return
	case !ok:
		r.errorf(url, "unknown url %q (read: %s)", u, endpointURLs())
		return
	}
	rec.URL = u
	if body != nil && r.is(body, jsontree.Object, "body") && len(r.errs) == 0 {
		e.read(r, body)
	}
}

// relocate puts problems found in one line at their place in the file:
// line line, the column their offset in the line gives, the offset in the
// file, the file's name. It returns them joined (one as itself).
func relocate(errs []error, line int, start int64, file string) error {
	for _, e := range errs {
		var pe *promptfmt.ParseError
		if errors.As(e, &pe) {
			pe.Line, pe.Col, pe.Offset = line, pe.Offset+1, int(start)+pe.Offset
			if pe.File == "" {
				pe.File = file
			}
		}
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// placeDoc puts the source lines of a record's document at the record's
// line, and its warnings there too.
func placeDoc(doc *promptfmt.Document, line int, start int64, file string) {
	for i := range doc.Warnings {
		w := &doc.Warnings[i]
		w.Line, w.Col, w.Offset = line, w.Offset+1, int(start)+w.Offset
		if w.File == "" {
			w.File = file
		}
	}
	for k := range doc.KeyLines {
		doc.KeyLines[k] = line
	}
	for k := range doc.Request.Lines {
		doc.Request.Lines[k] = line
	}
	for i := range doc.Messages {
		m := &doc.Messages[i]
		m.Line = line
		if m.TextLine != 0 {
			m.TextLine = line
		}
		for k := range m.KeyLines {
			m.KeyLines[k] = line
		}
	}
}
