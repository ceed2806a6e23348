package provenance_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

func gitRepo(t *testing.T) string {
	return testdirs.CommittedRepo(t, map[string]string{"tracked.txt": "committed\n", ".gitignore": "*.log\n"})
}

func TestTouchAndLeft(t *testing.T) {
	ws := gitRepo(t)
	store := filepath.Join(t.TempDir(), "provenance")
	tracked, fresh, ignored := filepath.Join(ws, "tracked.txt"), filepath.Join(ws, "new.txt"), filepath.Join(ws, "build.log")
	require.NoError(t, os.WriteFile(ignored, []byte("log\n"), 0o644))
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{tracked, fresh, ignored, filepath.Join(ws, ".git", "config"), "/elsewhere/x"}))

	rec, ok := provenance.Load(store, "s")
	require.True(t, ok)
	assert.Len(t, rec.Files, 3, "not .git, not outside the workspace")
	assert.Equal(t, provenance.Entry{Clean: true, Pending: true, Call: "call"}, *rec.Files[tracked])
	assert.Equal(t, provenance.Entry{Created: true, Pending: true, Call: "call"}, *rec.Files[fresh])
	assert.Equal(t, provenance.Entry{Pending: true, Call: "call"}, *rec.Files[ignored], "ignored: not git's to restore")

	secret := "the agent's words\n"
	require.NoError(t, os.WriteFile(tracked, []byte(secret), 0o644))
	require.NoError(t, provenance.Left(store, "s", "call"))
	rec, _ = provenance.Load(store, "s")
	assert.Equal(t, provenance.Hash(tracked), rec.Files[tracked].Left)
	assert.False(t, rec.Files[tracked].Pending)
	assert.Equal(t, provenance.Absent, rec.Files[fresh].Left, "the write did not happen")

	raw, err := os.ReadFile(filepath.Join(store, onlyRecord(t, store)))
	require.NoError(t, err)
	assert.NotContains(t, string(raw), "agent's words", "no content stored")

	// Someone else writes, then the agent touches again: foreign.
	require.NoError(t, os.WriteFile(tracked, []byte("the user's words\n"), 0o644))
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{tracked}))
	rec, _ = provenance.Load(store, "s")
	assert.True(t, rec.Files[tracked].Foreign)

	// Back to what git has: a new start.
	require.NoError(t, os.WriteFile(tracked, []byte("committed\n"), 0o644))
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{tracked}))
	rec, _ = provenance.Load(store, "s")
	assert.Equal(t, provenance.Entry{Clean: true, Pending: true, Call: "call"}, *rec.Files[tracked])
}

func onlyRecord(t *testing.T, store string) string {
	t.Helper()
	entries, err := os.ReadDir(store)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), ".") {
			names = append(names, e.Name())
		}
	}
	require.Len(t, names, 1)
	return names[0]
}

func TestTouchOutsideGit(t *testing.T) {
	ws := t.TempDir()
	store := filepath.Join(t.TempDir(), "provenance")
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{filepath.Join(ws, "a.txt")}))
	_, ok := provenance.Load(store, "s")
	assert.False(t, ok)
	assert.NoDirExists(t, store, "nothing made when there is nothing to record")
	assert.NoError(t, provenance.Left(store, "s", "call"))
	assert.NoDirExists(t, store)
}

func TestTouchSymlinkedDirectory(t *testing.T) {
	ws := gitRepo(t)
	store := filepath.Join(t.TempDir(), "provenance")
	require.NoError(t, os.Symlink(t.TempDir(), filepath.Join(ws, "link")))
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{filepath.Join(ws, "link", "a.txt")}))
	_, ok := provenance.Load(store, "s")
	assert.False(t, ok)
}

func TestBounds(t *testing.T) {
	ws := gitRepo(t)
	store := filepath.Join(t.TempDir(), "provenance")
	var paths []string
	for i := range provenance.MaxFiles + 10 {
		paths = append(paths, filepath.Join(ws, fmt.Sprintf("f%d.txt", i)))
	}
	require.NoError(t, provenance.Touch(store, "s", ws, "call", paths))
	rec, ok := provenance.Load(store, "s")
	require.True(t, ok)
	assert.Len(t, rec.Files, provenance.MaxFiles)

	for i := range provenance.MaxSessions + 5 {
		require.NoError(t, provenance.Touch(store, fmt.Sprintf("session-%d", i), ws, "call", paths[:1]))
	}
	entries, err := os.ReadDir(store)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(entries), provenance.MaxSessions+1)
	_, ok = provenance.Load(store, fmt.Sprintf("session-%d", provenance.MaxSessions+4))
	assert.True(t, ok, "the newest session is kept")
	_, ok = provenance.Load(store, "s")
	assert.False(t, ok, "the oldest session is pruned")
}

func TestDamagedRecord(t *testing.T) {
	ws := gitRepo(t)
	store := filepath.Join(t.TempDir(), "provenance")
	tracked := filepath.Join(ws, "tracked.txt")
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{tracked}))
	name := onlyRecord(t, store)
	for _, garbage := range []string{`{"v":1,"files":{"tracked.txt":{}}}`, `{"v":2,"files":{}}`, `{"v":1`, "\x00\x01", `{"v":1,"files":{"/x":null}}`} {
		require.NoError(t, os.WriteFile(filepath.Join(store, name), []byte(garbage), 0o600))
		_, ok := provenance.Load(store, "s")
		assert.False(t, ok, garbage)
	}
	// A damaged record is started afresh: the file is judged at this touch.
	require.NoError(t, os.WriteFile(tracked, []byte("changed before\n"), 0o644))
	require.NoError(t, provenance.Touch(store, "s", ws, "call", []string{tracked}))
	rec, ok := provenance.Load(store, "s")
	require.True(t, ok)
	assert.False(t, rec.Files[tracked].Clean)
}

func TestParseStatus(t *testing.T) {
	out := []byte(" M a.txt\x00R  new name.txt\x00old.txt\x00?? dir/u.txt\x00A  b\x00")
	assert.Equal(t, []provenance.StatusEntry{
		{X: ' ', Y: 'M', Path: "a.txt"}, {X: 'R', Y: ' ', Path: "new name.txt"}, {X: 'R', Y: ' ', Path: "old.txt"},
		{X: '?', Y: '?', Path: "dir/u.txt"}, {X: 'A', Y: ' ', Path: "b"},
	}, provenance.ParseStatus(out))
}

func TestHash(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	assert.Equal(t, provenance.Absent, provenance.Hash(p))
	require.NoError(t, os.WriteFile(p, []byte("x"), 0o644))
	assert.Equal(t, provenance.HashBytes([]byte("x")), provenance.Hash(p))
	assert.NotEqual(t, provenance.HashBytes([]byte("y")), provenance.Hash(p))
	require.NoError(t, os.Symlink(p, filepath.Join(dir, "l")))
	assert.Empty(t, provenance.Hash(filepath.Join(dir, "l")), "a symbolic link has no hash")
	assert.Empty(t, provenance.Hash(dir), "nor a directory")
}
