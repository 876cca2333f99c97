package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/promptfmt/promptfmt"
	registry "github.com/promptfmt/promptfmt/formats"
	"github.com/promptfmt/promptfmt/internal/atomicfile"
	"github.com/promptfmt/promptfmt/internal/jsonvalue"
	"github.com/promptfmt/promptfmt/provider"
)

// Datasets: JSON Lines files of conversations (package provider's
// Dataset), read and written as streams. convert splits one into a
// directory, a file a record, or gathers files (and datasets) into one;
// check reads every record; messages prints every record's messages.

// datasetNamed is the dataset called name, or nil.
func datasetNamed(name string) *provider.Dataset {
	for _, d := range registry.Datasets() {
		if d.Name() == name {
			return d
		}
	}
	return nil
}

// datasetNames lists the datasets' names.
func datasetNames() string {
	var names []string
	for _, d := range registry.Datasets() {
		names = append(names, d.Name())
	}
	return strings.Join(names, ", ")
}

// isDatasetFile reports whether name has a dataset's extension.
func isDatasetFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return slices.ContainsFunc(registry.Datasets(), func(d *provider.Dataset) bool { return slices.Contains(d.Extensions(), ext) })
}

// sniffLen is how much of a file tells which dataset it is.
const sniffLen = 64 << 10

// datasetOf returns the dataset the file is read as: the one -f names,
// else, for a .jsonl file, the one its first record is. nil when the
// file is no dataset (a directory is none).
func datasetOf(format, file string) (*provider.Dataset, error) {
	if fi, err := os.Stat(file); file != "-" && err == nil && fi.IsDir() {
		return nil, nil
	}
	if d := datasetNamed(format); d != nil {
		return d, nil
	}
	if format != "" || !isDatasetFile(file) {
		return nil, nil
	}
	if file == "-" {
		return nil, &usageError{"cannot tell which dataset standard input is: give -f FORMAT (" + datasetNames() + ")"}
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, nil
	}
	head := make([]byte, sniffLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return nil, err
	}
	for _, d := range registry.Datasets() {
		if d.Sniff(head[:n]) {
			return d, nil
		}
	}
	return nil, &usageError{fmt.Sprintf("cannot tell whether %s is %s from its first record: give -f FORMAT", file, strings.ReplaceAll(datasetNames(), ", ", " or "))}
}

// inDatasetTree reports whether a file met in a directory is a dataset
// to read: a .jsonl file that reads as one (as format, when given).
func inDatasetTree(name, format string) bool {
	if format != "" && datasetNamed(format) == nil || !isDatasetFile(name) {
		return false
	}
	d, err := datasetOf("", name)
	return err == nil && d != nil && (format == "" || d.Name() == format)
}

// datasetUsage is the error of a command that reads one document given
// a dataset.
func datasetUsage(what string) error {
	return &usageError{fmt.Sprintf("%s is a dataset of conversations, one a line (%s): convert, check and messages read it (promptfmt help openai-jsonl)", what, datasetNames())}
}

// datasetJob is what convert was asked, for a dataset.
type datasetJob struct {
	to, from, out, inputs   string
	lossy, force, keepGoing bool
	args                    []string
}

// convertDataset is convert when -t is a dataset (the inputs gathered
// into it) or the input is one (split into files of -t's format). ok is
// false when no dataset is involved.
func (c *cli) convertDataset(j datasetJob) (status int, ok bool) {
	if t := datasetNamed(j.to); t != nil {
		return c.gather(t, j), true
	}
	var src *provider.Dataset
	for _, arg := range j.args {
		d, err := datasetOf(j.from, arg)
		if err != nil {
			return c.fail(err), true
		}
		if fi, err := os.Stat(arg); err == nil && fi.IsDir() && datasetNamed(j.from) != nil {
			return c.fail(&usageError{fmt.Sprintf("%s is a directory: a dataset is split from its file", arg)}), true
		}
		if d != nil && len(j.args) > 1 {
			return c.fail(&usageError{"a dataset is split on its own: give it alone (each of its records becomes a file under -o DIR)"}), true
		}
		src = d
	}
	if src == nil {
		if j.keepGoing {
			return c.fail(&usageError{"--keep-going applies to datasets (" + datasetNames() + ")"}), true
		}
		return 0, false
	}
	return c.split(src, j), true
}

// datasetInput is a dataset file open to stream: its records' reader,
// the name errors show, the bytes read so far (for a progress bar) and
// its size (0 when it is not a regular file).
type datasetInput struct {
	*provider.Reader
	display string
	count   *countingReader
	size    int64
}

