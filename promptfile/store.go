package promptfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/promptfmt/promptfmt"
	"github.com/promptfmt/promptfmt/internal/atomicfile"
	"github.com/promptfmt/promptfmt/internal/filelock"
	"github.com/promptfmt/promptfmt/internal/lines"
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
// while any .prompt file in the directory holds it, is the ID, and the
// number after it is written back atomically. A file holds an ID by its
// name (P4.prompt) or by its front matter (greeting.prompt with prompt-id:
// P4, or the seed's id: P4), whatever wrote it; IDs are compared as
// numbers, so P04 holds P4. So concurrent processes never draw the same
// ID, an ID a file already holds is never handed out, and IDs are handed
// out in order with holes only where a file held one. An ID is never
// handed out twice, even when its file is later deleted, because other
// prompts may name it among their ancestors. When NextIDFile is missing
// it is rebuilt as one more than the highest ID held.
//
// Every draw looks at every .prompt file in the directory (its name, size
// and modification time); a Store reads again only the files that changed
// since it last drew, so drawing k IDs in a store of n files reads each
// file about once and stats it k times.
//
// Files are written by internal/atomicfile's policy: through a temporary
// file, fsync and rename, so a crash leaves the old file or the new one,
// never half of one (at worst a temporary ".P<n>.prompt.promptfmt-….tmp"
// beside it, removed by a later write).
type Store struct {
	dir string
	mu  sync.Mutex
	// seen is what each .prompt file held when it was last read.
	seen map[string]heldFile
}

// heldFile is a .prompt file's ID as last read, with what tells whether
// the file changed since.
type heldFile struct {
	size   int64
	mod    time.Time
	readAt time.Time
	id     uint64 // 0: none
	alias  uint64 // a second ID, in id when it differs from prompt-id; 0: none
}

// OpenStore returns the store in dir, which must exist.
func OpenStore(dir string) (*Store, error) {
	fi, err := os.Stat(dir)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("prompt store %s: not a directory", dir)
	}
	return &Store{dir: dir, seen: map[string]heldFile{}}, nil
}

// Dir returns the store's directory.
func (s *Store) Dir() string { return s.dir }

// Path returns where the prompt with the given ID is stored.
func (s *Store) Path(id string) string { return filepath.Join(s.dir, id+".prompt") }

