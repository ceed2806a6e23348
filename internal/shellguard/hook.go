package shellguard

import (
	"encoding/json"
	"errors"
	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"io"
	"os"
	"path"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/state"
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// Env is what a hook call depends on beyond its input; tests replace it.
type Env struct {
	Getenv func(string) string
	// UserHome is the user's home directory; when it fails or is empty,
	// $HOME stands in.
	UserHome func() (string, error)
	// Host says what the input does not: which CLI sent it
	// (hook.FromArgs of the program's arguments; nil: told by the input).
	Host hook.Option
}

// DefaultEnv is the environment of a hook process.
func DefaultEnv() Env { return Env{Getenv: os.Getenv, UserHome: os.UserHomeDir} }

// Run answers one BeforeTool call of run_shell_command, or of an MCP tool
// that plainly runs a shell command, and returns the exit code, always 0:
// with Gemini CLI the JSON on stdout carries the decision. Settings and
// audit come from hookcall; warn mode turns a deny into a message.
//
// On Antigravity CLI it also judges view_file (read here as read_file):
// agy cannot redact a tool's output, so a credential file opened there
// would reach the model as it is (readAnswer). A tool it does not judge
// gets no decision there: the call runs under agy's own permissions.
func Run(stdin io.Reader, stdout io.Writer, e Env) int {
	hook.RunWithin(hook.BeforeTool, hook.ShellDeadline, stdin, stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return answer(in, e)
	}, nil, e.Host)
	return 0
}

// toolInput is run_shell_command's arguments; Command is raw so that a
// missing or non-string command is told apart from an empty one.
type toolInput struct {
	Command json.RawMessage `json:"command"`
	DirPath string          `json:"dir_path"`
}

func answer(in hook.BeforeToolInput, e Env) (hook.Output, error) {
	if in.Host == hook.Agy && in.ToolName == readFile {
		return readAnswer(in, e)
	}
	command, ti, judged, err := commandOf(in)
	if !judged || err != nil {
		return hook.Output{}, err
	}
	call := hookcall.Load(e.Getenv, hook.BeforeTool, "shell", in.Base)
	input := Input{Command: command, Dir: ti.DirPath, Cwd: in.Cwd, Home: userHome(e), Settings: call.Settings, FS: bounded.OS{}, StateDir: guardStateDir(e.Getenv),
		OutputRedacted: in.Host != hook.Agy && call.Settings.RedactToolOutput, HostHomes: protect.HostHomesFrom(e.Getenv)}
	dir := provenance.Dir(e.Getenv)
	input.AgentMade = agentMade(dir, in.SessionID)
	if in.SessionID != "" && !gitRedirected(e.Getenv) {
		// A git discard may pass when every change it loses is the
		// agent's own: the rule asks for the facts of its scope.
		input.OwnFacts = func(d policy.Discard) *policy.Own {
			return gatherOwn(dir, in.SessionID, in.Cwd, []policy.Discard{d})
		}
	}
	// A secret variable sent to a host the guard does not know as its
	// service passes when the project's own files name the host: the
	// rule asks, so an ordinary call never pays for the scan.
	var scan *HostScan
	input.ProjectHostsOf = func() []string {
		hosts, s := SessionProjectHosts(state.Dir(e.Getenv), in.SessionID, in.Cwd, agentWritten(dir, in.SessionID))
		scan = &s
		return hosts
	}
	v, res, ctx := judge(input)
	if in.Host == hook.Codex && v.Action == verdict.Allow {
		if d, ok := codexStdin(res); ok {
			v = d
		}
	}
	if hostsMatter(v) && v.RuleID != "secrets.store-read" && scan != nil {
		// Say where a project host would have been found: the user can
		// tell a host the project names from one it does not.
		v.What += " (gemini-guard looked for the project's own hosts in " + scan.Describe() + ")"
	}
	if res != nil && (v.Action == verdict.Allow || call.WarnOnly()) && in.ToolName == shellTool {
		// The command will run: what it writes is the agent's touch.
		// A failure to record only means no record (today's deny later).
		// (An MCP tool's command is not recorded: AfterTool could not
		// name its call.)
		// Named only when it writes: most commands write nothing, and
		// the call's name costs a digest.
		if changes := policy.Changes(res, ctx); len(changes) > 0 {
			_ = provenance.Touch(dir, in.SessionID, in.Cwd, provenance.ShellCall(command), changes)
		}
		holdUsers(dir, in.SessionID, in.Cwd, policy.SetAsides(res, ctx), policy.CopiedFromUser(res, ctx))
	}
	if v.Action != verdict.Allow {
		call.Record(audit.FromVerdict(call.Entry(in.ToolName), v, call.WarnOnly()))
	}
	return hook.FromVerdict(v, call.WarnOnly()), nil
}

