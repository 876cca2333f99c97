package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/diag"
	"github.com/promptfmt/promptfmt/promptfile"
)

var promptfileCommands = []command{
	{"new", "store a body as a new prompt in a store; print its path", (*cli).runPromptfileNew},
	{"fix", "complete missing or malformed mandatory metadata in place", (*cli).runPromptfileFix},
	{"verify", "check metadata and body hash; exit 1 on any failure", (*cli).runPromptfileVerify},
}

// runPromptfile dispatches promptfmt promptfile SUBCOMMAND.
func (c *cli) runPromptfile(args []string) int {
	if len(args) > 0 {
		for _, cmd := range promptfileCommands {
			if cmd.name == args[0] {
				return cmd.run(c, args[1:])
			}
		}
	}
	w := c.stderr
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		w = c.stdout
	} else if len(args) > 0 {
		fmt.Fprintf(w, "promptfmt promptfile: unknown subcommand %q\n", args[0])
	}
	fmt.Fprintf(w, "Usage: promptfmt promptfile SUBCOMMAND [flags] [FILE...]\n\nPrompt files (.prompt) and the prompt store, a directory of P<n>.prompt files.\n\nSubcommands:\n")
	for _, cmd := range promptfileCommands {
		fmt.Fprintf(w, "  %-7s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nExample:\n  promptfmt promptfile verify testdata/examples\n\nRun 'promptfmt promptfile SUBCOMMAND -h' for its flags, 'promptfmt help promptfile'\nfor the format.\n")
	if w == c.stdout {
		return exitOK
	}
	return exitUsage
}

func (c *cli) runPromptfileNew(args []string) int {
	fs := c.flags("promptfile new", "[-dir DIR] [-generator G] [-model M] [-ancestors P1,P2] [FILE|-]",
		"echo 'Discard all HTML tags.' | promptfmt promptfile new -dir prompts -generator human\n\n"+
			"Writes the body (the file, or standard input) as DIR/P<n>.prompt, by the next\n"+
			"ID the store hands out, and prints its path. The store directory is made if\n"+
			"it is missing.")
	dir := fs.String("dir", ".", "the prompt store: the directory the new P<n>.prompt goes in (made if missing)")
	generator := fs.String("generator", "", "the generator key: who or what wrote the prompt")
	model := fs.String("model", "", "the model key: the model that wrote it, if one did")
	ancestors := fs.String("ancestors", "", "the IDs of the prompts it came from, separated by commas")
	files, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	file, err := oneFile(files)
	if err != nil {
		return c.fail(err)
	}
	meta := map[string]any{}
	if *generator != "" {
		meta["generator"] = *generator
	}
	if *model != "" {
		meta["model"] = *model
	}
	if *ancestors != "" {
		var ids []any
		for _, id := range strings.FieldsFunc(*ancestors, func(r rune) bool { return r == ',' || r == ' ' }) {
			if !promptfile.IsID(id) {
				return c.fail(&usageError{fmt.Sprintf("-ancestors: %q is not a prompt ID (P followed by digits)", id)})
			}
			ids = append(ids, id)
		}
		meta["ancestors"] = ids
	}
	body, err := c.read(file)
	if err != nil {
		return c.fail(err)
	}
	if err := diag.CheckUTF8("promptfile", body); err != nil {
		c.report(&input{name: file}, err)
		return exitInvalid
	}
	if strings.TrimSpace(string(body)) == "" {
		return c.fail(fmt.Errorf("%s: the body is empty", (&input{name: file}).display()))
	}
	// A first prompt starts its store, as convert -t promptfile -o STORE does.
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return c.fail(err)
	}
	store, err := promptfile.OpenStore(*dir)
	if err != nil {
		return c.fail(err)
	}
	path, err := store.Create(string(body), meta)
	if err != nil {
		return c.fail(err)
	}
	fmt.Fprintln(c.stdout, path)
	return exitOK
}

