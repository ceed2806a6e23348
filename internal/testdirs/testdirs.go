// Package testdirs makes the directories the shell policy's tests decide
// commands in: a fresh workspace and a separate home, as a user has them.
package testdirs

import (
	"os"
	"path/filepath"
	"testing"
)

// New makes a fresh workspace and a separate home under t's temporary
// directory (the policy reads what exists there: directories, the current
// text of a file a command writes).
func New(t testing.TB) (workspace, home string) {
	t.Helper()
	root := t.TempDir()
	workspace, home = filepath.Join(root, "project"), filepath.Join(root, "home")
	for _, d := range []string{workspace, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return workspace, home
}
