//go:build unix

package protect_test

import (
	"encoding/json"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// TestFIFONamedEnv: a FIFO named .env in the workspace (nobody writes to
// it) once held the shell guard 4 s and the secrets guard 12 s, each until
// its deadline, in os.Open. The file system view never opens one: both
// decide at once. The bound is loose for a loaded machine; the decision
// takes well under a millisecond of file access.
func TestFIFONamedEnv(t *testing.T) {
	ws, home := fixture(t)
	require.NoError(t, syscall.Mkfifo(filepath.Join(ws, ".env"), 0o600))
	for _, tt := range []struct {
		command string
		deny    bool
	}{
		{"echo FOO=1 >> .env", false},
		{"echo BASH_ENV=/tmp/x >> .env", true},
		{"cp .env.example .env", false},
	} {
		start := time.Now()
		sv := shellguard.Decide(shellguard.Input{Command: tt.command, Cwd: ws, Home: home, Settings: settings.Default()})
		shellTook := time.Since(start)
		in, err := json.Marshal(map[string]string{"command": tt.command})
		require.NoError(t, err)
		start = time.Now()
		d, err := secretguard.Check(secretguard.Call{Tool: secretguard.Shell, Input: in, Cwd: ws},
			secretguard.Env{Settings: settings.Default(), Home: home, Scanner: secrettest.CachedScanner})
		secretsTook := time.Since(start)
		require.NoError(t, err)
		assert.Less(t, shellTook, time.Second, "shell guard on %s", tt.command)
		assert.Less(t, secretsTook, time.Second, "secrets guard on %s", tt.command)
		t.Logf("%s: shell guard %v, secrets guard %v", tt.command, shellTook, secretsTook)
		assert.Equal(t, tt.deny, sv.Action == verdict.Deny, sv.Message())
		assert.Equal(t, tt.deny, d.Verdict.Action == verdict.Deny, d.Verdict.Message())
	}
	// write_file onto the FIFO: the secrets guard cannot read what the file
	// holds and says so at once (the hook answers its fail-safe deny).
	in, err := json.Marshal(map[string]string{"file_path": ".env", "content": "FOO=1\n"})
	require.NoError(t, err)
	start := time.Now()
	_, err = secretguard.Check(secretguard.Call{Tool: secretguard.WriteFile, Input: in, Cwd: ws},
		secretguard.Env{Settings: settings.Default(), Home: home, Scanner: secrettest.CachedScanner})
	assert.Error(t, err)
	assert.Less(t, time.Since(start), time.Second, "write_file onto a FIFO")
}