// commandOf is the shell command a call runs, as the guard judges it, with
// run_shell_command's arguments; judged is false (and err nil) for a call
// it does not judge.
func commandOf(in hook.BeforeToolInput) (command string, ti toolInput, judged bool, err error) {
	switch {
	case (in.Host == hook.Agy || in.Host == hook.Claude) && in.ToolName != shellTool && !toolargs.IsMCP(in.ToolName):
		// Claude Code replaces a read's output with its redaction
		// (guard-redact): there the read is let through, as in Gemini CLI.
		return "", ti, false, nil
	case in.Host == hook.Codex && in.ToolName != shellTool && in.ToolName != hook.ApplyPatch && !toolargs.IsMCP(in.ToolName):
		return "", ti, false, nil // a Codex tool it does not judge (a matcher wider than install's)
	case toolargs.IsMCP(in.ToolName):
		// An MCP tool is judged only when it plainly runs a shell command
		// (a run/exec/shell/bash/terminal tool with a command, cmd or
		// script argument; its working directory is unknown), or writes,
		// edits, moves or copies a named file: then as the shell command
		// that does the same (toolargs.FileCommand).
		c, ok := toolargs.ShellCommand(in.ToolName, in.ToolInput)
		if !ok {
			c, ok = toolargs.FileCommand(in.ToolName, in.ToolInput)
		}
		return c, ti, ok, nil
	case in.ToolName == hook.ApplyPatch:
		// Codex's apply_patch: what it deletes and moves, as the shell
		// commands that would (what it writes is the secrets guard's).
		c, err := patchCommand(in.ToolInput)
		return c, ti, c != "" && err == nil, err
	}
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ti) != nil {
		return "", ti, false, &hook.InputError{Err: errors.New("tool_input is not an object with a string command")}
	}
	if len(ti.Command) == 0 || json.Unmarshal(ti.Command, &command) != nil {
		return "", ti, false, &hook.InputError{Err: errors.New("tool_input.command is missing or not a string")}
	}
	if in.Host == hook.Codex {
		command = embeddedCommand(command, in.ToolInput)
	}
	return command, ti, true, nil
}

// hostsMatter says whether v is a deny that the project's hosts could
// lift: a secret-bearing variable, or a stored secret, sent to a host
// that is not its known service.
func hostsMatter(v verdict.Verdict) bool {
	switch v.RuleID {
	case "secrets.variable-sent", "secrets.code-variable-sent", "secrets.store-read":
		return v.Action != verdict.Allow
	}
	return false
}

// holdUsers records, in one update of the session's record, the files the
// command sets aside from git's view (git stash, an index flag, a stash
// entry written out) and those it fills from a file the agent did not make
// (copied) as the user's for the rest of the session, before it runs:
// what git stash takes is what git status lists now. A failure only means
// no record of it.
func holdUsers(dir, session, workspace string, asides []policy.SetAside, copied []string) {
	if session == "" || len(asides) == 0 && len(copied) == 0 {
		return
	}
	paths := copied
	for _, a := range asides {
		if a.Stash {
			changed, err := provenance.Changed(a.Dir, a.Untracked)
			if err != nil {
				continue
			}
			paths = append(paths, changed...)
		}
		paths = append(paths, a.Paths...)
	}
	if len(paths) > 0 {
		_ = provenance.Hold(dir, session, workspace, paths)
	}
}

// agentWritten are the files the agent wrote or edited in this session
// (the provenance record): a host the agent itself wrote into the
// workspace does not vouch for anything.
func agentWritten(dir, session string) map[string]bool {
	rec, ok := provenance.Load(dir, session)
	if !ok {
		return nil
	}
	out := make(map[string]bool, len(rec.Files))
	for p := range rec.Files {
		out[p] = true
	}
	return out
}

// agentMade is Input.AgentMade over the session's provenance record, read
// on the first question: most calls never ask.
func agentMade(dir, session string) func(string) bool {
	var rec *provenance.Record
	read := false
	return func(p string) bool {
		if !read {
			read = true
			rec, _ = provenance.Load(dir, session)
		}
		if rec == nil {
			return false
		}
		e := rec.Files[p]
		return e != nil && e.Created && !e.Foreign && !e.Pending && e.Left != "" && e.Left != provenance.Absent && provenance.Hash(p) == e.Left
	}
}

func userHome(e Env) string {
	home, err := e.UserHome()
	if err != nil || home == "" {
		home = e.Getenv("HOME")
	}
	return home
}

// Tool names the hook judges, as the guards see them (hook translates
// other hosts' names).
const (
	shellTool = "run_shell_command"
	readFile  = "read_file"
)

// readInput is read_file's arguments as agy's view_file gives them
// (AbsolutePath, or a targets list).
type readInput struct {
	FilePath  *string  `json:"file_path"`
	FilePaths []string `json:"file_paths"`
}

// readAnswer judges a file read on a host that cannot redact its output
// (agy's view_file): a credential file, as the shell rule
// secrets.credential-file knows them, is denied before it is read, unless
// the user allows such reads (GEMINI_GUARD_UNREDACTED_READS=allow) or
// switched the rule off. Any other file is read as asked.
func readAnswer(in hook.BeforeToolInput, e Env) (hook.Output, error) {
	var ri readInput
	if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ri) != nil || ri.FilePath == nil && len(ri.FilePaths) == 0 {
		return hook.Output{}, &hook.InputError{Err: errors.New("view_file without an AbsolutePath")}
	}
	call := hookcall.Load(e.Getenv, hook.BeforeTool, "shell", in.Base)
	v := DecideRead(ReadInput{Paths: ri.paths(), Cwd: in.Cwd, Home: userHome(e), Settings: call.Settings})
	if v.Action != verdict.Allow {
		call.Record(audit.FromVerdict(call.Entry("view_file"), v, call.WarnOnly()))
	}
	return hook.FromVerdict(v, call.WarnOnly()), nil
}

func (ri readInput) paths() []string {
	var out []string
	if ri.FilePath != nil {
		out = append(out, *ri.FilePath)
	}
	return append(out, ri.FilePaths...)
}

// gitRedirected reports whether the CLI's environment points git at
// another repository, index or work tree: the agent's git would then act
// on something other than what the hook's git status sees.
func gitRedirected(getenv func(string) string) bool {
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY", "GIT_NAMESPACE", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"} {
		if getenv(k) != "" {
			return true
		}
	}
	return false
}

// guardStateDir is gemini-guard's state directory, the one above
// state.Dir's sessions (provenance keeps its records there too), "" if
// none.
func guardStateDir(getenv func(string) string) string {
	if d := state.Dir(getenv); d != "" {
		return path.Dir(d)
	}
	return ""
}
