package main

import (
	"flag"
	"fmt"
	"iter"
	"slices"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
)

// inputsFlag adds --inputs, and its PDL name --context, to a command that
// reads templates.
func inputsFlag(fs *flag.FlagSet) *string {
	p := fs.String("inputs", "", "JSON file of the template's inputs (an object); default: none, so defaults apply")
	fs.StringVar(p, "context", "", "the same as --inputs (ragit's name, for .pdl files)")
	return p
}

// readInputs reads the --inputs file: a JSON object, integers as int64.
func (c *cli) readInputs(name string) (map[string]any, error) {
	if name == "" {
		return map[string]any{}, nil
	}
	src, err := c.read(name)
	if err != nil {
		return nil, err
	}
	v, err := jsonvalue.Decode(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", name, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%s: want a JSON object of input names and values", name)
	}
	return m, nil
}

// loadTemplate reads and loads one template file, with the inputs named
// by --inputs. Problems are printed; the status says how to end.
func (c *cli) loadTemplate(in *input, inputsFile string) (template, map[string]any, int) {
	inputs, err := c.readInputs(inputsFile)
	if err != nil {
		return nil, nil, c.fail(err)
	}
	t, err := in.format.load(in.src, in.file())
	if err != nil {
		c.report(in, err)
		return nil, nil, exitInvalid
	}
	in.doc = &promptfmt.Document{Warnings: t.Warnings()}
	c.warn(in, "warning")
	return t, inputs, exitOK
}

// runTemplate is parse and messages for a template format.
func (c *cli) runTemplate(in *input, inputsFile string, whole bool, as string) int {
	t, inputs, status := c.loadTemplate(in, inputsFile)
	if t == nil {
		return status
	}
	msgs, warnings, err := t.Prepare(inputs)
	if err != nil {
		c.report(in, err)
		return exitInvalid
	}
	in.doc = &promptfmt.Document{Warnings: warnings}
	c.warn(in, "warning")
	if msgs == nil {
		msgs = []promptfmt.Message{}
	}
	if as != "" {
		return c.export(in, as, msgs)
	}
	if whole {
		// The messages, and those of a document Describe holds, are
		// encoded one at a time where the shell holds an empty list.
		out := t.Describe()
		out["messages"] = []promptfmt.Message{}
		keys, lists := []string{"messages"}, []iter.Seq[promptfmt.Message]{slices.Values(msgs)}
		for k, v := range out {
			if d, ok := v.(*promptfmt.Document); ok && d != nil {
				shell := *d
				shell.Messages = nil // encoded as []
				out[k] = shell
				keys, lists = append(keys, k+".messages"), append(lists, slices.Values(d.Messages))
			}
		}
		if err := jsonvalue.WriteLists(c.stdout, out, keys, lists); err != nil {
			return c.fail(err)
		}
		return exitOK
	}
	return c.printList(nil, "", (&promptfmt.Document{Messages: msgs}).Sent())
}

// runPrompty is "promptfmt prompty render".
func (c *cli) runPrompty(args []string) int {
	return c.runRender(args, "prompty", "inputs",
		"promptfmt prompty render --inputs testdata/examples/inputs.json testdata/examples/chat.prompty\n\n"+
			"Prints the text the template renders to, before it is split into messages\n"+
			"(without strict mode's nonces; thread, image, file and audio inputs show as\n"+
			"their __PROMPTY_THREAD_..._name__ placeholders).")
}

// runPDL is "promptfmt pdl render".
func (c *cli) runPDL(args []string) int {
	return c.runRender(args, "pdl", "context",
		"promptfmt pdl render --context testdata/examples/pick.json testdata/examples/pick.pdl\n\n"+
			"Prints the text the template renders to, before it is split into turns:\n"+
			"every {{ }} output escaped (&amp; |&gt; &lt;|) unless it ends in | safe.")
}

// runRender is "promptfmt FORMAT render" for a template format.
func (c *cli) runRender(args []string, format, flagName, example string) int {
	fs := c.flags(format+" render", fmt.Sprintf("[--%s FILE.json] [FILE|-]", flagName), example)
	if len(args) == 0 || args[0] != "render" {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "-help") {
			fs.SetOutput(c.stdout)
			fs.Usage()
			return exitOK
		}
		fs.Usage()
		return exitUsage
	}
	inputsFile := inputsFlag(fs)
	files, status, ok := c.parseFlags(fs, args[1:])
	if !ok {
		return status
	}
	file, err := oneFile(files)
	if err != nil {
		return c.fail(err)
	}
	in, status := c.readAs(file, format)
	if in == nil {
		return status
	}
	t, inputs, status := c.loadTemplate(in, *inputsFile)
	if t == nil {
		return status
	}
	out, err := t.Render(inputs)
	if err != nil {
		c.report(in, err)
		return exitInvalid
	}
	fmt.Fprint(c.stdout, out)
	if out != "" && out[len(out)-1] != '\n' {
		fmt.Fprintln(c.stdout)
	}
	return exitOK
}
