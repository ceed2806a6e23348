package attack

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/scanner/scannertest"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/secrettest"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// bin holds the hook binaries built for the tests.
var bin string

func TestMain(m *testing.M) {
	if runtime.GOOS == "windows" {
		fmt.Println("attack: the hooks run under bash here; skipped on Windows")
		os.Exit(0)
	}
	dir, err := os.MkdirTemp("", "gg-attack")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	bin = dir
	code := 2
	cmd := exec.Command("go", "build", "-tags", bundle.BuildTags, "-trimpath", "-o", dir+string(filepath.Separator),
		"../../cmd/guard-shell", "../../cmd/guard-secrets", "../../cmd/guard-redact", "../../cmd/guard-scanner", "../../cmd/gemini-guard")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building the hooks:", err)
	} else {
		code = m.Run()
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// hooksJSONTimeout is each hook's timeout in hooks/hooks.json; a test
// input must be answered within half of it.
func hooksJSONTimeout(t *testing.T, name string) time.Duration {
	t.Helper()
	data, err := os.ReadFile("../../hooks/hooks.json")
	require.NoError(t, err)
	f, err := bundle.ParseHooks(data)
	require.NoError(t, err)
	timeout, ok := f.Timeouts()[name]
	require.True(t, ok, "no hook %s in hooks.json", name)
	return timeout
}

// world is one user's machine: a home, a workspace, a runtime directory
// for scanner sockets.
type world struct {
	home, workspace, runtime string
}

func newWorld(t *testing.T) world {
	t.Helper()
	// Short: socket paths hold at most 103 bytes.
	base, err := os.MkdirTemp("", "gga")
	require.NoError(t, err)
	t.Cleanup(func() {
		scannertest.KillDaemons(filepath.Join(base, "r"))
		os.RemoveAll(base)
	})
	w := world{home: filepath.Join(base, "h"), workspace: filepath.Join(base, "w"), runtime: filepath.Join(base, "r")}
	for _, d := range []string{w.home, w.workspace, w.runtime} {
		require.NoError(t, os.Mkdir(d, 0o700))
	}
	return w
}

// result is one hook answer and how long the process took.
type result struct {
	out     map[string]any
	raw     string
	elapsed time.Duration
}

// run runs hook binary name with args as Gemini CLI does and checks that it
// printed one JSON object, exited 0 and answered within half of timeout.
func (w world) run(t *testing.T, hookName, binary string, args []string, input any) result {
	t.Helper()
	data, err := json.Marshal(input)
	require.NoError(t, err)
	cmdline := "'" + filepath.Join(bin, binary) + "' " + strings.Join(args, " ")
	cmd := exec.Command("bash", "-c", cmdline)
	cmd.Dir = w.workspace
	cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + w.runtime}
	cmd.Stdin = strings.NewReader(string(data))
	start := time.Now()
	out, err := cmd.Output()
	elapsed := time.Since(start)
	require.NoError(t, err, "exit 0")
	var got map[string]any
	require.NoError(t, json.Unmarshal(out, &got), "one JSON object: %s", out)
	limit := hooksJSONTimeout(t, hookName) / 2
	t.Logf("%s answered in %v (limit %v)", hookName, elapsed.Round(time.Millisecond), limit)
	assert.Less(t, elapsed, limit, "%s must answer within half its hooks.json timeout", hookName)
	return result{out: got, raw: string(out), elapsed: elapsed}
}

func (w world) base(event string) map[string]any {
	return map[string]any{"session_id": "attack", "cwd": w.workspace, "hook_event_name": event, "transcript_path": "/dev/null", "timestamp": "2026-01-01T00:00:00Z"}
}

