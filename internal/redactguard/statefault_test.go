package redactguard

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/state"
)

// TestStateFaultFailsClosed (issue 37): when the state directory can no
// longer give back the secrets the session learnt from tool output (the
// user's key file truncated, emptied or made a directory, the session's
// record unreadable, the directory replaced by a file), a bare copy of one would pass every check. The
// tool output and the stream are withheld instead, and the reason says
// why; neither shows the value.
func TestStateFaultFailsClosed(t *testing.T) {
	secret := "Zr8q-Kp3m-Wx7v-Ln2c" // found by a generic rule next to its keyword, then learnt
	for name, damage := range map[string]func(t *testing.T, dir string){
		"key truncated": func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".known-key"), []byte("short"), 0o600))
		},
		"key empty": func(t *testing.T, dir string) {
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".known-key"), nil, 0o600))
		},
		"key a directory": func(t *testing.T, dir string) {
			require.NoError(t, os.Remove(filepath.Join(dir, ".known-key")))
			require.NoError(t, os.Mkdir(filepath.Join(dir, ".known-key"), 0o700))
		},
		"record unreadable": func(t *testing.T, dir string) {
			rec := filepath.Join(dir, state.Key("known-values", "s1"))
			require.NoError(t, os.Remove(rec))
			require.NoError(t, os.Mkdir(rec, 0o700))
		},
		"directory replaced by a file": func(t *testing.T, dir string) {
			require.NoError(t, os.RemoveAll(dir))
			require.NoError(t, os.WriteFile(dir, []byte("x"), 0o600))
		},
	} {
		t.Run(name, func(t *testing.T) {
			e := testEnv(t, nil)
			out := runHook(t, e, "after-tool", toolInput("read_file", quoteJSON("password = \""+secret+"\"\n")))
			require.NotContains(t, out, secret)
			damage(t, e.StateDir)

			out = runHook(t, e, "after-tool", toolInput("run_shell_command", quoteJSON("the field was "+secret+" then")))
			assert.NotContains(t, out, secret)
			assert.Contains(t, out, "hook.state-fault")
			assert.Contains(t, out, "gemini-guard doctor")

			out = runHook(t, e, "after-model", chunkInput("s1", "q", "It is "+secret+".", "STOP"))
			assert.NotContains(t, out, secret)
			assert.NotContains(t, displayed(t, out, "It is "+secret+"."), secret)
		})
	}
}

// TestStateCannotRecordFailsClosed: a session whose record cannot be
// written (here its file is a directory; a full disk or a read-only
// directory fail the same write) loses what AfterTool finds: the output
// holding it is withheld, and the user told, rather than the value
// forgotten.
func TestStateCannotRecordFailsClosed(t *testing.T) {
	e := testEnv(t, nil)
	require.NoError(t, os.MkdirAll(e.StateDir, 0o700))
	rec := filepath.Join(e.StateDir, state.Key("known-values", "s1"))
	require.NoError(t, os.Mkdir(rec, 0o700))
	secret := "Zr8q-Kp3m-Wx7v-Ln2c"
	out := runHook(t, e, "after-tool", toolInput("read_file", quoteJSON("password = \""+secret+"\"\n")))
	assert.NotContains(t, out, secret)
	assert.Contains(t, out, "hook.state-fault")
	assert.Contains(t, out, `"systemMessage"`)
}
