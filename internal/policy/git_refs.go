package policy

// git refs as objects: a branch is the only thing that keeps its commits
// when nothing else (another branch, a tag, the remote) holds them. Moving
// it by force, deleting it, or rebasing it with a todo list that drops
// commits loses them (the reflog keeps them for a while, out of the
// agent's sight and the user's mind).
//
// Certain harm is denied in every mode: a branch moved back in history
// (git branch -f main HEAD~3, update-ref … HEAD~5), a ref deleted, a
// rebase whose sequence editor deletes todo lines. Whether an existing
// branch holds commits its new start lacks (unpushed work under git
// checkout -B main origin/main) cannot be known statically: a maybe,
// denied in strict mode. A branch the repository does not have is only
// created (git checkout -B fix/typo).

import (
	"path"
	"slices"
	"strconv"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// backwards reports whether a start point names an ancestor of another
// commit (HEAD~3, main^, @{2}): a branch moved there drops what follows.
func backwards(start string) bool {
	return strings.ContainsAny(start, "~^") || strings.Contains(start, "@{")
}

// refMoved judges a branch (short name, or a full ref under refs/heads/)
// forced to start ("" for HEAD) by how.
func refMoved(c *Call, how, branch, start string) Finding {
	if !shell.Known(branch) {
		return maybe(how + " forces a branch whose name cannot be known statically")
	}
	if start != "" && backwards(start) {
		return hit(how + " moves " + branch + " back to " + start + ", dropping the commits after it from the branch")
	}
	ref := branch
	if !strings.HasPrefix(ref, "refs/") {
		ref = "refs/heads/" + ref
	}
	if exists, known := c.refExists(ref); known && !exists {
		return Finding{} // a new branch
	}
	to := start
	if to == "" {
		to = "HEAD"
	}
	return maybe(how + " resets the existing branch " + branch + " to " + to + ": its commits that " + to + " lacks (unpushed work) are dropped")
}

// refExists says whether the repository the call runs in has ref (known
// false when it cannot tell: git pointed elsewhere, a linked worktree, no
// repository found).
func (c *Call) refExists(ref string) (exists, known bool) {
	gitDir := c.gitDir()
	if gitDir == "" {
		return false, false
	}
	fsys := c.Ctx.fs()
	if _, err := fsys.Lstat(gitDir + "/" + ref); err == nil {
		return true, true
	}
	data, truncated, err := fsys.ReadFile(gitDir+"/packed-refs", 4<<20)
	switch {
	case err != nil:
		_, statErr := fsys.Lstat(gitDir + "/packed-refs")
		return false, statErr != nil // no packed-refs: the ref is not there
	case truncated:
		return false, false
	}
	return strings.Contains(string(data), " "+ref+"\n"), true
}

// gitDir is the .git directory of the repository the call's git runs in,
// "" when it is not a plain one found from the working directory.
func (c *Call) gitDir() string {
	dir := c.Ex.Dir
	if dir == "" || !shell.Known(dir) || !strings.HasPrefix(dir, "/") {
		return ""
	}
	for _, k := range []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR"} {
		if _, ok := c.Ex.Env[k]; ok {
			return ""
		}
	}
	if i := shell.GitSubcommand(c.Args); i > 0 && (hasPrefixArg(c.Args[:i], "-C") || hasPrefixArg(c.Args[:i], "--git-dir") || hasPrefixArg(c.Args[:i], "--work-tree")) {
		return ""
	}
	fsys := c.Ctx.fs()
	for d := path.Clean(dir); ; d = path.Dir(d) {
		if fi, err := fsys.Lstat(d + "/.git"); err == nil {
			if fi.IsDir() {
				return d + "/.git"
			}
			return "" // a linked worktree or submodule: refs live elsewhere
		}
		if d == "/" {
			return ""
		}
	}
}

// gitRefForce judges the porcelain that forces a branch: git branch -f
// NAME [START] (and -m/-c with --force), git checkout -B NAME [START],
// git switch -C NAME [START].
func gitRefForce(c *Call) Finding {
	g := parseGit(c)
	switch g.sub {
	case "branch":
		return gitSubcommand(c, gitBranchSpec, checkGitBranch, "branch")
	case "checkout":
		p := shell.ParseArgs(mergeOptionalValues(g.args), gitCheckoutSpec)
		if name, ok := p.Value("B"); ok && !p.Has("h", "help") {
			return refMoved(c, "git checkout -B", name, firstOr(p.Operands))
		}
	case "switch":
		p := shell.ParseArgs(g.args, gitSwitchSpec)
		if name, ok := p.Value("C", "force-create"); ok && !p.Has("h", "help") {
			return refMoved(c, "git switch -C", name, firstOr(p.Operands))
		}
	}
	return Finding{}
}

// firstOr is the first of ops, "" when there is none.
func firstOr(ops []string) string {
	if len(ops) == 0 {
		return ""
	}
	return ops[0]
}

