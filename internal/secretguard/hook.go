package secretguard

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	knownvals "github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// HookEnv is what a hook call depends on beyond its input; tests replace
// parts. (Env is what Check needs: the settings the hook loads from
// Getenv, and the home directory from $HOME.)
type HookEnv struct {
	Getenv func(string) string
	// Environ is the process's environment (os.Environ), where the values
	// of secret-named variables are known from; nil means none.
	Environ func() []string
	// Scanner returns the scanner for options; nil means the scanner
	// process's client (internal/scanner).
	Scanner func(secrets.Options) secrets.Scanner
	// Host says what the input does not: which CLI sent it
	// (hook.FromArgs of the program's arguments; nil: told by the input).
	Host hook.Option
}

// DefaultHookEnv is the environment of a hook process.
func DefaultHookEnv() HookEnv { return HookEnv{Getenv: os.Getenv, Environ: os.Environ} }

// Run answers one BeforeTool call and returns the exit code, always 0:
// with Gemini CLI the JSON on stdout carries the decision. Settings and
// audit come from hookcall; warn mode turns a deny or a rewrite into a
// message.
func Run(stdin io.Reader, stdout io.Writer, e HookEnv) int {
	hook.RunWithin(hook.BeforeTool, hook.SecretsDeadline, stdin, stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return answer(in, e)
	}, nil, e.Host)
	return 0
}

func answer(in hook.BeforeToolInput, e HookEnv) (hook.Output, error) {
	if in.ToolName == hook.ApplyPatch {
		return answerPatch(in, e)
	}
	if patch, ok, err := embeddedPatchAnswer(in, e); ok && (err != nil || patch.Decision == "deny" || patch.Specific != nil) {
		return patch, err
	}
	call := hookcall.Load(e.Getenv, hook.BeforeTool, "secrets", in.Base)
	d, err := Check(Call{Tool: in.ToolName, Input: in.ToolInput, Cwd: in.Cwd, Name: in.HostToolName},
		Env{Settings: call.Settings, Home: e.Getenv("HOME"), Scanner: e.Scanner, Known: knownValues(in, call.Settings, e), FS: bounded.OS{},
			StateDir: filepath.Dir(state.Dir(e.Getenv)), HostHomes: protect.HostHomesFrom(e.Getenv)})
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
	if d.Verdict.Action == verdict.Allow || d.Verdict.Action == verdict.Rewrite || warnOnly {
		recordTouch(in, d.FilePath, e.Getenv)
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

// knownValues are the user's secrets known by value for this call: the
// environment's, the workspace's .env files', the credential files' and
// those the redaction hook learnt from tool output earlier in the session.
// Only the tools whose text the guard scans need them.
func knownValues(in hook.BeforeToolInput, s settings.Settings, e HookEnv) *knownvals.Set {
	if !scans(in.ToolName) {
		return nil
	}
	var environ []string
	if e.Environ != nil {
		environ = e.Environ()
	}
	return knownvals.Load(knownvals.Sources{Environ: environ, Home: e.Getenv("HOME"), Cwd: in.Cwd,
		StateDir: state.Dir(e.Getenv), SessionID: in.SessionID, DisabledRules: s.DisabledRules})
}

// scans reports whether Check scans the text of tool's calls.
func scans(tool string) bool {
	return tool == WriteFile || tool == Replace || tool == Shell || toolargs.Outbound(tool) || toolargs.Kept(tool)
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

// recordTouch records the file a write_file or replace that will run is
// about to change (filePath, as its arguments name it), as the agent's own
// (internal/provenance): the shell guard then lets the agent discard its
// own edits. A failure to record only means no record, which keeps
// today's deny.
func recordTouch(in hook.BeforeToolInput, filePath string, getenv func(string) string) {
	if in.ToolName != "write_file" && in.ToolName != "replace" || in.SessionID == "" {
		return
	}
	if p := provenance.FilePath(filePath, in.Cwd); p != "" {
		_ = provenance.Touch(provenance.Dir(getenv), in.SessionID, in.Cwd, provenance.FileCall(p), []string{p})
	}
}
