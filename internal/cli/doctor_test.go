package cli

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Scripted stand-ins for the hook programs, so doctor's own logic is tested
// whatever state the guards are in. Each reads the hook input on stdin and
// answers the way a correct (or, per test, a broken) guard would.
var fakeHooks = map[string]string{
	"guard-shell": `in=$(cat)
case "$in" in
*'rm -rf'*)
  if [ "$GEMINI_GUARD_MODE" = warn ]; then
    echo '{"systemMessage":"gemini-guard would have blocked (warn mode) fs.rm-home: deletes your home directory"}'
  else
    echo '{"decision":"deny","reason":"gemini-guard blocked fs.rm-home: deletes your home directory. Do not try to run this another way."}'
  fi ;;
*) echo '{}' ;;
esac`,
	"guard-secrets": `in=$(cat)
case "$in" in
*ghp_*)
  if [ "$GEMINI_GUARD_MODE" = warn ]; then
    echo '{"systemMessage":"gemini-guard would have blocked (warn mode) github-pat: the write adds a GitHub token"}'
  else
    echo '{"decision":"deny","reason":"gemini-guard blocked github-pat: the write adds a GitHub token (ghp_…(40 chars))."}'
  fi ;;
*) echo '{}' ;;
esac`,
	"guard-redact": `in=$(cat)
case "$1:$in" in
after-model:*ghp_*)
  echo '{"hookSpecificOutput":{"hookEventName":"AfterModel","llm_response":{"text":"Your token is [REDACTED:github-pat]","candidates":[{"content":{"role":"model","parts":["Your token is [REDACTED:github-pat]"]},"finishReason":"STOP","index":0}]}}}' ;;
after-tool:*ghp_*)
  if [ "$GEMINI_GUARD_MODE" = warn ]; then
    echo '{"systemMessage":"gemini-guard would have hidden 1 secret(s) (github-pat) in the output of read_file from the model (warn mode)."}'
  else
    echo '{"decision":"deny","reason":"gemini-guard redacted the tool output: GITHUB_TOKEN=[REDACTED:github-pat]"}'
  fi ;;
*) echo '{}' ;;
esac`,
	"gemini-guard": `cat >/dev/null; echo '{}'`,
	// The hooks ask it; doctor only checks that it is there.
	"guard-scanner": `exit 2`,
}

// fakeExtension is an extension directory with the repository's manifest,
// hooks.json, policies and context, and scripted hook programs; edit
// replaces a program's script.
func fakeExtension(t *testing.T, edit map[string]string) string {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("doctor runs hook commands with bash")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed")
	}
	root := filepath.Join("..", "..")
	ext := t.TempDir()
	for _, f := range []string{"gemini-extension.json", "hooks/hooks.json", "GEMINI.md", "skills/handling-secrets/SKILL.md", "policies/gemini-guard.toml"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		require.NoError(t, err)
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(ext, f)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ext, f), data, 0o644))
	}
	require.NoError(t, os.MkdirAll(filepath.Join(ext, "bin"), 0o755))
	for name, script := range fakeHooks {
		if s, ok := edit[name]; ok {
			script = s
		}
		if script == "" {
			continue
		}
		require.NoError(t, os.WriteFile(filepath.Join(ext, "bin", name), []byte("#!/usr/bin/env bash\n"+script+"\n"), 0o755))
	}
	return ext
}

func doctorJSON(t *testing.T, env map[string]string, ext string) (int, doctorReport, string) {
	t.Helper()
	code, stdout, stderr := run(t, env, "", "doctor", "--ext", ext, "--json")
	var r doctorReport
	require.NoError(t, json.Unmarshal([]byte(stdout), &r), "stdout %q stderr %q", stdout, stderr)
	return code, r, stdout
}

func statusOf(r doctorReport) map[string]string {
	out := map[string]string{}
	for _, c := range r.Checks {
		out[c.Name] = c.Status
	}
	return out
}

func detailOf(r doctorReport, name string) string {
	for _, c := range r.Checks {
		if c.Name == name {
			return c.Detail
		}
	}
	return ""
}

