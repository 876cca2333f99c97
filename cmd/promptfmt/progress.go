package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// progress is the bar a long run over a dataset draws on stderr when
// stderr is a terminal: how much of the input is done (its bytes, or its
// files), the records so far and the rate. It shows once the run has
// taken progressDelay, redraws at most every progressEvery, and is erased
// before any other line is printed on stderr and at the end, so that the
// terminal keeps only the diagnostics and the summary. Not a terminal (a
// pipe, a file, the tests): nothing.
type progress struct {
	out        io.Writer // the terminal
	total      int64     // of the unit; 0 when unknown (standard input)
	unit       string    // "bytes" or "files"
	start      time.Time
	last       time.Time
	shown      bool
	now        func() time.Time
	done, recs int64
}

const (
	progressDelay = time.Second
	progressEvery = 100 * time.Millisecond
	progressWidth = 30
)

// isTerminal reports whether w is a terminal (a character device).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// startProgress returns the bar for a run over total units, and sets the
// cli's stderr to erase it before each line; nil, and nothing changed,
// when stderr is no terminal. stop ends it.
func (c *cli) startProgress(total int64, unit string) *progress {
	if !isTerminal(c.stderr) {
		return nil
	}
	p := &progress{out: c.stderr, total: total, unit: unit, now: time.Now}
	p.start = p.now()
	c.stderr = erasing{p}
	return p
}

// stop erases the bar and gives stderr back.
func (p *progress) stop(c *cli) {
	if p == nil {
		return
	}
	p.erase()
	c.stderr = p.out
}

// update records how far the run is and redraws when it is time.
func (p *progress) update(done, recs int64) {
	if p == nil {
		return
	}
	p.done, p.recs = done, recs
	now := p.now()
	if now.Sub(p.start) < progressDelay || p.shown && now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	p.shown = true
	fmt.Fprint(p.out, "\r"+p.line(now.Sub(p.start))+"\x1b[K")
}

// line is the bar's text after elapsed time.
func (p *progress) line(elapsed time.Duration) string {
	var b strings.Builder
	if p.total > 0 {
		frac := min(float64(p.done)/float64(p.total), 1)
		n := int(frac * progressWidth)
		b.WriteString("[" + strings.Repeat("=", n) + strings.Repeat(" ", progressWidth-n) + "]")
		fmt.Fprintf(&b, " %3.0f%%", frac*100)
	}
	fmt.Fprintf(&b, " %d records", p.recs)
	if secs := elapsed.Seconds(); secs > 0 && p.unit == "bytes" {
		fmt.Fprintf(&b, ", %.1f MB/s", float64(p.done)/1e6/secs)
	} else if p.unit == "files" && p.total > 0 {
		fmt.Fprintf(&b, " (%d of %d files)", p.done, p.total)
	}
	return strings.TrimPrefix(b.String(), " ")
}

// erase clears the bar's line when it is drawn.
func (p *progress) erase() {
	if p.shown {
		fmt.Fprint(p.out, "\r\x1b[K")
		p.shown = false
	}
}

// erasing is stderr while a bar is drawn: a line printed erases the bar
// first; the next update draws it again below.
type erasing struct{ p *progress }

func (e erasing) Write(b []byte) (int, error) {
	e.p.erase()
	return e.p.out.Write(b)
}

// countingReader counts the bytes read through it, for the bar.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(b []byte) (int, error) {
	n, err := c.r.Read(b)
	c.n += int64(n)
	return n, err
}