// NextID draws a new ID: the smallest never handed out that no .prompt
// file in the store holds.
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
	s.mu.Lock()
	defer s.mu.Unlock()
	held, err := s.held()
	if err != nil {
		return "", err
	}
	n, err := s.readNext(held)
	if err != nil {
		return "", err
	}
	for held[n] {
		n++
	}
	if n >= maxID {
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

// idNumber returns the number of a well-formed ID below maxID.
func idNumber(id string) (uint64, bool) {
	if !idPattern.MatchString(id) {
		return 0, false
	}
	n, err := strconv.ParseUint(id[1:], 10, 64)
	return n, err == nil && n < maxID
}

// readNext reads NextIDFile, or rebuilds its number from the IDs held when
// it is missing.
func (s *Store) readNext(held map[uint64]bool) (uint64, error) {
	name := filepath.Join(s.dir, NextIDFile)
	b, err := os.ReadFile(name)
	if errors.Is(err, fs.ErrNotExist) {
		var top uint64
		for n := range held {
			top = max(top, n)
		}
		return top + 1, nil
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

// racy says whether a file's size and time, as of when it was read, may
// miss a later edit: one made within the file system's timestamp
// granularity after the time recorded. Times with nanoseconds come from
// file systems whose granularity is a few milliseconds at most; a whole
// second suggests one that counts in seconds (FAT counts in two).
func racy(h heldFile) bool {
	window := 20 * time.Millisecond
	if h.mod.Nanosecond() == 0 {
		window = 2 * time.Second
	}
	return h.readAt.Sub(h.mod) < window
}

// reads counts the files held has read, for the test that it reads only
// what changed.
var reads atomic.Int64

// held returns the numbers of the IDs the store's .prompt files hold, by
// name and by front matter, reading only the files that changed since the
// last call. A file that does not parse holds what its name says.
func (s *Store) held() (map[uint64]bool, error) {
	entries, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, err
	}
	held := map[uint64]bool{}
	seen := make(map[string]heldFile, len(s.seen))
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".prompt") {
			continue
		}
		if n, ok := idNumber(strings.TrimSuffix(name, ".prompt")); ok {
			held[n] = true
		}
		path := filepath.Join(s.dir, name)
		fi, err := os.Stat(path) // through a symbolic link
		if err != nil || !fi.Mode().IsRegular() {
			continue // a dangling link or a directory holds its name only
		}
		h, ok := s.seen[name]
		if !ok || h.size != fi.Size() || !h.mod.Equal(fi.ModTime()) || racy(h) {
			h = heldFile{size: fi.Size(), mod: fi.ModTime(), readAt: time.Now()}
			reads.Add(1)
			src, err := os.ReadFile(path)
			if err != nil {
				return nil, fmt.Errorf("prompt store %s: cannot tell which ID %s holds: %w", s.dir, name, err)
			}
			if f, err := parse(src); err == nil {
				// Both IDs of a file that names two (prompt-id and a
				// different id) are held: either may be cited.
				if f.checks[0].state == fine {
					h.id, _ = idNumber(f.checks[0].text)
				}
				if f.alias.state == mismatch {
					h.alias, _ = idNumber(f.alias.text)
				}
			}
		}
		seen[name] = h
		if h.id != 0 {
			held[h.id] = true
		}
		if h.alias != 0 {
			held[h.alias] = true
		}
	}
	s.seen = seen
	return held, nil
}

// HeldID is the prompt ID a file holds in its front matter, where it is.
type HeldID struct {
	ID        string // "" when the file holds no well-formed ID
	Key       string // KeyID, or the seed's "id"
	Line, Col int
}

// VerifyHeld is Verify, and also returns the ID the file holds, so that a
// caller verifying many files can find two holding one ID (DuplicateIDs).
func VerifyHeld(src []byte, opts ...promptfmt.Option) (HeldID, error) {
	f, err := verify("promptfile.VerifyHeld", src, opts)
	if f == nil {
		return HeldID{}, err
	}
	var h HeldID
	if c := &f.checks[0]; c.state == fine {
		h.ID, h.Key = c.text, c.name
		h.Line, h.Col = lines.Position(src, f.offset(c))
	}
	return h, err
}

// DuplicateIDs groups the indices of ids that name one prompt (compared as
// numbers: P04 is P4), each group of two or more in order, the groups in
// order of first appearance. Empty and malformed IDs are passed over.
func DuplicateIDs(ids []string) [][]int {
	groups := map[uint64][]int{}
	var order []uint64
	for i, id := range ids {
		n, ok := idNumber(id)
		if !ok {
			continue
		}
		if groups[n] == nil {
			order = append(order, n)
		}
		groups[n] = append(groups[n], i)
	}
	var dups [][]int
	for _, n := range order {
		if len(groups[n]) > 1 {
			dups = append(dups, groups[n])
		}
	}
	return dups
}

// Create stores body as a new prompt and returns its path. meta holds the
// keys besides the mandatory ones (generator, model, ancestors...); the
// store sets them as Add does, with the time now. Blank lines before the
// body are dropped, as reading would skip them.
func (s *Store) Create(body string, meta map[string]any) (string, error) {
	doc := &promptfmt.Document{Meta: meta}
	body = Canonical(body)
	for body != "" {
		line, rest, _ := strings.Cut(body, "\n")
		if strings.TrimSpace(line) != "" {
			break
		}
		body = rest
	}
	doc.Messages = []promptfmt.Message{promptfmt.NewMessage("user", body)}
	path, _, err := s.Add(doc, time.Now())
	return path, err
}

