package policy

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// The git rules' checks, one per subcommand family, over a gitCall; whose
// changes a discard loses is git_discard.go's.

// gitCall is a git command line split at its subcommand.
type gitCall struct {
	sub  string   // lower-cased: case-insensitive file systems find git-CHECKOUT
	args []string // after the subcommand
	// unknownSub is set when the subcommand is not known statically.
	unknownSub bool
}

func parseGit(c *Call) gitCall {
	i := shell.GitSubcommand(c.Args)
	if i < 0 {
		return gitCall{}
	}
	sub := c.Args[i]
	if !shell.Known(sub) {
		return gitCall{unknownSub: true, args: c.Args[i+1:]}
	}
	args := c.Args[i+1:]
	if slices.ContainsFunc(args, func(a string) bool { _, n := unicodeDashes(a); return n > 0 }) {
		// ‐‐hard with typographic dashes: git rejects it, but the intent
		// is --hard; judge it so.
		args = slices.Clone(args)
		for j, a := range args {
			if size, n := unicodeDashes(a); n > 0 {
				args[j] = strings.Repeat("-", n) + a[size:]
			}
		}
	}
	return gitCall{sub: strings.ToLower(sub), args: args}
}

// anyUnknown reports whether any of args is not known statically.
func anyUnknown(args []string) bool {
	for _, a := range args {
		if !shell.Known(a) {
			return true
		}
	}
	return false
}

// gitSubcommand judges c when git runs one of subs: judge gets the parsed
// arguments. Unknown subcommands or arguments make a Maybe. Each git rule
// calls it from a named function rather than holding a closure built by a
// call, so that the rule table stays a literal the compiler lays out (a
// closure would be built, and its rule's page written, in every process).
func gitSubcommand(c *Call, spec *shell.OptSpec, judge func(c *Call, p shell.Args, g gitCall) Finding, subs ...string) Finding {
	g := parseGit(c)
	if g.unknownSub {
		return maybe("git runs a subcommand that cannot be known statically")
	}
	if !slices.Contains(subs, g.sub) {
		return Finding{}
	}
	f := judge(c, shell.ParseArgs(g.args, spec), g)
	if !f.Hit && !f.Maybe && anyUnknown(g.args) {
		return maybe("git " + g.sub + " with arguments that cannot be known statically")
	}
	return f
}

func gitResetHard(c *Call) Finding  { return gitSubcommand(c, gitResetSpec, checkGitResetHard, "reset") }
func gitCleanForce(c *Call) Finding { return gitSubcommand(c, gitCleanSpec, checkGitClean, "clean") }
func gitPushForce(c *Call) Finding  { return gitSubcommand(c, gitPushSpec, checkGitPushForce, "push") }
func gitPushDelete(c *Call) Finding { return gitSubcommand(c, gitPushSpec, checkGitPushDelete, "push") }
func gitRestore(c *Call) Finding    { return gitSubcommand(c, gitRestoreSpec, checkGitRestore, "restore") }
func gitStash(c *Call) Finding      { return gitSubcommand(c, gitPlainSpec, checkGitStash, "stash") }
func gitHistory(c *Call) Finding {
	if f := gitSubcommand(c, gitPlainSpec, checkGitHistory, "filter-branch", "filter-repo"); f.Hit || f.Maybe {
		return f
	}
	return gitSubcommand(c, gitRebaseSpec, checkGitRebaseDrop, "rebase")
}
func gitReflog(c *Call) Finding {
	return gitSubcommand(c, gitPlainSpec, checkGitReflog, "reflog", "gc", "prune", "update-ref")
}
func gitRm(c *Call) Finding { return gitSubcommand(c, gitRmSpec, checkGitRm, "rm") }
func gitAbort(c *Call) Finding {
	return gitSubcommand(c, gitAbortSpec, checkGitAbort, "rebase", "merge", "cherry-pick", "revert", "am")
}
func gitTag(c *Call) Finding { return gitSubcommand(c, gitTagSpec, checkGitTag, "tag") }
func gitWorktree(c *Call) Finding {
	return gitSubcommand(c, gitPlainSpec, checkGitWorktree, "worktree")
}

