package policy

// fs.find-delete: find deleting (-delete, -exec rm) over a tree, unless
// its tests keep the deletion selective.

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// selectiveFindExec reports whether the call is run by find -exec or
// -execdir whose selection is selective (findSelective): the same
// selective delete fs.find-delete allows (find src -name '*.o' -exec rm -f
// {} +).
func (c *Call) selectiveFindExec() bool {
	if len(c.Ex.Via) == 0 || !strings.HasPrefix(c.Ex.Via[len(c.Ex.Via)-1], "find -exec") {
		return false
	}
	f := c.parentFind()
	if f == nil {
		return false
	}
	starts, expr := shell.FindStart(f.Args[1:])
	return len(starts) > 0 && c.findSelective(starts, expr, isFindExec) == ""
}

// parentFind is the find whose -exec (-execdir, -ok, -okdir) runs the
// call, directly or through a nested shell (-exec sh -c '… "$1"' _ {}),
// nil if none.
func (c *Call) parentFind() *shell.Exec {
	if !slices.ContainsFunc(c.Ex.Via, func(v string) bool { return strings.HasPrefix(v, "find -") }) {
		return nil
	}
	i := slices.Index(c.Res.Execs, c.Ex)
	for j := i - 1; j >= 0; j-- {
		if f := c.Res.Execs[j]; f.Name == "find" && f.Depth <= c.Ex.Depth {
			return f
		}
	}
	return nil
}

// findTestsBefore are the primaries of a find expression before its first
// action (isAction): what selects the files the action acts on.
func findTestsBefore(expr []string, isAction func(string) bool) []findTest {
	var tests []findTest
	acted := false
	shell.FindExpr(expr, func(p, v string, _ []string) {
		acted = acted || isAction(p)
		if !acted {
			tests = append(tests, findTest{p, v})
		}
	})
	return tests
}

// findFilters are find tests that select what -delete deletes.
var findFilters = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type",
	"-empty", "-mindepth", "-prune", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-user", "-group", "-perm", "-links"}

// findNameTests are the tests that select by name or path: from the
// workspace root, only they can keep a delete out of .git.
var findNameTests = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex"}

// gitDirSamples are names and paths found in any repository's .git: a name
// or path test that matches none of them keeps a delete out of .git.
var gitDirSamples = []string{
	".git", ".git/HEAD", ".git/config", ".git/index", ".git/index.lock", ".git/packed-refs", ".git/description",
	".git/ORIG_HEAD", ".git/FETCH_HEAD", ".git/COMMIT_EDITMSG", ".git/objects", ".git/objects/ab",
	".git/objects/ab/cdef0123456789abcdef0123456789abcdef01", ".git/objects/pack", ".git/objects/pack/pack-1a2b.pack",
	".git/objects/pack/pack-1a2b.idx", ".git/objects/pack/pack-1a2b.rev", ".git/objects/info", ".git/refs", ".git/refs/heads",
	".git/refs/heads/main", ".git/refs/heads/master", ".git/refs/tags", ".git/refs/remotes/origin/HEAD", ".git/hooks",
	".git/hooks/pre-commit.sample", ".git/info", ".git/info/exclude", ".git/logs", ".git/logs/HEAD", ".git/modules",
}

func isFindExec(p string) bool {
	return p == "-exec" || p == "-execdir" || p == "-ok" || p == "-okdir"
}

// findSelective judges what a find expression acts on before its first
// action (isAction): "" when the selection is selective, otherwise why
// not. Selective is: every start a literal path (no .., no glob) inside a
// temporary directory, a trusted root or the workspace (not .git); a
// temporary directory itself with a test before the action; or the
// workspace root itself with a name
// or path test in every -o branch that no file of .git matches (or .git
// pruned), so that the repository's own history is never selected.
func (c *Call) findSelective(starts, expr []string, isAction func(string) bool) string {
	filtered, acted := false, false
	var tests []findTest // the expression before the action
	shell.FindExpr(expr, func(p, v string, _ []string) {
		if acted {
			return
		}
		if isAction(p) {
			acted = true
			return
		}
		if slices.Contains(findFilters, p) {
			filtered = true // a test before the action narrows what it acts on
		}
		tests = append(tests, findTest{p, v})
	})
	for _, s := range starts {
		l := c.Loc(s)
		literal := shell.Known(s) && !strings.ContainsAny(s, globChars) && !l.Maybe && !l.Computed &&
			!slices.Contains(strings.Split(s, "/"), "..")
		switch {
		case literal && (l.Place == InTemp || l.Place == Trusted || l.Place == InWorkspace):
			// Inside the workspace (not .git) a find delete is what rm -rf
			// of the same directory is: allowed.
		case literal && filtered && l.Place == TempRoot:
		case literal && l.Place == Workspace && keepsOutGit(s, tests):
		case l.Place == Workspace && filtered:
			return fmt.Sprintf("its tests could select files of the repository's own history (.git) under %s", l.Path)
		case l.Place == Workspace || l.Place == TempRoot:
			return fmt.Sprintf("nothing before the action narrows it: it acts on everything under %s, %s", l.Path, l.Place)
		default:
			return fmt.Sprintf("it acts on whatever its expression matches under %s, %s", l.Path, l.Place)
		}
	}
	return ""
}