func with(m map[string]any, kv ...any) map[string]any {
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func ghp(seed uint64) string { return secrettest.Token(seed, "ghp_", 36) }

// Brace expansions that cost a shell parser's expansion seconds while bash
// runs the command in milliseconds, with a destructive command appended:
// the shell hook denies (by a rule, or by its deadline), never times out.
func TestShellExpansionBomb(t *testing.T) {
	w := newWorld(t)
	bomb := "echo " + strings.Repeat("{a,b,c,d}", 12) + " >/dev/null; rm -rf ~"
	r := w.run(t, "gemini-guard-shell", "guard-shell", nil,
		with(w.base("BeforeTool"), "tool_name", "run_shell_command", "tool_input", map[string]any{"command": bomb}))
	assert.Equal(t, "deny", r.out["decision"], r.raw)
}

// A replace with allow_multiple over thousands of places in a large file
// of dense key-shaped lines, adding a token: one scan of the result, not one
// per place; denied in time.
func TestSecretsReplaceManyPlaces(t *testing.T) {
	w := newWorld(t)
	var b strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&b, "api_key_%d = \"k%08x%08x\" # PLACE\n", i, i*7919, i*104729)
	}
	require.NoError(t, os.WriteFile(filepath.Join(w.workspace, "keys.py"), []byte(b.String()), 0o600))
	tok := ghp(17)
	r := w.run(t, "gemini-guard-secrets", "guard-secrets", nil,
		with(w.base("BeforeTool"), "tool_name", "replace", "tool_input", map[string]any{
			"file_path": "keys.py", "old_string": "# PLACE", "new_string": "# token " + tok, "allow_multiple": true, "instruction": "x"}))
	assert.Equal(t, "deny", r.out["decision"], r.raw)
	assert.NotContains(t, r.raw, tok)
}

// A large tool output dense with key-shaped lines and a real token: the
// AfterTool hook redacts it or withholds it in time, never passes it on.
func TestAfterToolLargeOutput(t *testing.T) {
	w := newWorld(t)
	tok := ghp(23)
	var b strings.Builder
	for i := 0; b.Len() < 6<<20; i++ {
		fmt.Fprintf(&b, "secret_%d: \"s%08x%08xZ\"\n", i, i*7919, i*104729)
		if i == 5000 {
			b.WriteString("GITHUB_TOKEN=" + tok + "\n")
		}
	}
	r := w.run(t, "gemini-guard-redact-tool-output", "guard-redact", []string{"after-tool"},
		with(w.base("AfterTool"), "tool_name", "run_shell_command", "tool_input", map[string]any{"command": "cat keys"},
			"tool_response", map[string]any{"llmContent": b.String(), "returnDisplay": ""}))
	assert.Equal(t, "deny", r.out["decision"], "redacted or withheld, never passed on")
	assert.NotContains(t, r.raw, tok)
}

// chunk is an AfterModel input for one streamed chunk.
func (w world) chunk(text string, final bool) map[string]any {
	cand := map[string]any{"content": map[string]any{"role": "model", "parts": []string{text}}, "index": 0}
	if final {
		cand["finishReason"] = "STOP"
	}
	return with(w.base("AfterModel"), "llm_request", map[string]any{"model": "m", "messages": []any{}},
		"llm_response", map[string]any{"text": text, "candidates": []any{cand}})
}

// shown is what the user sees of a chunk answer.
func shown(r result, text string) string {
	spec, ok := r.out["hookSpecificOutput"].(map[string]any)
	if !ok {
		return text
	}
	resp := spec["llm_response"].(map[string]any)
	return resp["text"].(string)
}

// stream sends chunks through the AfterModel hook and returns what is
// shown and the messages to the user.
func (w world) stream(t *testing.T, chunks []string) (string, string) {
	var show, msgs strings.Builder
	for i, c := range chunks {
		r := w.run(t, "gemini-guard-redact-stream", "guard-redact", []string{"after-model"}, w.chunk(c, i == len(chunks)-1))
		show.WriteString(shown(r, c))
		if m, _ := r.out["systemMessage"].(string); m != "" {
			msgs.WriteString(m + "\n")
		}
	}
	return show.String(), msgs.String()
}

// The redactor's session record replaced by a FIFO, a directory or a
// symlink, or its state directory by a file: the chunks are answered in
// time, a token split across them is not shown, and the user is told. The
// state directory replaced by a file took the secrets the session learnt
// from tool output with it (issue 37): the rest of the answer is withheld,
// not shown unchecked.
func TestAfterModelTamperedState(t *testing.T) {
	tok := ghp(31)
	chunks := []string{"Here it is: " + tok[:20], tok[20:] + " done."}
	record := func(w world) string {
		dir := state.Dir(func(k string) string {
			if k == "HOME" {
				return w.home
			}
			return ""
		})
		require.NoError(t, os.MkdirAll(dir, 0o700))
		return filepath.Join(dir, state.Key("after-model", "attack"))
	}
	for name, plant := range map[string]func(w world) error{
		"record is a fifo":      func(w world) error { return syscall.Mkfifo(record(w), 0o600) },
		"record is a directory": func(w world) error { return os.Mkdir(record(w), 0o700) },
		"record is a symlink":   func(w world) error { return os.Symlink("/dev/zero", record(w)) },
		"state dir is a file": func(w world) error {
			dir := filepath.Dir(record(w))
			if err := os.RemoveAll(dir); err != nil {
				return err
			}
			return os.WriteFile(dir, []byte("x"), 0o600)
		},
	} {
		t.Run(name, func(t *testing.T) {
			w := newWorld(t)
			w.sessionStart(t)
			require.NoError(t, plant(w))
			show, msgs := w.stream(t, chunks)
			assert.NotContains(t, show, tok[:20]+tok[20:])
			assert.NotContains(t, show, tok[:20], "the start of the token was held back")
			if name == "state dir is a file" {
				assert.NotContains(t, show, "Here it is", "the learnt secrets are lost: withheld")
				assert.Contains(t, msgs, "cannot be read")
			} else {
				assert.Contains(t, show, "Here it is")
			}
			assert.Contains(t, msgs, "gemini-guard found a")
		})
	}
}

