package lines

import (
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
	if got := ToLF([]byte("a\r\nb\rc\n\r")); got != "a\nb\nc\n\n" {
		t.Errorf("ToLF = %q", got)
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
