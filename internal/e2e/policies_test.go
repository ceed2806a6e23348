package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// disableHooks switches every hook off in the session's user settings
// (hooksConfig.enabled: false), keeping whatever else settings.json holds.
func disableHooks(t *testing.T, s *Session) {
	t.Helper()
	setUserSetting(t, s, "hooksConfig", map[string]any{"enabled": false})
}

// setUserSetting sets one top-level key of the session's user settings.json,
// keeping whatever else it holds.
func setUserSetting(t *testing.T, s *Session, key string, value any) {
	t.Helper()
	path := filepath.Join(s.Home, ".gemini", "settings.json")
	doc := map[string]any{}
	if data, err := os.ReadFile(path); err == nil {
		require.NoError(t, json.Unmarshal(data, &doc))
	}
	doc[key] = value
	data, err := json.Marshal(doc)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, data, 0o644))
}

// The extension's policies/ are a wall that holds without the hooks: with
// every hook disabled and in yolo mode, Gemini CLI's policy engine still
// denies the catastrophic forms, in every spelling it splits out, and lets
// ordinary deletes run.
//
// The commands really run if the wall fails. Only `rm -rf ~` is used, with
// HOME a temporary directory holding a sentinel file; the disk rules (mkfs,
// dd) are never run for real (these tests may run as root) and are covered by
// the regex tests in internal/cli.
// refusesRmInYolo reports whether Gemini CLI v refuses the ordinary
// `rm -rf ./build && rm -rf ~/.cache/x` in yolo mode with hooks disabled:
// its policy engine's own dangerous-command heuristic
// (applyShellHeuristics) turns rm -r into ASK_USER even over the yolo
// allow rule, which headless 0.36 answers "Tool execution denied by
// policy." and 0.37 - 0.39 "requires user confirmation, which is not
// supported in non-interactive mode". Measured on 0.36.0, 0.37.2, 0.38.2
// and 0.39.1 (also with every gemini-guard policy removed); 0.35.3 and
// 0.40.1 run it.
func refusesRmInYolo(v string) bool { return !versionBefore(v, "0.36.0") && versionBefore(v, "0.40.0") }

func TestPoliciesHoldWithHooksDisabled(t *testing.T) {
	s := session(t)
	require.True(t, strings.HasPrefix(s.Home, os.TempDir()), "HOME must be a temporary directory: %s", s.Home)
	disableHooks(t, s)
	sentinel := filepath.Join(s.Home, "sentinel")
	require.NoError(t, os.WriteFile(sentinel, []byte("still here"), 0o644))

	for _, cmd := range []string{"rm -rf ~", "cd /tmp && rm -rf ~/", "bash -c 'rm -rf $HOME'", "sudo rm -rf ~"} {
		t.Run(cmd, func(t *testing.T) {
			r := run(t, s, Shell("clean up", cmd), Say("done"))
			calls := r.ToolCalls()
			require.Len(t, calls, 1, r.Stdout)
			assert.True(t, calls[0].Blocked(), "not blocked: %s", calls[0].Result.Raw)
			assert.Contains(t, calls[0].Reason(), "Tool execution denied by policy.")
			// bash -c: policy.rm-root-in-shell, or on a CLI that looks
			// inside the wrapper (0.39+) the rule for the inner command.
			assert.Regexp(t, `gemini-guard blocked policy\.rm-root-(or-home|in-shell):`, calls[0].Reason())
			assert.FileExists(t, sentinel, "the home directory survived")
			assert.Empty(t, r.HookMessages(), "hooks are disabled: only the policy engine decided")
		})
	}

	t.Run("ordinary deletes run", func(t *testing.T) {
		build := filepath.Join(s.Workspace, "build")
		require.NoError(t, os.MkdirAll(filepath.Join(build, "obj"), 0o755))
		r := run(t, s, Shell("clean", "rm -rf ./build && rm -rf ~/.cache/nothing-here"), Say("done"))
		calls := r.ToolCalls()
		require.Len(t, calls, 1, r.Stdout)
		if v := CLIVersionUnderTest(); refusesRmInYolo(v) {
			// Not the wall: the CLI's own heuristic, without a
			// gemini-guard message.
			assert.NotContains(t, string(calls[0].Result.Raw), "gemini-guard")
			assert.Regexp(t, `requires user confirmation|Tool execution denied by policy\.`, string(calls[0].Result.Raw))
			return
		}
		assert.False(t, calls[0].Blocked(), calls[0].Reason())
		assert.NoDirExists(t, build, "result: %s", calls[0].Result.Raw)
	})

	t.Run("policies load without errors", func(t *testing.T) {
		r := run(t, s, Say("hello"))
		for _, bad := range []string{"Error loading policies", "Invalid regex", "Unsafe regex", "Invalid policy", "gemini-guard.toml"} {
			assert.NotContains(t, r.Stderr, bad)
		}
	})
}

// Warn mode lets the hooks' blocks through, but not the policy wall: the
// catastrophic forms stay denied in every mode.
func TestPoliciesHoldInWarnMode(t *testing.T) {
	s := session(t)
	require.True(t, strings.HasPrefix(s.Home, os.TempDir()), "HOME must be a temporary directory: %s", s.Home)
	require.NoError(t, s.Configure(map[string]string{"GEMINI_GUARD_MODE": "warn"}))
	sentinel := filepath.Join(s.Home, "sentinel")
	require.NoError(t, os.WriteFile(sentinel, []byte("still here"), 0o644))

	r := run(t, s, Shell("clean up", "rm -rf ~"), Say("done"))
	calls := r.ToolCalls()
	require.Len(t, calls, 1, r.Stdout)
	assert.True(t, calls[0].Blocked(), "not blocked: %s", calls[0].Result.Raw)
	assert.Contains(t, calls[0].Reason(), "gemini-guard blocked policy.rm-root-or-home")
	assert.FileExists(t, sentinel)
	if v := CLIVersionUnderTest(); versionBefore(v, hooksBeforePolicy) {
		t.Logf("Gemini CLI %s checks its policies before it runs the BeforeTool hooks: the denied call never reaches the hook", v)
		return
	}
	assert.Contains(t, strings.Join(r.HookMessages(), "\n"), "would have blocked (warn mode)", "the hook only warned")
}

// hooksBeforePolicy is the first Gemini CLI that runs the BeforeTool hooks
// before it checks a tool call against the policies. Before it (measured on
// 0.32.1, 0.33.2, 0.34.0 and 0.35.3) the scheduler calls checkPolicy first
// and fires the hooks only when it executes the tool, so a call the policy
// denies never reaches the hook; 0.36.0 on run the hook first.
const hooksBeforePolicy = "0.36.0"
