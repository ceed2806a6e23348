// Package testdirs makes the directories tests decide commands in: a fresh
// workspace and a separate home, as a user has them, and a committed git
// repository.
package testdirs

import (
	"os"
	"os/exec"
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

// CommittedRepo makes a git repository in a fresh directory holding files
// (name → content), all committed: the clean work tree the provenance
// tests start from. It skips t when git is not installed.
func CommittedRepo(t testing.TB, files map[string]string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-qm", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	return dir
}
