package promptfile

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/atomicfile"
	"github.com/promptfmt/promptfmt/internal/filelock"
)

// The store's bookkeeping files. Their names start with a dot and do not
// end in .prompt, so listings of the population skip them.
const (
	NextIDFile = ".next-id"      // the smallest ID never handed out, in decimal
	LockFile   = ".next-id.lock" // held while an ID is drawn
)

// Store is a directory of prompt files: a PromptCritical population. It
// hands out IDs and writes new prompts as P<n>.prompt.
//
// An ID is drawn under LockFile (flock(2) where the system has it, so a
// holder that dies releases it): the number in NextIDFile, passed over
// while a P<n>.prompt already exists, is the ID, and the number after it
// is written back atomically. So concurrent processes never draw the same
// ID, and IDs are handed out in order without holes. An ID is never handed
// out twice, even when its file is later deleted, because other prompts may
// name it among their ancestors. When NextIDFile is missing it is rebuilt
// from the highest ID present: in file names P<n>.prompt and in the
// prompt-id (or id) of every .prompt file that reads.
//
// Files are written through a temporary file, fsync and rename, so a crash
// leaves the old file or the new one, never half of one (at worst a
// temporary ".P<n>.prompt.tmp…" beside it).
type Store struct{ dir string }

// OpenStore returns the store in dir, which must exist.
func OpenStore(dir string) (*Store, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("prompt store %s: not a directory", dir)
	}
	return &Store{dir: dir}, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Path returns where the prompt with the given ID is stored.
func (s *Store) Path(id string) string { return filepath.Join(s.dir, id+".prompt") }

// NextID draws a new ID: the smallest never handed out.
func (s *Store) NextID() (id string, err error) {
	unlock, err := filelock.Lock(filepath.Join(s.dir, LockFile))
	if err != nil {
		return "", err
	}
	defer func() {
		if uerr := unlock(); err == nil {
			err = uerr
		}
	}()
	n, err := s.readNext()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Lstat(s.Path("P" + strconv.FormatUint(n, 10))); errors.Is(err, fs.ErrNotExist) {
			break
		} else if err != nil {
			return "", err
		}
		n++
	}
	if n == maxID {
		return "", fmt.Errorf("prompt store %s: IDs exhausted", s.dir)
	}
	next := strconv.FormatUint(n+1, 10) + "\n"
	if err := atomicfile.WriteFile(filepath.Join(s.dir, NextIDFile), []byte(next), 0o644); err != nil {
		return "", err
	}
	return "P" + strconv.FormatUint(n, 10), nil
}

// maxID bounds IDs so that the one after always fits.
const maxID = 1<<63 - 1

// readNext reads NextIDFile, or rebuilds its number when it is missing.
func (s *Store) readNext() (uint64, error) {
	name := filepath.Join(s.dir, NextIDFile)
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		return s.highest()
	}
	if err != nil {
		return 0, err
	}
	n, err := strconv.ParseUint(string(bytes.TrimSpace(b)), 10, 64)
	if err != nil || n == 0 || n > maxID {
		return 0, fmt.Errorf("%s: want a positive whole number, not %q (delete the file to rebuild it from the IDs present)", name, bytes.TrimSpace(b))
	}
	return n, nil
}

// highest returns one more than the highest ID in the store, or 1.
func (s *Store) highest() (uint64, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return 0, err
	}
	var top uint64
	note := func(id string) {
		if idPattern.MatchString(id) {
			if n, err := strconv.ParseUint(id[1:], 10, 64); err == nil && n < maxID {
				top = max(top, n)
			}
		}
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".prompt") || !e.Type().IsRegular() {
			continue
		}
		note(strings.TrimSuffix(name, ".prompt"))
		src, err := os.ReadFile(filepath.Join(s.dir, name))
		if err != nil {
			return 0, err
		}
		// A file that does not read still counts by its name.
		if f, err := parse(src); err == nil && f.checks[0].state == fine {
			note(f.checks[0].text)
		}
	}
	return top + 1, nil
}

// Create stores body as a new prompt and returns its path. meta holds the
// keys besides the mandatory ones (generator, model, ancestors...); the
// store sets prompt-id to a new ID, created-at to now unless meta has one,
// and sha1-hash to the body's hash. Blank lines before the body are
// dropped, as reading would skip them.
func (s *Store) Create(body string, meta map[string]any) (string, error) {
	doc := &promptfmt.Document{Meta: map[string]any{}}
	for k, v := range meta {
		doc.Meta[k] = v
	}
	body = Canonical(body)
	for body != "" {
		line, rest, _ := strings.Cut(body, "\n")
		if strings.TrimSpace(line) != "" {
			break
		}
		body = rest
	}
	if _, ok := doc.Meta[KeyCreated]; !ok {
		doc.Meta[KeyCreated] = Now(time.Now())
	}
	doc.Meta[KeyHash] = Hash(body)
	doc.Messages = []promptfmt.Message{promptfmt.NewMessage("user", body)}
	// Check that the document can be written before drawing an ID.
	doc.Meta[KeyID] = "P1"
	if err := Write(&bytes.Buffer{}, doc); err != nil {
		return "", err
	}
	id, err := s.NextID()
	if err != nil {
		return "", err
	}
	doc.Meta[KeyID] = id
	var out bytes.Buffer
	if err := Write(&out, doc); err != nil {
		return "", err
	}
	path := s.Path(id)
	return path, atomicfile.WriteFile(path, out.Bytes(), 0o644)
}

// Now returns t as a created-at value: UTC, to the second.
func Now(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }
