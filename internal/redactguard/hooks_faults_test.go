//go:build unix

package redactguard

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
)

// The tests here run every hook binary as Gemini CLI does (bash -c, the
// call on stdin, the answer read until stdout closes) under faults and
// under its worst inputs by size: each must answer its fail-safe, or a
// safe decision, at least spare before its hooks.json timeout (past the
// timeout Gemini CLI lets the action through).
const spare = 3 * time.Second

// guardHook is one hook of hooks.json: its name there, its program and
// arguments.
type guardHook struct {
	name, program string
	args          []string
}

var guardHooks = []guardHook{
	{"gemini-guard-shell", "guard-shell", nil},
	{"gemini-guard-secrets", "guard-secrets", nil},
	{"gemini-guard-redact-tool-output", "guard-redact", []string{"after-tool"}},
	{"gemini-guard-redact-stream", "guard-redact", []string{"after-model"}},
	{"gemini-guard-redact-model-request", "guard-redact", []string{"before-model"}},
}

func hookNamed(t *testing.T, name string) guardHook {
	for _, h := range guardHooks {
		if h.name == name {
			return h
		}
	}
	t.Fatalf("no hook %s", name)
	return guardHook{}
}

var (
	guardsOnce  sync.Once
	guardsBuilt error
)

// buildGuards builds guard-shell and guard-secrets beside guard-redact
// (TestMain builds that and guard-scanner), once, for the tests that need
// them.
func buildGuards(t *testing.T) {
	t.Helper()
	guardsOnce.Do(func() {
		for _, name := range []string{"guard-shell", "guard-secrets"} {
			cmd := exec.Command("go", "build", "-tags", bundle.BuildTags, "-trimpath", "-o", filepath.Join(bin, name+exe()), "../../cmd/"+name)
			if out, err := cmd.CombinedOutput(); err != nil {
				guardsBuilt = fmt.Errorf("building %s: %v\n%s", name, err, out)
				return
			}
		}
	})
	require.NoError(t, guardsBuilt)
}

// hookTimeout is the hook's timeout in hooks.json.
func hookTimeout(t *testing.T, name string) time.Duration {
	data, err := os.ReadFile("../../hooks/hooks.json")
	require.NoError(t, err)
	f, err := bundle.ParseHooks(data)
	require.NoError(t, err)
	d, ok := f.Timeouts()[name]
	require.True(t, ok, name)
	return d
}

// hookRun is one hook process started as Gemini CLI starts it.
type hookRun struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout bytes.Buffer
	stderr bytes.Buffer
	start  time.Time
}

func startHook(t *testing.T, home, cwd string, h guardHook) *hookRun {
	t.Helper()
	line := "'" + filepath.Join(bin, h.program+exe()) + "'"
	for _, a := range h.args {
		line += " " + a
	}
	r := &hookRun{cmd: exec.Command("bash", "-c", "exec "+line)}
	r.cmd.Dir = cwd
	r.cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + home}
	var err error
	r.stdin, err = r.cmd.StdinPipe()
	require.NoError(t, err)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	r.start = time.Now()
	require.NoError(t, r.cmd.Start())
	kill := time.AfterFunc(2*time.Minute, func() { _ = r.cmd.Process.Kill() })
	t.Cleanup(func() { kill.Stop(); _ = r.stdin.Close() })
	return r
}

// wait waits for the answer and checks the contract: exit 0, nothing on
// stderr, one JSON object, within the hook's timeout less spare. It
// returns the answer and how long it took.
func (r *hookRun) wait(t *testing.T, h guardHook) (map[string]any, time.Duration) {
	t.Helper()
	err := r.cmd.Wait()
	took := time.Since(r.start)
	require.NoError(t, err, "exit 0; stderr: %s", r.stderr.String())
	assert.Empty(t, r.stderr.String(), "nothing on stderr")
	require.Equal(t, 1, strings.Count(r.stdout.String(), "\n"), "one line: %.300q", r.stdout.String())
	var got map[string]any
	require.NoError(t, json.Unmarshal(r.stdout.Bytes(), &got), "%.300s", r.stdout.String())
	limit := hookTimeout(t, h.name) - spare
	assert.LessOrEqual(t, took, limit, "%s answered %v into a %v timeout", h.name, took, limit+spare)
	t.Logf("%s answered in %v", h.name, took.Round(time.Millisecond))
	return got, took
}

