package e2e

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// codexSetup is the pinned codex program and gemini-guard's programs,
// installed and built once per test binary.
var codexSetup = sync.OnceValues(func() ([2]string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	codex, err := EnsureCodex(ctx)
	if err != nil {
		return [2]string{}, errCodexUnavailable{err}
	}
	root, err := bundle.FindRoot(".")
	if err != nil {
		return [2]string{}, err
	}
	bin, err := StageCodexBin(ctx, root, filepath.Join(testDir, "codex"))
	return [2]string{codex, bin}, err
})

// errCodexUnavailable says the pinned Codex could not be installed (no
// node or npm, or no registry): the Codex tests are skipped, saying so.
type errCodexUnavailable struct{ err error }

func (e errCodexUnavailable) Error() string { return e.err.Error() }

// codexSession is a fresh Codex user with gemini-guard installed by
// `gemini-guard codex install`, and a fake model.
func codexSession(t *testing.T) *CodexSession {
	t.Helper()
	return codexSessionWith(t, "install")
}

// codexSessionWith is codexSession with `gemini-guard codex <install…>`.
func codexSessionWith(t *testing.T, install ...string) *CodexSession {
	t.Helper()
	setup, err := codexSetup()
	var unavailable errCodexUnavailable
	if errors.As(err, &unavailable) {
		t.Skipf("Codex CLI %s could not be installed with npm (no node/npm or no network): %v", CodexVersion, err)
	}
	require.NoError(t, err)
	s, err := NewCodexSession(setup[0], setup[1], t.TempDir())
	require.NoError(t, err)
	t.Cleanup(s.Close)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := s.Guard(ctx, append([]string{"codex"}, install...)...)
	require.NoError(t, err, out)
	return s
}

func runCodex(t *testing.T, s *CodexSession, script ...CodexStep) *CodexResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	r, err := s.Run(ctx, script...)
	require.NoError(t, err)
	require.Equal(t, 0, r.ExitCode, "codex exited with %d; stderr:\n%s", r.ExitCode, scrub(r.Stderr))
	return r
}

// codexBlocked asserts that the model was told call id was blocked by
// gemini-guard with rule, and returns the reason (before Codex's
// ". Command: …", which repeats the model's own call).
func codexBlocked(t *testing.T, r *CodexResult, id, rule string) string {
	t.Helper()
	out, ok := r.Outputs()[id]
	require.True(t, ok, "the model got no result for %s; requests:\n%s\nstderr:\n%s", id, scrub(r.Sent()), scrub(r.Stderr))
	require.True(t, strings.HasPrefix(out, "Command blocked by PreToolUse hook: gemini-guard blocked"), "%s was not blocked: %s", id, scrub(out))
	assert.Contains(t, out, rule)
	reason, _, _ := strings.Cut(strings.TrimPrefix(out, "Command blocked by PreToolUse hook: "), ". Command: ")
	return reason
}

func TestCodexGuardsToolCalls(t *testing.T) {
	s := codexSession(t)
	tok := GitHubToken(3901)
	ssh := filepath.Join(s.Home, ".ssh")
	require.NoError(t, os.MkdirAll(ssh, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(ssh, "id_ed25519"), []byte("stand-in\n"), 0o600))
	hooksBefore, err := os.ReadFile(filepath.Join(s.CodexHome, "hooks.json"))
	require.NoError(t, err)
	configBefore, err := os.ReadFile(filepath.Join(s.CodexHome, "config.toml"))
	require.NoError(t, err)

	r := runCodex(t, s,
		CodexStep{ID: "call_rm", Shell: "rm -rf ~/.ssh"},
		CodexStep{ID: "call_tok", Patch: "*** Begin Patch\n*** Add File: settings.py\n+GITHUB_TOKEN = \"" + tok + "\"\n*** End Patch\n"},
		CodexStep{ID: "call_ok_shell", Shell: "echo hello > ok.txt"},
		CodexStep{ID: "call_ok_patch", Patch: "*** Begin Patch\n*** Add File: notes.md\n+# Notes\n*** End Patch\n"},
		CodexStep{ID: "call_hooks", Patch: "*** Begin Patch\n*** Add File: " + filepath.Join(s.CodexHome, "hooks.json") + "\n+{}\n*** End Patch\n"},
		CodexStep{ID: "call_config", Shell: "echo '[features]' >> ~/.codex/config.toml"},
		CodexStep{ID: "call_del", Patch: "*** Begin Patch\n*** Delete File: " + filepath.Join(s.CodexHome, "config.toml") + "\n*** End Patch\n"},
		CodexStep{ID: "call_bash", Shell: "bash"},
		CodexStep{ID: "call_heredoc", Shell: "apply_patch <<'EOF'\n*** Begin Patch\n*** Add File: " + filepath.Join(s.CodexHome, "hooks.json") + "\n+{}\n*** End Patch\nEOF\n"},
	)

	// A destructive command: denied, and it did not run.
	codexBlocked(t, r, "call_rm", "~/.ssh")
	assert.FileExists(t, filepath.Join(ssh, "id_ed25519"))

	// A token written with apply_patch: denied, the file not written, and
	// the reason the model reads names the rule, not the token.
	reason := codexBlocked(t, r, "call_tok", "github-pat")
	assert.NotContains(t, reason, tok)
	assert.NoFileExists(t, filepath.Join(s.Work, "settings.py"))

	// Ordinary work runs.
	got, err := os.ReadFile(filepath.Join(s.Work, "ok.txt"))
	require.NoError(t, err, "the ordinary shell call did not run:\n%s", scrub(r.Sent()))
	assert.Equal(t, "hello\n", string(got))
	got, err = os.ReadFile(filepath.Join(s.Work, "notes.md"))
	require.NoError(t, err, "the ordinary patch did not run:\n%s", scrub(r.Sent()))
	assert.Equal(t, "# Notes\n", string(got))
	assert.NotContains(t, r.Outputs()["call_ok_shell"], "blocked")

	// Codex's own configuration, which holds the hooks and their trust.
	codexBlocked(t, r, "call_hooks", "guard.protected-config")
	codexBlocked(t, r, "call_config", "Codex CLI's configuration")
	codexBlocked(t, r, "call_del", "Codex CLI's configuration")
	codexBlocked(t, r, "call_heredoc", "Codex CLI's configuration")

	// An interactive shell: what write_stdin types into it reaches no hook.
	codexBlocked(t, r, "call_bash", "codex.stdin-commands")
	hooksAfter, _ := os.ReadFile(filepath.Join(s.CodexHome, "hooks.json"))
	assert.Equal(t, string(hooksBefore), string(hooksAfter))
	configAfter, _ := os.ReadFile(filepath.Join(s.CodexHome, "config.toml"))
	assert.Equal(t, string(configBefore), string(configAfter))

	// The session-start hook told the model what holds.
	assert.Contains(t, r.Requests[0], "gemini-guard is active in this Codex CLI session")

	// Nothing reached a real server: every request came to the fake.
	assert.Len(t, r.Requests, 10, "one request per step and the closing one")
}

