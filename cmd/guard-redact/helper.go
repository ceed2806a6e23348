package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Time limits for the scan helper. Gemini CLI gives the AfterModel hook 5 s
// and AfterTool 30 s (hooks/hooks.json); past these the hook lets the text
// through and warns rather than have Gemini CLI kill it.
const (
	chunkHelperTimeout = 4 * time.Second
	toolHelperTimeout  = 25 * time.Second
)

// callHelper sends req to the scan helper and returns its response.
func callHelper(path string, timeout time.Duration, req redact.HelperRequest) (redact.HelperResponse, error) {
	if path == "" {
		return redact.HelperResponse{}, errors.New("the scan helper bin/guard-scan was not found")
	}
	body, err := redact.EncodeJSON(req)
	if err != nil {
		return redact.HelperResponse{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, path)
	cmd.Stdin = bytes.NewReader(body)
	var stdout bytes.Buffer
	cmd.Stdout = &stdout
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return redact.HelperResponse{}, fmt.Errorf("the scan helper took longer than %s", timeout)
		}
		return redact.HelperResponse{}, fmt.Errorf("the scan helper failed: %v", err)
	}
	var resp redact.HelperResponse
	if err := json.Unmarshal(stdout.Bytes(), &resp); err != nil {
		return redact.HelperResponse{}, errors.New("the scan helper gave an unreadable answer")
	}
	if resp.Error != "" {
		return redact.HelperResponse{}, errors.New("the scan helper: " + firstLine(resp.Error))
	}
	return resp, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// helperScanner is a redact.Scanner that asks the scan helper.
type helperScanner struct {
	path    string
	timeout time.Duration
	opts    redact.ScanOptions
}

func (h helperScanner) Scan(text string) ([]redact.Finding, error) {
	resp, err := callHelper(h.path, h.timeout, redact.HelperRequest{Op: redact.OpScan, Options: h.opts, Text: text})
	return resp.Findings, err
}

// scanOptions are the scanner settings for a session in workspace cwd.
func scanOptions(s settings.Settings, cwd string) redact.ScanOptions {
	return redact.ScanOptions{
		ConfigPath:         configPath(s, cwd),
		DisabledRules:      s.DisabledRules,
		TrustAllowComments: s.TrustGitleaksAllow,
		PlainMarker:        !s.MarkerRule,
	}
}

// configPath is the user's gitleaks config: the GitleaksConfig setting
// (relative to the workspace), else the workspace's .gitleaks.toml when it
// exists, else "" (the built-in rules). It must agree with
// secretguard.ConfigPath, which this binary cannot link (a test compares
// them).
func configPath(s settings.Settings, cwd string) string {
	if s.GitleaksConfig != "" {
		p := s.GitleaksConfig
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		return filepath.Clean(p)
	}
	if cwd == "" {
		return ""
	}
	p := filepath.Join(cwd, ".gitleaks.toml")
	if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
		return p
	}
	return ""
}

// stateDir is the session state directory, "" when there is none.
func stateDir(getenv func(string) string) string {
	return state.Dir(getenv)
}

func marker(s settings.Settings) func(string) string {
	if s.MarkerRule {
		return redact.RuleMarker
	}
	return redact.PlainMarker
}