var (
	gitResetSpec = &shell.OptSpec{Short: "qpN", Long: []string{"hard", "soft", "mixed", "merge", "keep", "quiet", "no-quiet", "patch",
		"intent-to-add", "pathspec-from-file=", "pathspec-file-nul", "recurse-submodules=?", "no-recurse-submodules", "refresh", "no-refresh"}, Abbrev: true, FoldLong: true}
	gitCleanSpec = &shell.OptSpec{Short: "dfinqe:xX", Long: []string{"force", "dry-run", "interactive", "quiet", "exclude=", "no-force"}, Abbrev: true, FoldLong: true}
	gitPushSpec  = &shell.OptSpec{Short: "fdnqvu46o:", Long: []string{"force", "force-with-lease=?", "no-force-with-lease", "force-if-includes", "no-force-if-includes",
		"mirror", "delete", "all", "branches", "tags", "dry-run", "porcelain", "prune", "set-upstream", "verbose", "quiet", "repo=",
		"receive-pack=", "exec=", "push-option=", "signed=?", "no-signed", "atomic", "no-atomic", "no-verify", "verify", "follow-tags",
		"no-follow-tags", "thin", "no-thin", "recurse-submodules=", "no-recurse-submodules", "progress", "no-progress", "ipv4", "ipv6"}, Abbrev: true, FoldLong: true}
	gitCheckoutSpec = &shell.OptSpec{Short: "qfb:B:ltdmpU:", Long: []string{"quiet", "no-quiet", "progress", "no-progress", "force", "ours", "theirs",
		"track=?", "no-track", "guess", "no-guess", "detach", "orphan=", "ignore-skip-worktree-bits", "merge", "conflict=", "patch",
		"ignore-other-worktrees", "overwrite-ignore", "no-overwrite-ignore", "recurse-submodules=?", "no-recurse-submodules",
		"overlay", "no-overlay", "pathspec-from-file=", "pathspec-file-nul", "unified=", "inter-hunk-context=", "help"}, Abbrev: true, FoldLong: true}
	gitSwitchSpec = &shell.OptSpec{Short: "c:C:dfmqt", Long: []string{"create=", "force-create=", "detach", "guess", "no-guess", "force",
		"discard-changes", "merge", "conflict=", "quiet", "no-quiet", "progress", "no-progress", "track=?", "no-track", "orphan=",
		"ignore-other-worktrees", "recurse-submodules=?", "no-recurse-submodules", "help"}, Abbrev: true, FoldLong: true}
	gitRestoreSpec = &shell.OptSpec{Short: "s:SWqpmU:h", Long: []string{"source=", "no-source", "staged", "no-staged", "worktree", "no-worktree",
		"ours", "theirs", "merge", "conflict=", "ignore-unmerged", "ignore-skip-worktree-bits", "recurse-submodules=?",
		"no-recurse-submodules", "overlay", "no-overlay", "quiet", "no-quiet", "progress", "no-progress", "patch", "no-patch",
		"pathspec-from-file=", "pathspec-file-nul", "unified=", "inter-hunk-context=", "help", "version"}, Abbrev: true, FoldLong: true}
	gitBranchSpec = &shell.OptSpec{Short: "dDfmMcCrarltvqu:", Long: []string{"delete", "force", "move", "copy", "remotes", "all", "list",
		"track=?", "no-track", "verbose", "quiet", "set-upstream-to=", "unset-upstream", "edit-description", "create-reflog",
		"contains=?", "no-contains=?", "merged=?", "no-merged=?", "points-at=", "format=", "sort=", "column=?", "no-column",
		"color=?", "no-color", "abbrev=?", "no-abbrev", "ignore-case", "omit-empty", "show-current", "recurse-submodules", "help"}, Abbrev: true, FoldLong: true}
	gitRmSpec    = &shell.OptSpec{Short: "fnqr", Long: []string{"force", "dry-run", "quiet", "cached", "ignore-unmatch", "sparse", "pathspec-from-file=", "pathspec-file-nul"}, Abbrev: true, FoldLong: true}
	gitTagSpec   = &shell.OptSpec{Short: "adfsvlnm:F:u:e", Long: []string{"annotate", "delete", "force", "sign", "no-sign", "verify", "list", "message=", "file=", "local-user=", "edit", "contains=?", "points-at=?", "merged=?", "no-merged=?", "sort=", "format=", "create-reflog", "cleanup="}, Abbrev: true, FoldLong: true}
	gitAbortSpec = &shell.OptSpec{Long: []string{"abort", "continue", "skip", "quit", "edit-todo", "show-current-patch", "no-edit",
		"no-ff", "ff-only", "squash", "no-squash", "commit", "no-commit", "interactive", "onto=", "strategy=", "autosquash", "autostash"}, Abbrev: true, FoldLong: true}
	gitPlainSpec  = &shell.OptSpec{Abbrev: true, FoldLong: true}
	gitRebaseSpec = &shell.OptSpec{Short: "ix:s:X:qvnC:fmrS::", Long: []string{"interactive", "exec=", "strategy=", "strategy-option=", "onto=", "root", "keep-base",
		"rebase-merges=?", "no-rebase-merges", "quiet", "verbose", "stat", "no-stat", "no-verify", "verify", "force-rebase", "no-ff", "merge", "apply", "autosquash", "no-autosquash",
		"autostash", "no-autostash", "update-refs", "no-update-refs", "empty=", "whitespace=", "committer-date-is-author-date", "ignore-date", "reset-author-date", "signoff",
		"gpg-sign=?", "no-gpg-sign", "fork-point", "no-fork-point", "reschedule-failed-exec", "no-reschedule-failed-exec", "continue", "abort", "skip", "quit", "edit-todo",
		"show-current-patch", "keep-empty", "no-keep-empty", "allow-empty-message", "context=", "ignore-whitespace"}, Abbrev: true, FoldLong: true}
)

