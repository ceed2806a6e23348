// Command guard-secrets is gemini-guard's BeforeTool hook for write_file,
// replace and run_shell_command: it denies a call that would add a
// credential (or, with the redact action, runs it with placeholders), and a
// write to the guard's or Gemini CLI's configuration. Gemini CLI starts it
// once per call with the call as JSON on stdin; it prints one JSON answer
// and exits 0.
package main

import (
	"errors"
	"io"
	"os"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/secretguard"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func main() {
	run(os.Stdin, os.Stdout, os.Getenv, nil)
}

// run answers one call; tests drive it with their own input, environment
// and scanner (nil: the scanner process).
func run(stdin io.Reader, stdout io.Writer, getenv func(string) string, newScanner func(secrets.Options) secrets.Scanner) {
	hook.RunWithin(hook.BeforeTool, hook.SecretsDeadline, stdin, stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return decide(in, getenv, newScanner)
	}, nil)
}

func decide(in hook.BeforeToolInput, getenv func(string) string, newScanner func(secrets.Options) secrets.Scanner) (hook.Output, error) {
	call := hookcall.Load(getenv, hook.BeforeTool, "secrets", in.Base)
	d, err := secretguard.Check(secretguard.Call{Tool: in.ToolName, Input: in.ToolInput, Cwd: in.Cwd},
		secretguard.Env{Settings: call.Settings, Home: getenv("HOME"), Scanner: newScanner})
	var inputErr *secretguard.InputError
	if errors.As(err, &inputErr) {
		// Unusable arguments: the hook's bad-input answer asks the model to
		// retry with well-formed ones.
		return hook.Output{}, &hook.InputError{Err: err}
	}
	if err != nil {
		return hook.Output{}, err
	}
	warnOnly := call.WarnOnly()
	var out hook.Output
	switch {
	case d.Verdict.Action == verdict.Rewrite && !warnOnly:
		// A host that cannot change a call's arguments blocks it instead.
		out = hook.ReplaceToolInputOrDeny(d.ToolInput, joinNotes(d.UserMessage, d.Verdict.Notes), hook.FromVerdict(d.Blocked, false))
	case d.Verdict.Action == verdict.Rewrite:
		// Warn mode changes nothing: tell the user what would have happened.
		out = hook.FromVerdict(d.Blocked, true)
	default:
		out = hook.FromVerdict(d.Verdict, warnOnly)
	}
	if d.Verdict.Action != verdict.Allow {
		e := audit.FromVerdict(call.Entry(in.ToolName), d.Verdict, warnOnly)
		e.Rules = d.Rules
		if d.Verdict.Action == verdict.Rewrite {
			e.Decision = "redact"
		}
		e.Preview = audit.Preview(d.Verdict.What, d.Secrets...)
		call.Record(e)
	}
	return out, nil
}

func joinNotes(first string, notes []string) string {
	out := first
	for _, n := range notes {
		if out != "" {
			out += "\n"
		}
		out += n
	}
	return out
}
