package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/version"
)

func mapEnv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// run calls Main as the binary would and returns the exit code and output.
func run(t *testing.T, env map[string]string, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := Main(args, strings.NewReader(stdin), &stdout, &stderr, mapEnv(env))
	return code, stdout.String(), stderr.String()
}

func TestUsage(t *testing.T) {
	code, _, stderr := run(t, nil, "")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, "usage: gemini-guard")

	code, _, stderr = run(t, nil, "", "frobnicate")
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr, `unknown command "frobnicate"`)

	code, stdout, _ := run(t, nil, "", "help")
	assert.Equal(t, 0, code)
	for _, cmd := range []string{"check", "scan", "doctor", "log", "version", "session-start"} {
		assert.Contains(t, stdout, cmd)
	}

	for _, sub := range []string{"doctor", "log", "version"} {
		t.Run(sub, func(t *testing.T) {
			code, _, stderr := run(t, nil, "", sub, "--no-such-flag")
			assert.Equal(t, 2, code)
			assert.Contains(t, stderr, "flag provided but not defined")
			code, _, _ = run(t, nil, "", sub, "-h")
			assert.Equal(t, 0, code, "-h prints the usage as asked")
		})
	}
}

func TestVersion(t *testing.T) {
	code, stdout, _ := run(t, nil, "", "version")
	assert.Equal(t, 0, code)
	assert.Equal(t, "gemini-guard "+version.Version+" ("+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+")\n", stdout)

	code, stdout, _ = run(t, nil, "", "version", "--json")
	assert.Equal(t, 0, code)
	var v map[string]string
	require.NoError(t, json.Unmarshal([]byte(stdout), &v))
	assert.Equal(t, version.Version, v["version"])

	code, _, _ = run(t, nil, "", "version", "extra")
	assert.Equal(t, 2, code)
}

func TestSessionStart(t *testing.T) {
	ws := t.TempDir()
	in := func(cwd string) string {
		b, _ := json.Marshal(map[string]string{"session_id": "s", "cwd": cwd, "hook_event_name": "SessionStart", "source": "startup"})
		return string(b)
	}
	decode := func(t *testing.T, out string) map[string]any {
		t.Helper()
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &got), out)
		return got
	}

	t.Run("invalid setting", func(t *testing.T) {
		code, stdout, stderr := run(t, map[string]string{"GEMINI_GUARD_MODE": "yolo"}, in(ws), "session-start")
		assert.Equal(t, 0, code)
		assert.Empty(t, stderr)
		assert.Contains(t, decode(t, stdout)["systemMessage"], `GEMINI_GUARD_MODE="yolo" is not valid`)
		assert.Nil(t, decode(t, stdout)["decision"])
	})
	t.Run("project file that loosens", func(t *testing.T) {
		require.NoError(t, os.MkdirAll(filepath.Join(ws, ".gemini"), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(ws, filepath.FromSlash(settings.ProjectFile)), []byte("mode = \"warn\"\n"), 0o644))
		code, stdout, _ := run(t, nil, in(ws), "session-start")
		assert.Equal(t, 0, code)
		assert.Contains(t, decode(t, stdout)["systemMessage"], `mode = "warn" ignored`)
	})
	t.Run("warn mode is announced", func(t *testing.T) {
		code, stdout, _ := run(t, map[string]string{"GEMINI_GUARD_MODE": "warn"}, in(t.TempDir()), "session-start")
		assert.Equal(t, 0, code)
		assert.Contains(t, decode(t, stdout)["systemMessage"], "warn mode")
	})
	t.Run("a variable that changes how the hooks run", func(t *testing.T) {
		code, stdout, _ := run(t, map[string]string{"BASH_ENV": "/tmp/hijack.sh", "GEMINI_CLI_HOME": "/tmp/g", "DEBUG": "1"}, in(t.TempDir()), "session-start")
		assert.Equal(t, 0, code)
		msg, _ := decode(t, stdout)["systemMessage"].(string)
		assert.Contains(t, msg, "BASH_ENV is set in the environment Gemini CLI gives its hooks")
		assert.Contains(t, msg, "GEMINI_CLI_HOME is set")
		assert.NotContains(t, msg, "/tmp/hijack.sh", "the name, never the value")
		assert.NotContains(t, msg, "DEBUG")
	})
	t.Run("secrets too weak to track are named, never their values", func(t *testing.T) {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, ".env"),
			[]byte("DB_PASSWORD=db_password\nSESSION_SECRET=\"keyboard cat\"\nAPI_TOKEN=itk9-QM3vX7-zzR2pL\nGOOGLE_CREDENTIALS=/home/u/sa.json\n"), 0o600))
		t.Setenv("GG_TEST_PASSWORD", "password123")
		code, stdout, _ := run(t, map[string]string{"GG_TEST_PASSWORD": "password123"}, in(dir), "session-start")
		assert.Equal(t, 0, code)
		msg, _ := decode(t, stdout)["systemMessage"].(string)
		assert.Contains(t, msg, "does not track these secrets by value")
		assert.Contains(t, msg, ".env (DB_PASSWORD): a key name")
		assert.Contains(t, msg, ".env (SESSION_SECRET): a documentation example")
		assert.Contains(t, msg, "$GG_TEST_PASSWORD: a common password")
		assert.NotContains(t, msg, "API_TOKEN", "a strong value is tracked")
		assert.NotContains(t, msg, "GOOGLE_CREDENTIALS", "a path is no secret")
		for _, v := range []string{"db_password", "keyboard cat", "password123", "itk9"} {
			assert.NotContains(t, msg, v, "the source, never the value")
		}
		code, stdout, _ = run(t, map[string]string{"GEMINI_GUARD_DISABLED_RULES": "known-value"}, in(dir), "session-start")
		assert.Equal(t, 0, code)
		assert.NotContains(t, stdout, "does not track", "nothing to say when known values are off")
	})
	t.Run("bad input is still one object", func(t *testing.T) {
		code, stdout, _ := run(t, nil, "garbage", "session-start")
		assert.Equal(t, 0, code)
		assert.Equal(t, "{}\n", stdout)
	})
}