func (c *cli) runPromptfileFix(args []string) int {
	fs := c.flags("promptfile fix", "[-rehash] [-dir DIR] [--force] FILE|DIR...", "promptfmt promptfile fix testdata/examples\n\n"+
		"Prints a fixed: line per change, once the file is written. A symbolic link\n"+
		"is written through to its target; a read-only file is refused unless --force.")
	rehash := fs.Bool("rehash", false, "accept a body that does not match its hash (edited on purpose) and replace the hash")
	force := forceFlag(fs)
	dir := fs.String("dir", "", "the prompt store new IDs come from; default: each file's own directory")
	args, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(args) == 0 {
		return c.fail(&usageError{"promptfile fix needs files"})
	}
	files, err := expand(args, isPromptFile)
	if err != nil {
		return c.fail(err)
	}
	stores := storeCache{}
	now := time.Now()
	// One file after another, so IDs are handed out in the files' order.
	return c.parallel(len(files), 1, func(c *cli, i int) int {
		name := files[i]
		src, err := os.ReadFile(name)
		if err != nil {
			return c.fail(err)
		}
		if !promptfile.Format.Sniff(src) {
			return c.fail(notPromptFile(name))
		}
		in := &input{name: name, src: src}
		storeDir := *dir
		if storeDir == "" {
			storeDir = filepath.Dir(name)
		}
		opts := []promptfmt.Option{promptfile.IDFrom(func() (string, error) { return stores.nextID(storeDir) }), promptfile.CreatedAt(now)}
		if *rehash {
			opts = append(opts, promptfile.Rehash())
		}
		out, changes, err := promptfile.Fix(src, opts...)
		if err != nil {
			c.report(in, err)
			return exitInvalid
		}
		if len(changes) == 0 {
			return exitOK
		}
		// Only what was done is reported: the changes once they are written.
		if status := c.writeFile(name, out, *force); status != exitOK {
			return status
		}
		for _, w := range changes {
			fmt.Fprintf(c.stderr, "%s:%d:%d: fixed: %s\n", name, w.Line, w.Col, w.Msg)
		}
		return exitOK
	})
}

// storeCache opens each store once for the files fixed.
type storeCache map[string]*promptfile.Store

func (sc storeCache) nextID(dir string) (string, error) {
	s, ok := sc[dir]
	if !ok {
		var err error
		if s, err = promptfile.OpenStore(dir); err != nil {
			return "", err
		}
		sc[dir] = s
	}
	return s.NextID()
}

// isPromptFile keeps, in a directory, the .prompt files whose content is
// a prompt file's: a Dotprompt file beside them is none (an unreadable
// one is kept, and reported when read).
func isPromptFile(name string) bool {
	if !strings.EqualFold(filepath.Ext(name), ".prompt") {
		return false
	}
	src, err := os.ReadFile(name)
	return err != nil || promptfile.Format.Sniff(src)
}

// notPromptFile is the refusal of a file named on the command line whose
// content is not a prompt file's: it is left as it is.
func notPromptFile(name string) error {
	return fmt.Errorf("%s: not a PromptCritical prompt file by its content (a Dotprompt key or helper): left untouched", name)
}

func (c *cli) runPromptfileVerify(args []string) int {
	fs := c.flags("promptfile verify", "FILE|DIR...", "promptfmt promptfile verify testdata/examples\n\n"+
		"Checks every .prompt file (a directory: every one under it): its three keys,\n"+
		"its body against its hash, and that no two files hold one prompt ID.")
	args, status, ok := c.parseFlags(fs, args)
	if !ok {
		return status
	}
	if len(args) == 0 {
		args = []string{"-"}
	}
	files, err := expand(args, isPromptFile)
	if err != nil {
		return c.fail(err)
	}
	held := make([]promptfile.HeldID, len(files))
	worst := c.parallel(len(files), 0, func(c *cli, i int) int {
		src, err := c.read(files[i])
		if err != nil {
			return c.fail(err)
		}
		if !promptfile.Format.Sniff(src) {
			return c.fail(notPromptFile(files[i]))
		}
		if held[i], err = promptfile.VerifyHeld(src); err == nil {
			return exitOK
		}
		c.report(&input{name: files[i], src: src}, err)
		return exitInvalid
	})
	return max(worst, c.duplicates(files, held))
}

// duplicates names every file whose prompt ID another file verified holds
// too, at its ID, with the others. Two names for one file (a link, or a
// file named twice) are not two files.
func (c *cli) duplicates(files []string, held []promptfile.HeldID) int {
	ids := make([]string, len(held))
	for i, h := range held {
		ids[i] = h.ID
	}
	status := exitOK
	for _, group := range promptfile.DuplicateIDs(ids) {
		infos := make([]os.FileInfo, len(files))
		for _, i := range group {
			infos[i], _ = os.Stat(files[i])
		}
		same := func(i, j int) bool {
			return files[i] == files[j] || infos[i] != nil && infos[j] != nil && os.SameFile(infos[i], infos[j])
		}
		for _, i := range group {
			var others []string
			for _, j := range group {
				if !same(i, j) && !slices.ContainsFunc(group[:slices.Index(group, j)], func(k int) bool { return same(k, j) }) {
					others = append(others, (&input{name: files[j]}).display())
				}
			}
			if len(others) == 0 {
				continue
			}
			if len(others) > 3 { // a thousand copies need not be listed a thousand times over
				others = append(others[:3], fmt.Sprintf("%d more", len(others)-3))
			}
			status = exitInvalid
			in := &input{name: files[i]}
			if files[i] != "-" {
				in.src, _ = os.ReadFile(files[i]) // for the excerpt only
			}
			h := held[i]
			c.emit(in, diagnostic{Line: h.Line, Col: h.Col, Severity: "error", Format: "promptfile",
				Message: fmt.Sprintf("%s %s is also held by %s: two prompts must not share an ID", h.Key, h.ID, strings.Join(others, ", "))})
		}
	}
	return status
}
