//go:build unix

package hook

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// stuckInputEnv makes the test binary, started by
// TestRunWithinProcessFaults, act as a hook process: its value is the
// event, its stdin is never closed, and its decision never comes.
const stuckInputEnv = "GEMINI_GUARD_TEST_STUCK_INPUT"

func init() {
	ev := Event(os.Getenv(stuckInputEnv))
	if ev == "" {
		return
	}
	limit := time.Minute
	if d, err := time.ParseDuration(os.Getenv(stuckInputEnv + "_LIMIT")); err == nil {
		limit = d
	}
	signalsArmed = func() { fmt.Fprintln(os.Stderr, "armed") }
	stuck := func() (Output, error) { select {} }
	switch ev {
	case BeforeTool:
		RunWithin(ev, limit, os.Stdin, os.Stdout, func(BeforeToolInput) (Output, error) { return stuck() }, nil)
	case AfterTool:
		RunWithin(ev, limit, os.Stdin, os.Stdout, func(AfterToolInput) (Output, error) { return stuck() }, nil)
	case AfterModel:
		RunWithin(ev, limit, os.Stdin, os.Stdout, func(AfterModelInput) (Output, error) { return stuck() }, nil)
	}
	os.Exit(3) // not reached: the late answer exits 0
}

// In a real process: a stdin held open past the deadline, a SIGTERM (the
// host's timeout) or a SIGINT while the input is awaited or the decision
// is stuck each get exactly one JSON answer, the event's fail-safe, and
// exit 0.
func TestRunWithinProcessFaults(t *testing.T) {
	type fault struct {
		name   string
		input  string // written, then stdin is held open
		close  bool   // stdin closed after input (the decision is stuck)
		limit  string
		signal os.Signal
	}
	faults := []fault{
		{name: "stdin held open", input: `{"tool_name":"x"`, limit: "300ms"},
		{name: "SIGTERM while reading", input: `{"tool_name":"x"`, signal: syscall.SIGTERM},
		{name: "SIGTERM while deciding", input: `{"hook_event_name":"%s","tool_name":"x","llm_response":{"text":"t"}}`, close: true, signal: syscall.SIGTERM},
		{name: "SIGINT while deciding", input: `{"hook_event_name":"%s","tool_name":"x","llm_response":{"text":"t"}}`, close: true, signal: syscall.SIGINT},
		{name: "SIGHUP while reading", input: ``, signal: syscall.SIGHUP},
	}
	for _, f := range faults {
		for _, ev := range []Event{BeforeTool, AfterTool, AfterModel} {
			t.Run(f.name+"/"+string(ev), func(t *testing.T) {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), stuckInputEnv+"="+string(ev), stuckInputEnv+"_LIMIT="+f.limit)
				stdin, err := cmd.StdinPipe()
				require.NoError(t, err)
				var stdout bytes.Buffer
				cmd.Stdout = &stdout
				armed, err := cmd.StderrPipe()
				require.NoError(t, err)
				require.NoError(t, cmd.Start())
				kill := time.AfterFunc(time.Minute, func() { _ = cmd.Process.Kill() })
				defer kill.Stop()
				defer stdin.Close()
				input := f.input
				if strings.Contains(input, "%s") {
					input = fmt.Sprintf(input, ev)
				}
				_, err = io.WriteString(stdin, input)
				require.NoError(t, err)
				if f.close {
					require.NoError(t, stdin.Close())
				}
				if f.signal != nil {
					// Past signalsFrom, as the host's timeout always is:
					// once the process has its handler (a loaded machine
					// can start a -race binary slower than any fixed wait).
					line, err := bufio.NewReader(armed).ReadString('\n')
					require.NoError(t, err, "the process never caught signals")
					require.Equal(t, "armed\n", line)
					require.NoError(t, cmd.Process.Signal(f.signal))
				}
				require.NoError(t, cmd.Wait(), "exit 0")
				require.Equal(t, 1, strings.Count(stdout.String(), "\n"), "one line: %q", stdout.String())
				var got map[string]any
				require.NoError(t, json.Unmarshal(stdout.Bytes(), &got), stdout.String())
				switch ev {
				case BeforeTool:
					assert.Equal(t, "deny", got["decision"])
				case AfterTool:
					assert.Equal(t, "deny", got["decision"])
					assert.Contains(t, got["reason"], "hook.output-unscanned")
				case AfterModel:
					assertWithheld(t, got, "")
				}
				if f.signal != nil {
					assert.Contains(t, got["systemMessage"], "stopped ("+f.signal.String()+")")
					if ev == BeforeTool {
						assert.Contains(t, got["reason"], "hook.stopped")
					}
				} else {
					assert.Contains(t, got["systemMessage"], "did not arrive")
				}
			})
		}
	}
}
