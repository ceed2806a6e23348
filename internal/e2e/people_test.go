package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/hostcli"
)

// gemini runs the CLI with args in the session, outside a model run.
func gemini(t *testing.T, s *Session, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, s.Gemini, args...)
	cmd.Dir = s.Workspace
	// Older Gemini CLIs ask for an auth method even to list things.
	cmd.Env = append(s.env(), "GEMINI_API_KEY=dummy")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	require.NoError(t, cmd.Run(), out.String())
	return out.String()
}

// silentList reports whether Gemini CLI v prints nothing for `gemini
// <what> list` (exit 0) when not on a terminal: its handler writes through
// debugLogger.log, which is not stdout. Measured: `skills list` on 0.37.2
// (0.36.0 and 0.38.2 print it), `extensions list` on 0.37.2, 0.38.2,
// 0.39.1 and 0.40.1 (0.36.0 and 0.41.2 print it).
func silentList(v, what string) bool {
	until := map[string]string{"skills": "0.38.0", "extensions": "0.41.0"}[what]
	return !versionBefore(v, "0.37.0") && versionBefore(v, until)
}

// The context file and the skill are what Gemini CLI lists for the
// installed extension.
func TestContextAndSkillsAreLoaded(t *testing.T) {
	s := session(t)
	v := CLIVersionUnderTest()
	if silentList(v, "skills") {
		t.Skipf("Gemini CLI %s's `skills list` and `extensions list` print nothing when not on a terminal (measured)", v)
	}
	skills := gemini(t, s, "skills", "list")
	assert.Contains(t, skills, "handling-secrets [Enabled]")
	assert.Contains(t, skills, filepath.Join(s.ExtensionDir(), "skills", "handling-secrets", "SKILL.md"))

	if silentList(v, "extensions") {
		t.Skipf("Gemini CLI %s's `extensions list` prints nothing when not on a terminal (measured)", v)
	}
	exts := gemini(t, s, "extensions", "list")
	assert.Contains(t, exts, filepath.Join(s.ExtensionDir(), "GEMINI.md"))
	assert.Contains(t, exts, "handling-secrets: How to use API keys")
}

// The session start tells the user about warn mode, and about a workspace
// project file that tried to loosen the guard.
func TestSessionStartWarnings(t *testing.T) {
	t.Run("warn mode", func(t *testing.T) {
		s := session(t)
		require.NoError(t, s.Configure(map[string]string{"GEMINI_GUARD_MODE": "warn"}))
		r := run(t, s, Say("hello"))
		assert.Contains(t, strings.Join(r.HookMessages(), "\n"), "gemini-guard is in warn mode", r.Stderr)
	})
	t.Run("project file that loosens", func(t *testing.T) {
		s := session(t)
		require.NoError(t, os.MkdirAll(filepath.Join(s.Workspace, ".gemini"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, ".gemini", "gemini-guard.toml"), []byte("mode = \"warn\"\nprotected_paths = [\"data\"]\n"), 0o644))
		r := run(t, s, Say("hello"))
		msgs := strings.Join(r.HookMessages(), "\n")
		assert.Contains(t, msgs, `mode = "warn" ignored`, r.Stderr)
		assert.NotContains(t, msgs, "gemini-guard is in warn mode")
	})
	t.Run("a .env key that changes how the hooks run", func(t *testing.T) {
		// Gemini CLI loads the workspace's .env into its environment and the
		// hooks'; session start names the key, never its value. A harmless
		// one: a library directory that does not exist.
		s := session(t)
		require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, ".env"), []byte("PORT=3000\nLD_LIBRARY_PATH=/nonexistent-e2e-dir\n"), 0o644))
		r := run(t, s, Say("hello"))
		msgs := strings.Join(r.HookMessages(), "\n")
		assert.Contains(t, msgs, "LD_LIBRARY_PATH is set in the environment Gemini CLI gives its hooks", r.Stderr)
		assert.NotContains(t, r.Stderr, "/nonexistent-e2e-dir", "the name, never the value")
		assert.NotContains(t, r.Stderr, "PORT is set")
	})
}

// doctor, run from the extension Gemini CLI installed, finds it in
// ~/.gemini/extensions, reads the settings `gemini extensions config`
// stores, and drives the installed hook commands.
func TestDoctorOnTheInstalledExtension(t *testing.T) {
	s := session(t)
	require.NoError(t, s.Configure(map[string]string{"GEMINI_GUARD_MODE": "strict"}))
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.ExtensionDir(), "bin", "gemini-guard"), "doctor", "--json")
	cmd.Dir = s.Workspace
	// The session's gemini on PATH, as a user's is: doctor checks its version.
	cmd.Env = append(s.env(), "PATH="+filepath.Dir(s.Gemini)+string(os.PathListSeparator)+os.Getenv("PATH"))
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var report struct {
		Extension string `json:"extension"`
		Found     string `json:"found"`
		Mode      string `json:"mode"`
		Healthy   bool   `json:"healthy"`
		Checks    []struct {
			Name, Status, Detail string
		} `json:"checks"`
	}
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &report), "stdout %q stderr %q", stdout.String(), stderr.String())
	assert.Equal(t, s.ExtensionDir(), report.Extension)
	assert.Contains(t, report.Found, "installed")
	assert.Equal(t, "strict", report.Mode, "the setting stored by gemini extensions config is read")
	for _, c := range report.Checks {
		if c.Name == "latency" && c.Status == "warn" {
			continue // timing is measured, not judged, in a test (make bench)
		}
		if c.Name == "antigravity cli" || c.Name == "codex cli" || c.Name == "claude code" {
			// The other hosts are not registered here: no fault of the
			// Gemini CLI installation.
			assert.Equal(t, "skip", c.Status, c.Detail)
			continue
		}
		if c.Name == "gemini cli" && versionBefore(CLIVersionUnderTest(), hostcli.MergesRewrittenRequest) {
			// What this CLI lacks, said as a warning.
			assert.Equal(t, "warn", c.Status, c.Detail)
			assert.Contains(t, c.Detail, "secrets in the requests to the model are NOT removed")
			continue
		}
		assert.Equal(t, "ok", c.Status, "%s: %s", c.Name, c.Detail)
	}
	assert.True(t, report.Healthy, stdout.String())
	assert.NoError(t, err)
}