// openDataset opens name, a file or "-", to read d's records; closeFn ends
// it.
func (c *cli) openDataset(d *provider.Dataset, name string) (in *datasetInput, closeFn func(), err error) {
	display := (&input{name: name}).display()
	r, size, closeFn, err := c.openInput(name)
	if err != nil {
		return nil, nil, err
	}
	count := &countingReader{r: r}
	return &datasetInput{Reader: d.NewReader(count, promptfmt.File(display)), display: display, count: count, size: size}, closeFn, nil
}

// openInput opens a file to stream, or standard input for "-"; size is
// its size when it is a regular file, else 0.
func (c *cli) openInput(name string) (r io.Reader, size int64, closeFn func(), err error) {
	if name == "-" {
		return c.stdin, 0, func() {}, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
	}
	return f, size, func() { f.Close() }, nil
}

// recordInput is one record as the command reports on it: its line is
// the source shown under a problem, at the record's line of the file.
func recordInput(name string, d *provider.Dataset, rec provider.Record) *input {
	return &input{name: name, src: rec.Raw, base: rec.Line - 1, format: &formatInfo{name: d.Name()}, doc: rec.Doc}
}

// runStats counts a run's records for its summary.
type runStats struct {
	done, bad int
	stopped   bool
}

// ended says whether the run stops after a record of status.
func (s *runStats) ended(status int, keepGoing bool) bool {
	if status == exitOK {
		s.done++
		return false
	}
	s.bad++
	s.stopped = !keepGoing
	return s.stopped
}

// status is the run's exit status: 1 when any record failed, skipped or
// not.
func (s *runStats) status() int {
	if s.bad > 0 {
		return exitInvalid
	}
	return exitOK
}

// summary prints the run's last line on stderr.
func (s *runStats) summary(c *cli, verb, unwritten string) {
	switch {
	case s.stopped:
		fmt.Fprintf(c.stderr, "promptfmt: stopped at a record that failed, after %d %s; %s (--keep-going skips such records)\n", s.done, plural(int64(s.done), "record"), unwritten)
	case s.bad > 0:
		fmt.Fprintf(c.stderr, "promptfmt: %s %d %s, %d skipped\n", verb, s.done, plural(int64(s.done), "record"), s.bad)
	default:
		fmt.Fprintf(c.stderr, "promptfmt: %s %d %s\n", verb, s.done, plural(int64(s.done), "record"))
	}
}

// split converts each record of dataset d (the one input) into a file of
// -t's format under -o DIR.
func (c *cli) split(d *provider.Dataset, j datasetJob) int {
	target, err := lookupFormat(j.to, "")
	switch {
	case err != nil:
		return c.fail(err)
	case j.out == "":
		return c.fail(&usageError{fmt.Sprintf("converting a dataset to %s writes a file a record: give -o DIR", target.name)})
	case target.name == "promptfile":
		return c.fail(&usageError{"a dataset converts to prompt files through another format: a prompt store draws each file's ID (convert -t stf -o DIR first)"})
	case j.inputs != "":
		return c.fail(&usageError{"--inputs applies to template formats only (prompty, pdl, dotprompt)"})
	}
	if fi, err := os.Stat(j.out); err == nil && !fi.IsDir() {
		return c.fail(&usageError{fmt.Sprintf("-o %s: a dataset is split into a directory, a file a record", j.out)})
	}
	if err := os.MkdirAll(j.out, 0o755); err != nil {
		return c.fail(err)
	}
	r, closeIn, err := c.openDataset(d, j.args[0])
	if err != nil {
		return c.fail(err)
	}
	defer closeIn()
	display, count := r.display, r.count
	files := &names{ext: target.ext}
	bar := c.startProgress(r.size, "bytes")
	defer bar.stop(c)
	pool := c.newFilePool(j.force)
	var s runStats
	for !pool.drain(c) {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			pool.close(c)
			bar.stop(c)
			return c.fail(fmt.Errorf("reading %s: %w", display, err))
		}
		bar.update(count.n, int64(s.done))
		if s.ended(c.splitRecord(d, display, rec, files, target, j, pool), j.keepGoing) {
			break
		}
	}
	if failed := pool.close(c); failed > 0 {
		// A file that could not be written ends the run, whatever
		// --keep-going says: the next would likely fail too (a full disk).
		s.done -= failed
		s.bad += failed
		s.stopped = true
	}
	bar.stop(c)
	s.summary(c, "converted", "the files of the records before it are written")
	return s.status()
}

