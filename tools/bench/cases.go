package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// environment is where hooks run: a throwaway workspace (their cwd) and HOME
// (so per-user state of the hooks never lands in the real one), and the
// variables Gemini CLI sets for hooks.
type environment struct {
	workspace string
	home      string
	vars      []string
	goroot    string
}

const sessionID = "5b0f3c2e-bench-4c1d-9a77-0d1e2f3a4b5c"

func newEnvironment(work string) (*environment, error) {
	e := &environment{workspace: filepath.Join(work, "workspace"), home: filepath.Join(work, "home")}
	for _, d := range []string{e.workspace, e.home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "HOME" || strings.HasPrefix(name, "XDG_") || strings.HasPrefix(name, "GEMINI_") {
			continue // no user settings, no user state
		}
		e.vars = append(e.vars, kv)
	}
	e.vars = append(e.vars,
		"HOME="+e.home,
		"GEMINI_PROJECT_DIR="+e.workspace, "GEMINI_CWD="+e.workspace, "CLAUDE_PROJECT_DIR="+e.workspace,
		"GEMINI_SESSION_ID="+sessionID,
	)
	goTool, err := bundle.GoTool()
	if err != nil {
		return nil, err
	}
	out, err := exec.CommandContext(context.Background(), goTool, "env", "GOROOT").Output()
	if err != nil {
		return nil, fmt.Errorf("go env GOROOT: %w", err)
	}
	e.goroot = strings.TrimSpace(string(out))
	return e, nil
}

// benchCase is one hook input.
type benchCase struct {
	name   string
	hook   string // hook name in hooks.json
	input  []byte
	target float64 // issue 6's target ratio to the floor; 0 for none
	overMS float64 // a target in ms over the floor instead; 0 for none
	note   string
	// newSession makes every run the first call of a session of its own
	// (hooks that remember what a session's earlier calls found).
	newSession bool
	// env are variables set for this case's runs besides the environment's.
	env []string
}

// knownSecrets are 50 secret-named variables with custom-format values
// that no rule recognises, as a user's environment may hold them: the
// guards know them by value (issue 27) and look for each in every text.
func knownSecrets() []string {
	var out []string
	state := uint64(27)
	for i := range 50 {
		var v strings.Builder
		for range 24 + i%16 {
			state = state*6364136223846793005 + 1442695040888963407
			v.WriteByte("abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"[state>>58%57])
		}
		out = append(out, fmt.Sprintf("BENCH_SERVICE_%02d_TOKEN=%s", i, v.String()))
	}
	return out
}

// inputFor is c's input for run i: with newSession, its session id is
// replaced by one of the same length that no other run uses.
func (c benchCase) inputFor(i int) []byte {
	if !c.newSession {
		return c.input
	}
	id := fmt.Sprintf("%s%08d", sessionID[:len(sessionID)-8], i)
	return bytes.Replace(c.input, []byte(`"`+sessionID+`"`), []byte(`"`+id+`"`), 1)
}

// Targets from issue 6 (median, ratio to the floor).
const (
	targetShell      = 1.3
	targetChunk      = 1.5
	targetWrite10KB  = 2
	targetWrite100KB = 5
	// targetBeforeModelMS is issue 13's target for BeforeModel on a 1 MB
	// conversation, in ms over the floor.
	targetBeforeModelMS = 50
)

func (e *environment) base(event string) map[string]any {
	return map[string]any{
		"session_id":      sessionID,
		"transcript_path": filepath.Join(e.home, ".gemini", "tmp", "workspace", "chats", "session-bench.jsonl"),
		"cwd":             e.workspace,
		"hook_event_name": event,
		"timestamp":       time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC).Format(time.RFC3339Nano),
	}
}

func (e *environment) beforeTool(tool string, args map[string]any) []byte {
	in := e.base("BeforeTool")
	in["tool_name"] = tool
	in["tool_input"] = args
	return mustJSON(in)
}