// Add stores doc, which Write must accept, as a new prompt: converting a
// file into the store. It draws a new ID, writes the file as
// P<n>.prompt, and returns its path and the changes made to mandatory keys
// doc already had (the package documentation's Decision on converting). A document Write refuses spends no ID.
func (s *Store) Add(doc *promptfmt.Document, now time.Time) (path string, changes []promptfmt.Change, err error) {
	out, id, changes, err := s.Issue(doc, now)
	if err != nil {
		return "", nil, err
	}
	path = s.Path(id)
	return path, changes, atomicfile.WriteFile(path, out, 0o644)
}

// Issue is Add without the writing: it returns the prompt file, its new
// ID and the changes, for a caller that puts the file elsewhere (promptfmt
// convert to standard output). The ID is spent all the same, so the store
// never hands it out again.
func (s *Store) Issue(doc *promptfmt.Document, now time.Time) (file []byte, id string, changes []promptfmt.Change, err error) {
	stamped, changes := stamp(doc, "P1", now)
	if err := Write(io.Discard, stamped); err != nil {
		return nil, "", nil, err
	}
	if id, err = s.NextID(); err != nil {
		return nil, "", nil, err
	}
	stamped.Meta[KeyID] = id
	var out bytes.Buffer
	if err := Write(&out, stamped); err != nil {
		return nil, "", nil, err
	}
	return out.Bytes(), id, changes, nil
}

// stamp returns a copy of doc with the mandatory keys a prompt in a store
// has (the package documentation's Decision on converting): prompt-id id,
// created-at kept when doc has a well-formed one and else now, and
// sha1-hash the hash of the body (its one message's text). A prompt-id
// doc had is another store's or another file's and is replaced; the
// seed's id is removed, since beside prompt-id it would name a second ID;
// a malformed created-at and a sha1-hash that is not the body's are
// replaced. Each of these is returned as a change, so a converter can say
// what it did.
func stamp(doc *promptfmt.Document, id string, now time.Time) (*promptfmt.Document, []promptfmt.Change) {
	out := *doc
	out.Meta = make(map[string]any, len(doc.Meta)+3)
	for k, v := range doc.Meta {
		out.Meta[k] = v
	}
	var changes []promptfmt.Change
	change := func(what, done string, args ...any) {
		changes = append(changes, promptfmt.Change{Format: format, Index: -1, What: what, Done: fmt.Sprintf(done, args...)})
	}
	value := func(v any) string {
		if s, ok := v.(string); ok {
			return strconv.Quote(s)
		}
		return fmt.Sprintf("%v", v)
	}
	if v, ok := out.Meta[KeyID]; ok {
		change("a prompt's ID is drawn from the store it is in", "replaced prompt-id %s by the store's new ID", value(v))
	}
	if v, ok := out.Meta[aliasID]; ok {
		delete(out.Meta, aliasID)
		change("a prompt has one ID, its prompt-id", "removed id %s", value(v))
	}
	out.Meta[KeyID] = id
	if v, ok := out.Meta[KeyCreated]; ok {
		if c, _ := v.(string); !timePattern.MatchString(c) || !validTime(c) {
			change("created-at is an ISO-8601 UTC time such as 2022-08-17T14:37:22Z", "replaced created-at %s by the time now", value(v))
			out.Meta[KeyCreated] = Timestamp(now)
		}
	} else {
		out.Meta[KeyCreated] = Timestamp(now)
	}
	var body string
	if len(out.Messages) == 1 {
		body = out.Messages[0].Text()
	}
	sum := Hash(body)
	if v, ok := out.Meta[KeyHash]; ok {
		if h, _ := v.(string); strings.ToLower(h) != sum {
			change("sha1-hash is the hash of the body written", "replaced sha1-hash %s by the body's hash", value(v))
		}
	}
	out.Meta[KeyHash] = sum
	return &out, changes
}

// Timestamp returns t as a created-at value: UTC, to the second.
func Timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }
