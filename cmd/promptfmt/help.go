package main

import (
	"embed"
	"fmt"
)

// helpPages are the one-page summaries of each format's syntax, as this
// project implements it: help/FORMAT.txt.
//
//go:embed help/*.txt
var helpPages embed.FS

// runHelp is "promptfmt help [FORMAT|COMMAND]".
func (c *cli) runHelp(args []string) int {
	if len(args) == 0 {
		c.usage(c.stdout)
		return exitOK
	}
	if len(args) > 1 {
		return c.fail(&usageError{"help takes one format or command"})
	}
	if d := datasetNamed(args[0]); d != nil {
		page, err := helpPages.ReadFile("help/" + d.Name() + ".txt")
		if err != nil {
			return c.fail(err) // every dataset has a page: TestDatasetHelpPages
		}
		c.stdout.Write(page)
		return exitOK
	}
	if f, err := lookupFormat(args[0], ""); err == nil {
		page, err := helpPages.ReadFile("help/" + f.name + ".txt")
		if err != nil {
			return c.fail(err) // every format has a page: TestHelpPages
		}
		c.stdout.Write(page)
		return exitOK
	}
	for _, cmd := range commands {
		if cmd.name == args[0] {
			return cmd.run(c, []string{"-h"})
		}
	}
	return c.fail(&usageError{fmt.Sprintf("no help on %q: give a format (%s) or a command", args[0], formatNames())})
}