func TestLog(t *testing.T) {
	home := t.TempDir()
	env := map[string]string{"HOME": home, "GEMINI_GUARD_AUDIT_LOG": "on"}
	path := filepath.Join(home, ".local", "state", "gemini-guard", "audit.jsonl")

	code, stdout, _ := run(t, env, "", "log", "--ext", t.TempDir())
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "no blocks in "+path)

	when := time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)
	for i, d := range []string{"deny", "allow", "warn", "allow", "deny"} {
		audit.Record(path, audit.Entry{Time: when.Add(time.Duration(i) * time.Minute), Session: "0123456789abcdef", Hook: "BeforeTool",
			Tool: "run_shell_command", Rules: []string{"rule-" + d}, Decision: d, Preview: "cmd " + d})
	}

	code, stdout, _ = run(t, env, "", "log", "--ext", t.TempDir())
	assert.Equal(t, 0, code)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	require.Len(t, lines, 3, stdout)
	assert.Contains(t, lines[0], "deny")
	assert.Contains(t, lines[0], "BeforeTool run_shell_command")
	assert.Contains(t, lines[0], "rule-deny  cmd deny  (session 01234567)")
	assert.Contains(t, lines[1], "warn")

	code, stdout, _ = run(t, env, "", "log", "--ext", t.TempDir(), "-n", "1", "--all", "--json")
	assert.Equal(t, 0, code)
	var e audit.Entry
	require.NoError(t, json.Unmarshal([]byte(stdout), &e))
	assert.Equal(t, "deny", e.Decision)
	assert.Equal(t, "cmd deny", e.Preview)
	assert.Equal(t, when.Add(4*time.Minute), e.Time)

	code, stdout, _ = run(t, env, "", "log", "--ext", t.TempDir(), "--all", "-n", "0")
	assert.Equal(t, 0, code)
	assert.Len(t, strings.Split(strings.TrimSpace(stdout), "\n"), 5)

	t.Run("the extension's .env turns it on", func(t *testing.T) {
		ext := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(ext, ".env"), []byte("GEMINI_GUARD_AUDIT_LOG=\"on\"\n"), 0o600))
		code, stdout, _ := run(t, map[string]string{"HOME": home}, "", "log", "--ext", ext)
		assert.Equal(t, 0, code)
		assert.Contains(t, stdout, "rule-deny")
	})
	t.Run("off", func(t *testing.T) {
		code, _, stderr := run(t, map[string]string{"HOME": home}, "", "log", "--ext", t.TempDir())
		assert.Equal(t, 2, code)
		assert.Contains(t, stderr, "the audit log is off")
	})
	t.Run("bad arguments", func(t *testing.T) {
		code, _, _ := run(t, env, "", "log", "-n", "-1")
		assert.Equal(t, 2, code)
		code, _, _ = run(t, env, "", "log", "extra")
		assert.Equal(t, 2, code)
	})
}

func TestReadDotEnv(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".env")
	require.NoError(t, os.WriteFile(path, []byte(`# comment
GEMINI_GUARD_MODE=strict
export GEMINI_GUARD_DISABLED_RULES="a,b"
GEMINI_GUARD_PROTECTED_PATHS='/srv/x'
GEMINI_GUARD_AUDIT_LOG=on # trailing comment
NOT_A_SETTING=1
broken line
`), 0o600))
	got, err := readDotEnv(path)
	require.NoError(t, err)
	assert.Equal(t, map[string]string{
		"GEMINI_GUARD_MODE": "strict", "GEMINI_GUARD_DISABLED_RULES": "a,b", "GEMINI_GUARD_PROTECTED_PATHS": "/srv/x",
		"GEMINI_GUARD_AUDIT_LOG": "on", "NOT_A_SETTING": "1",
	}, got)

	env, declared, err := settingsEnv(extension{SettingsDir: filepath.Dir(path)}, mapEnv(map[string]string{"GEMINI_GUARD_MODE": "warn", "NOT_A_SETTING": "env"}))
	require.NoError(t, err)
	assert.Equal(t, "strict", env("GEMINI_GUARD_MODE"), "the extension's .env wins, as in Gemini CLI")
	assert.Equal(t, "env", env("NOT_A_SETTING"), "undeclared names are not taken from the file")
	assert.Len(t, declared, 4)
}

func TestFindExtension(t *testing.T) {
	home := t.TempDir()
	env := mapEnv(map[string]string{"HOME": home})

	ext, err := findExtension("rel/dir", env)
	require.NoError(t, err)
	assert.True(t, filepath.IsAbs(ext.Dir))

	installed := filepath.Join(home, ".gemini", "extensions", "gemini-guard")
	require.NoError(t, os.MkdirAll(installed, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(installed, ".gemini-extension-install.json"), []byte(`{"source":"/src/gemini-guard","type":"link"}`), 0o644))
	ext, err = findExtension("", env)
	require.NoError(t, err)
	assert.Equal(t, "/src/gemini-guard", ext.Dir, "a linked extension is followed to its source")
	assert.Equal(t, installed, ext.SettingsDir, "its settings stay where Gemini CLI keeps them")
}
