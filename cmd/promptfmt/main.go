// Command promptfmt reads, checks, converts and formats the text files people
// keep LLM prompts and conversations in: Prapti markdown (.md), STF (.stf),
// PDL (.pdl), prompt files (.prompt) and Prompty (.prompty).
//
// Usage:
//
//	promptfmt parse    [-f FORMAT] [FILE|-]       the whole document as JSON
//	promptfmt messages [-f FORMAT] [FILE|-]       the messages a model receives, as JSON
//	promptfmt convert  -t FORMAT [-f FORMAT] [-o OUT] [FILE|-]
//	promptfmt check    [-f FORMAT] FILE|DIR...    report every problem; exit 1 if any
//	promptfmt fmt      [-w [--force]] [-f FORMAT] FILE|DIR...  canonical form, like gofmt
//	promptfmt promptfile new|fix|verify ...       prompt files and the prompt store
//	promptfmt prompty render | pdl render ...     the text a template renders to
//	promptfmt help [FORMAT|COMMAND]               a format's syntax on one page
//
// Datasets, JSON Lines files of conversations (OpenAI's fine-tuning files
// and Batch API input, .jsonl), are read and written as streams: convert
// splits one into a file a record or gathers files into one, check and
// messages read every record (promptfmt help openai-jsonl).
//
// A directory stands for the files under it in a known format, hidden ones
// skipped; they are read on all cores and reported in lexical order.
// The format comes from -f or from the file's extension. Exit status: 0
// success, 1 invalid input, 2 usage error. Problems are printed on stderr as
// FILE:LINE:COL: message.
//
// Files are written by one policy (internal/atomicfile): atomically, through
// symbolic links to their targets, keeping the mode; a read-only file is
// refused unless --force.
package main

import (
	"fmt"
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit statuses.
const (
	exitOK      = 0
	exitInvalid = 1
	exitUsage   = 2
)

type command struct {
	name    string
	summary string
	run     func(c *cli, args []string) int
}

var commands []command

func init() {
	commands = []command{
		{"parse", "print the whole document as JSON", (*cli).runParse},
		{"messages", "print the messages a model receives as a JSON array", (*cli).runMessages},
		{"request", "print a file as a provider's whole request body", (*cli).runRequest},
		{"convert", "convert a file to another format", (*cli).runConvert},
		{"check", "validate files; print each problem as FILE:LINE:COL: message", (*cli).runCheck},
		{"fmt", "rewrite files in canonical form", (*cli).runFmt},
		{"promptfile", "prompt files and the prompt store: new, fix, verify", (*cli).runPromptfile},
		{"prompty", "render a .prompty template: render", (*cli).runPrompty},
		{"pdl", "render a .pdl template: render", (*cli).runPDL},
	}
}

// cli holds the command's streams, so tests can run it in process.
type cli struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// jsonDiag prints diagnostics as JSON lines (--json), on stdout when
	// diagStdout is set (check, whose stdout is otherwise empty).
	jsonDiag, diagStdout bool
	// lossy is messages --as --lossy.
	lossy bool
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{stdin: stdin, stdout: stdout, stderr: stderr}
	if len(args) == 0 {
		c.usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		c.usage(stdout)
		return exitOK
	case "help":
		return c.runHelp(args[1:])
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, args[1:])
		}
	}
	fmt.Fprintf(stderr, "promptfmt: unknown command %q\n", args[0])
	c.usage(stderr)
	return exitUsage
}

func (c *cli) usage(w io.Writer) {
	fmt.Fprintf(w, "promptfmt reads, checks, converts and formats LLM prompt and conversation files.\n\nUsage: promptfmt COMMAND [flags] [FILE...]\n\nCommands:\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "  %-10s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nFormats: %s; from -f, or from the extension (.md, .stf, .pdl, .prompt, .prompty).\n", formatNames())
	fmt.Fprintf(w, "Datasets (.jsonl, a conversation a line; convert, check, messages): %s.\nRun 'promptfmt COMMAND -h' for a command's flags and an example,\n'promptfmt help FORMAT' for a one-page summary of a format's syntax.\n", datasetNames())
}