// socket is the scanner daemon socket the hooks of w ask.
func (w world) socket(t *testing.T) string {
	t.Helper()
	s, _ := settings.Load(func(string) string { return "" })
	opts, err := scanner.Normalize(secrets.ScanOptions(s, w.workspace))
	require.NoError(t, err)
	fp, err := scanner.Fingerprint(opts, filepath.Join(bin, "guard-scanner"))
	require.NoError(t, err)
	dir := filepath.Join(w.runtime, "gemini-guard")
	require.NoError(t, scanner.CheckDir(dir, true))
	socket, err := scanner.SocketPath(dir, fp)
	require.NoError(t, err)
	return socket
}

// sessionStart runs the session-start hook, which starts the scanner
// daemon, and waits until the daemon listens: the stream tests measure
// the cost of their input, not of a cold daemon on a loaded machine.
func (w world) sessionStart(t *testing.T) {
	t.Helper()
	cmd := exec.Command(filepath.Join(bin, "gemini-guard"), "session-start")
	cmd.Dir = w.workspace
	cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + w.runtime}
	cmd.Stdin = strings.NewReader(`{"session_id":"attack","cwd":"` + w.workspace + `","source":"startup"}`)
	require.NoError(t, cmd.Run())
	socket := w.socket(t)
	for start := time.Now(); time.Since(start) < time.Minute; time.Sleep(20 * time.Millisecond) {
		if _, err := os.Stat(socket); err == nil {
			return
		}
	}
	t.Fatal("session-start did not start the scanner daemon within a minute")
}

// impostor listens on the socket the hooks' scanner daemon would use and
// answers every request "no findings" with the fingerprint it carries.
func (w world) impostor(t *testing.T) {
	t.Helper()
	l, err := net.Listen("unix", w.socket(t))
	require.NoError(t, err)
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			req, _ := scanner.ReadRequest(c)
			json.NewEncoder(c).Encode(scanner.Response{Fingerprint: req.Fingerprint})
			c.Close()
		}
	}()
}

// The scanner's socket taken by a same-user listener that answers "no
// findings": every hook that scans fails safe and says why.
func TestImpostorScanner(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the scanner's peer is proven through /proc (Linux only)")
	}
	tok := ghp(41)
	t.Run("secrets", func(t *testing.T) {
		w := newWorld(t)
		w.impostor(t)
		r := w.run(t, "gemini-guard-secrets", "guard-secrets", nil,
			with(w.base("BeforeTool"), "tool_name", "write_file", "tool_input", map[string]any{"file_path": "a.py", "content": "T = \"" + tok + "\"\n"}))
		assert.Equal(t, "deny", r.out["decision"])
		assert.Contains(t, r.raw, "not gemini-guard's scanner")
		assert.NotContains(t, r.raw, tok)
	})
	t.Run("after-tool", func(t *testing.T) {
		w := newWorld(t)
		w.impostor(t)
		r := w.run(t, "gemini-guard-redact-tool-output", "guard-redact", []string{"after-tool"},
			with(w.base("AfterTool"), "tool_name", "read_file", "tool_input", map[string]any{"file_path": "a"},
				"tool_response", map[string]any{"llmContent": "GITHUB_TOKEN=" + tok + "\n", "returnDisplay": ""}))
		assert.Equal(t, "deny", r.out["decision"])
		assert.Contains(t, r.raw, "not gemini-guard's scanner")
		assert.NotContains(t, r.raw, tok)
	})
	t.Run("after-model", func(t *testing.T) {
		w := newWorld(t)
		w.impostor(t)
		show, msgs := w.stream(t, []string{"token: " + tok + " ok"})
		assert.NotContains(t, show, tok)
		assert.Contains(t, msgs, "not gemini-guard's scanner")
	})
}

