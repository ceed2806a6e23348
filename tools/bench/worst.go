package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/bundle"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Worst is the time to answer of one adversarial input (issue 17): inputs
// built to make a hook run out of time. The hook must answer its event's
// fail-safe within half its hooks.json timeout; Gemini CLI lets the action
// through at the timeout itself.
type Worst struct {
	Case     string  `json:"case"`
	Hook     string  `json:"hook"`
	Decision string  `json:"decision"`
	MaxMS    float64 `json:"max_ms"`
	LimitMS  float64 `json:"limit_ms"`
	Within   bool    `json:"within_limit"`
	Note     string  `json:"note,omitempty"`
}

// worstRuns is how many times each adversarial input runs; the slowest
// counts.
const worstRuns = 3

// worstCase is one adversarial input; setup prepares the workspace or the
// hook's state before each run.
type worstCase struct {
	name, hook, note string
	input            []byte
	setup            func() error
}

func worstCases(e *environment) ([]worstCase, error) {
	// A large file of dense key-shaped lines with a marker on every line:
	// a replace with allow_multiple edits every one of them.
	var keys strings.Builder
	for i := range 40000 {
		fmt.Fprintf(&keys, "api_key_%d = \"k%08x%08x\" # PLACE\n", i, i*7919, i*104729)
	}
	if err := os.WriteFile(filepath.Join(e.workspace, "keys.py"), []byte(keys.String()), 0o644); err != nil {
		return nil, err
	}
	var output strings.Builder
	for i := 0; output.Len() < 6<<20; i++ {
		fmt.Fprintf(&output, "secret_%d: \"s%08x%08xZ\"\n", i, i*7919, i*104729)
	}
	toolOut := e.base("AfterTool")
	toolOut["tool_name"] = "run_shell_command"
	toolOut["tool_input"] = map[string]any{"command": "cat secrets.yaml"}
	toolOut["tool_response"] = map[string]any{"llmContent": output.String(), "returnDisplay": ""}

	record := filepath.Join(state.Dir(func(k string) string {
		if k == "HOME" {
			return e.home
		}
		return ""
	}), state.Key("after-model", sessionID))
	fifo := func() error {
		if err := os.MkdirAll(filepath.Dir(record), 0o700); err != nil {
			return err
		}
		os.Remove(record)
		return syscall.Mkfifo(record, 0o600)
	}
	chunk := e.afterModel([]map[string]string{{"role": "user", "content": "show the config"}}, "api_key = \"k0123456789abcdef0123\" and more")

	return []worstCase{
		{name: "shell: brace-expansion bomb", hook: "gemini-guard-shell",
			input: e.beforeTool("run_shell_command", map[string]any{"command": "echo " + strings.Repeat("{a,b,c,d}", 12) + " >/dev/null; rm -rf ~"})},
		{name: "replace allow_multiple ×40000", hook: "gemini-guard-secrets",
			input: e.beforeTool("replace", map[string]any{"file_path": "keys.py", "instruction": "x", "old_string": "# PLACE", "new_string": "# checked", "allow_multiple": true}),
			note:  "2.4 MB file of key-shaped lines, every line edited"},
		{name: "AfterTool 6 MB key-shaped output", hook: "gemini-guard-redact-tool-output", input: mustJSON(toolOut)},
		{name: "AfterModel record is a FIFO", hook: "gemini-guard-redact-stream", input: chunk, setup: fifo,
			note: "the session record replaced by a named pipe before the chunk"},
	}, nil
}

// measureWorst runs each adversarial input worstRuns times
// (at most n: -n 1 checks that every case answers).
func measureWorst(ctx context.Context, env *environment, hooksJSON []byte, commands map[string]string, n int, only string, stdout io.Writer) ([]Worst, error) {
	runs := min(worstRuns, n)
	cases, err := worstCases(env)
	if err != nil {
		return nil, err
	}
	f, err := bundle.ParseHooks(hooksJSON)
	if err != nil {
		return nil, err
	}
	timeouts := f.Timeouts()
	var out []Worst
	for _, c := range cases {
		if only != "" && !strings.Contains(c.name, only) {
			continue
		}
		fmt.Fprintf(stdout, "  %-36s", c.name)
		var slowest time.Duration
		var decision string
		// The first run, not counted, starts the scanner daemon (the
		// session-start hook does in a session): a cold start is not the
		// input's cost.
		for i := range runs + 1 {
			if c.setup != nil {
				if err := c.setup(); err != nil {
					return nil, fmt.Errorf("%s: %w", c.name, err)
				}
			}
			s, err := runHook(ctx, env, commands[c.hook], c.input)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			if decision, err = decisionOf(s.stdout); err != nil {
				return nil, fmt.Errorf("%s: %w", c.name, err)
			}
			if i > 0 {
				slowest = max(slowest, s.wall)
			}
		}
		limit := timeouts[c.hook] / 2
		w := Worst{Case: c.name, Hook: c.hook, Decision: decision, MaxMS: ms(slowest), LimitMS: ms(limit), Within: slowest < limit, Note: c.note}
		fmt.Fprintf(stdout, " %8.0f ms  (limit %.0f ms)\n", w.MaxMS, w.LimitMS)
		out = append(out, w)
	}
	return out, nil
}

func printWorst(w io.Writer, worst []Worst) {
	if len(worst) == 0 {
		return
	}
	fmt.Fprintln(w, "\nadversarial inputs (issue 17): slowest of", worstRuns, "runs against half the hook's hooks.json timeout")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "case\tanswer\tmax ms\tlimit ms\t\t")
	for _, r := range worst {
		mark := "within"
		if !r.Within {
			mark = "OVER"
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.0f\t%s\t\n", r.Case, r.Decision, r.MaxMS, r.LimitMS, mark)
	}
	tw.Flush()
	for _, r := range worst {
		if r.Note != "" {
			fmt.Fprintf(w, "%s: %s\n", r.Case, r.Note)
		}
	}
}
