package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The agent may discard its own edits (issue 29): the guard records, per
// session, whether a file was clean when the agent first touched it and
// what the agent left, and git checkout <file> passes only when both say
// the changes are the agent's.

const provenanceFile = "recipe.txt"

// gitWorkspace makes the session's workspace a git repository with one
// committed file and returns that file's committed content.
func gitWorkspace(t *testing.T, s *Session) string {
	t.Helper()
	committed := "flour\nwater\nsalt\n"
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, provenanceFile), []byte(committed), 0o644))
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"-c", "user.name=e2e", "-c", "user.email=e2e@example.invalid", "commit", "-qm", "start"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir = s.Workspace
		out, err := cmd.CombinedOutput()
		require.NoError(t, err, "git %v: %s", args, out)
	}
	return committed
}

func readWorkspace(t *testing.T, s *Session, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.Workspace, name))
	require.NoError(t, err)
	return string(data)
}

func onlyShellCall(t *testing.T, r *Result) ToolCall { return onlyCall(t, r, "run_shell_command") }

func TestAgentDiscardsItsOwnEdit(t *testing.T) {
	s := session(t)
	committed := gitWorkspace(t, s)
	r := run(t, s,
		Replace("I'll add yeast.", provenanceFile, "water\n", "water\nyeast\n"),
		Shell("That was wrong; I'll undo my edit.", "git checkout "+provenanceFile),
		Say("Undone."),
	)
	assertRan(t, r, onlyCall(t, r, "replace"))
	assertRan(t, r, onlyShellCall(t, r))
	assert.Equal(t, committed, readWorkspace(t, s, provenanceFile), "the agent's edit is discarded")
}

func TestAgentCannotDiscardUserEditBeforeIt(t *testing.T) {
	s := session(t)
	gitWorkspace(t, s)
	user := "flour\nwater\nsalt\nthe user's sourdough starter\n"
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, provenanceFile), []byte(user), 0o644))
	r := run(t, s,
		Replace("I'll add yeast.", provenanceFile, "water\n", "water\nyeast\n"),
		Shell("I'll undo my edit.", "git checkout "+provenanceFile),
		Say("Stopped."),
	)
	assertRan(t, r, onlyCall(t, r, "replace"))
	call := onlyShellCall(t, r)
	assertBlocked(t, r, call, "git.checkout-discard")
	assertContains(t, call.Reason(), provenanceFile+" held uncommitted changes before the agent first touched it")
	assertContains(t, readWorkspace(t, s, provenanceFile), "the user's sourdough starter")
}

func TestAgentCannotDiscardUserEditAfterIt(t *testing.T) {
	s := session(t)
	apiKeyAuth(t, s)
	gitWorkspace(t, s)
	api, err := StartFakeAPI(
		Replace("I'll add yeast.", provenanceFile, "water\n", "water\nyeast\n"),
		Shell("I'll undo my edit.", "git checkout "+provenanceFile),
		Say("Stopped."),
	)
	require.NoError(t, err)
	defer api.Close()
	// Between the agent's edit and its checkout, the user edits the file:
	// when the request carrying the replace's result arrives.
	edited := false
	api.OnCall(func(body []byte) {
		if !edited && bytes.Contains(body, []byte(`"functionResponse"`)) {
			edited = true
			f, err := os.OpenFile(filepath.Join(s.Workspace, provenanceFile), os.O_APPEND|os.O_WRONLY, 0)
			if err == nil {
				f.WriteString("the user's note\n")
				f.Close()
			}
		}
	})
	r := runScript(t, s, Script{API: api})
	assertRan(t, r, onlyCall(t, r, "replace"))
	call := onlyShellCall(t, r)
	assertBlocked(t, r, call, "git.checkout-discard")
	assertContains(t, call.Reason(), provenanceFile+" was changed by someone else after the agent last wrote it")
	got := readWorkspace(t, s, provenanceFile)
	assertContains(t, got, "yeast")
	assertContains(t, got, "the user's note")
}
