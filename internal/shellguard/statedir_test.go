package shellguard

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// TestStateDirProtected: the state directory the hook finds
// ($XDG_STATE_HOME/gemini-guard) is guard configuration, and so is the
// default one under home.
func TestStateDirProtected(t *testing.T) {
	in := Input{Cwd: "/w", Home: "/home/u", Settings: settings.Default(), StateDir: "/x/state/gemini-guard"}
	for _, cmd := range []string{"rm /x/state/gemini-guard/sessions/0a1b", "mv /x/state/gemini-guard /x/state/old", "rm ~/.local/state/gemini-guard/provenance/0a1b"} {
		in.Command = cmd
		v := Decide(in)
		assert.Equal(t, verdict.Deny, v.Action, cmd)
		assert.Equal(t, "guard.tamper", v.RuleID, cmd)
	}
	in.Command = "ls /x/state/gemini-guard/sessions"
	assert.Equal(t, verdict.Allow, Decide(in).Action)
}

// TestGuardStateDir: the directory above state.Dir's sessions.
func TestGuardStateDir(t *testing.T) {
	env := map[string]string{"XDG_STATE_HOME": "/x/state"}
	assert.Equal(t, "/x/state/gemini-guard", guardStateDir(func(k string) string { return env[k] }))
	_ = guardStateDir(func(string) string { return "" }) // falls back to the user cache directory
}
