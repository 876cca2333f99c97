package splice

import "testing"

func TestApply(t *testing.T) {
	for _, c := range []struct {
		s     string
		edits []Edit
		want  string
	}{
		{"abc", nil, "abc"},
		{"{{x}}", []Edit{Insert(2, "f ")}, "{{f x}}"},
		{"{{#xs}}a{{/xs}}", []Edit{Insert(3, "s "), {11, 13, "s"}}, "{{#s xs}}a{{/s}}"},
		{"ab", []Edit{Insert(0, "<"), Insert(2, ">")}, "<ab>"},
		{"abcd", []Edit{{1, 3, ""}}, "ad"},
	} {
		if got := Apply(c.s, c.edits); got != c.want {
			t.Errorf("Apply(%q, %v) = %q, want %q", c.s, c.edits, got, c.want)
		}
	}
}