// assertFailSafe checks that got is hook h's safe answer: deny for the
// tool and request hooks, the chunk withheld (never deny, which prints
// it) for AfterModel. None shows any of hidden.
func assertFailSafe(t *testing.T, h guardHook, got map[string]any, hidden ...string) {
	t.Helper()
	b, _ := json.Marshal(got)
	for _, s := range hidden {
		require.NotContains(t, string(b), s, "%s shows what it could not check", h.name)
	}
	if h.name != "gemini-guard-redact-stream" {
		assert.Equal(t, "deny", got["decision"], "%s: %.300s", h.name, b)
		return
	}
	assert.NotEqual(t, "deny", got["decision"], "a deny in AfterModel prints the chunk")
	spec, _ := got["hookSpecificOutput"].(map[string]any)
	require.NotNil(t, spec, "the chunk is replaced: %.300s", b)
	resp, _ := spec["llm_response"].(map[string]any)
	require.NotNil(t, resp, "%.300s", b)
	text, _ := resp["text"].(string)
	assert.True(t, text == "" || strings.Contains(text, "gemini-guard withheld"), "withheld: %q", text)
}

// faultInputs is, per hook, the start of an ordinary call (the fault
// tests send it and hold stdin open) with a secret in it.
func faultInput(h guardHook, tok string) string {
	switch h.name {
	case "gemini-guard-shell":
		return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"rm -rf ~ # ` + tok
	case "gemini-guard-secrets":
		return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"t.py","content":"T = '` + tok
	case "gemini-guard-redact-tool-output":
		return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":"token ` + tok
	case "gemini-guard-redact-stream":
		return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"AfterModel","llm_request":{"messages":[]},"llm_response":{"text":"token ` + tok
	default:
		return `{"session_id":"s1","cwd":"/tmp","hook_event_name":"BeforeModel","llm_request":{"model":"m","messages":[{"role":"user","content":"token ` + tok
	}
}

// TestHooksAnswerTheirFailSafeUnderFaults: a stdin held open (a host that
// trickles its input or never closes it), a SIGTERM (the host's timeout)
// or SIGINT before the answer, and AfterModel input that cannot be read:
// every hook answers its fail-safe in time, never silence, never the
// input's text.
func TestHooksAnswerTheirFailSafeUnderFaults(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every hook to its deadline")
	}
	buildGuards(t)
	home := t.TempDir()
	tok := secretsFor["github-pat"]
	for _, h := range guardHooks {
		t.Run("stdin held open/"+h.name, func(t *testing.T) {
			t.Parallel()
			r := startHook(t, home, t.TempDir(), h)
			_, err := io.WriteString(r.stdin, faultInput(h, tok))
			require.NoError(t, err)
			got, _ := r.wait(t, h)
			assertFailSafe(t, h, got, tok)
			assert.Contains(t, got["systemMessage"], "did not arrive")
		})
		for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
			t.Run(sig.String()+"/"+h.name, func(t *testing.T) {
				t.Parallel()
				r := startHook(t, home, t.TempDir(), h)
				_, err := io.WriteString(r.stdin, faultInput(h, tok))
				require.NoError(t, err)
				time.Sleep(time.Second) // the host's timeout is seconds in; a loaded machine starts slower
				require.NoError(t, r.cmd.Process.Signal(sig))
				got, _ := r.wait(t, h)
				assertFailSafe(t, h, got, tok)
				assert.Contains(t, got["systemMessage"], "stopped")
			})
		}
	}
	chunk := hookNamed(t, "gemini-guard-redact-stream")
	over := `{"llm_response":{"text":"` + strings.Repeat("a", 33<<20) + `"}}`
	for name, in := range map[string]string{
		"broken JSON":         `{"session_id":"s1","llm_response":{"text":"token ` + tok + `"`,
		"not an object":       `["token ` + tok + `"]`,
		"no text":             `{"session_id":"s1","llm_response":{"candidates":[{"content":{"parts":["token ` + tok + `"]}}]}}`,
		"response not object": `{"session_id":"s1","llm_response":"token ` + tok + `"}`,
		"over the size limit": over,
	} {
		t.Run("unreadable AfterModel/"+name, func(t *testing.T) {
			t.Parallel()
			r := startHook(t, home, t.TempDir(), chunk)
			go func() { _, _ = io.WriteString(r.stdin, in); _ = r.stdin.Close() }()
			got, _ := r.wait(t, chunk)
			assertFailSafe(t, chunk, got, tok, "aaaaaaaaaaaaaaaa")
			assert.Contains(t, got["content"], "gemini-guard withheld")
		})
	}
}

