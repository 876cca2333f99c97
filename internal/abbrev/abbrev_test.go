package abbrev

import "testing"

func TestCut(t *testing.T) {
	for _, tc := range []struct {
		s    string
		max  int
		want string
		cut  bool
	}{
		{"short", 10, "short", false},
		{"exactly", 7, "exactly", false},
		{"abcdef", 3, "abc", true},
		{"aé", 2, "a", true}, // é is two bytes: not split
		{"ééé", 3, "é", true},
		{"é", 0, "", true},
	} {
		got, cut := Cut(tc.s, tc.max)
		if got != tc.want || cut != tc.cut {
			t.Errorf("Cut(%q, %d) = %q, %v; want %q, %v", tc.s, tc.max, got, cut, tc.want, tc.cut)
		}
	}
}

func TestMiddle(t *testing.T) {
	for _, tc := range []struct {
		s    string
		max  int
		want string
	}{
		{"short", 10, "short"},
		{"abcdefghij", 4, "ab... (6 bytes cut) ...ij"},
		{"éaaaaé", 4, "é... (4 bytes cut) ...é"},
		{"aéééa", 4, "a... (6 bytes cut) ...a"},
	} {
		if got := Middle(tc.s, tc.max); got != tc.want {
			t.Errorf("Middle(%q, %d) = %q; want %q", tc.s, tc.max, got, tc.want)
		}
	}
}
