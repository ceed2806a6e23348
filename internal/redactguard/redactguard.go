// Package redactguard is the redaction hook's decisions, beside shellguard
// and secretguard: AfterModel (one process per streamed chunk) redacts
// secrets from what the user sees, also when a secret is split across
// chunks; AfterTool keeps secrets in tool output from reaching the model;
// BeforeModel removes secrets from the text of the request to the model.
//
// Most chunks need no scan at all: the prefilter
// (internal/secrets/prefilter) knows the rules' patterns and keywords, and
// the scanner process (internal/scanner) is asked only when a rule really
// matches, so the common chunk costs little more than starting a process.
// The streaming itself is internal/redact. See docs/redaction.md.
package redactguard

import (
	"io"
	"os"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hostcli"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Env is what a hook call depends on beyond its input; tests replace parts.
type Env struct {
	Getenv func(string) string
	// Environ is the process's environment (os.Environ), where the values
	// of secret-named variables are known from (internal/secrets/known);
	// nil means none.
	Environ func() []string
	Now     func() time.Time
	// StateDir is where session state lives; "" means no state.
	StateDir string
	// Scanner returns the scanner for options; nil means the scanner
	// process's client (internal/scanner).
	Scanner func(secrets.Options) secrets.Scanner
	// ScanTimeout bounds the scans of one hook call by the scanner
	// process, counted from Start; Run sets it from the hook's deadline.
	ScanTimeout time.Duration
	// Start is when the hook call began, which its deadline counts from
	// (hook.RunWithin); zero means when its scans begin.
	Start time.Time
	// CLIVersion is the version of the Gemini CLI that runs the hook, ""
	// when it cannot be told; nil means it cannot be told.
	CLIVersion func() string
}

// DefaultEnv is the environment of a hook process.
func DefaultEnv() Env {
	return Env{Getenv: os.Getenv, Environ: os.Environ, Now: time.Now, StateDir: state.Dir(os.Getenv), CLIVersion: hostcli.RunningVersion}
}

// Run answers one hook call, the hook named by args[0] (after-tool,
// before-model, else after-model), and returns the exit code, always 0:
// with Gemini CLI the JSON on stdout carries the decision.
func Run(args []string, stdin io.Reader, stdout io.Writer, e Env) int {
	// The scans' time limit counts from here, as the hook's deadline
	// does: reading a large input must not leave the scans their whole
	// limit past the deadline.
	e.Start = time.Now()
	if len(args) > 0 && args[0] == "after-tool" {
		e.ScanTimeout = afterToolScanTimeout
		hook.RunWithin(hook.AfterTool, hook.AfterToolDeadline, stdin, stdout, func(in hook.AfterToolInput) (hook.Output, error) {
			return afterTool(in, e)
		}, nil, hook.FromArgs(args[1:]))
		return 0
	}
	if len(args) > 0 && args[0] == "before-model" {
		// A request that cannot be scanned in time is never sent as it
		// is: the message that could not be scanned is withheld, or the
		// request refused (docs/redaction.md). The deadline's answer
		// refuses it.
		e.ScanTimeout = beforeModelScanTimeout
		hook.RunWithin(hook.BeforeModel, hook.BeforeModelDeadline, stdin, stdout, func(in beforeModelInput) (hook.Output, error) {
			return beforeModel(in, e)
		}, func(_ beforeModelInput, err error) hook.Output { return refusedRequest(err.Error()) })
		return 0
	}
	e.ScanTimeout = afterModelScanTimeout
	hook.RunWithin(hook.AfterModel, hook.AfterModelDeadline, stdin, stdout, func(in hook.AfterModelInput) (hook.Output, error) {
		return afterModel(in, e)
	}, withheldChunk)
	return 0
}