// splitRecord converts one record and hands its file to the pool.
func (c *cli) splitRecord(d *provider.Dataset, name string, rec provider.Record, files *names, target *formatInfo, j datasetJob, pool *filePool) int {
	in := recordInput(name, d, rec)
	if rec.Err != nil {
		c.report(in, rec.Err)
		return exitInvalid
	}
	c.warn(in, "warning")
	file, err := files.take(rec.ID, rec.Line)
	if err != nil {
		c.emit(in, diagnostic{Line: rec.Line, Severity: "error", Format: d.Name(), Message: err.Error()})
		return exitInvalid
	}
	out, status := c.write(in, target, j.lossy)
	if out == nil {
		return status
	}
	pool.write(filepath.Join(j.out, file), out)
	return exitOK
}

// batchURL is the url of the batch request a file is gathered into: a
// Responses body's is /v1/responses, any other file's the default,
// /v1/chat/completions. A batch split into Responses bodies is gathered
// back as it was.
func batchURL(in *input) string {
	if in.format.name == provider.OpenAIResponses.Name() {
		return "/v1/responses"
	}
	return ""
}

// recordFormat writes a document as one record of dataset t.
func recordFormat(t *provider.Dataset, id, url string) *formatInfo {
	return &formatInfo{name: t.Name(), ext: ".jsonl", write: func(w io.Writer, doc *promptfmt.Document) error {
		return t.NewWriter(w).Write(provider.Record{ID: id, URL: url, Doc: doc})
	}}
}

// gather writes the inputs into dataset t, one record each: a file (a
// directory stands for its files of a known format, in lexical order) is
// one record, a dataset given is each of its records. The output is -o
// FILE, replaced atomically once every record is written (a run that
// stops writes nothing), or standard output.
func (c *cli) gather(t *provider.Dataset, j datasetJob) int {
	if len(j.args) == 0 {
		j.args = []string{"-"}
	}
	if fi, err := os.Stat(j.out); j.out != "" && err == nil && fi.IsDir() {
		return c.fail(&usageError{fmt.Sprintf("-o %s is a directory: with -t %s, -o names the one file written", j.out, t.Name())})
	}
	g := &gathering{c: c, t: t, j: j}
	for _, arg := range j.args {
		d, err := datasetOf(j.from, arg)
		switch {
		case err != nil:
			return c.fail(err)
		case d != nil:
			g.groups = append(g.groups, group{name: arg, d: d})
			continue
		case arg == "-" && len(j.args) > 1:
			return c.fail(&usageError{"standard input cannot be one of several files to convert"})
		}
		if datasetNamed(j.from) != nil {
			// -f DATASET: a directory stands for its datasets of that kind.
			found, err := expand([]string{arg}, func(name string) bool { return inDatasetTree(name, j.from) })
			if err != nil {
				return c.fail(err)
			}
			for _, f := range found {
				g.groups = append(g.groups, group{name: f, d: datasetNamed(j.from)})
			}
			continue
		}
		files, err := expand([]string{arg}, func(name string) bool { return inTree(name, j.from) })
		if err != nil {
			return c.fail(err)
		}
		gr := group{name: arg, files: files}
		if fi, err := os.Stat(arg); err == nil && fi.IsDir() {
			gr.dir = arg
		}
		g.groups = append(g.groups, gr)
		g.files += len(files)
	}

	var sink io.Writer = c.stdout
	var file *atomicfile.File
	if j.out != "" {
		var err error
		if file, err = atomicfile.Create(j.out, atomicfile.Options{Perm: 0o644, Force: j.force}); err != nil {
			return c.fileError(j.out, err)
		}
		defer file.Close() // dropped unless committed
		sink = file
	}
	g.out = bufio.NewWriterSize(sink, 64<<10)
	// The bar counts the bytes of one dataset given alone, else inputs.
	if g.alone = len(g.groups) == 1 && g.groups[0].d != nil; g.alone {
		size := int64(0)
		if fi, err := os.Stat(g.groups[0].name); err == nil && fi.Mode().IsRegular() {
			size = fi.Size()
		}
		g.bar = c.startProgress(size, "bytes")
	} else {
		inputs := g.files // each file, and each dataset
		for _, gr := range g.groups {
			if gr.d != nil {
				inputs++
			}
		}
		g.bar = c.startProgress(int64(inputs), "files")
	}
	defer g.bar.stop(c)

	for i := range g.groups {
		if g.s.stopped {
			break
		}
		var status int
		if g.groups[i].d != nil {
			status = g.stream(i)
		} else {
			g.readFiles(i)
		}
		if status != exitOK {
			return status // reading failed
		}
	}
	g.bar.stop(c)
	if err := g.out.Flush(); err != nil {
		return c.fail(err)
	}
	unwritten := "what was printed before it stays printed"
	if file != nil {
		unwritten = j.out + " is not written"
		if !g.s.stopped {
			if err := file.Commit(); err != nil {
				return c.fileError(j.out, err)
			}
		}
	}
	g.s.summary(c, "converted", unwritten)
	return g.s.status()
}