// checkGitRebaseDrop: an interactive rebase whose todo list is edited by a
// program the command names (GIT_SEQUENCE_EDITOR, sequence.editor, or the
// editor git falls back to) that deletes or comments out its lines: each
// line dropped is a commit dropped. A program that leaves the list alone
// (true, :, cat) runs the rebase as it stands; one the guard cannot read
// (a script) is a maybe.
func checkGitRebaseDrop(c *Call, p shell.Args, g gitCall) Finding {
	if onto, ok := p.Value("onto"); ok && len(p.Operands) > 0 && behind(onto, p.Operands[0]) {
		// git rebase --onto HEAD~3 HEAD~1 replays only what follows
		// HEAD~1: the commits between the two are dropped.
		return hit("git rebase --onto " + onto + " " + p.Operands[0] + " drops the commits between them from the branch")
	}
	if !p.Has("i", "interactive") && !p.Has("root") {
		return Finding{}
	}
	ed := c.sequenceEditor()
	if ed == nil {
		return Finding{} // the user's editor: the user edits the list
	}
	switch what := todoEdit(ed); what {
	case "keeps":
		return Finding{}
	case "drops":
		return hit("git rebase -i with a sequence editor that deletes todo lines (" + c.Show(ed.Text) + ") drops those commits from the branch")
	}
	return maybe("git rebase -i with a sequence editor that cannot be read statically (" + c.Show(ed.Text) + ") may drop commits")
}

// sequenceEditor is the command the analysis found run as git's sequence
// editor for this call, nil when the command sets none.
func (c *Call) sequenceEditor() *shell.Exec {
	labels := []string{"git GIT_SEQUENCE_EDITOR", "git -c sequence.editor"}
	cfg := shell.GitConfig(c.Args, c.Ex.Env)
	_, seq := cfg["sequence.editor"]
	if _, ok := c.Ex.Env["GIT_SEQUENCE_EDITOR"]; !ok && !seq {
		labels = []string{"git GIT_EDITOR", "git -c core.editor"}
	}
	n := len(c.Ex.Via)
	for i := slices.Index(c.Res.Execs, c.Ex) - 1; i >= 0; i-- {
		e := c.Res.Execs[i]
		if len(e.Via) <= n {
			break // the command before this git: its editor, if any, was run before
		}
		if slices.Contains(labels, e.Via[n]) {
			return e
		}
	}
	return nil
}

// todoEdit says what a sequence editor does to the todo list: "keeps" it
// (true, :, cat, a sed that prints), "drops" lines (sed -i with a d
// command, or a substitution to drop or a comment), or "" when it cannot
// be told.
func todoEdit(ed *shell.Exec) string {
	switch ed.Name {
	case "true", ":", "cat", "echo", "head", "tail", "less":
		return "keeps"
	case "sed", "gsed":
	default:
		return ""
	}
	p := shell.ParseArgs(ed.Args[1:], &shell.OptSpec{Short: "e:f:i::nEr", Long: []string{"expression=", "file=", "in-place=?", "regexp-extended", "quiet", "silent"}})
	if !p.Has("i", "in-place") {
		return "keeps" // prints the list, leaves the file
	}
	scripts := []string{}
	for _, o := range p.Opts {
		if (o.Name == "e" || o.Name == "expression") && o.HasValue {
			scripts = append(scripts, o.Value)
		}
	}
	if len(scripts) == 0 && len(p.Operands) > 0 {
		scripts = append(scripts, p.Operands[0])
	}
	for _, s := range scripts {
		if sedDrops(s) {
			return "drops"
		}
	}
	if p.Has("f", "file", "n", "quiet", "silent") {
		return "" // a script file, or only what it prints is kept
	}
	return "keeps"
}

// sedDrops reports whether a sed script deletes lines (an address then d)
// or rewrites them into drops or comments (s/^pick/drop/, s/^/# /).
func sedDrops(script string) bool {
	for _, c := range shell.SedScript(script) {
		switch c.Name {
		case 'd', 'D':
			return true
		case 's':
			repl := strings.TrimSpace(c.Replacement)
			if strings.HasPrefix(repl, "#") || strings.HasPrefix(repl, "drop") || repl == "d" || strings.HasPrefix(repl, "d ") {
				return true
			}
		}
	}
	return false
}

// behind reports whether a is an older ancestor of b on the branch being
// rebased, both written as HEAD~N (or HEAD^, @~N): HEAD~3 is behind
// HEAD~1. Of another ref (main~2, main) the commits skipped stay on it.
func behind(a, b string) bool {
	ra, na, okA := ancestorOf(a)
	rb, nb, okB := ancestorOf(b)
	return okA && okB && (ra == "HEAD" || ra == "@") && ra == rb && na > nb
}

// ancestorOf splits REV~N, REV^…^ and REV into REV and N.
func ancestorOf(s string) (rev string, n int, ok bool) {
	if i := strings.IndexByte(s, '~'); i >= 0 {
		if s[i+1:] == "" {
			return s[:i], 1, i > 0
		}
		n, err := strconv.Atoi(s[i+1:])
		return s[:i], n, err == nil && i > 0 && n >= 0
	}
	rev = strings.TrimRight(s, "^")
	return rev, len(s) - len(rev), rev != "" && !strings.ContainsAny(rev, "^@:")
}
