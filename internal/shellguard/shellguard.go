// Package shellguard decides a run_shell_command call: command text and
// working directory go through package shell (what would run) and package
// policy (which of it is dangerous) into one verdict.Verdict.
//
// Decide reads no environment and no clock, and files only through
// Input.FS (metadata, link targets and small regular files, never a FIFO
// or a device), so the hook, the people's command and the tests all get
// the same answer for the same Input and file system. Run (hook.go) is
// the guard-shell hook around it: the call read from stdin (run_shell_command, or an MCP tool that plainly runs a
// shell command), the settings and audit log (hookcall), warn mode, one
// JSON answer; for a git discard the facts of whose changes it would lose
// (own.go: git status, the session's record of the agent's edits) gathered
// and passed to Decide in Input.Own; what an allowed command writes
// recorded as the agent's (internal/provenance).
package shellguard

import (
	"fmt"
	"path"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shell"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// MaxCommand is the longest command text analysed. A longer one is denied
// as too large to check: no agent needs a megabyte of shell in one call.
const MaxCommand = 1 << 20

// Input is one shell call.
type Input struct {
	// Command is tool_input.command.
	Command string
	// Dir is tool_input.dir_path: "" for Cwd; relative paths are taken
	// from Cwd, ~ from Home.
	Dir string
	// Cwd is the workspace (the hook input's cwd), absolute. "" leaves the
	// workspace unknown: every recursive delete outside the temporary
	// directories is then judged as outside the workspace.
	Cwd string
	// Home is the user's home directory, absolute, "" if unknown.
	Home string
	// Settings are the user's settings (mode, disabled rules, protected
	// paths, trusted delete roots). The zero value is standard mode.
	Settings settings.Settings
	// Own is what the hook found out about the files a git discard in the
	// command would lose (Discards, own.go): whether the changes are the
	// agent's own. Nil judges every discard as the user's work.
	Own *policy.Own
	// OwnFacts finds those facts for one discard when a discard rule asks
	// (the hook's gatherOwn); nil: nothing can be found out.
	OwnFacts func(policy.Discard) *policy.Own
	// AgentMade says whether a file (absolute path) is one the agent
	// created this session and left as it is; asked only when a rule
	// needs it (the hook reads the provenance record then). nil: none.
	AgentMade func(p string) bool
	// ProjectHosts are the hosts the workspace's own files name
	// (GatherProjectHosts), where a secret-bearing variable may be sent;
	// the hook gathers them only when a command would otherwise be denied
	// by secrets.variable-sent or secrets.code-variable-sent.
	ProjectHosts []string
	// ProjectHostsOf gathers ProjectHosts when a rule first asks (the
	// hook's cached scan); nil: none.
	ProjectHostsOf func() []string
	// FS is the file system view the policy reads (bounded.FS); nil means
	// the real file system through internal/bounded.
	FS bounded.FS
	// StateDir is gemini-guard's state directory (above state.Dir's
	// sessions), protected by guard.tamper; "" for the default alone.
	StateDir string
	// HostHomes are Claude Code's and Codex CLI's configuration
	// directories the environment names, protected by guard.tamper.
	HostHomes protect.HostHomes
	// OutputRedacted says the host shows the model the command's output
	// only after the guard's AfterTool hook redacted it (Gemini CLI and
	// Qwen Code with tool-output redaction on; not Antigravity CLI).
	OutputRedacted bool
}

// Decide returns the decision for in: Allow, or Deny with the rule, what it
// found, the safer way and the offending fragment (secrets masked). Warn
// mode is the caller's business (hook.FromVerdict): in warn mode Decide
// denies what standard mode denies.
func Decide(in Input) verdict.Verdict {
	v, _, _ := judge(in)
	return v
}

// judge is Decide, also returning what it analysed (nil when the command
// was denied before analysis) for the hook to record the agent's writes.
func judge(in Input) (verdict.Verdict, *shell.Result, *policy.Context) {
	res, ctx, early := prepare(in, false)
	if early != nil {
		early.Fragment = Mask(strings.ToValidUTF8(verdict.Truncate(in.Command, verdict.MaxFragment), "\uFFFD"))
		return *early, nil, nil
	}
	for _, f := range policy.Evaluate(res, ctx, false) {
		if f.Denies(ctx) {
			return toVerdict(f, res), res, ctx
		}
	}
	return verdict.Verdict{}, res, ctx
}

// Explain returns Decide's decision and a human account of it: every
// command as resolved (wrappers unwrapped, nested shells, working
// directory), what could not be known statically, and each rule that
// matched or might have.
func Explain(in Input) (verdict.Verdict, []string) {
	return decide(in, true)
}

// Findings returns every finding for in, denying or not, in evaluation
// order (for tests and the people's command).
func Findings(in Input) []policy.Finding {
	res, ctx, early := prepare(in, false)
	if early != nil {
		return nil
	}
	return policy.Evaluate(res, ctx, true)
}

func prepare(in Input, trace bool) (*shell.Result, *policy.Context, *verdict.Verdict) {
	if len(in.Command) > MaxCommand {
		return nil, nil, &verdict.Verdict{
			Action: verdict.Deny, RuleID: "shell.too-complex",
			What:  fmt.Sprintf("the command is %d bytes long, more than the %d gemini-guard checks", len(in.Command), MaxCommand),
			Safer: "write long content with write_file and run a short command",
		}
	}
	cwd := cleanAbs(in.Cwd)
	home := cleanAbs(in.Home)
	dir := cwd
	switch d := in.Dir; {
	case d == "":
	case d == "~" || strings.HasPrefix(d, "~/"):
		dir = ""
		if home != "" {
			dir = path.Clean(home + d[1:])
		}
	case strings.HasPrefix(d, "/"):
		dir = path.Clean(d)
	case cwd != "":
		dir = path.Clean(cwd + "/" + d)
	default:
		dir = ""
	}
	ctx := policy.NewContext(cwd, home, in.Settings)
	ctx.Own = in.Own
	ctx.AgentMade = in.AgentMade
	ctx.ProjectHosts = in.ProjectHosts
	ctx.OwnFacts = in.OwnFacts
	ctx.ProjectHostsOf = in.ProjectHostsOf
	ctx.FS = in.FS
	ctx.StateDir = in.StateDir
	ctx.HostHomes = in.HostHomes
	ctx.OutputRedacted = in.OutputRedacted
	res := shell.Analyze(in.Command, shell.Options{Dir: dir, Home: home, Trace: trace})
	return res, &ctx, nil
}

func cleanAbs(p string) string {
	if !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Clean(p)
}

func decide(in Input, explain bool) (verdict.Verdict, []string) {
	res, ctx, early := prepare(in, explain)
	if early != nil {
		early.Fragment = Mask(strings.ToValidUTF8(verdict.Truncate(in.Command, verdict.MaxFragment), "\uFFFD"))
		return *early, []string{"denied before analysis: " + early.What}
	}
	findings := policy.Evaluate(res, ctx, explain)
	var v verdict.Verdict
	for _, f := range findings {
		if f.Denies(ctx) {
			v = toVerdict(f, res)
			break
		}
	}
	if !explain {
		return v, nil
	}
	lines := append([]string{}, res.Trace...)
	for _, f := range findings {
		switch {
		case f.Hit && f.Denies(ctx):
			lines = append(lines, fmt.Sprintf("deny %s: %s", f.Rule.ID, f.Describe()))
		case f.Denies(ctx):
			lines = append(lines, fmt.Sprintf("deny %s (%s): %s", f.Rule.ID, maybeWhy(ctx), f.Describe()))
		default:
			lines = append(lines, fmt.Sprintf("allowed in standard mode, denied in strict mode: %s: %s", f.Rule.ID, f.Describe()))
		}
	}
	if v.Action == verdict.Allow {
		lines = append(lines, "decision: allow")
	} else {
		lines = append(lines, "decision: deny ("+v.RuleID+")")
	}
	return v, lines
}

// maybeWhy says why a finding that depends on what cannot be known
// statically denies.
func maybeWhy(ctx *policy.Context) string {
	if ctx.Strict {
		return "might match; strict mode denies"
	}
	return "might match; this rule denies that in standard mode too"
}

// toVerdict words a denying finding. Texts go through res.Show: resolved
// words carry private markers for unknown values (a nested eval's code, a
// hazard's text), which a reason shows as ⟨$(...)⟩, never raw.
func toVerdict(f policy.Finding, res *shell.Result) verdict.Verdict {
	return verdict.Verdict{
		Action:   verdict.Deny,
		RuleID:   f.Rule.ID,
		What:     Mask(strings.ToValidUTF8(res.Show(f.Describe()), "\uFFFD")),
		Safer:    f.SaferWay(),
		Fragment: Mask(strings.ToValidUTF8(verdict.Truncate(res.Show(f.Fragment()), 4*verdict.MaxFragment), "\uFFFD")),
	}
}

var (
	// tokenRe finds token-like literals: well-known prefixes, JWTs, long
	// high-entropy runs, and the values of key=value pairs whose key says
	// secret.
	knownTokenRe = &lazyregexp.Regexp{Expr: `\b(?:gh[pousr]_[A-Za-z0-9_]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{16,}|xox[abposr]-[A-Za-z0-9-]{10,}|sk-[A-Za-z0-9_-]{20,}|sk_(?:live|test)_[A-Za-z0-9]{16,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|npm_[A-Za-z0-9]{30,}|eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})`}
	longRunRe    = &lazyregexp.Regexp{Expr: `[A-Za-z0-9+/_=.-]{32,}`}
	secretKVRe   = &lazyregexp.Regexp{Expr: `(?i)((?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth)[A-Z_]*\s*[=:]\s*["']?(?:(?:bearer|basic|token)\s+)?|bearer\s+)([^\s"']{6,})`}
)

// Mask replaces token-like literals in s with verdict.Mask previews, so a
// reason that quotes a command never repeats a credential in it.
func Mask(s string) string {
	s = knownTokenRe.Get().ReplaceAllStringFunc(s, verdict.Mask)
	s = secretKVRe.Get().ReplaceAllStringFunc(s, func(m string) string {
		sub := secretKVRe.Get().FindStringSubmatch(m)
		if strings.Contains(sub[2], "…(") {
			return m
		}
		return sub[1] + verdict.Mask(sub[2])
	})
	return longRunRe.Get().ReplaceAllStringFunc(s, func(m string) string {
		if strings.Contains(m, "/") && strings.Count(m, "/") > 2 || !mixed(m) {
			return m // a path or a plain word
		}
		return verdict.Mask(m)
	})
}

// mixed reports whether s mixes letters and digits: a random token rather
// than a word.
func mixed(s string) bool {
	var lower, upper, digit bool
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		}
	}
	return digit && (lower || upper)
}