func TestDoctorHealthy(t *testing.T) {
	ext := fakeExtension(t, nil)
	code, r, raw := doctorJSON(t, nil, ext)
	assert.Equal(t, 0, code, raw)
	assert.True(t, r.Healthy)
	assert.Equal(t, "standard", r.Mode)
	for name, status := range statusOf(r) {
		if name == "gemini cli" && status == statusSkip {
			continue // no gemini on the test's PATH
		}
		if (name == "antigravity cli" || name == "codex cli") && status == statusSkip {
			continue // not registered with agy: not a problem
		}
		if name == "claude code" && status == statusSkip {
			continue // not registered with Claude Code: not a problem
		}
		if name == "latency" && status == statusWarn {
			continue // timing is measured, not judged, in a test (make bench)
		}
		assert.Equal(t, statusOK, status, "%s: %s", name, detailOf(r, name))
	}
	for _, name := range []string{"manifest", "binaries", "hooks.json", "settings", "policies", "context", "session start",
		"shell: known-bad", "shell: known-good", "secrets: write", "redact: answer", "redact: tool output", "latency", "audit log"} {
		assert.Contains(t, statusOf(r), name)
	}
	assert.Contains(t, detailOf(r, "shell: known-bad"), "denied by fs.rm-home")
	assert.Contains(t, detailOf(r, "secrets: write"), "denied by github-pat")
	assert.Len(t, r.Latency, 3)
	for hook, ms := range r.Latency {
		assert.Positive(t, ms, hook)
	}
	assert.NotContains(t, raw, doctorSecret(), "the report never shows the secret doctor uses")

	code, stdout, _ := run(t, nil, "", "doctor", "--ext", ext)
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "mode standard")
	assert.Contains(t, stdout, "OK    shell: known-bad")
	assert.True(t, strings.HasSuffix(stdout, "healthy\n"))
}

func TestDoctorWarnMode(t *testing.T) {
	ext := fakeExtension(t, nil)
	require.NoError(t, os.WriteFile(filepath.Join(ext, ".env"), []byte("GEMINI_GUARD_MODE=warn\n"), 0o600))
	code, r, raw := doctorJSON(t, nil, ext)
	assert.Equal(t, 0, code, raw)
	assert.Equal(t, "warn", r.Mode)
	st := statusOf(r)
	assert.Equal(t, statusWarn, st["settings"], "warn mode is reported, since nothing is blocked")
	assert.Equal(t, statusOK, st["shell: known-bad"], detailOf(r, "shell: known-bad"))
	assert.Contains(t, detailOf(r, "shell: known-bad"), "allowed with a warning (warn mode, rule fs.rm-home)")
	assert.Equal(t, statusOK, st["secrets: write"], detailOf(r, "secrets: write"))
	assert.Equal(t, statusWarn, st["redact: tool output"], "warn mode lets tool output through: %s", detailOf(r, "redact: tool output"))
	assert.Equal(t, statusOK, st["redact: answer"], "answers are redacted in every mode")
}

func TestDoctorAuditLog(t *testing.T) {
	ext := fakeExtension(t, map[string]string{
		// A shell guard that records its decisions, as the real one does.
		"guard-shell": fakeHooks["guard-shell"] + `
sid=$(printf '%s' "$in" | sed -n 's/.*"session_id":"\([^"]*\)".*/\1/p')
printf '{"time":"2025-01-01T00:00:00Z","session":"%s","hook":"BeforeTool","decision":"deny"}\n' "$sid" >> "$GEMINI_GUARD_AUDIT_LOG"`,
	})
	logPath := filepath.Join(t.TempDir(), "audit.jsonl")
	require.NoError(t, os.WriteFile(filepath.Join(ext, ".env"), []byte("GEMINI_GUARD_AUDIT_LOG="+logPath+"\n"), 0o600))
	_, r, _ := doctorJSON(t, nil, ext)
	assert.Equal(t, statusOK, statusOf(r)["audit log"], detailOf(r, "audit log"))
	assert.Contains(t, detailOf(r, "audit log"), "decisions recorded, no secret")

	// A log that holds the secret is a failure.
	ext = fakeExtension(t, map[string]string{"guard-secrets": `in=$(cat); printf '%s\n' "$in" >> "$GEMINI_GUARD_AUDIT_LOG"; echo '{}'`})
	require.NoError(t, os.WriteFile(filepath.Join(ext, ".env"), []byte("GEMINI_GUARD_AUDIT_LOG="+logPath+"\n"), 0o600))
	code, r, _ := doctorJSON(t, nil, ext)
	assert.Equal(t, 1, code)
	assert.Equal(t, statusFail, statusOf(r)["audit log"])
	assert.Contains(t, detailOf(r, "audit log"), "holds the secret")
}