// keyDense is n bytes of lines that each hold a key (GitHub tokens and AWS
// key ids, which the built-in rules find without context), and a sample of
// the keys.
func keyDense(n int) (string, []string) {
	r := secrettest.NewRand(37)
	var b strings.Builder
	var sample []string
	for i := 0; b.Len() < n; i++ {
		var k string
		if i%2 == 0 {
			k = "ghp_" + r.From(secrettest.Alnum, 36)
			b.WriteString("token: " + k + "\n")
		} else {
			k = "AKIA" + r.From("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)
			b.WriteString("aws_access_key_id = " + k + "\n")
		}
		if i%997 == 0 {
			sample = append(sample, k)
		}
	}
	return b.String(), sample
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestHooksWorstInputsBySize feeds each hook its worst inputs by size: an
// AfterTool output of megabytes of keys, one multi-MB AfterModel chunk, a
// command with a multi-MB word, a write over the secrets guard's scan
// limit, a request to the model of megabytes of keys. Each answer is a
// safe one (deny, withheld, redacted; never an allow of text not scanned)
// and comes at least spare before the hook's timeout.
func TestHooksWorstInputsBySize(t *testing.T) {
	if testing.Short() {
		t.Skip("megabytes through every hook")
	}
	buildGuards(t)
	home := t.TempDir()
	warmScanner(t, home)
	dense, sample := keyDense(6 << 20)
	word := strings.Repeat("x", 6<<20)
	tok := secretsFor["github-pat"]
	msgs := make([]string, 0, 8)
	for i := 0; i < 8; i++ {
		part := dense[i*len(dense)/8 : (i+1)*len(dense)/8]
		role := map[bool]string{true: "user", false: "model"}[i%2 == 0]
		msgs = append(msgs, `{"role":"`+role+`","content":`+jsonString(part)+`}`)
	}
	cases := []struct {
		name, hook, input string
		hidden            []string
		reason            string // in a deny's reason
	}{
		{"AfterTool output of 6 MB of keys", "gemini-guard-redact-tool-output",
			`{"session_id":"w1","cwd":"/tmp","hook_event_name":"AfterTool","tool_name":"read_file","tool_input":{},"tool_response":{"llmContent":` + jsonString(dense) + `}}`, sample, ""},
		{"AfterModel chunk of 6 MB of keys", "gemini-guard-redact-stream",
			chunkInput("w2", "q", dense, ""), sample, ""},
		{"shell command with a 6 MB word", "gemini-guard-shell",
			`{"session_id":"w3","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo ` + word + ` ` + tok + `"}}`, []string{tok}, "shell.too-complex"},
		{"secrets: command with a 6 MB word", "gemini-guard-secrets",
			`{"session_id":"w4","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"run_shell_command","tool_input":{"command":"echo ` + word + ` ` + tok + `"}}`, []string{tok}, "secrets.too-large-to-scan"},
		{"write over the scan limit, a key at its end", "gemini-guard-secrets",
			`{"session_id":"w5","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"big.txt","content":` + jsonString(strings.Repeat("plain line\n", (5<<20)/11)+"T = '"+tok+"'\n") + `}}`, []string{tok}, "secrets.too-large-to-scan"},
		{"write of 4 MB of keys", "gemini-guard-secrets",
			`{"session_id":"w6","cwd":"/tmp","hook_event_name":"BeforeTool","tool_name":"write_file","tool_input":{"file_path":"keys.txt","content":` + jsonString(dense[:4<<20-1]) + `}}`, sample[:len(sample)/2], ""},
		{"BeforeModel request of 6 MB of keys", "gemini-guard-redact-model-request",
			`{"session_id":"w7","cwd":"/tmp","hook_event_name":"BeforeModel","llm_request":{"model":"m","messages":[` + strings.Join(msgs, ",") + `]}}`, sample, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			h := hookNamed(t, c.hook)
			r := startHook(t, home, t.TempDir(), h)
			go func() { _, _ = io.WriteString(r.stdin, c.input); _ = r.stdin.Close() }()
			got, _ := r.wait(t, h)
			if spec, ok := got["hookSpecificOutput"].(map[string]any); ok && spec["llm_request"] != nil {
				// A rewritten request: safe when nothing it could not scan
				// is left in it.
				b, _ := json.Marshal(got)
				for _, s := range c.hidden {
					require.NotContains(t, string(b), s)
				}
				return
			}
			assertFailSafe(t, h, got, c.hidden...)
			if c.reason != "" {
				assert.Contains(t, got["reason"], c.reason)
			}
		})
	}
}