// Every hook's own deadline is at most 40 % of its hooks.json timeout: the
// rest is for starting the process and writing the answer on a loaded
// machine.
func TestDeadlinesFitHooksJSON(t *testing.T) {
	for name, deadline := range map[string]time.Duration{
		"gemini-guard-shell":              hook.ShellDeadline,
		"gemini-guard-secrets":            hook.SecretsDeadline,
		"gemini-guard-redact-tool-output": hook.AfterToolDeadline,
		"gemini-guard-redact-stream":      hook.AfterModelDeadline,
	} {
		assert.LessOrEqual(t, deadline, hooksJSONTimeout(t, name)*2/5, name)
	}
}

// denseKeys is a text of n bytes dense with key-shaped values: the
// detector's cost over it grows faster than its size (1 MiB: tens of
// seconds on a 2-core machine, most of it inside one rule, where a scan
// cannot be cancelled).
func denseKeys(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		fmt.Fprintf(&b, "secret_%d: \"s%08x%08xZ\"\n", i, i*7919, i*104729)
	}
	return b.String()[:n]
}

// daemonPID is the pid of w's scanner daemon, 0 if none.
func (w world) daemonPID(t *testing.T) int {
	return scannertest.LockHolder(scanner.LockPath(w.socket(t)))
}

// exited reports whether process pid is gone (or a zombie nobody reaped).
func exited(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if runtime.GOOS != "linux" {
		return syscall.Kill(pid, 0) != nil
	}
	if err != nil {
		return true
	}
	_, rest, _ := strings.Cut(string(stat), ") ")
	return strings.HasPrefix(rest, "Z")
}

// A burst of tool outputs whose scans cost the daemon tens of seconds
// each, more of them than it has slots: a streamed chunk with a token,
// sent while the burst holds the daemon, is redacted within its hook's
// deadline (not withheld as unchecked), and once the burst's hooks have
// given up, the daemon that was stuck in their scans is gone and a fresh
// one serves.
func TestScannerBurstDoesNotStarveSmallScans(t *testing.T) {
	w := newWorld(t)
	w.sessionStart(t)
	old := w.daemonPID(t)
	require.Positive(t, old)

	output := denseKeys(1 << 20)
	const burst = 4
	done := make(chan string, burst)
	for range burst {
		go func() {
			data, _ := json.Marshal(with(w.base("AfterTool"), "tool_name", "run_shell_command",
				"tool_input", map[string]any{"command": "cat keys"},
				"tool_response", map[string]any{"llmContent": output, "returnDisplay": ""}))
			cmd := exec.Command(filepath.Join(bin, "guard-redact"), "after-tool")
			cmd.Dir = w.workspace
			cmd.Env = []string{"HOME=" + w.home, "PATH=" + os.Getenv("PATH"), "XDG_RUNTIME_DIR=" + w.runtime}
			cmd.Stdin = strings.NewReader(string(data))
			out, _ := cmd.Output()
			done <- string(out)
		}()
	}
	// Let the burst reach the daemon and take its slots.
	time.Sleep(time.Second)

	tok := ghp(53)
	start := time.Now()
	show, msgs := w.stream(t, []string{"token: " + tok + " ok"})
	elapsed := time.Since(start)
	assert.NotContains(t, show, tok)
	assert.Contains(t, show, "ok", "redacted, not withheld as unchecked")
	assert.NotContains(t, msgs, "could not be checked")
	assert.Less(t, elapsed, hook.AfterModelDeadline, "well within its hooks.json timeout")

	for range burst {
		out := <-done
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(out), &got), "one JSON object: %.200s", out)
		assert.Equal(t, "deny", got["decision"], "redacted or withheld, never passed on")
	}
	assert.Eventually(t, func() bool { return exited(old) }, time.Minute, 50*time.Millisecond,
		"the daemon stuck in scans nobody waits for exits")
	r := w.run(t, "gemini-guard-secrets", "guard-secrets", nil,
		with(w.base("BeforeTool"), "tool_name", "write_file", "tool_input", map[string]any{"file_path": "a.py", "content": "T = \"" + tok + "\"\n"}))
	assert.Equal(t, "deny", r.out["decision"])
	assert.NotEqual(t, old, w.daemonPID(t), "a fresh daemon serves")
}