func TestDoctorFindsProblems(t *testing.T) {
	cases := []struct {
		name   string
		edit   map[string]string
		mutate func(t *testing.T, ext string)
		check  string
		detail string
	}{
		{name: "missing binary", edit: map[string]string{"guard-secrets": ""}, check: "binaries", detail: "bin/guard-secrets missing"},
		{name: "not executable", mutate: func(t *testing.T, ext string) {
			require.NoError(t, os.Chmod(filepath.Join(ext, "bin", "guard-redact"), 0o644))
		}, check: "binaries", detail: "bin/guard-redact is not executable"},
		{name: "unanchored matcher", mutate: func(t *testing.T, ext string) {
			editFile(t, filepath.Join(ext, "hooks", "hooks.json"), `"^(run_shell_command|mcp_.+)$"`, `"(run_shell_command|mcp_.+)"`)
		}, check: "hooks.json", detail: `matcher "(run_shell_command|mcp_.+)" is not anchored`},
		{name: "matcher misses a tool", mutate: func(t *testing.T, ext string) {
			editFile(t, filepath.Join(ext, "hooks", "hooks.json"), `"^(write_file|replace|run_shell_command|web_fetch|google_web_search|save_memory|tracker_create_task|tracker_update_task|mcp_.+)$"`, `"^(write_file|run_shell_command|web_fetch|google_web_search|save_memory|tracker_create_task|tracker_update_task|mcp_.+)$"`)
		}, check: "hooks.json", detail: "does not select replace"},
		{name: "hooks.json broken", mutate: func(t *testing.T, ext string) {
			require.NoError(t, os.WriteFile(filepath.Join(ext, "hooks", "hooks.json"), []byte("{"), 0o644))
		}, check: "hooks.json", detail: "not valid JSON"},
		{name: "bad policy", mutate: func(t *testing.T, ext string) {
			require.NoError(t, os.WriteFile(filepath.Join(ext, "policies", "x.toml"), []byte("[[rule]]\ntoolName = \"run_shell_command\"\ncommandRegex = \"(a+)+\"\ndecision = \"deny\"\npriority = 1\ndenyMessage = \"gemini-guard blocked policy.x: x\"\n"), 0o644))
		}, check: "policies", detail: "unsafe"},
		{name: "shell guard allows everything", edit: map[string]string{"guard-shell": `cat >/dev/null; echo '{}'`}, check: "shell: known-bad", detail: "was NOT denied"},
		{name: "shell guard denies everything", edit: map[string]string{"guard-shell": `cat >/dev/null; echo '{"decision":"deny","reason":"gemini-guard blocked x: no"}'`}, check: "shell: known-good", detail: "`ls -la` was denied"},
		{name: "reason shows the secret", edit: map[string]string{"guard-secrets": `in=$(cat); t=$(printf '%s' "$in" | grep -o 'ghp_[A-Za-z0-9]*'); echo "{\"decision\":\"deny\",\"reason\":\"gemini-guard blocked github-pat: $t\"}"`}, check: "secrets: write", detail: "shows the secret"},
		{name: "garbage on stdout", edit: map[string]string{"guard-shell": `cat >/dev/null; echo 'hello'`}, check: "shell: known-bad", detail: "did not print a JSON object"},
		{name: "noise on stderr", edit: map[string]string{"guard-shell": `cat >/dev/null; echo debug >&2; echo '{}'`}, check: "shell: known-good", detail: "wrote to stderr"},
		{name: "crash", edit: map[string]string{"guard-shell": `cat >/dev/null; echo 'panic: boom' >&2; exit 2`}, check: "shell: known-good", detail: "Gemini CLI denies every call"},
		{name: "AfterModel passes secrets", edit: map[string]string{"guard-redact": `cat >/dev/null; echo '{}'`}, check: "redact: answer", detail: "passed through unchanged"},
		{name: "AfterModel denies", edit: map[string]string{"guard-redact": `cat >/dev/null; echo '{"decision":"deny","reason":"x"}'`}, check: "redact: answer", detail: "prints the chunk it meant to hide"},
		{name: "timeout", mutate: func(t *testing.T, ext string) {
			editFile(t, filepath.Join(ext, "hooks", "hooks.json"), `"timeout": 10000`, `"timeout": 300`)
		}, edit: map[string]string{"gemini-guard": `sleep 5; echo '{}'`}, check: "session start", detail: "timed out"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ext := fakeExtension(t, c.edit)
			if c.mutate != nil {
				c.mutate(t, ext)
			}
			code, r, raw := doctorJSON(t, nil, ext)
			assert.Equal(t, 1, code, raw)
			assert.False(t, r.Healthy)
			assert.Equal(t, statusFail, statusOf(r)[c.check], raw)
			assert.Contains(t, detailOf(r, c.check), c.detail)
			assert.NotContains(t, raw, doctorSecret())
		})
	}
}

