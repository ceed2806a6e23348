package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// CodexPackage and CodexVersion pin the Codex CLI the Codex end-to-end
// tests run against. Its hook contract (internal/hook's Codex dialect, the
// trust hash of `gemini-guard codex install`) was read from this version.
const (
	CodexPackage = "@openai/codex"
	CodexVersion = "0.171.0"
)

// CodexModel is the model the fake provider is named: a model of Codex's
// bundled catalog that gets exec_command and the freeform apply_patch tool.
const CodexModel = "gpt-5.5"

// EnsureCodex returns the pinned codex program, installing it with npm into
// <user cache dir>/gemini-guard/codex-<version> when absent.
func EnsureCodex(ctx context.Context) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("e2e: no user cache directory: %w", err)
	}
	return ensurePackage(ctx, CodexPackage, CodexVersion, filepath.Join(cache, "gemini-guard", "codex-"+CodexVersion), "codex")
}

// StageCodexBin builds gemini-guard's programs into dir/bin, for
// `gemini-guard codex install` to register from there.
func StageCodexBin(ctx context.Context, root, dir string) (string, error) {
	if err := bundle.Stage(ctx, root, dir, bundle.Host()); err != nil {
		return "", err
	}
	return filepath.Join(dir, "bin"), nil
}

// CodexSession is a throwaway Codex user: HOME, CODEX_HOME=HOME/.codex
// with a config.toml whose model provider is a local fake Responses API,
// and a workspace.
type CodexSession struct {
	Codex, Bin            string
	Home, CodexHome, Work string
	Server                *CodexServer
}

// NewCodexSession makes a session under dir for the codex program and
// gemini-guard's programs in bin, with the fake server started; the guard
// is not installed yet (Install).
func NewCodexSession(codex, bin, dir string) (*CodexSession, error) {
	s := &CodexSession{Codex: codex, Bin: bin, Home: filepath.Join(dir, "home"), Work: filepath.Join(dir, "work")}
	s.CodexHome = filepath.Join(s.Home, ".codex")
	for _, d := range []string{s.CodexHome, s.Work} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("e2e: %w", err)
		}
	}
	srv, err := NewCodexServer()
	if err != nil {
		return nil, err
	}
	s.Server = srv
	config := `# written by the e2e harness
model = "` + CodexModel + `"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.fake]
name = "fake"
base_url = "` + srv.URL + `"
wire_api = "responses"
env_key = "FAKE_OPENAI_KEY"
`
	if err := os.WriteFile(filepath.Join(s.CodexHome, "config.toml"), []byte(config), 0o600); err != nil {
		return nil, fmt.Errorf("e2e: %w", err)
	}
	return s, nil
}

// Close stops the fake server.
func (s *CodexSession) Close() { s.Server.Close() }

// env is the environment Codex and the guard run in: only what they need,
// HOME and CODEX_HOME the session's, a fake key, and a proxy that goes
// nowhere for every host but this machine, so that nothing reaches the
// real API or any other server.
func (s *CodexSession) env() []string {
	return []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + s.Home, "CODEX_HOME=" + s.CodexHome, "SHELL=/bin/bash", "TERM=dumb",
		"XDG_RUNTIME_DIR=" + s.Home, "FAKE_OPENAI_KEY=dummy", "RUST_LOG=warn", "NO_COLOR=1",
		"HTTPS_PROXY=http://127.0.0.1:9", "HTTP_PROXY=http://127.0.0.1:9", "ALL_PROXY=http://127.0.0.1:9",
		"https_proxy=http://127.0.0.1:9", "http_proxy=http://127.0.0.1:9", "NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
	}
}

// Guard runs `gemini-guard <args>` from the session's bin, as the user
// would, and returns its combined output.
func (s *CodexSession) Guard(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, filepath.Join(s.Bin, "gemini-guard"), args...)
	cmd.Env, cmd.Dir = s.env(), s.Work
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// CodexResult is one `codex exec` run.
type CodexResult struct {
	ExitCode       int
	Stdout, Stderr string
	// Requests are the bodies the fake model received, in order.
	Requests []string
}

// Sent is every request joined: all the model was shown.
func (r *CodexResult) Sent() string { return strings.Join(r.Requests, "\n") }

