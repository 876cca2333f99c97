// Package atomicfile is the one policy by which promptfmt writes files:
// fmt -w, promptfile fix, promptfile new (the prompt store) and convert -o
// all write through Write, or through Create for a file written as a
// stream (a dataset gathered record by record).
//
// A file is replaced through a temporary file in its own directory: write,
// fsync, rename over it, fsync the directory. So a crash, or a failure at
// any step, leaves the old file or the new one, never part of the new one,
// and a write that fails leaves the file as it was.
//
// Decision: a symbolic link is written through, as editors do: the link is
// resolved (every link in the chain), the file it leads to is replaced in
// that file's directory, and the link stays a link. A link whose target is
// missing is refused rather than followed into creating a file.
//
// Decision: a file the caller may not write, as its mode bits say, is
// refused unless Options.Force is set, as an editor refuses a read-only
// file without "!". The check is made here, on the mode, not left to the
// system: the rename replaces a file whatever its mode, and root may write
// anything. Likewise a file with other hard links is refused unless forced,
// since the rename would leave the other links holding the old text. The
// replaced file keeps its mode (and, where the system lets us, its owner
// and group). Anything but a regular file (a directory, a device, a pipe)
// is refused.
//
// The temporary file is ".NAME.promptfmt-DIGITS.tmp" beside the file
// written. A run that is killed can leave one behind, so before the first
// write in a directory (once per directory per process) Write removes
// every file of exactly that pattern that is older than StaleAge and,
// where the system has flock(2), not locked: a writer holds a lock on its
// temporary file until it is renamed. Nothing else is ever removed.
package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sync"
	"time"
)

// Options say how Write treats a file that exists.
type Options struct {
	// Perm is the mode of a file that does not exist yet; a file that
	// exists keeps its own.
	Perm os.FileMode
	// Force rewrites a file that is read-only or has other hard links.
	Force bool
}

// The refusals, each an Error's Err. ErrReadOnly and ErrHardLinks give
// way to Options.Force.
var (
	ErrReadOnly     = errors.New("read-only")
	ErrHardLinks    = errors.New("it has other hard links, which would keep the old text")
	ErrNotRegular   = errors.New("not a regular file")
	ErrDanglingLink = errors.New("a symbolic link to a file that does not exist")
)

// Error is a write that failed or was refused. It names the file as the
// caller named it, never the temporary file.
type Error struct {
	Path   string // the file as given
	Target string // where a symbolic link at Path leads; "" when Path is no link
	Op     string // the step that failed ("creating a temporary file in DIR"); "" for a refusal
	Err    error
}

// Error is "FILE: cannot write: REASON".
func (e *Error) Error() string { return e.Path + ": " + e.Reason() }

// Reason is the error without the file's name: "cannot write: read-only".
func (e *Error) Reason() string {
	s := "cannot write"
	if e.Target != "" {
		s += " (through the symbolic link, to " + e.Target + ")"
	}
	s += ": "
	if e.Op != "" {
		s += e.Op + ": "
	}
	return s + e.Err.Error()
}

// Unwrap returns the refusal or the system's error.
func (e *Error) Unwrap() error { return e.Err }

// Forcible reports whether Options.Force would have let the write go on.
func (e *Error) Forcible() bool {
	return errors.Is(e.Err, ErrReadOnly) || errors.Is(e.Err, ErrHardLinks)
}

// WriteFile is Write with Options{Perm: perm}: it never forces.
func WriteFile(name string, data []byte, perm os.FileMode) error {
	return Write(name, data, Options{Perm: perm})
}

// Write replaces the file name with data, or creates it, by the package's
// policy. Its errors are *Error.
func Write(name string, data []byte, opts Options) error {
	f, err := Create(name, opts)
	if err != nil {
		return err
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		return err
	}
	return f.Commit()
}

// File is a file being replaced (or created) by a stream of writes, for
// a writer that does not hold the whole text (a dataset gathered record by
// record): what is written goes to the temporary file, and Commit puts it
// in the file's place by the package's policy. Until then the file is as
// it was; Close without Commit drops what was written.
type File struct {
	name, target string
	fi           fs.FileInfo // the file replaced; nil for a new one
	perm         fs.FileMode
	dir          string
	tmp          *os.File
	done         bool // committed or closed
	err          error
}

// Create starts replacing the file name, or creating it: the checks of
// the policy (a read-only file, other hard links, not a regular file, a
// dangling symbolic link) are made now, before anything is written. Its
// errors, and those of the File's methods, are *Error.
func Create(name string, opts Options) (*File, error) {
	target, fi, err := resolve(name)
	f := &File{name: name, target: target, fi: fi, perm: opts.Perm, dir: filepath.Dir(target)}
	if err != nil {
		return nil, f.fail("", err)
	}
	if fi != nil {
		switch {
		case !fi.Mode().IsRegular():
			return nil, f.fail("", ErrNotRegular)
		case !opts.Force && !writable(fi):
			return nil, f.fail("", ErrReadOnly)
		case !opts.Force && links(fi) > 1:
			return nil, f.fail("", ErrHardLinks)
		}
		f.perm = fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)
	}
	if _, done := cleaned.LoadOrStore(f.dir, true); !done {
		RemoveStale(f.dir) // best effort: a temporary it cannot remove harms nothing
	}
	f.tmp, err = os.CreateTemp(f.dir, "."+filepath.Base(target)+tempInfix+"*"+tempSuffix)
	if err != nil {
		return nil, f.fail("creating a temporary file in "+f.dir, err)
	}
	// Held until the temporary file is renamed, so RemoveStale in another
	// process leaves it alone however slow the write. Where locks are not
	// supported (some network file systems) RemoveStale removes nothing.
	lockFile(f.tmp)
	return f, nil
}