// findTest is one primary of a find expression with its value, if any.
type findTest struct{ primary, value string }

func (t findTest) negates() bool { return t.primary == "!" || t.primary == "-not" }

// keepsOutGit reports whether a find expression started at the workspace
// root (start) cannot select a file of .git: .git is pruned or excluded,
// or every -o branch holds a positive name or path test that matches no
// .git sample.
func keepsOutGit(start string, tests []findTest) bool {
	for i, t := range tests {
		if !slices.Contains(findNameTests, t.primary) {
			continue
		}
		pruned := i+1 < len(tests) && tests[i+1].primary == "-prune" && findTestMatches(t, start, gitDirSamples[:1])
		excluded := i > 0 && tests[i-1].negates() && findTestMatches(t, start, gitDirSamples[1:])
		if pruned || excluded {
			return true
		}
	}
	return branchesExclude(start, tests, gitDirSamples)
}

// branchesExclude reports whether every -o branch of a find expression
// started at start holds a positive name or path test that matches none of
// samples (paths relative to start).
func branchesExclude(start string, tests []findTest, samples []string) bool {
	branch, safe := false, true
	for i := 0; i <= len(tests); i++ {
		if i == len(tests) || tests[i].primary == "-o" || tests[i].primary == "-or" || tests[i].primary == "," {
			safe = safe && branch
			branch = false
			continue
		}
		t := tests[i]
		negated := i > 0 && tests[i-1].negates()
		if slices.Contains(findNameTests, t.primary) && !negated && !findTestMatches(t, start, samples) {
			branch = true
		}
	}
	return safe
}

// findTestMatches reports whether find's name or path test would match one
// of the .git samples (relative paths) under start.
func findTestMatches(t findTest, start string, samples []string) bool {
	pattern := t.value
	fold := strings.HasPrefix(t.primary, "-i")
	if fold {
		pattern = strings.ToLower(pattern)
	}
	for _, sample := range samples {
		full := strings.TrimSuffix(start, "/") + "/" + sample
		name := path.Base(sample)
		if fold {
			full, name = strings.ToLower(full), strings.ToLower(name)
		}
		switch t.primary {
		case "-name", "-iname":
			if ok, err := path.Match(pattern, name); ok || err != nil {
				return true
			}
		case "-regex", "-iregex":
			re, err := regexp.Compile("^(?:" + pattern + ")$")
			if err != nil || re.MatchString(full) {
				return true
			}
		default: // -path, -wholename: * and ? match / too
			if findPathGlob(pattern).MatchString(full) {
				return true
			}
		}
	}
	return false
}

// findPathGlob turns a -path pattern into a regexp (* and ? cross /). An
// unreadable pattern matches everything.
func findPathGlob(pattern string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch ch := pattern[i]; ch {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		case '[':
			j := strings.IndexByte(pattern[i:], ']')
			if j < 0 {
				return regexp.MustCompile("")
			}
			b.WriteString(strings.Replace(pattern[i:i+j+1], "[!", "[^", 1))
			i += j
		case '\\':
			if i+1 < len(pattern) {
				i++
				b.WriteString(regexp.QuoteMeta(pattern[i : i+1]))
			}
		default:
			b.WriteString(regexp.QuoteMeta(string(ch)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile("")
	}
	return re
}

// findDeleters are programs that, run by find -exec on {}, delete what
// find selected.
var findDeleters = []string{"rm", "unlink", "shred", "srm"}

// checkFindDelete: find -delete, or -exec of a deleting program, removes
// whatever the expression matches at run time; only a selective selection
// (findSelective) is allowed.
func checkFindDelete(c *Call) Finding {
	starts, expr := shell.FindStart(c.Args)
	for _, a := range c.Args {
		for _, u := range c.Res.Unknowns(a) {
			if u.Kind == shell.Input {
				// xargs or parallel appends words to find: they could be
				// -delete or -exec.
				return hit("find with arguments decided at run time (" + c.Show(a) + ") could delete or run anything")
			}
		}
	}
	deletes := false
	shell.FindExpr(expr, func(p, _ string, cmd []string) {
		if p == "-delete" || isFindExec(p) && len(cmd) > 0 && slices.Contains(findDeleters, shell.CommandName(cmd[0])) {
			deletes = true
		}
	})
	if !deletes {
		return Finding{}
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	isDelete := func(p string) bool { return p == "-delete" || isFindExec(p) }
	if why := c.findSelective(starts, expr, isDelete); why != "" {
		return hit("find deletes what it selects, and " + why)
	}
	return Finding{}
}
