package e2e

import (
	"bufio"
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

// ClaudePackage and ClaudeVersion pin the Claude Code the Claude end-to-end
// tests run against. Its hook contract (internal/hook's Claude dialect)
// was read from this version.
const (
	ClaudePackage = "@anthropic-ai/claude-code"
	ClaudeVersion = "2.1.332"
)

// EnsureClaude returns the pinned claude program, installing it with npm
// into <user cache dir>/gemini-guard/claude-code-<version> when absent. The
// npm package is a wrapper around a native binary for the platform
// (@anthropic-ai/claude-code-linux-x64, ~400 MB), which bin/claude.exe is.
func EnsureClaude(ctx context.Context) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("e2e: no user cache directory: %w", err)
	}
	return ensurePackage(ctx, ClaudePackage, ClaudeVersion, filepath.Join(cache, "gemini-guard", "claude-code-"+ClaudeVersion), "claude")
}

// ClaudeHarness is the pinned Claude Code and gemini-guard's programs,
// built once; each session installs them into its own HOME.
type ClaudeHarness struct {
	Claude string
	// Bin holds the gemini-guard programs the hooks run.
	Bin string
}

// NewClaude ensures the pinned Claude Code and stages the extension from
// root into dir (bundle.Stage builds its programs into dir/extension/bin).
func NewClaude(ctx context.Context, root, dir string) (*ClaudeHarness, error) {
	claude, err := EnsureClaude(ctx)
	if err != nil {
		return nil, err
	}
	ext := filepath.Join(dir, "extension")
	if err := bundle.Stage(ctx, root, ext, bundle.Host()); err != nil {
		return nil, err
	}
	return &ClaudeHarness{Claude: claude, Bin: filepath.Join(ext, "bin")}, nil
}

// Session is a fresh HOME and workspace under dir with gemini-guard
// registered in ~/.claude/settings.json, as a user does it:
//
//	gemini-guard claude install --claude <claude>
func (h *ClaudeHarness) Session(ctx context.Context, dir string) (*Session, string, error) {
	s, err := newSession(h.Claude, dir)
	if err != nil {
		return nil, "", err
	}
	if s.Runtime, err = os.MkdirTemp("", "ggrt"); err != nil {
		return nil, "", fmt.Errorf("e2e: %w", err)
	}
	cmd := exec.CommandContext(ctx, filepath.Join(h.Bin, "gemini-guard"), "claude", "install", "--claude", h.Claude)
	cmd.Dir = s.Workspace
	cmd.Env = s.claudeEnv("")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s.Close()
		return nil, "", fmt.Errorf("e2e: gemini-guard claude install: %w\n%s", err, out)
	}
	return s, string(out), nil
}

// claudeEnv is the environment of a Claude Code run: the session's, with
// no Anthropic or Claude settings of the developer's, the API at baseURL
// with a fake key, and nothing sent anywhere else.
func (s *Session) claudeEnv(baseURL string) []string {
	var env []string
	for _, kv := range s.env() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "ANTHROPIC_") || strings.HasPrefix(name, "CLAUDE") || name == "SHELL" {
			continue
		}
		env = append(env, kv)
	}
	env = append(env, "SHELL=/bin/bash", "ANTHROPIC_API_KEY=sk-ant-e2e-dummy",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "IS_SANDBOX=1")
	if baseURL != "" {
		env = append(env, "ANTHROPIC_BASE_URL="+baseURL)
	}
	return env
}

// ClaudeResult is one headless Claude Code run.
type ClaudeResult struct {
	Workspace      string
	ExitCode       int
	Stdout, Stderr string
	// Events are the stream-json records of stdout.
	Events []map[string]any
	// Sent is every request the model server received: what the model saw.
	Sent string
	// Requests counts the requests to /v1/messages.
	Requests int
}

// ClaudeToolResult is one tool_result the model was sent.
type ClaudeToolResult struct {
	ToolUseID string
	IsError   bool
	Content   string
}

// ToolResults are the run's tool results, in order, from the user records
// of the stream.
func (r *ClaudeResult) ToolResults() []ClaudeToolResult {
	var out []ClaudeToolResult
	for _, e := range r.Events {
		if e["type"] != "user" {
			continue
		}
		msg, _ := e["message"].(map[string]any)
		blocks, _ := msg["content"].([]any)
		for _, b := range blocks {
			m, _ := b.(map[string]any)
			if m["type"] != "tool_result" {
				continue
			}
			tr := ClaudeToolResult{}
			tr.ToolUseID, _ = m["tool_use_id"].(string)
			tr.IsError, _ = m["is_error"].(bool)
			tr.Content = blockText(m["content"])
			out = append(out, tr)
		}
	}
	return out
}

// Result is the run's final result record, nil when there is none.
func (r *ClaudeResult) Result() map[string]any {
	for i := len(r.Events) - 1; i >= 0; i-- {
		if r.Events[i]["type"] == "result" {
			return r.Events[i]
		}
	}
	return nil
}

// blockText is the text of a tool_result's content: a string, or text
// blocks.
func blockText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, e := range x {
			if m, ok := e.(map[string]any); ok {
				if t, ok := m["text"].(string); ok {
					b.WriteString(t)
				}
			}
		}
		return b.String()
	}
	return ""
}

// ReadFile reads a file of the workspace; ok is false when it is absent.
func (r *ClaudeResult) ReadFile(name string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(r.Workspace, name))
	return string(data), err == nil
}

