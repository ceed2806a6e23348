package policy

import (
	"fmt"
	"github.com/gemini-guard/gemini-guard/internal/effects"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Whose changes a git discard loses: the agent's own (which it may drop)
// or someone else's, from the facts the shell guard gathers (Own).

// Discard is what one git command would discard, for the shell guard to
// find out whose the changes are before the decision: the paths it names
// (or the whole work tree) and whether staged changes go too. The shell
// guard lists the changed files in that scope and looks them up in the
// session's record of the agent's own edits (Own); the rule then passes
// when every change lost is the agent's.
type Discard struct {
	// Dir is where git runs (absolute).
	Dir string
	// Paths are the named paths, absolute; empty with All.
	Paths []string
	// All is the whole work tree (git reset --hard).
	All bool
	// Index: staged changes are discarded too (a checkout from a commit,
	// restore --staged, reset --hard), not only the work tree's.
	Index bool
	// Untracked: Paths are untracked files deleted whole (git clean).
	Untracked bool

	// Stash is the stash entry dropped (stash@{N}); its changes are
	// what is lost.
	Stash string
}

// Key names the discard in Own.Scopes.
func (d Discard) Key() string {
	return fmt.Sprintf("%s\x00%t%t%t\x00%s\x00%s", d.Dir, d.All, d.Index, d.Untracked, d.Stash, strings.Join(d.Paths, "\x00"))
}

var stashRefRe = &lazyregexp.Regexp{Expr: `^(?:stash@\{)?([0-9]{1,4})\}?$`}

// ownStashDrop passes git stash drop [stash@{N}] when the entry holds only
// changes the agent made in this session (Own lists them as a scope).
func ownStashDrop(c *Call, p shell.Args, f Finding) Finding {
	for _, o := range p.Opts {
		if o.Name != "q" && o.Name != "quiet" {
			return f
		}
	}
	ref := "stash@{0}"
	switch ops := p.Operands[1:]; {
	case len(ops) > 1:
		return f
	case len(ops) == 1:
		m := stashRefRe.Get().FindStringSubmatch(ops[0])
		if m == nil || strings.HasPrefix(ops[0], "stash@{") != strings.HasSuffix(ops[0], "}") {
			return f
		}
		ref = "stash@{" + m[1] + "}"
	}
	d, ok := discardOf(c, nil)
	if !ok {
		return f
	}
	d.Stash = ref
	return ownDiscard(c, d, f)
}

// Own is what the shell guard found out before the decision about the
// files discards would lose: the session's record of the agent's edits and
// each file's content now. The decision stays pure: these facts come in
// with the input (Context.Own). Nil, or a scope missing from Scopes, means
// nothing is known: the discard is judged as today, as the user's work.
type Own struct {
	// Scopes maps Discard.Key to the files git status lists as changed
	// in that scope (for an Untracked discard: the named files that exist;
	// for a stash entry: the files it changes, Y 'M').
	Scopes map[string][]Changed
	// Files maps an absolute path to what is known of it.
	Files map[string]OwnFile
}

// Changed is one file git status lists: X is the index against HEAD, Y
// the work tree against the index, as in git status --porcelain.
type Changed struct {
	Path string
	X, Y byte
}

// OwnFile is what is known of one file: the record of the agent's touches
// in this session, and the file now.
type OwnFile struct {
	// Recorded: the session's record holds the file (a record that could
	// not be read is no record).
	Recorded bool
	// Created: the file did not exist at the agent's first touch.
	Created bool
	// Clean: at the agent's first touch the file was tracked and its
	// content matched the index.
	Clean bool
	// Staged: at the first touch its index entry differed from HEAD.
	Staged bool
	// Foreign: someone else changed it between two of the agent's touches.
	Foreign bool
	// User: it held the user's work that git's status did not show (set
	// aside by git stash, hidden by an index flag, written from a stash)
	// at its first touch or since, in this session.
	User bool
	// Left is the hash of the content the agent last left; "" when its
	// last write was not seen to finish.
	Left string
	// Now is the hash of the content the discard loses: the file now, or
	// its version in the stash entry dropped; "" when it could not be read.
	Now string
	// Unsafe says why the file is not judged at all: a symbolic link, a
	// submodule, outside the workspace.
	Unsafe string
}

// discardReadOnly are the commands that may run beside an owned discard in
// one command line: the facts were gathered before the line runs, so any
// other command that changes files (git stash pop && git checkout .) could
// bring the user's work back into the scope first.
var discardReadOnly = []string{"cd", "pwd", "echo", "printf", "true", "ls", "cat", "head", "tail", "wc"}

// discardAlone reports whether c's discard is the only command of its line
// that may change files (git status, diff, log and show may run beside it).
func discardAlone(c *Call) bool {
	for _, ex := range c.Res.Execs {
		if ex == c.Ex || slices.Contains(discardReadOnly, ex.Name) && len(ex.Redirs) == 0 {
			continue
		}
		if ex.Name == "git" && len(ex.Redirs) == 0 {
			if i := shell.GitSubcommand(ex.Args[1:]); i >= 0 && slices.Contains([]string{"status", "diff", "log", "show"}, ex.Args[i+1]) {
				continue
			}
		}
		return false
	}
	return true
}

// discardOf builds c's Discard for the named operands, or false when the
// command is beyond what the shell guard can check: git pointed elsewhere
// (-C, --git-dir, --work-tree, GIT_DIR, ...), a pathspec with magic or a
// glob, a path outside the workspace or unknown statically, another
// command on the line that changes files.
func discardOf(c *Call, ops []string) (Discard, bool) {
	d := Discard{Dir: c.Ex.Dir}
	if !c.inWorkspace(d.Dir) || !discardAlone(c) {
		return d, false
	}
	if i := shell.GitSubcommand(c.Args); i != 0 {
		return d, false // global options before the subcommand
	}
	for k := range c.Ex.Env {
		if strings.HasPrefix(k, "GIT_") {
			return d, false
		}
	}
	for _, o := range ops {
		p, ok := c.discardPath(o)
		if !ok {
			return d, false
		}
		d.Paths = append(d.Paths, p)
	}
	return d, true
}

// discardPath is the absolute path of a pathspec a discard names, if it
// is a plain path in the workspace outside .git (not a glob, a magic
// :(…) pathspec or a word unknown statically).
func (c *Call) discardPath(o string) (string, bool) {
	if o == "" || !shell.Known(o) || strings.HasPrefix(o, ":") || strings.ContainsAny(o, "*?[\\") {
		return "", false
	}
	p := c.resolve(o)
	git := c.Ctx.Workspace + "/.git"
	if !strings.HasPrefix(p, "/") || !c.inWorkspace(p) || p == git || strings.HasPrefix(p, git+"/") {
		return "", false
	}
	return p, true
}

// ownDiscard judges d with the facts in c.Ctx.Own: every change d loses
// must be the agent's own. It returns the finding to give: none when all
// is the agent's, else f with the path whose changes are not the agent's
// named.
func ownDiscard(c *Call, d Discard, f Finding) Finding {
	f.Discard = &d
	own := c.Ctx.ownFor(d)
	if own == nil {
		return f
	}
	changed, ok := own.Scopes[d.Key()]
	if !ok {
		return f
	}
	for _, ch := range changed {
		if !d.Untracked && (ch.X == '?' || ch.X == '!' || !d.Index && ch.Y == ' ') {
			continue // untracked and ignored files stay; staged changes stay unless d.Index
		}
		if why := notOwn(own.Files[ch.Path], d); why != "" {
			f.What += "; " + c.relative(ch.Path) + " " + why
			return f
		}
	}
	return Finding{}
}

// ownFor is the facts known for d: those given (Own), else those OwnFacts
// finds, asked once per discard and kept in Own.
func (ctx *Context) ownFor(d Discard) *Own {
	if ctx.OwnFacts == nil {
		return ctx.Own
	}
	if ctx.Own != nil {
		if _, ok := ctx.Own.Scopes[d.Key()]; ok {
			return ctx.Own
		}
	}
	if ctx.ownAsked[d.Key()] {
		return ctx.Own
	}
	if ctx.ownAsked == nil {
		ctx.ownAsked = map[string]bool{}
	}
	ctx.ownAsked[d.Key()] = true
	got := ctx.OwnFacts(d)
	if got == nil {
		return ctx.Own
	}
	if ctx.Own == nil {
		ctx.Own = &Own{Scopes: map[string][]Changed{}, Files: map[string]OwnFile{}}
	}
	for k, v := range got.Scopes {
		ctx.Own.Scopes[k] = v
	}
	for k, v := range got.Files {
		ctx.Own.Files[k] = v
	}
	return ctx.Own
}

// notOwn says why the changes to one file are not known to be the agent's
// own, "" when they are.
func notOwn(f OwnFile, d Discard) string {
	switch {
	case f.Unsafe != "":
		return f.Unsafe
	case !f.Recorded:
		return "holds changes the agent did not make in this session"
	case f.User:
		return "held the user's work in this session, set aside from git's view (git stash, an index flag, a stash entry checked out)"
	case f.Foreign:
		return "was changed by someone else after the agent's edit"
	case f.Left == "":
		return "holds changes the agent's last write is not known to have left"
	case f.Now != f.Left:
		return "was changed by someone else after the agent last wrote it"
	case d.Untracked && !f.Created:
		return "was not created by the agent in this session"
	case f.Created:
		return ""
	case !f.Clean:
		return "held uncommitted changes before the agent first touched it"
	case d.Index && f.Staged:
		return "held staged changes before the agent first touched it, which this discards too"
	}
	return ""
}

// calls are the simple commands of res as calls of ctx.
func calls(res *shell.Result, ctx *Context) []*Call {
	out := make([]*Call, 0, len(res.Execs))
	for _, ex := range res.Execs {
		c := &Call{Ex: ex, Res: res, Ctx: ctx}
		if len(ex.Args) > 0 {
			c.Args = ex.Args[1:]
		}
		out = append(out, c)
	}
	return out
}

// SetAside is the user's work a git command sets aside from git's view of
// the work tree: the hook records those files as the user's for the rest
// of the session (issue #38), so bytes the agent writes over them later do
// not make a discard of them the agent's own.
type SetAside struct {
	// Dir is where git runs (its -C applied).
	Dir string
	// Stash: git stash [push|save]: every change of the work tree (with
	// Untracked, the untracked files too).
	Stash, Untracked bool
	// Paths are files an index flag hides (update-index
	// --assume-unchanged, --skip-worktree) or a stash entry is written
	// into (git checkout stash@{0} -- f, git restore --source=stash f).
	Paths []string
}

// CopiedFromUser are the files the copiers (mv, cp, cat >, …) write in the workspace
// from a file the agent did not make (Context.AgentMade): they then hold
// the user's bytes, and stay the user's for the session whatever the
// agent's later writes (issue #38: a user's file renamed onto one the
// agent created is not the agent's to discard).
func CopiedFromUser(res *shell.Result, ctx *Context) []string {
	var out []string
	for _, c := range calls(res, ctx) {
		if !slices.Contains(copiers, c.Ex.Name) {
			continue
		}
		var dests []string
		fromUser := false
		for _, e := range c.effectsOf() {
			switch {
			case !shell.Known(e.Path) || !c.inWorkspace(e.Path):
			case e.Kind == effects.Write:
				dests = append(dests, e.Path)
			case e.Kind == effects.Read || e.Kind == effects.Delete && e.Moved:
				fromUser = fromUser || ctx.AgentMade == nil || !ctx.AgentMade(e.Path)
			}
		}
		if fromUser {
			out = append(out, dests...)
		}
	}
	return out
}

// stashKeeps are git stash's subcommands that set nothing aside.
var stashKeeps = []string{"list", "show", "pop", "apply", "drop", "clear", "branch", "create", "store"}

// SetAsides are the set-asides of the git commands in res.
func SetAsides(res *shell.Result, ctx *Context) []SetAside {
	var out []SetAside
	for _, c := range calls(res, ctx) {
		if c.Ex.Name != "git" {
			continue
		}
		g := parseGit(c)
		dir := c.gitStartDir()
		if dir == "" {
			dir = c.Ex.Dir
		}
		p := shell.ParseArgs(g.args, gitPlainSpec)
		switch g.sub {
		case "stash":
			if len(p.Operands) > 0 && slices.Contains(stashKeeps, p.Operands[0]) {
				continue
			}
			out = append(out, SetAside{Dir: dir, Stash: true, Untracked: p.Has("u", "include-untracked", "a", "all")})
		case "update-index":
			if p.Has("assume-unchanged", "skip-worktree") {
				out = append(out, SetAside{Dir: dir, Paths: c.knownPaths(p.Operands)})
			}
		case "checkout", "restore":
			if stashSource(g.sub, p) {
				ops := p.Operands
				if g.sub == "checkout" {
					ops = ops[1:] // the stash entry, then the paths
				}
				out = append(out, SetAside{Dir: dir, Paths: c.knownPaths(ops)})
			}
		}
	}
	return out
}

// stashSource: git checkout stash@{0} -- f, git restore --source=stash@{1} f.
func stashSource(sub string, p shell.Args) bool {
	isStash := func(r string) bool { return r == "stash" || strings.HasPrefix(r, "stash@{") || r == "refs/stash" }
	if sub == "restore" {
		v, _ := p.Value("s", "source")
		return isStash(v)
	}
	return len(p.Operands) > 0 && isStash(p.Operands[0])
}

// knownPaths are ops resolved to absolute paths, those known statically.
func (c *Call) knownPaths(ops []string) []string {
	var out []string
	for _, o := range ops {
		if p := c.resolve(o); shell.Known(p) && strings.HasPrefix(p, "/") {
			out = append(out, p)
		}
	}
	return out
}

// relative shows p relative to the workspace when it is inside.
func (c *Call) relative(p string) string {
	if r, ok := strings.CutPrefix(p, c.Ctx.Workspace+"/"); ok {
		return r
	}
	return p
}

// Changes lists the paths (absolute when known) that the commands in res
// write, create or delete, as the protected-path checks read them: the
// shell guard records an allowed command's as the agent's touches.
func Changes(res *shell.Result, ctx *Context) []string {
	var out []string
	for _, c := range calls(res, ctx) {
		w, d := changes(c)
		for _, p := range append(w, d...) {
			if shell.Known(p) && strings.HasPrefix(p, "/") && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}
