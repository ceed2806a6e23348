package secretguard

import (
	"errors"
	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"io"
	"os"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// HookEnv is what a hook call depends on beyond its input; tests replace
// parts. (Env is what Check needs: the settings the hook loads from
// Getenv, and the home directory from $HOME.)
type HookEnv struct {
	Getenv func(string) string
	// Scanner returns the scanner for options; nil means the scanner
	// process's client (internal/scanner).
	Scanner func(secrets.Options) secrets.Scanner
}

// DefaultHookEnv is the environment of a hook process.
func DefaultHookEnv() HookEnv { return HookEnv{Getenv: os.Getenv} }

// Run answers one BeforeTool call and returns the exit code, always 0:
// with Gemini CLI the JSON on stdout carries the decision. Settings and
// audit come from hookcall; warn mode turns a deny or a rewrite into a
// message.
func Run(stdin io.Reader, stdout io.Writer, e HookEnv) int {
	hook.RunWithin(hook.BeforeTool, hook.SecretsDeadline, stdin, stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return answer(in, e)
	}, nil)
	return 0
}

func answer(in hook.BeforeToolInput, e HookEnv) (hook.Output, error) {
	call := hookcall.Load(e.Getenv, hook.BeforeTool, "secrets", in.Base)
	d, err := Check(Call{Tool: in.ToolName, Input: in.ToolInput, Cwd: in.Cwd},
		Env{Settings: call.Settings, Home: e.Getenv("HOME"), Scanner: e.Scanner, FS: bounded.OS{}})
	var inputErr *InputError
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

// joinNotes is the user's message of a rewrite: first, then each note on
// a line of its own.
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
