package policy_test

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/testdirs"
)

// TestBranchForcedOverExisting: a branch forced to another start is a
// maybe (strict mode denies) when the repository has it, nothing when it
// does not (a new branch), and denied in every mode when moved back in
// history; packed refs count as existing.
func TestBranchForcedOverExisting(t *testing.T) {
	repo := testdirs.CommittedRepo(t, map[string]string{"a.txt": "a\n"})
	out, err := exec.Command("git", "-C", repo, "branch", "--show-current").Output()
	require.NoError(t, err)
	cur := strings.TrimSpace(string(out))
	require.NoError(t, exec.Command("git", "-C", repo, "branch", "packed").Run())
	require.NoError(t, exec.Command("git", "-C", repo, "pack-refs", "--all").Run())
	home := t.TempDir()
	strict := settings.Default()
	strict.Mode = settings.Strict
	for cmd, want := range map[string][2]string{
		"git checkout -B " + cur + " origin/" + cur: {"", "git.branch-force"},
		"git switch -C " + cur:                      {"", "git.branch-force"},
		"git branch -f packed HEAD":                 {"", "git.branch-force"},
		"git update-ref refs/heads/packed HEAD":     {"", "git.ref-destroy"},
		"git branch -f " + cur + " HEAD~1":          {"git.branch-force", "git.branch-force"},
		"git checkout -B fix/typo":                  {"", ""},
		"git branch -f feature HEAD":                {"", ""},
		"git switch -C brand-new origin/main":       {"", ""},
		"git update-ref refs/heads/tmp HEAD":        {"", ""},
	} {
		assert.Equal(t, want[0], decision(repo, home, settings.Default(), cmd), "standard: %s", cmd)
		assert.Equal(t, want[1], decision(repo, home, strict, cmd), "strict: %s", cmd)
	}
}
