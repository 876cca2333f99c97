package provider

import (
	"fmt"
	"io"

	"github.com/promptfmt/promptfmt"
)

// Anthropic's and Gemini's writers as they were before their formats read
// bodies: the conversation only (message metadata not sent, as before);
// every Request field and Meta key refused. (Being replaced by whole-body
// writers.)

func errNotYet(name string) error {
	return fmt.Errorf("%s: reading a request body is not built yet", name)
}

func writeAnthropic(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error {
	return transitionalWrite(nameAnthropic, w, doc, opts, func(msgs []promptfmt.Message) (any, error) { return exportAnthropic(msgs) })
}

func writeGemini(w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option) error {
	return transitionalWrite(nameGemini, w, doc, opts, func(msgs []promptfmt.Message) (any, error) { return exportGemini(msgs) })
}

func transitionalWrite(name string, w io.Writer, doc *promptfmt.Document, opts []promptfmt.Option, export func([]promptfmt.Message) (any, error)) error {
	var s promptfmt.Settings
	if err := promptfmt.ApplyOptions(name, &s, nil, opts); err != nil {
		return err
	}
	if !s.Send {
		return fmt.Errorf("%s: only promptfmt.Send is written yet", name)
	}
	var errs []error
	for _, f := range doc.Request.Fields() {
		errs = append(errs, requestError(name, f, "the request's "+f+" (not written yet)"))
	}
	_, metaErrs := bodyMeta(name, name, doc, nil, nil, nil)
	body, err := export(doc.Messages)
	if e := joinErrs([]error{err}, errs, metaErrs, promptfmt.CommentErrors(doc, name)); e != nil {
		return e
	}
	return writeBody(w, body)
}