// fail makes the Error of a step about the file as the caller named it.
func (f *File) fail(op string, err error) error {
	e := &Error{Path: f.name, Op: op, Err: bare(err)}
	if f.target != f.name {
		e.Target = f.target
	}
	return e
}

// Write writes p to the temporary file. After a failure every later
// Write and Commit fails the same way.
func (f *File) Write(p []byte) (int, error) {
	if f.err == nil && f.done {
		f.err = f.fail("writing", os.ErrClosed)
	}
	if f.err != nil {
		return 0, f.err
	}
	n, err := f.tmp.Write(p)
	if err != nil {
		f.err = f.fail("writing", err)
	}
	return n, f.err
}

// Commit makes what was written the file: synced, given its mode (and
// owner, where the system lets us), renamed over the file, the directory
// synced. On failure the file is as it was.
func (f *File) Commit() error {
	if f.err == nil && f.done {
		f.err = f.fail("writing", os.ErrClosed)
	}
	if f.err != nil {
		f.Close()
		return f.err
	}
	defer f.Close()
	if err := f.tmp.Sync(); err != nil {
		return f.fail("writing", err)
	}
	if f.fi != nil {
		chown(f.tmp, f.fi) // best effort: only root may give a file away
	}
	if err := f.tmp.Chmod(f.perm); err != nil {
		return f.fail("setting the mode", err)
	}
	if beforeRename != nil {
		if err := beforeRename(f.tmp.Name()); err != nil {
			return f.fail("writing", err)
		}
	}
	if runtime.GOOS == "windows" { // an open file cannot be renamed there
		if err := f.tmp.Close(); err != nil {
			return f.fail("writing", err)
		}
	}
	if err := os.Rename(f.tmp.Name(), f.target); err != nil {
		return f.fail("replacing the file", err)
	}
	f.done = true
	f.tmp.Close() // written, synced and renamed: nothing left to lose
	if err := syncDir(f.dir); err != nil {
		return f.fail("written, but syncing its directory", err)
	}
	return nil
}

// Close drops what was written unless Commit has made it the file; after
// Commit it does nothing. It is safe to call more than once.
func (f *File) Close() error {
	if f.done {
		return nil
	}
	f.done = true
	f.tmp.Close()
	os.Remove(f.tmp.Name())
	return nil
}

// beforeRename, when set by a test, runs just before the rename; an error
// fails the write there.
var beforeRename func(tmp string) error

// resolve returns the file a write to name replaces, following symbolic
// links, and its FileInfo (nil when there is none yet).
func resolve(name string) (string, fs.FileInfo, error) {
	li, err := os.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return name, nil, nil
	}
	if err != nil {
		return name, nil, err
	}
	if li.Mode()&fs.ModeSymlink == 0 {
		return name, li, nil
	}
	target, err := filepath.EvalSymlinks(name)
	if errors.Is(err, fs.ErrNotExist) {
		return name, nil, ErrDanglingLink
	}
	if err != nil {
		return name, nil, err
	}
	fi, err := os.Stat(target)
	return target, fi, err
}

// bare drops the path from a system error: the path would be the
// temporary file's, and Error names the user's.
func bare(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// The temporary file's name is "." + the file's name + tempInfix + digits
// + tempSuffix; staleName matches exactly that.
const (
	tempInfix  = ".promptfmt-"
	tempSuffix = ".tmp"
)

var staleName = regexp.MustCompile(`^\..+\.promptfmt-[0-9]+\.tmp$`)

// StaleAge is how old a temporary file must be before RemoveStale takes it
// for a killed run's. Where flock(2) exists a live writer's temporary file
// is also locked, so the age only covers the instant between its creation
// and its locking.
const StaleAge = staleAge

// cleaned holds the directories RemoveStale has run in.
var cleaned sync.Map

// RemoveStale removes the temporary files left in dir by writers that
// died, and returns their names: exactly those named by this package's
// pattern, older than StaleAge and not locked by a live writer.
func RemoveStale(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var removed []string
	for _, e := range entries {
		if !e.Type().IsRegular() || !staleName.MatchString(e.Name()) {
			continue
		}
		fi, err := e.Info()
		if err != nil || time.Since(fi.ModTime()) < StaleAge {
			continue
		}
		path := filepath.Join(dir, e.Name())
		if removeIfUnlocked(path) {
			removed = append(removed, path)
		}
	}
	return removed, nil
}

// syncDir makes a rename in dir durable. Windows cannot open a directory
// for syncing, and its renames are journaled by NTFS.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
