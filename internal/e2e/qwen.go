package e2e

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
)

// QwenPackage and QwenVersion pin the Qwen Code the Qwen end-to-end tests
// run against. Its hook protocol (internal/hook's Qwen dialect) was read
// from this version.
const (
	QwenPackage = "@qwen-code/qwen-code"
	QwenVersion = "0.24.4"
)

// EnsureQwen returns the pinned qwen program, installing it with npm into
// <user cache dir>/gemini-guard/qwen-code-<version> when absent.
func EnsureQwen(ctx context.Context) (string, error) {
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("e2e: no user cache directory: %w", err)
	}
	return ensurePackage(ctx, QwenPackage, QwenVersion, filepath.Join(cache, "gemini-guard", "qwen-code-"+QwenVersion), "qwen")
}

// NewQwen stages the extension from root into dir and installs it into a
// template HOME for Qwen Code, as its README tells a Qwen user to: Qwen
// Code's installer asks questions on a terminal and installs nothing
// without one, so the staged directory is copied to
// ~/.qwen/extensions/gemini-guard, where Qwen Code loads extensions from.
// The returned session's Gemini field holds the qwen program.
func NewQwen(ctx context.Context, root, dir string) (*Session, error) {
	qwen, err := EnsureQwen(ctx)
	if err != nil {
		return nil, err
	}
	ext := filepath.Join(dir, "extension")
	if err := bundle.Stage(ctx, root, ext, bundle.Host()); err != nil {
		return nil, err
	}
	s, err := newSession(qwen, filepath.Join(dir, "template"))
	if err != nil {
		return nil, err
	}
	if err := copyDir(ext, s.QwenExtensionDir()); err != nil {
		return nil, fmt.Errorf("e2e: copy the extension into ~/.qwen/extensions: %w", err)
	}
	return s, nil
}

// QwenExtensionDir is where Qwen Code loads gemini-guard from in this HOME.
func (s *Session) QwenExtensionDir() string {
	return filepath.Join(s.Home, ".qwen", "extensions", bundle.Name)
}

// QwenResult is one headless Qwen Code run.
type QwenResult struct {
	Workspace      string
	ExitCode       int
	Stdout, Stderr string
	// Sent is every request the model server received: what the model saw.
	Sent string
}

// ReadFile reads a file of the workspace; ok is false when it is absent.
func (r *QwenResult) ReadFile(name string) (string, bool) {
	data, err := os.ReadFile(filepath.Join(r.Workspace, name))
	return string(data), err == nil
}

// RunQwen runs Qwen Code once in the session's workspace against a scripted
// OpenAI-compatible server on 127.0.0.1:
//
//	OPENAI_BASE_URL=http://127.0.0.1:<port>/v1 OPENAI_API_KEY=dummy OPENAI_MODEL=scripted \
//	    qwen --auth-type openai --approval-mode yolo -o json -p <prompt> </dev/null
func (s *Session) RunQwen(ctx context.Context, prompt string, script []Response) (*QwenResult, error) {
	srv, err := NewOpenAIServer(script)
	if err != nil {
		return nil, err
	}
	defer srv.Close()
	if prompt == "" {
		prompt = "do the task"
	}
	cmd := exec.CommandContext(ctx, s.Gemini, "--auth-type", "openai", "--approval-mode", "yolo", "-o", "json", "-p", prompt)
	cmd.Dir = s.Workspace
	cmd.Env = append(s.env(), "OPENAI_BASE_URL="+srv.URL, "OPENAI_API_KEY=dummy", "OPENAI_MODEL=scripted",
		"QWEN_CODE_NO_RELAUNCH=1", "DISABLE_AUTOUPDATER=1")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	r := &QwenResult{Workspace: s.Workspace}
	if err := cmd.Run(); err != nil {
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			return nil, fmt.Errorf("e2e: run qwen: %w\n%s", err, stderr.String())
		}
		r.ExitCode = exit.ExitCode()
	}
	r.Stdout, r.Stderr, r.Sent = stdout.String(), stderr.String(), srv.Sent()
	return r, nil
}
