package confined

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

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

func TestReadFS(t *testing.T) {
	fsys := fstest.MapFS{
		"prompts/p.txt":   {Data: []byte("p")},
		"images/a.png":    {Data: []byte("image")},
		"prompts/sub":     {Mode: fs.ModeDir},
		"prompts/big.bin": {Data: make([]byte, 10)},
	}
	for _, tc := range []struct{ base, name string }{
		{".", "images/a.png"}, {"prompts", "../images/a.png"}, {"prompts/sub", "../../images/a.png"}, {"", "./images/a.png"},
	} {
		got, err := ReadFS(fsys, tc.base, tc.name, 100)
		require.NoError(t, err, tc)
		require.Equal(t, "image", string(got))
	}
	for _, tc := range []struct{ base, name string }{
		{".", "../images/a.png"}, {"prompts", "../../x"}, {"prompts", "/images/a.png"}, {".", `\images\a.png`}, {".", ""},
	} {
		_, err := ReadFS(fsys, tc.base, tc.name, 100)
		require.ErrorIs(t, err, ErrOutside, tc)
	}
	_, err := ReadFS(fsys, "prompts", "big.bin", 3)
	require.ErrorContains(t, err, "larger than 3 bytes")
	_, err = ReadFS(fsys, ".", "prompts/sub", 100)
	require.ErrorContains(t, err, "not a regular file")
	_, err = ReadFS(fsys, ".", "missing", 100)
	require.ErrorIs(t, err, fs.ErrNotExist)
}

// DirFS refuses a symbolic link out of its directory, which os.DirFS
// follows.
func TestDirFS(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "app")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("inside"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(top, "secret.txt"), []byte("secret"), 0o644))
	require.NoError(t, fstest.TestFS(DirFS(dir), "sub/a.txt"))
	require.NoError(t, os.Symlink(filepath.Join(top, "secret.txt"), filepath.Join(dir, "link.txt")))
	got, err := ReadFS(DirFS(dir), "sub", "a.txt", 100)
	require.NoError(t, err)
	require.Equal(t, "inside", string(got))
	_, err = ReadFS(DirFS(dir), ".", "link.txt", 100)
	require.ErrorIs(t, err, ErrOutside)
	got, err = ReadFS(os.DirFS(dir), ".", "link.txt", 100)
	require.NoError(t, err, "os.DirFS follows the link out")
	require.Equal(t, "secret", string(got))
	_, err = DirFS(dir).Open("../secret.txt")
	require.ErrorIs(t, err, fs.ErrInvalid)
}

// ReadFS resolves beside dir inside fsys and refuses what climbs out of
// fsys; DirFS, unlike os.DirFS, also refuses a link that leads out.
func TestReadFSBeside(t *testing.T) {
	top := t.TempDir()
	dir := filepath.Join(top, "app")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "sub", "a.txt"), []byte("inside"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "top.txt"), []byte("top"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(top, "secret.txt"), []byte("secret"), 0o644))
	require.NoError(t, os.Symlink(filepath.Join(top, "secret.txt"), filepath.Join(dir, "link.txt")))

	for _, fsys := range []fs.FS{DirFS(dir), os.DirFS(dir)} {
		got, err := ReadFS(fsys, "sub", "a.txt", 100)
		require.NoError(t, err)
		require.Equal(t, "inside", string(got))
		got, err = ReadFS(fsys, "sub", "../top.txt", 100)
		require.NoError(t, err, "a .. that stays inside fsys")
		require.Equal(t, "top", string(got))
		for _, name := range []string{"../../secret.txt", "/etc/passwd", filepath.Join(top, "secret.txt"), ""} {
			_, err := ReadFS(fsys, "sub", name, 100)
			require.ErrorIs(t, err, ErrOutside, name)
		}
		_, err = ReadFS(fsys, ".", "top.txt", 2)
		require.ErrorContains(t, err, "larger than 2 bytes")
		_, err = ReadFS(fsys, ".", "sub", 100)
		require.ErrorContains(t, err, "not a regular file")
		_, err = ReadFS(fsys, ".", "missing.txt", 100)
		require.ErrorIs(t, err, fs.ErrNotExist)
	}
	_, err := ReadFS(DirFS(dir), ".", "link.txt", 100)
	require.ErrorIs(t, err, ErrOutside, "Dir keeps links inside")
	got, err := ReadFS(os.DirFS(dir), ".", "link.txt", 100)
	require.NoError(t, err, "os.DirFS follows links out: the caller's choice")
	require.Equal(t, "secret", string(got))
}