// afterModel is one streamed chunk in the middle of an answer (no
// finishReason), with the conversation so far in llm_request as Gemini CLI
// re-sends it for every chunk.
func (e *environment) afterModel(conversation []map[string]string, text string) []byte {
	in := e.base("AfterModel")
	in["llm_request"] = map[string]any{
		"model":    "gemini-2.5-flash",
		"messages": conversation,
		"config":   map[string]any{"temperature": 1, "topP": 0.95},
	}
	in["llm_response"] = map[string]any{
		"text": text,
		"candidates": []any{map[string]any{
			"content": map[string]any{"role": "model", "parts": []string{text}},
			"index":   0,
		}},
	}
	return mustJSON(in)
}

// beforeModel is the request to the model as the BeforeModel hook sees it.
func (e *environment) beforeModel(conversation []map[string]string) []byte {
	in := e.base("BeforeModel")
	in["llm_request"] = map[string]any{
		"model":    "gemini-2.5-flash",
		"messages": conversation,
		"config":   map[string]any{"temperature": 1, "topP": 0.95},
	}
	return mustJSON(in)
}

// bigConversation is about size bytes of conversation: the user's requests
// and the model's answers quoting real Go code, a long session's history.
func bigConversation(code string, size int) []map[string]string {
	var out []map[string]string
	total := 0
	for i := 0; total < size; i++ {
		user := fmt.Sprintf("Step %d: please look at the next part of the file and tell me what it does.", i)
		model := "Here is that part of the file:\n\n```go\n" + code + "\n```\n\nIt handles the request and returns early on error."
		out = append(out, map[string]string{"role": "user", "content": user}, map[string]string{"role": "model", "content": model})
		total += len(user) + len(model)
	}
	return out
}

func mustJSON(v any) []byte {
	data, err := json.Marshal(v)
	if err != nil {
		panic(err) // maps of strings: cannot fail
	}
	return data
}

