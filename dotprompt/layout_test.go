package dotprompt

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Parse leaves the layout's strings and strips to be recorded when Write
// asks; they are those a recording read makes.
func TestLayoutRecordedLater(t *testing.T) {
	src := []byte("---\nmodel: x\n---\n{{role \"system\"~}}\n  Be brief.  \n{{~role \"user\"}}Hi {{name}}{{media url=\"a.png\"}} there\n")
	doc, err := Parse(src)
	require.NoError(t, err)
	l := doc.Layout.(*layout)
	require.Nil(t, l.set)
	msgs, want, err := messages(src, 17, len(src)-1, true)
	require.NoError(t, err)
	require.Equal(t, len(doc.Messages), len(msgs))
	l.record()
	assert.Equal(t, want.set, l.set)
	assert.Equal(t, want.strip, l.strip)
	assert.NotEmpty(t, l.strip)
}

// roleName's quick answer is the pattern's.
func FuzzRoleName(f *testing.F) {
	for _, s := range []string{`role "user"`, `role 'model'`, `role  "x"`, `role ""`, `role "a"b"`, `role "`, `roles "x"`, "role\t\"x\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, inner string) {
		name, ok := roleName(inner)
		m := roleTag.FindStringSubmatch(inner)
		if ok != (m != nil) || ok && name != m[1]+m[2] {
			t.Fatalf("roleName(%q) = %q, %v; the pattern: %q", inner, name, ok, m)
		}
	})
}
