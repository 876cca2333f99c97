package promptfmt_test

import (
	"fmt"
	"strings"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/stf"
)

// This file is a format in a few lines, "lines" (one message a line,
// "role: text"), to show how a format package makes an option of its own
// with NewOption and reads its options with ApplyOptions.

// linesSettings are the settings of the format's own options.
type linesSettings struct {
	sep string // between role and text
}

// Separator is the format's own option: what separates a line's role from
// its text (":" by default).
func Separator(sep string) promptfmt.Option {
	return promptfmt.NewOption("lines", "lines.Separator", func(target any) {
		target.(*linesSettings).sep = sep
	})
}

// parseLines is the format's Parse: it takes every format's options
// (promptfmt.File) and its own (Separator), and refuses any other.
func parseLines(src []byte, opts ...promptfmt.Option) (*promptfmt.Document, error) {
	var s promptfmt.Settings
	own := linesSettings{sep: ":"}
	if err := promptfmt.ApplyOptions("lines", &s, &own, opts); err != nil {
		return nil, err
	}
	doc := &promptfmt.Document{}
	offset := 0
	for i, line := range strings.Split(strings.TrimSuffix(string(src), "\n"), "\n") {
		role, text, ok := strings.Cut(line, own.sep)
		if !ok {
			// Finish puts the File option's name on the error.
			return s.Finish(nil, &promptfmt.ParseError{Format: "lines", Line: i + 1, Col: 1, Offset: offset,
				Msg: fmt.Sprintf("no %q after the role", own.sep)})
		}
		doc.Messages = append(doc.Messages, promptfmt.NewMessage(strings.TrimSpace(role), strings.TrimSpace(text)))
		offset += len(line) + 1
	}
	return s.Finish(doc, nil)
}

func ExampleNewOption() {
	doc, err := parseLines([]byte("system = Be brief.\nuser = Hi\n"), Separator("="))
	if err != nil {
		panic(err)
	}
	for _, m := range doc.Messages {
		fmt.Printf("%s: %s\n", m.Role, m.Text())
	}

	_, err = parseLines([]byte("user: Hi\nHello?\n"), promptfmt.File("chat.lines"))
	fmt.Println(err)

	_, err = parseLines([]byte("user: Hi\n"), stf.DefaultRole("user"))
	fmt.Println(err)
	// Output:
	// system: Be brief.
	// user: Hi
	// chat.lines:2:1: no ":" after the role
	// stf.DefaultRole is an option of stf, not of lines
}