// With the audit log on, a session's blocks and redactions are recorded in
// the state directory, privately, without the secret; `gemini-guard log`
// shows them.
func TestAuditLogInARealSession(t *testing.T) {
	s := session(t)
	require.NoError(t, s.Configure(map[string]string{"GEMINI_GUARD_AUDIT_LOG": "on"}))
	token := GitHubToken(31)
	require.NoError(t, os.WriteFile(filepath.Join(s.Workspace, "creds.txt"), []byte("token="+token+"\n"), 0o644))
	run(t, s,
		WriteFile("saving the config", "config.py", "TOKEN = \""+token+"\"\n"),
		Shell("resetting", "git reset --hard HEAD~1"),
		Tool("reading", "read_file", map[string]any{"file_path": "creds.txt"}),
		Say("Your token is "+token+"."),
	)

	path := filepath.Join(s.Home, ".local", "state", "gemini-guard", "audit.jsonl")
	data, err := os.ReadFile(path)
	require.NoError(t, err, "the log is in the state directory")
	log := string(data)
	assert.NotContains(t, log, token, "no secret in the audit log")
	assert.NotContains(t, log, token[4:24])
	assert.Contains(t, log, `"rules":["github-pat"]`)
	assert.Contains(t, log, `"rules":["git.reset-hard"]`)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	info, err = os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())

	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(s.ExtensionDir(), "bin", "gemini-guard"), "log")
	cmd.Dir = s.Workspace
	cmd.Env = s.env()
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "deny    BeforeTool write_file")
	assert.Contains(t, string(out), "git.reset-hard")
	assert.NotContains(t, string(out), token)
}

// oldCLI is the session's Gemini CLI laid out as npm installs it, its
// package.json saying version v: what a hook's process tree shows of a
// user's older CLI.
func oldCLI(t *testing.T, s *Session, v string) string {
	t.Helper()
	script, err := filepath.EvalSymlinks(s.Gemini)
	require.NoError(t, err)
	pkg := filepath.Dir(filepath.Dir(script)) // <package>/bundle/gemini.js
	data, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	require.NoError(t, err)
	var manifest map[string]any
	require.NoError(t, json.Unmarshal(data, &manifest))
	manifest["version"] = v
	data, err = json.Marshal(manifest)
	require.NoError(t, err)
	root := filepath.Join(s.Dir, "old-cli", "node_modules")
	fake := filepath.Join(root, "@google", "gemini-cli")
	require.NoError(t, os.MkdirAll(fake, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(fake, "package.json"), data, 0o644))
	// Only the script is linked, not its directory: the unbundled CLIs
	// (0.32) keep a package.json of their own version in dist/, beside it.
	dir := filepath.Base(filepath.Dir(script)) // bundle, or dist
	require.NoError(t, os.MkdirAll(filepath.Join(fake, dir), 0o755))
	require.NoError(t, os.Symlink(script, filepath.Join(fake, dir, filepath.Base(script))))
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".bin"), 0o755))
	bin := filepath.Join(root, ".bin", "gemini")
	require.NoError(t, os.Symlink("../@google/gemini-cli/"+dir+"/"+filepath.Base(script), bin))
	return bin
}

// Session start tells a user whose Gemini CLI is below the floor what is
// not protected; on the one under test, only what it lacks: from the floor
// to hostcli.MergesRewrittenRequest, the redaction of the requests to the
// model (the floor run of make test checks it on the real floor CLI).
func TestSessionStartTellsAnOldCLIWhatIsMissing(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the running CLI's version is read from /proc")
	}
	s := session(t)
	r := run(t, s, Say("hello"))
	msgs := strings.Join(r.HookMessages(), "\n")
	assert.NotContains(t, msgs, "is older than", r.Stderr)
	const noRequestRedaction = "secrets in the requests to the model are NOT removed"
	if v := CLIVersionUnderTest(); versionBefore(v, hostcli.MergesRewrittenRequest) {
		assert.Equal(t, 1, strings.Count(msgs, "on this Gemini CLI ("+v+") "+noRequestRedaction), "said once: %s", r.Stderr)
		assert.Contains(t, msgs, "Every other guard works")
	} else {
		assert.NotContains(t, msgs, noRequestRedaction)
	}

	s = session(t)
	s.Gemini = oldCLI(t, s, "0.31.0")
	r = run(t, s, Say("hello"))
	msgs = strings.Join(r.HookMessages(), "\n")
	assert.Contains(t, msgs, "this Gemini CLI (0.31.0) is older than 0.32.1", r.Stderr)
	assert.Contains(t, msgs, "no policy wall")
}