func editFile(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Contains(t, string(data), old)
	require.NoError(t, os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o644))
}

func TestDoctorUsage(t *testing.T) {
	code, _, stderr := run(t, nil, "", "doctor", "extra")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "usage: gemini-guard doctor")

	code, _, stderr = run(t, map[string]string{"HOME": t.TempDir()}, "", "doctor")
	if code == 2 {
		assert.Contains(t, stderr, "not installed")
	}
}

// TestDoctorEnvironment: a variable that changes how bash, the loader,
// node or Gemini CLI run the hooks is named, in doctor's environment and
// in the .env Gemini CLI would load; its value never is.
func TestDoctorEnvironment(t *testing.T) {
	ext := fakeExtension(t, nil)
	code, r, raw := doctorJSON(t, map[string]string{"LD_PRELOAD": "/tmp/hijack.so"}, ext)
	assert.Equal(t, 0, code, raw)
	assert.Equal(t, statusWarn, statusOf(r)["environment"])
	assert.Contains(t, detailOf(r, "environment"), "LD_PRELOAD is set")
	assert.NotContains(t, raw, "/tmp/hijack.so")

	ws, home := t.TempDir(), t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(ws, ".gemini"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, ".gemini", ".env"), []byte("DEBUG=1\nBASH_ENV=/tmp/x.sh\n"), 0o600))
	file, keys, runners := envFileKeys(filepath.Join(ws), home)
	assert.Equal(t, filepath.Join(ws, ".gemini", ".env"), file)
	assert.Equal(t, []string{"BASH_ENV"}, keys)
	assert.Empty(t, runners)
	require.NoError(t, os.WriteFile(filepath.Join(home, ".env"), []byte("PORT=3000\rPYTHONPATH=./vendor\nGOFLAGS=-toolexec=./x\nEDITOR=\n"), 0o600))
	file, keys, runners = envFileKeys(t.TempDir(), home)
	assert.Equal(t, filepath.Join(home, ".env"), file)
	assert.Empty(t, keys)
	assert.Equal(t, []string{"PYTHONPATH", "GOFLAGS"}, runners, "read as the host reads it; an empty value names nothing")
	w := runnerEnvWarning(file, runners)
	assert.Contains(t, w, "PYTHONPATH, GOFLAGS")
	assert.NotContains(t, w, "./vendor")
	assert.NotContains(t, w, "toolexec=")
}
