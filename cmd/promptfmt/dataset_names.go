package main

import (
	"fmt"
	"hash/maphash"
	"path/filepath"
	"strings"

	"github.com/promptfmt/promptfmt/internal/abbrev"
)

// The files a dataset is split into, and the custom_ids a directory
// gathered into a batch gets back from them.
//
// Decision: a record is written to the file named by its custom_id,
// escaped, or else (a fine-tuning record has none) by its line,
// "line-000042". The escape keeps ASCII letters, digits, "-", "_" and "."
// (but a leading "."), and writes every other byte as %XX, as a URL does,
// so that a name is safe on every system (no "/", "\", ":", control
// characters, nothing hidden, no name that is "." or "..") and reads back
// as the custom_id it came from when the directory is gathered again.
// Windows' reserved device names (CON, NUL, COM1...) get their first
// letter escaped.

// lineName is the stem of the file of a record without a custom_id: its
// line, at least six digits so that names sort by line up to line 999,999.
func lineName(line int) string { return fmt.Sprintf("line-%06d", line) }

// maxName is the longest file name most file systems take, in bytes.
const maxName = 255

// escapeName makes a custom_id a file name's stem, reversibly.
func escapeName(id string) string {
	var b strings.Builder
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '.' && i > 0:
			b.WriteByte(c)
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	s := b.String()
	if reservedName(s) {
		s = fmt.Sprintf("%%%02X", s[0]) + s[1:]
	}
	return s
}

// reservedName reports whether stem is one of Windows' device names (or
// one of them followed by a dot), which no file may be called there.
func reservedName(stem string) bool {
	base, _, _ := strings.Cut(strings.ToUpper(stem), ".")
	switch base {
	case "CON", "PRN", "AUX", "NUL":
		return true
	}
	return len(base) == 4 && (strings.HasPrefix(base, "COM") || strings.HasPrefix(base, "LPT")) && base[3] >= '1' && base[3] <= '9'
}

// unescapeName is escapeName's inverse: %XX is the byte XX (either case);
// a % not followed by two hex digits is itself.
func unescapeName(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]) {
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// idOf is the custom_id of a file gathered into a batch: its path under
// the directory given (its base name when given itself), extension
// dropped, unescaped, with "/" between directories.
func idOf(file, dir string) string {
	rel := filepath.Base(file)
	if dir != "" {
		if r, err := filepath.Rel(dir, file); err == nil {
			rel = r
		}
	}
	rel = filepath.ToSlash(strings.TrimSuffix(rel, filepath.Ext(rel)))
	return unescapeName(rel)
}

// names hands out the files of a split and refuses a name given twice.
// Decision: two names that differ only in case are the same file on the
// file systems of macOS and Windows, so they collide everywhere: a split
// writes the same files on every system. Only names from custom_ids are
// remembered (a fine-tuning file's lines are unique), by their hash.
type names struct {
	ext  string
	seen seenSet // lower-cased names, with the line that took each
}

// take returns the file name of the record of line line with custom_id
// id, or why it cannot have one.
func (n *names) take(id string, line int) (string, error) {
	if id == "" {
		return lineName(line) + n.ext, nil
	}
	name := escapeName(id) + n.ext
	if len(name) > maxName {
		return "", fmt.Errorf("the custom_id %q is too long for a file name (%d bytes escaped, most systems take %d)", abbrevID(id), len(name), maxName)
	}
	if prev, dup := n.seen.add(strings.ToLower(name), uint64(line)); dup {
		return "", fmt.Errorf("the custom_id %q would be written to %s, as the request of line %d was (custom_ids are unique in a batch; names that differ only in case are one file on some systems)", abbrevID(id), name, prev)
	}
	return name, nil
}

// seenSet remembers strings, each with a value, by a 128-bit hash of it
// (hash/maphash under two random seeds): 16 bytes a string however long,
// so that the names and custom_ids of millions of records take tens of
// megabytes, not hundreds. Two strings share a hash with a probability of
// about n²/2¹²⁹ (1e-27 for a million): never in practice, and the seeds
// are drawn at random, so no input can aim at it.
type seenSet struct {
	seeds [2]maphash.Seed
	m     map[[2]uint64]uint64
}

// add records key with val, unless it was added before: then it returns
// the earlier value, and dup.
func (s *seenSet) add(key string, val uint64) (prev uint64, dup bool) {
	if s.m == nil {
		s.seeds = [2]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed()}
		s.m = map[[2]uint64]uint64{}
	}
	h := [2]uint64{maphash.String(s.seeds[0], key), maphash.String(s.seeds[1], key)}
	if prev, dup = s.m[h]; dup {
		return prev, true
	}
	s.m[h] = val
	return 0, false
}

// abbrevID cuts a custom_id for a message.
func abbrevID(id string) string {
	if cut, ok := abbrev.Cut(id, 60); ok {
		return cut + "..."
	}
	return id
}