// Outputs are the tool results the model was sent, by call id
// (function_call_output and custom_tool_call_output items).
func (r *CodexResult) Outputs() map[string]string {
	out := map[string]string{}
	for _, req := range r.Requests {
		var body struct {
			Input []struct {
				Type   string          `json:"type"`
				CallID string          `json:"call_id"`
				Output json.RawMessage `json:"output"`
			} `json:"input"`
		}
		if json.Unmarshal([]byte(req), &body) != nil {
			continue
		}
		for _, it := range body.Input {
			if strings.HasSuffix(it.Type, "_output") {
				var s string
				if json.Unmarshal(it.Output, &s) != nil {
					s = string(it.Output)
				}
				out[it.CallID] = s
			}
		}
	}
	return out
}

// Run runs `codex exec --json` once in the workspace with script as the
// model's turns, without --dangerously-bypass-hook-trust: a hook runs only
// if the installer trusted it.
func (s *CodexSession) Run(ctx context.Context, script ...CodexStep) (*CodexResult, error) {
	s.Server.Reset(script)
	cmd := exec.CommandContext(ctx, s.Codex, "exec", "--json", "--skip-git-repo-check", "do the task")
	cmd.Env, cmd.Dir, cmd.Stdin = s.env(), s.Work, nil
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := &CodexResult{}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return nil, fmt.Errorf("e2e: run codex: %w\n%s", err, stderr.String())
		}
		r.ExitCode = exit.ExitCode()
	}
	r.Stdout, r.Stderr, r.Requests = stdout.String(), stderr.String(), s.Server.Requests()
	return r, nil
}

// CodexStep is one scripted model turn: a shell call (exec_command), a
// patch (the freeform apply_patch tool) or, when both are empty, the
// closing text. ID is the call id.
type CodexStep struct {
	ID    string
	Shell string
	Patch string
}

// CodexServer is a scripted OpenAI Responses API (POST /v1/responses,
// streamed as server-sent events) on 127.0.0.1. The reply to a request is
// chosen by the number of tool outputs in its input: N outputs get step N
// of the script, past its end a closing text.
type CodexServer struct {
	URL string

	mu       sync.Mutex
	script   []CodexStep
	requests []string
	server   *http.Server
}

// NewCodexServer starts a server; Close stops it.
func NewCodexServer() (*CodexServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("e2e: fake Responses API: %w", err)
	}
	s := &CodexServer{URL: "http://" + l.Addr().String() + "/v1"}
	s.server = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.server.Serve(l)
	return s, nil
}

// Close stops the server.
func (s *CodexServer) Close() { s.server.Close() }

// Reset sets the script of the next run and forgets earlier requests.
func (s *CodexServer) Reset(script []CodexStep) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script, s.requests = script, nil
}

// Requests are the request bodies received since Reset.
func (s *CodexServer) Requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.requests...)
}

func (s *CodexServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.NotFound(w, r)
		return
	}
	var req struct {
		Input []struct {
			Type string `json:"type"`
		} `json:"input"`
	}
	_ = json.Unmarshal(body, &req)
	outputs := 0
	for _, it := range req.Input {
		if strings.HasSuffix(it.Type, "_output") {
			outputs++
		}
	}
	s.mu.Lock()
	s.requests = append(s.requests, string(body))
	step := CodexStep{}
	if outputs < len(s.script) {
		step = s.script[outputs]
	}
	s.mu.Unlock()
	var item map[string]any
	switch {
	case step.Shell != "":
		args, _ := json.Marshal(map[string]string{"cmd": step.Shell})
		item = map[string]any{"type": "function_call", "id": "fc_" + step.ID, "call_id": step.ID, "name": "exec_command", "arguments": string(args), "status": "completed"}
	case step.Patch != "":
		item = map[string]any{"type": "custom_tool_call", "id": "ctc_" + step.ID, "call_id": step.ID, "name": "apply_patch", "input": step.Patch, "status": "completed"}
	default:
		item = map[string]any{"type": "message", "id": "msg_done", "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	}
	send("response.created", map[string]any{"response": map[string]any{"id": "resp_1"}})
	send("response.output_item.added", map[string]any{"output_index": 0, "item": item})
	if item["type"] == "message" {
		send("response.output_text.delta", map[string]any{"item_id": "msg_done", "output_index": 0, "content_index": 0, "delta": "done"})
	}
	send("response.output_item.done", map[string]any{"output_index": 0, "item": item})
	send("response.completed", map[string]any{"response": map[string]any{"id": "resp_1", "usage": map[string]any{
		"input_tokens": 10, "input_tokens_details": map[string]any{"cached_tokens": 0}, "output_tokens": 5,
		"output_tokens_details": map[string]any{"reasoning_tokens": 0}, "total_tokens": 15}}})
}
