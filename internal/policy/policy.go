// Package policy decides which of the commands package shell found are
// dangerous. Its rules are data: Rules lists each one with its id, category,
// what it protects, the safer way, what standard mode does with what cannot
// be known statically, and examples that must and must not match (a test
// runs every example through the real hook decision).
//
// Rules look at one command at a time (those naming the command, and the
// few that look at every command), at the hazards package shell
// reports (code piped into a shell, fork bombs, parse errors), or at the
// whole result (a script downloaded by one command and run by the next).
package policy

import (
	"path"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Context is where the command runs and how strictly to judge it. The zero
// value judges in standard mode with nothing known about the workspace or
// home: paths then land in Outside or Unknown, which fails closed for the
// delete rules.
type Context struct {
	// Workspace is the absolute workspace directory (the session's cwd).
	Workspace string
	// Home is the user's absolute home directory.
	Home string
	// Strict also denies what might match but cannot be known statically.
	Strict bool
	// Disabled holds the ids of rules the user switched off.
	Disabled map[string]bool
	// Protected are absolute paths treated like system directories.
	Protected []string
	// Trusted are absolute directories where recursive deletes are fine.
	Trusted []string
	// GitleaksConfig is the gitleaks config the settings name (absolute),
	// protected like .gitleaks.toml (internal/protect).
	GitleaksConfig string
	// FS is the only way the rules see files: whether a copy's target is a
	// directory, the content a copier would write to a protected file,
	// symlinks and hard links to protected files. Nil means the real file
	// system (bounded.OS: a FIFO or device is never opened, a file read up
	// to a limit); tests pass a temporary directory's or a fake.
	FS bounded.FS
	// StateDir is gemini-guard's state directory when the hook knows it
	// ($XDG_STATE_HOME/gemini-guard), protected like the default one.
	StateDir string
	// HostHomes are Claude Code's and Codex CLI's configuration
	// directories where the environment moves them, protected there too.
	HostHomes protect.HostHomes

	// TrustedHosts are the user's trusted host patterns (settings;
	// "*.example.com" matches subdomains) and ProjectHosts the hosts the
	// workspace's own files name (gathered by the shell guard's hook):
	// a secret-bearing variable may be sent there (secrets.variable-sent).
	TrustedHosts []string
	ProjectHosts []string
	// OutputRedacted says the model sees the command's output only after
	// the guard's AfterTool hook redacted it (known values included): then
	// npm's ~/.npmrc, whose tokens are known values, may be shown.
	OutputRedacted bool

	// Own is what the shell guard found out about the files a git discard
	// would lose (whose changes they are); nil when nothing was gathered.
	Own *Own
	// OwnFacts finds those facts for one discard when a rule asks (the
	// hook: git status in its scope, the session's record, each file's
	// hash), so a command is judged once; nil means nothing can be found
	// out. What it returns is kept in Own.
	OwnFacts func(d Discard) *Own
	// ProjectHostsOf gathers ProjectHosts when a rule first asks (the
	// hook's bounded, cached scan of the workspace); nil: none.
	ProjectHostsOf func() []string
	// AgentMade says whether the file at an absolute path is one the agent
	// created this session and left as it is (the provenance record: absent
	// at its first touch, its content what the agent's call left). The
	// hook reads the record only when a rule asks; nil: nothing known.
	AgentMade func(p string) bool

	// protectMemo keeps what the protected-object checks of this decision
	// compute once (roots).
	protectMemo protect.Memo

	// ownAsked are the discards OwnFacts was asked about; projectAsked
	// says ProjectHostsOf was called.
	ownAsked     map[string]bool
	projectAsked bool

	// embeddedSpent counts the bytes exec.embedded-command analysed for
	// this decision, against maxEmbeddedBytes (exec_embedded.go).
	embeddedSpent int
}

// NewContext builds a Context from the settings: protected paths and trusted
// roots may start with ~ (home) or be relative (to the workspace); they are
// cleaned, and "/" is never accepted as a trusted root.
func NewContext(workspace, home string, s settings.Settings) Context {
	c := Context{Workspace: cleanAbs(workspace), Home: cleanAbs(home), Strict: s.Mode == settings.Strict, TrustedHosts: s.TrustedHosts}
	if len(s.DisabledRules) > 0 {
		c.Disabled = map[string]bool{}
		for _, id := range s.DisabledRules {
			c.Disabled[id] = true
		}
	}
	norm := func(p string) string {
		switch {
		case p == "~" || strings.HasPrefix(p, "~/"):
			if c.Home == "" {
				return ""
			}
			p = c.Home + p[1:]
		case !strings.HasPrefix(p, "/"):
			if c.Workspace == "" {
				return ""
			}
			p = c.Workspace + "/" + p
		}
		return path.Clean(p)
	}
	if s.GitleaksConfig != "" {
		c.GitleaksConfig = norm(s.GitleaksConfig)
	}
	for _, p := range s.ProtectedPaths {
		if p = norm(p); p != "" {
			c.Protected = append(c.Protected, p)
		}
	}
	for _, p := range s.TrustedDeleteRoots {
		if p = norm(p); p != "" && p != "/" {
			c.Trusted = append(c.Trusted, p)
		}
	}
	return c
}

func cleanAbs(p string) string {
	if p == "" || !strings.HasPrefix(p, "/") {
		return ""
	}
	return path.Clean(p)
}

// Rule is one policy rule.
type Rule struct {
	// ID is `category.kebab-name`, the name settings and reasons use.
	ID string
	// Category groups rules in the docs (fs, git, disk, perm, rce, proc,
	// secrets, guard, persist, infra, shell).
	Category string
	// Protects says what the rule protects, for the docs.
	Protects string
	// What is the default description of what was blocked and why, one
	// sentence without a final period. Checks may give a more precise one.
	What string
	// Safer is the safer way to reach the same goal.
	Safer string
	// Unknown says what standard mode does with a command that might match
	// but cannot be known statically. Strict mode denies those.
	Unknown string
	// DenyMaybe makes standard mode deny what might match, too.
	DenyMaybe bool
	// Commands are the command names (shell.CommandName) the rule looks
	// at; "*" means every command, and a name ending in ".*" a family
	// ("mkfs.*" is mkfs.ext4, mkfs.apfs, ...). Empty for hazard and
	// whole-result rules.
	Commands []string
	// Block and Allow are command lines the rule must deny, and must not
	// deny, run with the workspace as the current directory in standard
	// mode. Each rule has at least one of each.
	Block []string
	Allow []string
	// StrictExamples runs the Block examples in strict mode: the rule only
	// ever denies there.
	StrictExamples bool

	exec   func(*Call) Finding
	hazard func(*shell.Hazard, *Context) Finding
	result func(*shell.Result, *Context) (Finding, *shell.Exec)
}

// Finding is a rule's judgement of one command or hazard.
type Finding struct {
	// Hit: the rule matches for sure. Maybe: it might, depending on what
	// cannot be known statically.
	Hit, Maybe bool
	// What overrides the rule's What when set.
	What string
	// Discard is set by the git discard rules when the changes lost
	// could be the agent's own: the scope the shell guard gathers facts
	// for (Own) before deciding again.
	Discard *Discard
	// Safer overrides the rule's Safer when set: a check that knows more
	// (a .env key, a git hook) names the safer way for that case.
	Safer string
	// Rule is the rule; Exec or Hazard what it judged.
	Rule   *Rule
	Exec   *shell.Exec
	Hazard *shell.Hazard
}

// Denies reports whether the finding denies under ctx.
func (f Finding) Denies(ctx *Context) bool {
	return f.Hit || f.Maybe && (ctx.Strict || f.Rule != nil && f.Rule.DenyMaybe)
}

// Describe is the finding's description: its own What or its rule's.
func (f Finding) Describe() string {
	if f.What != "" {
		return f.What
	}
	if f.Rule != nil {
		return f.Rule.What
	}
	return ""
}

// SaferWay is the finding's own safer way or its rule's.
func (f Finding) SaferWay() string {
	if f.Safer != "" {
		return f.Safer
	}
	if f.Rule != nil {
		return f.Rule.Safer
	}
	return ""
}

// Fragment is the source text of what was judged.
func (f Finding) Fragment() string {
	switch {
	case f.Exec != nil:
		return f.Exec.Text
	case f.Hazard != nil:
		return f.Hazard.Text
	}
	return ""
}

func hit(what string) Finding   { return Finding{Hit: true, What: what} }
func maybe(what string) Finding { return Finding{Maybe: true, What: what} }

// Call is one command as a rule sees it.
type Call struct {
	Ex  *shell.Exec
	Res *shell.Result
	Ctx *Context
	// Args are the arguments after the command name.
	Args []string

	// eff caches effects.Of for the harm rules (effectsOf).
	eff     []effects.Effect
	effDone bool
	// cmd caches the call read by its program's grammar (Cmd).
	cmd     effects.Command
	cmdDone bool
	// rm caches parseRm for the delete rules.
	rm     rmArgs
	rmDone bool

	// rules is the policy the call is judged by, handed down by the
	// engine: exec.embedded-command judges the commands a program would
	// run with it. A field rather than the package table, which the rule
	// literals cannot name without an initialisation cycle.
	rules []*Rule
}

// Loc places a path argument of the call.
func (c *Call) Loc(arg string) Loc { return c.Ctx.Classify(c.Res, c.Ex.Dir, arg) }

// Cmd is the call read by its program's grammar (effects.ParseCommand),
// once: its subcommand words and option values, the variables set for it
// on the command line standing for their options (AWS_PROFILE=x aws … is
// aws --profile x …). A program without a grammar is read with no option
// taking a value.
func (c *Call) Cmd() *effects.Command {
	if !c.cmdDone {
		c.cmd, c.cmdDone = effects.ParseCommand(c.Ex.Name, c.Args, c.Ex.Env), true
	}
	return &c.cmd
}

// Show renders a resolved word for a message.
func (c *Call) Show(s string) string { return c.Res.Show(s) }

// judges reports whether r looks at commands named name. It is a scan of
// r.Commands rather than a lookup in an index by name: a hook process
// judges a handful of commands, and scanning the table for each costs a few
// microseconds where building an index cost a tenth of a millisecond.
func (r *Rule) judges(name string) bool {
	if r.exec == nil {
		return false
	}
	for _, n := range r.Commands {
		if n == "*" || n == name && name != "" {
			return true
		}
		if prefix, ok := strings.CutSuffix(n, "*"); ok && name != "" && strings.HasPrefix(name, prefix) {
			return true
		}
	}
	return false
}

// fs is the context's file system view.
func (c *Context) fs() bounded.FS { return bounded.Or(c.FS) }

// Evaluate judges everything in res. It returns the findings that deny
// under ctx, in the order the commands run (rule table order within one
// command, hazards after the commands); with all set it also returns the
// findings that do not deny (for explanations) and does not stop at the
// first denial.
func Evaluate(res *shell.Result, ctx *Context, all bool) []Finding {
	return evaluate(Rules(), res, ctx, all)
}

// evaluate is Evaluate with the rules to try, in order.
func evaluate(rules []*Rule, res *shell.Result, ctx *Context, all bool) []Finding {
	var out []Finding
	add := func(f Finding) bool {
		if !f.Hit && !f.Maybe {
			return false
		}
		if f.Denies(ctx) {
			out = append(out, f)
			return !all
		}
		if all {
			out = append(out, f)
		}
		return false
	}
	for _, ex := range res.Execs {
		var c *Call
		for _, r := range rules {
			if ctx.Disabled[r.ID] || !r.judges(ex.Name) {
				continue
			}
			if c == nil {
				c = &Call{Ex: ex, Res: res, Ctx: ctx, rules: rules}
				if len(ex.Args) > 0 {
					c.Args = ex.Args[1:]
				}
			}
			f := r.exec(c)
			f.Rule, f.Exec = r, ex
			if add(f) {
				return out
			}
		}
	}
	for _, r := range rules {
		if r.result == nil || ctx.Disabled[r.ID] {
			continue
		}
		f, ex := r.result(res, ctx)
		f.Rule, f.Exec = r, ex
		if add(f) {
			return out
		}
	}
	for i := range res.Hazards {
		h := &res.Hazards[i]
		for _, r := range rules {
			if r.hazard == nil || ctx.Disabled[r.ID] {
				continue
			}
			f := r.hazard(h, ctx)
			f.Rule, f.Hazard = r, h
			if add(f) {
				return out
			}
		}
	}
	return out
}

// operands returns the arguments that do not start with "-".
func operands(args []string) []string {
	var out []string
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			out = append(out, a)
		}
	}
	return out
}

func hasArg(args []string, want ...string) bool {
	for _, a := range args {
		for _, w := range want {
			if a == w {
				return true
			}
		}
	}
	return false
}