func makeCases(e *environment) ([]benchCase, error) {
	src10, err := e.goSource(10 * 1024)
	if err != nil {
		return nil, err
	}
	src50, err := e.goSource(50 * 1024)
	if err != nil {
		return nil, err
	}
	src100, err := e.goSource(100 * 1024)
	if err != nil {
		return nil, err
	}

	// The replace edits a real 50 KB file in the workspace: the secrets
	// guard reads it to compute the file after the edit.
	bigPath := filepath.Join("pkg", "big.go")
	if err := os.MkdirAll(filepath.Join(e.workspace, "pkg"), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(e.workspace, bigPath), []byte(src50.text), 0o644); err != nil {
		return nil, err
	}
	oldLine, err := uniqueLine(src50.text)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src50.path, err)
	}

	shellArgs := map[string]any{
		"command":     "git diff --stat HEAD~1 && go test ./internal/... 2>&1 | tail -n 20",
		"description": "Show what changed and run the tests.",
	}
	conversation := []map[string]string{
		{"role": "user", "content": "Please review internal/server/handler.go and make the error handling consistent."},
		{"role": "model", "content": "I'll read the file first.\n\n" + firstBytes(src10.text, 6*1024)},
		{"role": "user", "content": "Looks good, go ahead."},
	}
	chunk60 := "Here is the updated handler; it now checks the error first."
	chunk2K := "The function now returns early on error:\n\n```go\n" + firstBytes(src10.text, 2*1024-60) + "\n```\n"

	return []benchCase{
		{name: "shell: typical command (shell guard)", hook: "gemini-guard-shell", input: e.beforeTool("run_shell_command", shellArgs), target: targetShell},
		{name: "shell: same call (secrets guard)", hook: "gemini-guard-secrets", input: e.beforeTool("run_shell_command", shellArgs), target: targetShell,
			note: "runs in parallel with the shell guard on every shell call, so the call waits for the slower of the two"},
		{name: "write_file 10 KB Go source", hook: "gemini-guard-secrets",
			input: e.beforeTool("write_file", map[string]any{"file_path": "internal/server/handler.go", "content": src10.text}), target: targetWrite10KB,
			note: "content: $GOROOT/" + src10.path},
		{name: "write_file 100 KB Go source", hook: "gemini-guard-secrets",
			input: e.beforeTool("write_file", map[string]any{"file_path": "internal/server/big.go", "content": src100.text}), target: targetWrite100KB,
			note: "content: $GOROOT/" + src100.path},
		{name: "replace in a 50 KB file", hook: "gemini-guard-secrets",
			input: e.beforeTool("replace", map[string]any{
				"file_path": bigPath, "instruction": "Note that this line was reviewed.",
				"old_string": oldLine, "new_string": oldLine + " // reviewed",
			}),
			note: "file: $GOROOT/" + src50.path},
		{name: "AfterModel 60-char chunk", hook: "gemini-guard-redact-stream", input: e.afterModel(conversation, chunk60), target: targetChunk,
			note: "mid-answer chunks (no finishReason) with a 6 KB conversation in llm_request"},
		{name: "AfterModel 2 KB chunk", hook: "gemini-guard-redact-stream", input: e.afterModel(conversation, chunk2K), target: targetChunk},
		{name: "shell: same call, 50 known values (secrets guard)", hook: "gemini-guard-secrets", input: e.beforeTool("run_shell_command", shellArgs), target: targetShell,
			env: knownSecrets(), note: "50 secret-named variables in the environment, known by value (issue 27: ratio within 0.05 of the case without)"},
		{name: "write_file 10 KB, 50 known values", hook: "gemini-guard-secrets",
			input: e.beforeTool("write_file", map[string]any{"file_path": "internal/server/handler.go", "content": src10.text}), target: targetWrite10KB,
			env: knownSecrets()},
		{name: "AfterModel 60-char chunk, 50 known values", hook: "gemini-guard-redact-stream", input: e.afterModel(conversation, chunk60), target: targetChunk,
			env: knownSecrets()},
		{name: "BeforeModel 1 MB conversation", hook: "gemini-guard-redact-model-request", input: e.beforeModel(bigConversation(src10.text, 1<<20)), overMS: targetBeforeModelMS,
			note: "no secret: the request goes out unchanged; 100 turns quoting $GOROOT/" + src10.path + "; the same request again, as a long session re-sends its history (its messages were found clean before)"},
		{name: "BeforeModel 1 MB, new session", hook: "gemini-guard-redact-model-request", input: e.beforeModel(bigConversation(src10.text, 1<<20)), newSession: true,
			note: "the same request as the first of a session: every message is watched"},
	}, nil
}

type source struct {
	path string // relative to GOROOT
	text string
}

// goSource picks real Go code of about size bytes from GOROOT/src: the first
// non-test file (in path order) within 5% of size. The same Go version
// gives the same file.
func (e *environment) goSource(size int) (source, error) {
	root := filepath.Join(e.goroot, "src")
	var found []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || d.Name() == "vendor") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if n := int(info.Size()); n >= size*95/100 && n <= size*105/100 {
			found = append(found, p)
		}
		return nil
	})
	if err != nil {
		return source{}, err
	}
	if len(found) == 0 {
		return source{}, fmt.Errorf("no Go file of about %d bytes under %s", size, root)
	}
	sort.Strings(found)
	data, err := os.ReadFile(found[0])
	if err != nil {
		return source{}, err
	}
	rel, _ := filepath.Rel(e.goroot, found[0])
	return source{path: filepath.ToSlash(rel), text: string(data)}, nil
}

// uniqueLine is a code line from the middle of text that occurs exactly
// once: a replace's old_string must match once.
func uniqueLine(text string) (string, error) {
	lines := strings.Split(text, "\n")
	for i := len(lines) / 2; i < len(lines); i++ {
		l := lines[i]
		if len(strings.TrimSpace(l)) >= 24 && !strings.HasPrefix(strings.TrimSpace(l), "//") && strings.Count(text, l) == 1 {
			return l, nil
		}
	}
	return "", errors.New("no unique line in the second half")
}

func firstBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