// gathering is a gather's state.
type gathering struct {
	c      *cli
	t      *provider.Dataset
	j      datasetJob
	groups []group
	files  int // of all groups
	out    *bufio.Writer
	bar    *progress
	alone  bool // one dataset given alone: the bar counts its bytes
	done   int  // inputs done, for the bar
	s      runStats
	// ids are the custom_ids written to a batch, each with where it came
	// from: its group, and its file's index or its line in a dataset.
	ids seenSet
}

// group is an argument: a dataset to stream, or files to read (a
// directory's, or the file itself).
type group struct {
	name, dir string
	d         *provider.Dataset
	files     []string
}

// fresh reports whether the custom_id of a record (of group i, at k: a
// file's index, or a dataset's line) is new, else prints why not.
func (g *gathering) fresh(in *input, i, k int, id string) bool {
	if g.t != provider.OpenAIBatch {
		return true
	}
	prev, dup := g.ids.add(id, uint64(i)<<32|uint64(k))
	if !dup {
		return true
	}
	pg, pk := g.groups[prev>>32], int(prev&(1<<32-1))
	where := ""
	if pg.d != nil {
		where = fmt.Sprintf("%s:%d", (&input{name: pg.name}).display(), pk)
	} else {
		where = (&input{name: pg.files[pk]}).display()
	}
	line := 0
	if g.groups[i].d != nil {
		line = k
	}
	g.c.emit(in, diagnostic{Line: line, Severity: "error", Format: g.t.Name(),
		Message: fmt.Sprintf("the custom_id %q is %s's too (custom_ids are unique in a batch)", abbrevID(id), where)})
	return false
}

// put writes a record converted.
func (g *gathering) put(text []byte) int {
	if _, err := g.out.Write(text); err != nil {
		return g.c.fail(err)
	}
	return exitOK
}

// readFiles writes the files of group i: read and converted on all
// cores, written in order.
func (g *gathering) readFiles(i int) {
	gr := g.groups[i]
	type loaded struct {
		in     *input
		id     string
		text   []byte
		status int
		diag   []byte
	}
	ordered(len(gr.files), func(k int) loaded {
		name := gr.files[k]
		var diag bytes.Buffer
		fc := *g.c
		fc.stdout, fc.stderr = &diag, &diag
		var l loaded
		l.in, l.status = fc.loadForConvert(name, g.j.from, g.j.inputs)
		if l.in != nil {
			if g.t == provider.OpenAIBatch {
				l.id = idOf(name, gr.dir)
				if name == "-" {
					l.id = lineName(1)
				}
			}
			l.text, l.status = fc.write(l.in, recordFormat(g.t, l.id, batchURL(l.in)), g.j.lossy)
		}
		l.diag = diag.Bytes()
		return l
	}, func(k int, l loaded) bool {
		g.c.stderr.Write(l.diag)
		status := l.status
		if l.text != nil {
			status = exitInvalid
			if g.fresh(l.in, i, k, l.id) {
				status = g.put(l.text)
			}
		}
		g.done++
		g.bar.update(int64(g.done), int64(g.s.done))
		return !g.s.ended(status, g.j.keepGoing)
	})
}