func checkGitResetHard(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("hard") {
		f := hit("git reset --hard discards every uncommitted change in the work tree and index")
		// Only back to HEAD: another commit also drops commits and
		// overwrites untracked files that commit holds.
		if len(p.Operands) > 1 || len(p.Operands) == 1 && p.Operands[0] != "HEAD" || p.Has("recurse-submodules", "merge", "keep", "patch") {
			return f
		}
		if _, fromFile := p.Value("pathspec-from-file"); fromFile {
			return f
		}
		d, ok := discardOf(c, nil)
		if !ok {
			return f
		}
		d.All, d.Index = true, true
		return ownDiscard(c, d, f)
	}
	if p.Has("merge") {
		return hit("git reset --merge can discard uncommitted changes")
	}
	return Finding{}
}

func checkGitClean(c *Call, p shell.Args, g gitCall) Finding {
	// clean.requireForce=false makes git clean delete without -f.
	force := p.Has("f", "force") || falseValue(shell.GitConfig(c.Args, c.Ex.Env)["clean.requireforce"])
	if force && !p.Has("n", "dry-run") && !p.Has("i", "interactive") {
		f := hit("git clean -f deletes untracked files, which git cannot bring back")
		// Files the agent created in this session, named one by one, may
		// go again when they are as the agent left them.
		if len(p.Operands) == 0 {
			return f
		}
		d, ok := discardOf(c, p.Operands)
		if !ok {
			return f
		}
		d.Untracked = true
		return ownDiscard(c, d, f)
	}
	return Finding{}
}

// unicodeDashes counts the typographic dashes (U+2010 to U+2015, U+2212)
// that a starts with, at most two, and their size in bytes.
func unicodeDashes(a string) (size, n int) {
	for n < 2 {
		r, w := utf8.DecodeRuneInString(a[size:])
		if !(0x2010 <= r && r <= 0x2015 || r == 0x2212) {
			break
		}
		size += w
		n++
	}
	return size, n
}

func checkGitPushForce(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("f", "force") || p.Has("mirror") {
		return hit("git push --force rewrites the remote branch and can destroy commits others pushed")
	}
	for _, o := range p.Opts {
		if !o.Known && o.Long && strings.HasPrefix(o.Name, "force") && !strings.HasPrefix(o.Name, "force-with-lease") && !strings.HasPrefix(o.Name, "force-if-includes") || o.Name == "force-with-lease-if-includes" {
			return hit("git push with a --force option rewrites the remote branch")
		}
	}
	ops := p.Operands
	if len(ops) > 1 {
		for _, ref := range ops[1:] {
			if strings.HasPrefix(ref, "+") || strings.Contains(ref, ":+") {
				return hit("git push +" + strings.TrimPrefix(ref, "+") + " force-pushes that ref")
			}
		}
	}
	return Finding{}
}

