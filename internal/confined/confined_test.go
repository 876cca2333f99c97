package confined

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestReadFile(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "app")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("inside"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(top, "secret.txt"), []byte("secret"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(top, "secret.txt"), filepath.Join(dir, "link.txt")))
	require.NoError(t, os.Symlink("sub/a.txt", filepath.Join(dir, "inner-link.txt")))

	for _, name := range []string{"sub/a.txt", "./sub/a.txt", "sub/../sub/a.txt", "inner-link.txt"} {
		got, err := ReadFile(dir, name, 100)
		require.NoError(t, err, name)
		require.Equal(t, "inside", string(got))
	}
	for _, name := range []string{"../secret.txt", "sub/../../secret.txt", filepath.Join(top, "secret.txt"), "/etc/passwd", "link.txt", ""} {
		_, err := ReadFile(dir, name, 100)
		require.ErrorIs(t, err, ErrOutside, name)
	}
	_, err := ReadFile(dir, "sub/a.txt", 3)
	require.ErrorContains(t, err, "larger than 3 bytes")
	_, err = ReadFile(dir, "sub", 100)
	require.ErrorContains(t, err, "not a regular file")
	_, err = ReadFile(dir, "missing.txt", 100)
	require.ErrorIs(t, err, os.ErrNotExist)
}