func TestCodexWithholdsSecretsInToolOutput(t *testing.T) {
	s := codexSession(t)
	tok := GitHubToken(3902)
	require.NoError(t, os.WriteFile(filepath.Join(s.Work, "notes.txt"), []byte("deploy with GITHUB_TOKEN="+tok+"\nthen tag\n"), 0o644))

	r := runCodex(t, s, CodexStep{ID: "call_cat", Shell: "cat notes.txt"})

	out := r.Outputs()["call_cat"]
	assert.Contains(t, out, "gemini-guard redacted", "the model got: %s", scrub(out))
	assert.Contains(t, out, "then tag", "the rest of the output is kept")
	assert.NotContains(t, r.Sent(), tok, "the model was never sent the secret")
}

func TestCodexStatusSaysWhenTrustIsLost(t *testing.T) {
	s := codexSession(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := s.Guard(ctx, "codex", "status")
	require.NoError(t, err, out)

	// Edit a hook by hand: Codex stops running it without a word, and
	// status says so.
	path := filepath.Join(s.CodexHome, "hooks.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	edited := strings.Replace(string(data), `"timeout": 10`, `"timeout": 11`, 1)
	require.NotEqual(t, string(data), edited)
	require.NoError(t, os.WriteFile(path, []byte(edited), 0o644))
	out, err = s.Guard(ctx, "codex", "status")
	require.Error(t, err)
	assert.Contains(t, out, "lost its trust")

	r := runCodex(t, s, CodexStep{ID: "call_rm", Shell: "rm -rf ~/.ssh-standin"})
	assert.NotContains(t, r.Outputs()["call_rm"], "gemini-guard blocked", "an edited hook does not run (this is the trap status reports)")

	out, err = s.Guard(ctx, "codex", "install")
	require.NoError(t, err, out)
	r = runCodex(t, s, CodexStep{ID: "call_rm", Shell: "rm -rf ~/.ssh-standin"})
	codexBlocked(t, r, "call_rm", "fs.rm-home")
}

// A project's .codex/hooks.json, trusted in the user's config.toml, runs
// once the project itself is trusted in Codex, and not before.
func TestCodexProjectInstall(t *testing.T) {
	s := codexSessionWith(t, "install", "--project")
	_, err := os.Stat(filepath.Join(s.CodexHome, "hooks.json"))
	require.ErrorIs(t, err, os.ErrNotExist, "nothing registered for the user")
	r := runCodex(t, s, CodexStep{ID: "call_rm", Shell: "rm -rf ~/.ssh-standin"})
	assert.NotContains(t, r.Outputs()["call_rm"], "gemini-guard blocked", "an untrusted project's hooks are not loaded")

	config := filepath.Join(s.CodexHome, "config.toml")
	f, err := os.OpenFile(config, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("\n[projects.\"" + s.Work + "\"]\ntrust_level = \"trusted\"\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := s.Guard(ctx, "codex", "status", "--project")
	require.NoError(t, err, out)
	assert.Contains(t, out, "is trusted in Codex")
	r = runCodex(t, s, CodexStep{ID: "call_rm", Shell: "rm -rf ~/.ssh-standin"})
	codexBlocked(t, r, "call_rm", "fs.rm-home")
}