// ReadInput is one file read on a host that cannot redact what the read
// shows the model (Antigravity CLI's view_file).
type ReadInput struct {
	// Paths are the files read: absolute, or relative to Cwd.
	Paths []string
	// Cwd is the workspace, "" if unknown; Home the user's home.
	Cwd, Home string
	// Settings: GEMINI_GUARD_UNREDACTED_READS=allow lets every read
	// through; rules switched off by id stay off, as for the shell.
	Settings settings.Settings
	// FS is where links are resolved (bounded.OS when nil).
	FS bounded.FS
}

// UnredactedReadsSetting is the setting that lets DecideRead's reads
// through; a deny's reason names it.
const UnredactedReadsSetting = "GEMINI_GUARD_UNREDACTED_READS"

// DecideRead judges a file read by a host's read tool exactly as the
// shell policy judges `cat -- PATH` of the same path: one inventory of
// credential stores, one reading of symbolic links, whatever tool reads
// (on a host whose tool output the guard cannot redact, what cannot be
// redacted must not be read). A relative path with no workspace is not
// known, as in a command. Other files are allowed.
func DecideRead(in ReadInput) verdict.Verdict {
	if in.Settings.AllowUnredactedReads {
		return verdict.Verdict{}
	}
	for _, p := range in.Paths {
		v := Decide(Input{Command: "cat -- " + shellQuote(readPath(p, in.Home)), Cwd: in.Cwd, Home: in.Home, Settings: in.Settings, FS: in.FS})
		if v.Action != verdict.Deny {
			continue
		}
		v.What = "view_file would open " + Mask(strings.ToValidUTF8(p, "\uFFFD")) + ": it " + strings.TrimPrefix(v.What, "cat ") +
			"; this CLI (Antigravity CLI) cannot hide a secret in a tool's output from the model, so the file is not read at all"
		v.Safer += "; if the user wants the model to read such files anyway, they set " + UnredactedReadsSetting + "=allow"
		v.Fragment = Mask(strings.ToValidUTF8(verdict.Truncate(p, verdict.MaxFragment), "\uFFFD"))
		return v
	}
	return verdict.Verdict{}
}

// readPath is a read tool's path as the shell would be given it: ~
// expanded (a tool takes it as the home, a quoted shell word would not),
// a Windows path's backslashes as the slashes Git Bash also reads.
func readPath(p, home string) string {
	if home != "" && (p == "~" || strings.HasPrefix(p, "~/")) {
		p = home + p[1:]
	}
	if len(p) > 2 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') {
		p = strings.ReplaceAll(p, `\`, "/")
	}
	return p
}

// shellQuote is p as one single-quoted shell word.
func shellQuote(p string) string { return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'" }
