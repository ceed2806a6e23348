//go:build linux

package hook

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hungryHookEnv makes the test binary, run by
// TestRunWithinEndsAHungryProcess, act as a hook process whose decision
// allocates without end.
const hungryHookEnv = "GEMINI_GUARD_TEST_HUNGRY_HOOK"

// hungryCeiling is the ceiling the hungry process runs under (the real one
// is MemoryCeiling: the test keeps the machine's memory for others).
const hungryCeiling = 128 << 20

// hungryKept holds what the hungry decision allocates, so none of it is
// collected.
var hungryKept [][]byte

func init() {
	if os.Getenv(hungryHookEnv) == "" {
		return
	}
	memoryCeiling = hungryCeiling
	RunWithin(BeforeTool, time.Minute, os.Stdin, os.Stdout, func(BeforeToolInput) (Output, error) {
		for {
			b := make([]byte, 1<<20)
			for i := range b {
				b[i] = byte(i)
			}
			hungryKept = append(hungryKept, b)
		}
	}, nil)
	os.Exit(3) // not reached: the watchdog's answer exits 0
}

// A decision that allocates without end is ended by the memory watchdog,
// long before its deadline: one JSON deny naming the memory limit, exit 0,
// and the process never held much more than its ceiling.
func TestRunWithinEndsAHungryProcess(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), hungryHookEnv+"=1")
	cmd.Stdin = strings.NewReader(`{"tool_name":"run_shell_command"}`)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	timer := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	start := time.Now()
	require.NoError(t, cmd.Run(), "exit 0")
	assert.Less(t, time.Since(start), 30*time.Second, "the watchdog, not the one-minute deadline, ended it")
	require.Equal(t, 1, strings.Count(stdout.String(), "\n"), "one line: %q", stdout.String())
	var got map[string]any
	require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), stdout.String())
	assert.Equal(t, "deny", got["decision"])
	assert.Contains(t, got["reason"], "hook.memory")
	peak := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss << 10 // KiB on Linux
	t.Logf("peak RSS %d MiB (ceiling %d MiB)", peak>>20, hungryCeiling>>20)
	if !raceEnabled {
		assert.Less(t, peak, int64(hungryCeiling+64<<20), "peak RSS")
	}
}
