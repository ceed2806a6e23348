// Command guard-redact is gemini-guard's redaction hook. With argument
// after-model it answers AfterModel (one process per streamed chunk) and
// redacts secrets from what the user sees, also when a secret is split
// across chunks; with after-tool it answers AfterTool and keeps secrets in
// tool output from reaching the model; with before-model it answers
// BeforeModel and removes secrets from the text of the request to the model.
//
// Most chunks need no scan at all: the redactor knows the rules' patterns
// and keywords (internal/redact) and asks the scanner process
// (internal/scanner) only when a rule really matches, so the common chunk costs little more
// than starting a process. See docs/redaction.md.
package main

import (
	"io"
	"os"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, defaultEnv()))
}

// env is what a run depends on beyond its input; tests replace parts.
type env struct {
	getenv func(string) string
	now    func() time.Time
	// stateDir is where session state lives; "" means no state.
	stateDir string
	// scanner returns the scanner for options; nil means the scanner
	// process's client (internal/scanner).
	scanner func(secrets.Options) secrets.Scanner
	// scanTimeout bounds one scan by the scanner process; run sets it from
	// the hook's deadline.
	scanTimeout time.Duration
}

func defaultEnv() env {
	return env{getenv: os.Getenv, now: time.Now, stateDir: state.Dir(os.Getenv)}
}

// run answers one hook call and returns the exit code, always 0: with
// Gemini CLI the JSON on stdout carries the decision.
func run(args []string, stdin io.Reader, stdout io.Writer, e env) int {
	if len(args) > 0 && args[0] == "after-tool" {
		e.scanTimeout = afterToolScanTimeout
		hook.RunWithin(hook.AfterTool, hook.AfterToolDeadline, stdin, stdout, func(in hook.AfterToolInput) (hook.Output, error) {
			return afterTool(in, e)
		}, nil)
		return 0
	}
	if len(args) > 0 && args[0] == "before-model" {
		// No deadline of its own: a request that cannot be scanned in
		// time goes out unchanged and the user is told (docs/redaction.md);
		// the scans end well within the hook's 30 s.
		e.scanTimeout = beforeModelScanTimeout
		hook.Run(hook.BeforeModel, stdin, stdout, func(in beforeModelInput) (hook.Output, error) {
			return beforeModel(in, e)
		})
		return 0
	}
	e.scanTimeout = afterModelScanTimeout
	hook.RunWithin(hook.AfterModel, hook.AfterModelDeadline, stdin, stdout, func(in hook.AfterModelInput) (hook.Output, error) {
		return afterModel(in, e)
	}, withheldChunk)
	return 0
}