// stream writes the records of the dataset of group i. It returns what
// ends the command when reading fails, else exitOK.
func (g *gathering) stream(i int) int {
	c, gr := g.c, g.groups[i]
	r, closeIn, err := c.openDataset(gr.d, gr.name)
	if err != nil {
		g.bar.stop(c)
		return c.fail(err)
	}
	defer closeIn()
	display, count := r.display, r.count
	for !g.s.stopped {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			g.bar.stop(c)
			return c.fail(fmt.Errorf("reading %s: %w", display, err))
		}
		if g.alone {
			g.bar.update(count.n, int64(g.s.done))
		}
		in := recordInput(display, gr.d, rec)
		status := exitInvalid
		if rec.Err != nil {
			c.report(in, rec.Err)
		} else {
			c.warn(in, "warning")
			id, url := "", ""
			if g.t == provider.OpenAIBatch {
				id, url = rec.ID, rec.URL
				if id == "" {
					id = lineName(rec.Line)
				}
			}
			if g.fresh(in, i, rec.Line, id) {
				if text, st := c.write(in, recordFormat(g.t, id, url), g.j.lossy); text != nil {
					status = g.put(text)
				} else {
					status = st
				}
			}
		}
		g.s.ended(status, g.j.keepGoing)
	}
	g.done++
	return exitOK
}

// checkDataset reads every record of a dataset and reports each problem,
// warnings as errors, as check does for files; then a summary line.
func (c *cli) checkDataset(d *provider.Dataset, name string) int {
	r, closeIn, err := c.openDataset(d, name)
	if err != nil {
		return c.fail(err)
	}
	defer closeIn()
	display, count := r.display, r.count
	bar := c.startProgress(r.size, "bytes")
	defer bar.stop(c)
	var s runStats
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			bar.stop(c)
			return c.fail(fmt.Errorf("reading %s: %w", display, err))
		}
		bar.update(count.n, int64(s.done+s.bad))
		in := recordInput(display, d, rec)
		status := exitOK
		switch {
		case rec.Err != nil:
			c.report(in, rec.Err)
			status = exitInvalid
		case len(rec.Doc.Warnings) > 0:
			c.warn(in, "error")
			status = exitInvalid
		}
		s.ended(status, true)
	}
	bar.stop(c)
	n := s.done + s.bad
	line := fmt.Sprintf("promptfmt: checked %d %s of %s", n, plural(int64(n), "record"), display)
	if s.bad > 0 {
		line += fmt.Sprintf(", %d with problems", s.bad)
	}
	fmt.Fprintln(c.stderr, line)
	return s.status()
}

// messagesDataset prints the messages of every record, as a JSON array
// with one element a record (its messages, as messages prints a file's).
// Decision: a record that does not read stops it, and the array is left
// open, so that what was printed does not parse as the whole answer.
func (c *cli) messagesDataset(d *provider.Dataset, name string) int {
	r, closeIn, err := c.openDataset(d, name)
	if err != nil {
		return c.fail(err)
	}
	defer closeIn()
	display := r.display
	out := bufio.NewWriterSize(c.stdout, 64<<10)
	defer out.Flush()
	out.WriteString("[")
	var buf bytes.Buffer
	n := 0
	for ; ; n++ {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			out.Flush()
			return c.fail(fmt.Errorf("reading %s: %w", display, err))
		}
		in := recordInput(display, d, rec)
		if rec.Err != nil {
			out.Flush()
			c.report(in, rec.Err)
			return exitInvalid
		}
		c.warn(in, "warning")
		buf.Reset()
		if err := jsonvalue.Write(&buf, rec.Doc.ForModel().Messages); err != nil {
			return c.fail(err)
		}
		if n > 0 {
			out.WriteString(",")
		}
		// One level deeper: each line of the record's array indented.
		for _, line := range bytes.SplitAfter(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n")) {
			out.WriteString("\n  ")
			out.Write(bytes.TrimSuffix(line, []byte("\n")))
		}
	}
	if n == 0 {
		out.WriteString("]\n")
	} else {
		out.WriteString("\n]\n")
	}
	if err := out.Flush(); err != nil {
		return c.fail(err)
	}
	return exitOK
}

// checkDatasets checks the datasets among args (named, or .jsonl files
// under a directory that read as one) and returns the other arguments,
// for check to read as documents (a directory's documents: its datasets
// are not among them). ok is false when check should return status.
func (c *cli) checkDatasets(args []string, format string) (rest []string, status int, ok bool) {
	found, err := expand(args, func(name string) bool { return inDatasetTree(name, format) })
	if err != nil {
		return nil, c.fail(err), false
	}
	given := map[string]bool{}
	for _, f := range found {
		d, err := datasetOf(format, f)
		if err != nil {
			return nil, c.fail(err), false
		}
		if d != nil {
			given[f] = true
			status = max(status, c.checkDataset(d, f))
		}
	}
	for _, arg := range args {
		if !given[arg] {
			rest = append(rest, arg)
		}
	}
	return rest, status, true
}