// RunClaude runs Claude Code once in the session's workspace against a
// scripted Anthropic Messages API on 127.0.0.1:
//
//	ANTHROPIC_BASE_URL=http://127.0.0.1:<port> ANTHROPIC_API_KEY=<fake> IS_SANDBOX=1 \
//	    claude -p <prompt> --output-format stream-json --verbose --model claude-sonnet-4-5 \
//	    --permission-mode bypassPermissions </dev/null
//
// bypassPermissions: every call runs unless a hook denies it, so what the
// guard lets through really runs (scenarios use stand-ins in temporary
// directories).
//
// args are more flags for claude (--mcp-config …).
func (s *Session) RunClaude(ctx context.Context, prompt string, script []Response, args ...string) (*ClaudeResult, error) {
	srv, err := NewAnthropicServer(script)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	if prompt == "" {
		prompt = "do the task"
	}
	cmd := exec.CommandContext(ctx, s.Gemini, append([]string{"-p", prompt, "--output-format", "stream-json", "--verbose",
		"--model", "claude-sonnet-4-5", "--permission-mode", "bypassPermissions"}, args...)...)
	cmd.Dir = s.Workspace
	cmd.Env = s.claudeEnv(srv.URL)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := &ClaudeResult{Workspace: s.Workspace}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return nil, fmt.Errorf("e2e: run claude: %w\n%s", err, stderr.String())
		}
		r.ExitCode = exit.ExitCode()
	}
	r.Stdout, r.Stderr = stdout.String(), stderr.String()
	r.Sent, r.Requests = srv.Sent()
	sc := bufio.NewScanner(strings.NewReader(r.Stdout))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var e map[string]any
		if json.Unmarshal(sc.Bytes(), &e) == nil {
			r.Events = append(r.Events, e)
		}
	}
	return r, nil
}

// AnthropicServer is a scripted Anthropic Messages API on 127.0.0.1, for
// Claude Code. A POST /v1/messages that offers tools gets the script's
// Response number N, N the assistant turns already in its messages (so a
// retried request gets the same answer), streamed as server-sent events
// the way the real API streams them: text parts become text blocks, Call
// parts tool_use blocks. Past the end of the script, and for a request
// without tools, the answer is a short text. Requests are kept for the
// test to inspect what the model was sent.
type AnthropicServer struct {
	URL string

	mu       sync.Mutex
	script   []Response
	requests [][]byte
	calls    int
	server   *http.Server
}

// NewAnthropicServer starts a server that answers with script. Close stops
// it.
func NewAnthropicServer(script []Response) (*AnthropicServer, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("e2e: fake Anthropic server: %w", err)
	}
	s := &AnthropicServer{URL: "http://" + l.Addr().String(), script: script}
	s.server = &http.Server{Handler: http.HandlerFunc(s.serve)}
	go s.server.Serve(l)
	return s, nil
}

// Close stops the server.
func (s *AnthropicServer) Close() { s.server.Close() }

// Sent is every request body to /v1/messages, joined, and their number.
func (s *AnthropicServer) Sent() (string, int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for _, r := range s.requests {
		b.Write(r)
		b.WriteByte('\n')
	}
	return b.String(), len(s.requests)
}

type anthropicRequest struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Tools    []any  `json:"tools"`
	Messages []struct {
		Role string `json:"role"`
	} `json:"messages"`
}

func (s *AnthropicServer) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(io.LimitReader(r.Body, 64<<20))
	switch {
	case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/v1/messages/count_tokens"):
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"input_tokens":10}`)
		return
	case r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/v1/messages"):
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		io.WriteString(w, `{"type":"error","error":{"type":"not_found_error","message":"not found"}}`)
		return
	}
	var req anthropicRequest
	json.Unmarshal(body, &req)
	s.mu.Lock()
	s.requests = append(s.requests, body)
	resp := Say("Done.")
	if len(req.Tools) > 0 {
		turn := 0
		for _, m := range req.Messages {
			if m.Role == "assistant" {
				turn++
			}
		}
		if turn < len(s.script) {
			resp = s.script[turn]
		}
	}
	s.calls++
	call := s.calls
	s.mu.Unlock()
	blocks, stop := anthropicBlocks(resp, call)
	model := req.Model
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	id := fmt.Sprintf("msg_%d", call)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": id, "type": "message", "role": "assistant", "model": model,
			"content": blocks, "stop_reason": stop, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 5}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	send := func(event string, data map[string]any) {
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	send("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": id, "type": "message", "role": "assistant",
		"model": model, "content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": map[string]any{"input_tokens": 10, "output_tokens": 1}}})
	for i, b := range blocks {
		switch b["type"] {
		case "text":
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": b["text"]}})
		case "tool_use":
			input, _ := json.Marshal(b["input"])
			send("content_block_start", map[string]any{"type": "content_block_start", "index": i,
				"content_block": map[string]any{"type": "tool_use", "id": b["id"], "name": b["name"], "input": map[string]any{}}})
			send("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "input_json_delta", "partial_json": string(input)}})
		}
		send("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	}
	send("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
	send("message_stop", map[string]any{"type": "message_stop"})
}

// anthropicBlocks is resp as content blocks, with tool ids unique to the
// server's call, and the stop reason.
func anthropicBlocks(resp Response, call int) ([]map[string]any, string) {
	var blocks []map[string]any
	stop := "end_turn"
	for _, c := range resp {
		for _, p := range c {
			if t, ok := p["text"].(string); ok && t != "" {
				blocks = append(blocks, map[string]any{"type": "text", "text": t})
			}
			if fc, ok := p["functionCall"].(map[string]any); ok {
				blocks = append(blocks, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d_%02d", call, len(blocks)), "name": fc["name"], "input": fc["args"]})
				stop = "tool_use"
			}
		}
	}
	if len(blocks) == 0 {
		blocks = append(blocks, map[string]any{"type": "text", "text": "Done."})
	}
	return blocks, stop
}