func checkGitPushDelete(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("d", "delete") {
		return hit("git push --delete deletes a branch or tag on the remote")
	}
	if p.Has("prune") {
		return hit("git push --prune deletes every remote branch that has no local counterpart")
	}
	ops := p.Operands
	if len(ops) > 1 {
		for _, ref := range ops[1:] {
			if strings.HasPrefix(ref, ":") && len(ref) > 1 {
				return hit("git push :" + ref[1:] + " deletes that ref on the remote")
			}
		}
	}
	return Finding{}
}

var pathLikeRe = &lazyregexp.Regexp{Expr: `(?i)^(\.|\.\.)(/|$)|^/|[*?\[]|\.(go|py|js|ts|tsx|jsx|mjs|cjs|json|md|txt|ya?ml|toml|c|h|cc|cpp|hpp|rs|java|kt|rb|php|html?|css|scss|sh|lock|xml|sql|env|cfg|ini|conf|mod|sum|csv|lua|swift|vue|svelte)$`}

// checkGitCheckout: checkout of paths (over uncommitted changes) and
// forced checkouts. A lone name is a branch switch unless it looks like a
// path.
func checkGitCheckout(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("h", "help") {
		return Finding{}
	}
	if p.Has("f", "force") {
		return hit("git checkout --force discards uncommitted changes")
	}
	if _, ok := p.Value("pathspec-from-file"); ok {
		return hit("git checkout --pathspec-from-file overwrites the listed files, discarding their uncommitted changes")
	}
	p = shell.ParseArgs(mergeOptionalValues(g.args), gitCheckoutSpec)
	ops := p.Operands
	// own passes a discard of the agent's own changes (Own): the paths
	// named, staged changes too when a commit is named. Merging and
	// choosing sides of a conflict are beyond it.
	own := func(f Finding, paths []string, index bool) Finding {
		if p.Has("ours", "theirs", "m", "merge", "conflict", "p", "patch", "overlay", "no-overlay") {
			return f
		}
		if d, ok := discardOf(c, paths); ok {
			d.Index = index
			return ownDiscard(c, d, f)
		}
		return f
	}
	if p.DashDash >= 0 {
		if len(ops) > p.DashDash {
			return own(hit("git checkout -- <paths> overwrites those files, discarding their uncommitted changes"), ops[p.DashDash:], p.DashDash > 0)
		}
		return Finding{}
	}
	if _, ok := p.Value("b", "B", "orphan"); ok {
		// git refuses to create a branch and update paths at once.
		return Finding{}
	}
	switch {
	case len(ops) >= 2:
		// The first may be a commit or a path: both are checked.
		return own(hit("git checkout <commit> <paths> overwrites those files, discarding their uncommitted changes"), ops, true)
	case len(ops) == 1 && pathLikeRe.MatchString(ops[0]):
		return own(hit("git checkout "+ops[0]+" overwrites that path, discarding its uncommitted changes"), ops, false)
	case len(ops) == 1 && !shell.Known(ops[0]):
		return maybe("git checkout of a name that cannot be known statically (a branch or a path)")
	}
	return Finding{}
}

// mergeOptionalValues joins --track and --recurse-submodules with a known
// value in the next word (direct, inherit, checkout, on-demand, ...), as the
// peers read it: `git checkout --track direct main` switches to main.
func mergeOptionalValues(args []string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...)
		}
		if l := strings.ToLower(a); (l == "--track" || l == "--recurse-submodules") && i+1 < len(args) {
			switch args[i+1] {
			case "direct", "inherit", "checkout", "on-demand", "yes", "no", "true", "false":
				out = append(out, a+"="+args[i+1])
				i++
				continue
			}
		}
		out = append(out, a)
	}
	return out
}

func checkGitSwitch(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("f", "force", "discard-changes") {
		return hit("git switch --discard-changes/--force discards uncommitted changes")
	}
	return Finding{}
}

