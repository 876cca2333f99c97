package lines

import (
	"slices"
	"strings"
	"testing"
)

func split(src string) []string {
	var out []string
	s := NewScanner([]byte(src))
	for {
		start, end, _, ok := s.Next()
		if !ok {
			return out
		}
		out = append(out, src[start:end])
	}
}

func TestScanner(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"", nil},
		{"a", []string{"a"}},
		{"a\n", []string{"a"}},
		{"a\n\n", []string{"a", ""}},
		{"a\r\nb\rc\n", []string{"a", "b", "c"}},
		{"\r\r\n\n", []string{"", "", ""}},
		{"a\rb", []string{"a", "b"}},
		{"x\u2028y\vz\fw", []string{"x\u2028y\vz\fw"}},
	} {
		got := split(tc.src)
		if strings.Join(got, "|") != strings.Join(tc.want, "|") || len(got) != len(tc.want) {
			t.Errorf("split(%q) = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestToLF(t *testing.T) {
	if got := ToLF("a\r\nb\rc\n\r"); got != "a\nb\nc\n\n" {
		t.Errorf("ToLF = %q", got)
	}
	// Every string of up to 7 bytes of CR, LF and x: as strings.Replace
	// and strings.Count give it (ToLF, CRLFToLF and CountCR).
	var each func(s string)
	each = func(s string) {
		want := strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
		if got := ToLF(s); got != want {
			t.Fatalf("ToLF(%q) = %q, want %q", s, got, want)
		}
		if got, want := CRLFToLF(s), strings.ReplaceAll(s, "\r\n", "\n"); got != want {
			t.Fatalf("CRLFToLF(%q) = %q, want %q", s, got, want)
		}
		if cr, crlf := CountCR(s); cr != strings.Count(s, "\r") || crlf != strings.Count(s, "\r\n") {
			t.Fatalf("CountCR(%q) = %d, %d", s, cr, crlf)
		}
		if len(s) < 7 {
			for _, c := range []string{"\r", "\n", "x"} {
				each(s + c)
			}
		}
	}
	each("")
}

func BenchmarkToLF(b *testing.B) {
	s := strings.Repeat("a line of text of some sixty bytes, as prose has them\r\n", 20000)
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		ToLF(s)
	}
}

// A CR only at the very end must not make the scan quadratic: every line
// start would otherwise search to the end for it.
func BenchmarkScannerLateCR(b *testing.B) {
	src := []byte(strings.Repeat("line of text\n", 100000) + "\r")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		s := NewScanner(src)
		for {
			if _, _, _, ok := s.Next(); !ok {
				break
			}
		}
	}
}

func TestEnding(t *testing.T) {
	for _, src := range []string{
		"a:\nb\n c : \t\nd:x\n::\n: :\n\n:",
		"a:\r\nb\r c : \t\nd:x\r::\n: :\r\n\r\n:",
		"no colon at all\n",
		"x:",
		":\n:\n",
	} {
		var got []string
		Ending([]byte(src), ':', func(n, s, e, next int) bool {
			got = append(got, strings.Repeat("+", n)+src[s:e])
			return true
		})
		// The reference: every line, tested one by one.
		var want []string
		for n, l := range split(src) {
			if t := strings.TrimRight(l, " \t\f\v"); strings.HasSuffix(t, ":") {
				want = append(want, strings.Repeat("+", n+1)+l)
			}
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("Ending(%q) = %q, want %q", src, got, want)
		}
	}
}

// A single huge line of colons and blanks must stay linear.
func BenchmarkEndingColons(b *testing.B) {
	src := []byte(strings.Repeat(": ", 1<<20) + "x\n")
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		Ending(src, ':', func(int, int, int, int) bool { return true })
	}
}

func TestPosition(t *testing.T) {
	src := []byte("ab\ncd\r\nef\rgh")
	for _, tc := range []struct{ off, line, col int }{
		{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {6, 2, 4}, {7, 3, 1}, {10, 4, 1}, {12, 4, 3}, {99, 4, 3},
	} {
		line, col := Position(src, tc.off)
		if line != tc.line || col != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, line, col, tc.line, tc.col)
		}
	}
}

// Start is the inverse of Position at column 1, for every line ending.
func TestStart(t *testing.T) {
	src := []byte("a\nbb\r\nc\rd\n\ne")
	for off := 0; off <= len(src); off++ {
		line, col := Position(src, off)
		if col == 1 && Start(src, line) != off {
			t.Errorf("Start(%d) = %d, want %d", line, Start(src, line), off)
		}
	}
	if Start(src, 99) != len(src) || Start(src, 0) != 0 {
		t.Error("Start past the lines")
	}
}

// Counter gives what Position gives, offsets in any order.
func TestCounter(t *testing.T) {
	for _, src := range []string{"ab\ncd\r\nef\rgh", "a\n\nb\nc", "\r\n\r\r\n", "", "no line break"} {
		c := NewCounter([]byte(src))
		offs := []int{0, 1, 2, 3, 5, 6, 7, 7, 10, 12, 99, 4, 6, -1, 8}
		for _, off := range offs {
			l1, c1 := Position([]byte(src), off)
			l2, c2 := c.Position(off)
			if l1 != l2 || c1 != c2 {
				t.Errorf("%q at %d: Counter %d:%d, Position %d:%d", src, off, l2, c2, l1, c1)
			}
		}
	}
}

// Counter gives what Position gives on every string of up to 7 bytes of
// CR, LF and x, at increasing offsets (its fast path) and after one
// going back.
func TestCounterProperty(t *testing.T) {
	var each func(src string)
	each = func(src string) {
		for step := 1; step <= 3; step++ {
			c := NewCounter([]byte(src))
			for off := 0; off <= len(src)+1; off += step {
				l1, c1 := Position([]byte(src), off)
				if l2, c2 := c.Position(off); l1 != l2 || c1 != c2 {
					t.Fatalf("%q at %d (step %d): Counter %d:%d, Position %d:%d", src, off, step, l2, c2, l1, c1)
				}
			}
		}
		if len(src) < 7 {
			for _, b := range []string{"\r", "\n", "x"} {
				each(src + b)
			}
		}
	}
	each("")
}

func TestLineLF(t *testing.T) {
	for _, tc := range []struct {
		s    string
		want []string
	}{{"", nil}, {"a", []string{"a"}}, {"a\n", []string{"a"}}, {"a\n\nb\r", []string{"a", "", "b\r"}}, {"\n", []string{""}}} {
		var got, gotBytes []string
		for off, end, next := 0, 0, 0; off < len(tc.s); off = next {
			end, next = LineLF(tc.s, off)
			got = append(got, tc.s[off:end])
			e2, n2 := LineLFBytes([]byte(tc.s), off)
			gotBytes = append(gotBytes, tc.s[off:e2])
			if n2 != next {
				t.Fatalf("%q at %d: LineLFBytes next %d, LineLF %d", tc.s, off, n2, next)
			}
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(gotBytes, tc.want) {
			t.Errorf("%q: lines %q and %q, want %q", tc.s, got, gotBytes, tc.want)
		}
	}
}