// checkGitRestore follows git's own defaults: the work tree is restored
// unless --staged or an explicit --no-worktree/--no-staged says otherwise.
func checkGitRestore(c *Call, p shell.Args, g gitCall) Finding {
	s, help := restoreScopeOf(p)
	if help {
		return Finding{}
	}
	_, fromFile := p.Value("pathspec-from-file")
	if !s.worktree || len(p.Operands) == 0 && !fromFile && !s.patch {
		return Finding{}
	}
	f := hit("git restore overwrites files in the work tree, discarding their uncommitted changes")
	if fromFile || s.patch || p.Has("ours", "theirs", "m", "merge", "conflict", "overlay", "no-overlay") {
		return f
	}
	d, ok := discardOf(c, p.Operands)
	if !ok {
		return f
	}
	// --staged puts the index back too; --source alone leaves it.
	d.Index = s.index
	return ownDiscard(c, d, f)
}

// restoreScope is what git restore puts back: the index (--staged), the
// work tree (--worktree, the default when neither is given), by hunks
// (--patch).
type restoreScope struct {
	index, worktree, patch bool
}

// restoreScopeOf reads git restore's options, the last of each pair
// winning; help is set for -h, --help and --version.
func restoreScopeOf(p shell.Args) (s restoreScope, help bool) {
	index, worktree := -1, -1
	for _, o := range p.Opts {
		switch o.Name {
		case "h", "help", "version":
			return s, true
		case "S", "staged", "no-staged":
			index = boolInt(o.Name != "no-staged")
		case "W", "worktree", "no-worktree":
			worktree = boolInt(o.Name != "no-worktree")
		case "p", "patch", "no-patch":
			s.patch = o.Name != "no-patch"
		}
	}
	s.index = index == 1
	s.worktree = worktree == 1 || index < 0 && worktree < 0
	return s, false
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func checkGitBranch(c *Call, p shell.Args, g gitCall) Finding {
	del := p.Has("d", "delete")
	force := p.Has("f", "force")
	switch {
	case p.Has("D") || del && force:
		return hit("git branch -D deletes a branch even if its commits are not merged anywhere")
	case p.Has("M") || force && p.Has("m", "move"):
		return hit("git branch -M renames over an existing branch, losing it")
	case p.Has("C") || force && p.Has("c", "copy"):
		return hit("git branch -C copies over an existing branch, losing it")
	case force && len(p.Operands) > 0 && !p.Has("l", "list", "a", "all", "r", "remotes", "h", "help"):
		// git branch -f NAME [START]: the branch is set to START (HEAD).
		return refMoved(c, "git branch -f", p.Operands[0], firstOr(p.Operands[1:]))
	}
	return Finding{}
}

// falseValue reports whether a git configuration value is false.
func falseValue(v string) bool {
	switch strings.ToLower(v) {
	case "false", "no", "off", "0":
		return true
	}
	return false
}

func checkGitStash(c *Call, p shell.Args, g gitCall) Finding {
	if len(p.Operands) > 0 {
		switch strings.ToLower(p.Operands[0]) {
		case "drop":
			return ownStashDrop(c, p, hit("git stash drop deletes stashed changes"))
		case "clear":
			return hit("git stash clear deletes every stash")
		}
	}
	return Finding{}
}

func checkGitHistory(c *Call, p shell.Args, g gitCall) Finding {
	if hasArg(c.Args, "--help", "-h", "--analyze", "--dry-run") {
		return Finding{} // filter-repo's help, its report, or a run that writes nothing
	}
	return hit("git " + g.sub + " rewrites the repository's history")
}

func checkGitReflog(c *Call, p shell.Args, g gitCall) Finding {
	switch g.sub {
	case "reflog":
		if len(p.Operands) > 0 && (p.Operands[0] == "expire" || p.Operands[0] == "delete") && !slices.Contains(g.args, "--dry-run") && !slices.Contains(g.args, "-n") {
			return hit("git reflog " + p.Operands[0] + " deletes the record that lets lost commits be recovered")
		}
	case "gc", "prune":
		for _, a := range g.args {
			if a == "--prune=now" || a == "--prune=all" || a == "--expire=now" || a == "--expire" {
				return hit("git " + g.sub + " " + a + " deletes unreachable commits at once, with no grace period")
			}
		}
	case "update-ref":
		if p.Has("d") || len(g.args) > 0 && g.args[0] == "-d" {
			return hit("git update-ref -d deletes a ref")
		}
	}
	return Finding{}
}

func checkGitRm(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("f", "force") && !p.Has("cached") && !p.Has("n", "dry-run") {
		return hit("git rm -f deletes files even when they have uncommitted changes")
	}
	return Finding{}
}

func checkGitAbort(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("abort") {
		return hit("git " + g.sub + " --abort resets the work tree and can discard changes made since it started")
	}
	return Finding{}
}

func checkGitTag(c *Call, p shell.Args, g gitCall) Finding {
	if p.Has("d", "delete") {
		return hit("git tag -d deletes a tag")
	}
	return Finding{}
}

func checkGitWorktree(c *Call, p shell.Args, g gitCall) Finding {
	if len(p.Operands) > 0 && p.Operands[0] == "remove" {
		sub := shell.ParseArgs(g.args[1:], &shell.OptSpec{Short: "f", Long: []string{"force"}, Abbrev: true})
		if sub.Has("f", "force") {
			return hit("git worktree remove --force deletes a worktree with uncommitted changes")
		}
	}
	return Finding{}
}

// checkGitShellAlias: an inline alias that runs a shell command hides the
// command from review. One that runs git itself (!git log …) is analysed
// as the nested shell it is, and judged by the whole policy there.
func checkGitShellAlias(c *Call) Finding {
	cfg := shell.GitConfig(c.Args, c.Ex.Env)
	for k, v := range cfg {
		body, ok := strings.CutPrefix(strings.TrimSpace(v), "!")
		if !strings.HasPrefix(k, "alias.") || !ok {
			continue
		}
		if first, _, _ := strings.Cut(strings.TrimSpace(body), " "); shell.CommandName(first) == "git" && !strings.ContainsAny(body, ";&|`$<>") {
			continue
		}
		return hit("git -c " + k + "=!... defines an alias that runs a shell command")
	}
	return Finding{}
}

// checkGitCodeRunners: git runs programs from places a command can point
// it at: hooks from core.hooksPath, any command from an ext:: remote.
func checkGitCodeRunners(c *Call) Finding {
	g := parseGit(c)
	cfg := shell.GitConfig(c.Args, c.Ex.Env)
	if f := extTransport(c, g, cfg); f.Hit {
		return f
	}
	hooks, ok := cfg["core.hookspath"]
	if !ok && g.sub == "config" {
		for i, a := range g.args {
			if strings.EqualFold(a, "core.hooksPath") && i+1 < len(g.args) {
				hooks, ok = g.args[i+1], true
			}
		}
	}
	if ok && hooks != "" && shell.Known(hooks) && !c.inWorkspace(shell.ResolvePath(c.Ex.Dir, hooks)) {
		return hit("core.hooksPath points git at hooks outside the workspace (" + hooks + "), which git then runs on commit, checkout and merge")
	}
	return Finding{}
}

// inWorkspace reports whether dir is the workspace or inside it (false
// when the workspace is not known).
func (c *Call) inWorkspace(dir string) bool {
	return c.Ctx.Workspace != "" && (dir == c.Ctx.Workspace || strings.HasPrefix(dir, c.Ctx.Workspace+"/"))
}

// extTransport: ext:: remotes, which run any command as git's transport,
// named or enabled (protocol.ext.allow, protocol.allow=always,
// GIT_ALLOW_PROTOCOL).
func extTransport(c *Call, g gitCall, cfg map[string]string) Finding {
	if v, ok := cfg["protocol.ext.allow"]; ok && v != "never" {
		return hit("git -c protocol.ext.allow enables ext:: remotes, which run any command as the transport")
	}
	if v, ok := cfg["protocol.allow"]; ok && v == "always" {
		return hit("git -c protocol.allow=always enables ext:: remotes, which run any command as the transport")
	}
	if strings.Contains(c.Ex.Env["GIT_ALLOW_PROTOCOL"], "ext") {
		return hit("GIT_ALLOW_PROTOCOL enables ext:: remotes, which run any command as the transport")
	}
	for _, a := range g.args {
		if strings.HasPrefix(strings.ToLower(a), "ext::") {
			return hit("an ext:: remote runs the command it names as git's transport")
		}
	}
	return Finding{}
}

// checkGitRefs: plumbing that destroys refs or the work tree: read-tree
// -u --reset, update-ref -d or moved backwards, symbolic-ref HEAD moved.
func checkGitRefs(c *Call) Finding {
	g := parseGit(c)
	has := func(opts ...string) bool { return hasArg(g.args, opts...) }
	switch g.sub {
	case "read-tree":
		if has("-u") && has("--reset", "-m") {
			return hit("git read-tree -u --reset overwrites the work tree and index, discarding uncommitted changes")
		}
	case "update-ref":
		return updateRefDestroy(c, g.args)
	case "symbolic-ref":
		if has("HEAD") && (has("-d", "--delete") || len(operands(g.args)) >= 2) {
			return hit("git symbolic-ref moves or deletes HEAD without checking out: the next commit starts a history of its own")
		}
	}
	return Finding{}
}

// updateRefDestroy: git update-ref deleting a ref, rewriting refs from
// input, or moving one back in history.
func updateRefDestroy(c *Call, args []string) Finding {
	if hasArg(args, "-d", "--delete") {
		return hit("git update-ref -d deletes a ref without the checks git branch -d makes")
	}
	if hasArg(args, "--stdin") {
		return hit("git update-ref --stdin rewrites refs from input that cannot be reviewed")
	}
	if ops := operands(args); len(ops) >= 2 && strings.ContainsAny(ops[1], "~^@") {
		return hit("git update-ref moves " + ops[0] + " back in history, dropping the commits after it")
	} else if len(ops) >= 2 && strings.HasPrefix(ops[0], "refs/heads/") {
		return refMoved(c, "git update-ref", ops[0], ops[1])
	}
	return Finding{}
}

var gitNetworkSubs = []string{"fetch", "pull", "push", "clone", "ls-remote",
	"fetch-pack", "send-pack", "submodule"}

// checkGitSSH: an ssh command or program given for one git call runs
// whatever it names when git talks to a remote.
// plainSSH reports whether an ssh transport setting runs ssh itself with
// options only (ssh -i ~/.ssh/deploy -o IdentitiesOnly=yes, the usual way
// to pick a deploy key): no shell syntax, and none of ssh's options that
// run a command (ProxyCommand, LocalCommand, KnownHostsCommand).
func plainSSH(v string) bool {
	words := strings.Fields(v)
	return len(words) > 0 && shell.CommandName(words[0]) == "ssh" &&
		!strings.ContainsAny(v, ";|&`$()<>") && !strings.Contains(strings.ToLower(v), "command")
}

func checkGitSSH(c *Call) Finding {
	g := parseGit(c)
	if !gitUsesNetwork(g) && !g.unknownSub {
		return Finding{}
	}
	set := sshOverrides(c)
	if len(set) == 0 {
		return Finding{}
	}
	return hit("git " + g.sub + " with " + strings.Join(set, ", ") + " runs a program of the command's choosing as its ssh transport")
}

// gitUsesNetwork reports whether the git subcommand talks to a remote
// (fetch, push, remote update, archive --remote …).
func gitUsesNetwork(g gitCall) bool {
	switch g.sub {
	case "remote":
		return hasArg(g.args, "update", "prune", "show")
	case "archive":
		return hasPrefixArg(g.args, "--remote")
	}
	return slices.Contains(gitNetworkSubs, g.sub)
}

// sshOverrides are the variables and settings that replace git's ssh
// (or proxy) command with one that is not plain ssh.
func sshOverrides(c *Call) []string {
	var set []string
	for _, k := range []string{"GIT_SSH", "GIT_SSH_COMMAND", "GIT_SSH_VARIANT", "GIT_PROXY_COMMAND"} {
		if v, ok := c.Ex.Env[k]; ok && !(k != "GIT_PROXY_COMMAND" && plainSSH(v)) {
			set = append(set, k)
		}
	}
	cfg := shell.GitConfig(c.Args, c.Ex.Env)
	for _, k := range []string{"core.sshcommand", "core.gitproxy", "ssh.variant"} {
		if v, ok := cfg[k]; ok && !(k != "core.gitproxy" && plainSSH(v)) {
			set = append(set, k)
		}
	}
	return set
}
