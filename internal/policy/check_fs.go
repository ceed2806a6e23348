package policy

import (
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

var rmSpec = &shell.OptSpec{Short: "dfiIrRvP", Long: []string{
	"dir", "force", "interactive=?", "one-file-system", "no-preserve-root", "preserve-root=?",
	"recursive", "verbose", "help", "version",
}, Abbrev: true}

// rmArgs is a parsed rm (or unlink) command line.
type rmArgs struct {
	targets   []string
	recursive bool
	force     bool // -f is the last of -f/-i/-I: nothing will ask
}

func parseRm(c *Call) rmArgs {
	switch c.Ex.Name {
	case "unlink":
		return rmArgs{targets: c.Args}
	case "rsync":
		// rsync --delete makes the destination a copy of the source:
		// whatever else the destination holds is deleted.
		del, dry := false, false
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--del") || a == "--remove-source-files" {
				del = true
			}
			// A dry run (-n in a cluster of short options) or a listing
			// deletes nothing.
			if a == "--dry-run" || a == "--list-only" || len(a) > 1 && a[0] == '-' && a[1] != '-' && strings.ContainsRune(a, 'n') {
				dry = true
			}
		}
		if dry {
			return rmArgs{}
		}
		ops := operands(c.Args)
		if !del || len(ops) < 2 || strings.Contains(ops[len(ops)-1], ":") {
			return rmArgs{}
		}
		return rmArgs{targets: ops[len(ops)-1:], recursive: true, force: true}
	}
	p := shell.ParseArgs(c.Args, rmSpec)
	if p.Has("help", "version") {
		return rmArgs{}
	}
	last := p.Last("f", "force", "i", "I", "interactive")
	return rmArgs{
		targets:   p.Operands,
		recursive: p.Has("r", "R", "recursive"),
		force:     last == "f" || last == "force",
	}
}

func deleteWhat(c *Call, l Loc, recursive bool) string {
	how := "deletes"
	if recursive {
		how = "recursively deletes"
	}
	return fmt.Sprintf("%s %s, %s", how, l.Path, l.Place)
}

// checkRmCritical: recursive deletes of /, system directories and protected
// paths; plain deletes of files of the operating system.
func checkRmCritical(c *Call) Finding {
	rm := parseRm(c)
	for _, t := range rm.targets {
		l := c.Loc(t)
		bad := rm.recursive && l.critical() || l.Place == Root || l.Place == CoreSystem || l.Place == Protected
		if !bad {
			continue
		}
		if l.Maybe {
			return maybe(deleteWhat(c, l, rm.recursive) + " (or would be, if a value that cannot be known statically is empty)")
		}
		return hit(deleteWhat(c, l, rm.recursive))
	}
	return Finding{}
}

func checkRmHome(c *Call) Finding {
	rm := parseRm(c)
	if !rm.recursive {
		// A dotfile directly in home is a configuration or a history
		// (~/.bashrc, ~/.zsh_history): deleting it is at least emptying
		// it, which fs.home-emptied denies. Other files in home stay the
		// user's to clean up (rm ~/notes.txt).
		for _, t := range rm.targets {
			if l := c.Loc(t); l.Place == InHome && !l.Maybe && homeDotfile(c.Ctx.Home, l.Path) {
				return hit(c.Ex.Name + " deletes " + l.Path + ", a configuration or history file in home")
			}
		}
		return Finding{}
	}
	for _, t := range rm.targets {
		if l := c.Loc(t); l.homeLike() {
			if l.Maybe {
				return maybe(deleteWhat(c, l, true))
			}
			return hit(deleteWhat(c, l, true))
		}
	}
	return Finding{}
}

// homeDotfile reports whether p is a dotfile directly in home that is not
// regenerated on its own (completion dumps, lock and swap files are).
func homeDotfile(home, p string) bool {
	rel, ok := strings.CutPrefix(p, home+"/")
	if !ok || !strings.HasPrefix(rel, ".") || strings.Contains(rel, "/") || strings.ContainsAny(rel, "*?[") {
		return false
	}
	for _, r := range []string{".zcompdump", ".lesshst", ".wget-hsts", ".DS_Store", ".sudo_as_admin_successful", ".xsession-errors", ".ICEauthority", ".Xauthority"} {
		if strings.HasPrefix(rel, r) {
			return false
		}
	}
	for _, s := range []string{".lock", ".swp", ".tmp", ".log", ".bak", ".old", ".orig", ".backup", "~"} {
		if strings.HasSuffix(rel, s) {
			return false // regenerated, or a copy the user made
		}
	}
	return true
}

func checkRmWorkspace(c *Call) Finding {
	rm := parseRm(c)
	if !rm.recursive {
		return Finding{}
	}
	for _, t := range rm.targets {
		if l := c.Loc(t); (l.Place == Workspace || l.Place == WorkspaceGit) && !l.Maybe {
			return hit(deleteWhat(c, l, true))
		}
	}
	return Finding{}
}

func checkRmRuntimeList(c *Call) Finding {
	rm := parseRm(c)
	if !rm.recursive && c.Ex.Name == "rm" {
		// find ~/Downloads -mtime +0 | xargs rm -f: the list comes from a
		// find over home or the system, the same delete as find -delete
		// there, whatever rm's flags.
		for _, t := range rm.targets {
			if where := c.findListSource(t); where != "" {
				return hit("rm deletes what a find over " + where + " lists")
			}
		}
	}
	if !rm.recursive || !rm.force {
		return Finding{}
	}
	if c.selectiveFindExec() {
		return Finding{}
	}
	for _, t := range rm.targets {
		for _, u := range c.Res.Unknowns(t) {
			if u.Kind == shell.Input {
				return hit("rm -rf deletes a list of paths decided at run time (" + c.Show(t) + "), which no one has reviewed")
			}
		}
	}
	return Finding{}
}

func checkRmOutside(c *Call) Finding {
	rm := parseRm(c)
	if !rm.recursive {
		return Finding{}
	}
	var unsure Finding
	for _, t := range rm.targets {
		l := c.Loc(t)
		switch {
		case l.Place == Outside && !l.Maybe && rm.force:
			return hit(deleteWhat(c, l, true))
		case l.Place == Outside:
			unsure = maybe(deleteWhat(c, l, true))
		case l.Computed:
			unsure = maybe(fmt.Sprintf("recursively deletes %s, a path computed at run time", l.Path))
		case l.Place == Unknown || l.Maybe && l.Place == InTemp:
			unsure = maybe(fmt.Sprintf("recursively deletes %s, whose location cannot be known statically", l.Path))
		}
	}
	return unsure
}

// findListSource: when the target t is an item xargs or parallel read at
// run time and the nearest find before it in the command starts in home
// or the system, that start ("" otherwise).
func (c *Call) findListSource(t string) string {
	if len(c.Ex.Via) == 0 || !strings.HasPrefix(c.Ex.Via[len(c.Ex.Via)-1], "xargs") && !strings.HasPrefix(c.Ex.Via[len(c.Ex.Via)-1], "parallel") {
		return ""
	}
	input := false
	for _, u := range c.Res.Unknowns(t) {
		input = input || u.Kind == shell.Input
	}
	if !input {
		return ""
	}
	i := slices.Index(c.Res.Execs, c.Ex)
	for j := i - 1; j >= 0; j-- {
		f := c.Res.Execs[j]
		if f.Name != "find" {
			continue
		}
		starts, _ := shell.FindStart(f.Args[1:])
		for _, s := range starts {
			if l := c.Loc(s); !l.Maybe && (l.homeLike() || l.critical()) {
				return l.Path
			}
		}
		return ""
	}
	return ""
}

// selectiveFindExec reports whether the call is run by find -exec or
// -execdir whose selection is selective (findSelective): the same
// selective delete fs.find-delete allows (find src -name '*.o' -exec rm -f
// {} +).
func (c *Call) selectiveFindExec() bool {
	if len(c.Ex.Via) == 0 || !strings.HasPrefix(c.Ex.Via[len(c.Ex.Via)-1], "find -exec") {
		return false
	}
	i := slices.Index(c.Res.Execs, c.Ex)
	for j := i - 1; j >= 0; j-- {
		f := c.Res.Execs[j]
		if f.Name != "find" || f.Depth != c.Ex.Depth {
			continue
		}
		starts, expr := shell.FindStart(f.Args[1:])
		return len(starts) > 0 && c.findSelective(starts, expr, isFindExec) == ""
	}
	return false
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
	branch, safe := false, true
	for i := 0; i <= len(tests); i++ {
		if i == len(tests) || tests[i].primary == "-o" || tests[i].primary == "-or" || tests[i].primary == "," {
			safe = safe && branch
			branch = false
			continue
		}
		t := tests[i]
		negated := i > 0 && tests[i-1].negates()
		if slices.Contains(findNameTests, t.primary) && !negated && !findTestMatches(t, start, gitDirSamples) {
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

// Devices: writing to these destroys a disk or partition. The harmless
// character devices are allowed.
var safeDevRe = &lazyregexp.Regexp{Expr: `^/dev/(null|zero|full|random|urandom|stdin|stdout|stderr|tty\w*|pts/\d+|fd/\d+|shm(/.*)?|console|ptmx|(tcp|udp)/[^/]+/[^/]+)$`}

func isDevice(p string) bool {
	return strings.HasPrefix(p, "/dev/") && !safeDevRe.MatchString(p)
}

func checkDd(c *Call) Finding {
	for _, a := range c.Args {
		if v, ok := strings.CutPrefix(a, "of="); ok {
			p := shell.ResolvePath(c.Ex.Dir, v)
			if isDevice(p) {
				return hit("dd writes over the device " + p + ", destroying the disk or partition")
			}
			if !shell.Known(v) {
				return maybe("dd writes to " + c.Show(v) + ", which cannot be known statically")
			}
		}
	}
	return Finding{}
}

// checkDeviceRedirect: any command writing a device with > destroys it.
func checkDeviceRedirect(c *Call) Finding {
	for _, r := range c.Ex.Redirs {
		if r.Writes() {
			if p := shell.ResolvePath(c.Ex.Dir, r.Target); isDevice(p) {
				return hit("writes over the device " + p + ", destroying the disk or partition")
			}
		}
	}
	switch c.Ex.Name {
	case "cp", "tee", "cat", "pv":
		for _, a := range c.Args {
			if p := shell.ResolvePath(c.Ex.Dir, a); isDevice(p) && c.Ex.Name != "cat" {
				return hit(c.Ex.Name + " writes over the device " + p + ", destroying the disk or partition")
			}
		}
	}
	return Finding{}
}

func checkMkfs(c *Call) Finding {
	ext := c.Ex.Name == "mke2fs" || strings.HasPrefix(c.Ex.Name, "mkfs.ext")
	for _, a := range c.Args {
		if ext && a == "-n" || c.Ex.Name == "newfs" && a == "-N" {
			return Finding{} // mke2fs -n and newfs -N show what they would do and write nothing
		}
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") {
			continue
		}
		p := shell.ResolvePath(c.Ex.Dir, a)
		if isDevice(p) {
			return hit(c.Ex.Name + " creates a new file system on " + p + ", erasing it")
		}
	}
	return Finding{}
}

// checkPartition: partitioning and signature-wiping tools on a device;
// their listing modes are fine.
func checkPartition(c *Call) Finding {
	for _, a := range c.Args {
		switch a {
		case "-l", "--list", "print", "-p", "--print", "--help", "-h", "-V", "--version", "--dry-run", "-n", "--noact", "--no-act":
			return Finding{}
		case "-d", "--dump", "-J", "--json", "-s", "--show-size", "-g", "--show-geometry", "--verify", "--list-free", "-F", "--list-types", "-T":
			if c.Ex.Name == "sfdisk" {
				return Finding{} // sfdisk's dumps and listings only read
			}
		}
	}
	if c.Ex.Name == "wipefs" {
		wipes := false
		for _, a := range c.Args {
			if a == "-a" || a == "--all" || strings.HasPrefix(a, "-o") || strings.HasPrefix(a, "--offset") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "a") {
				wipes = true
			}
		}
		if !wipes {
			return Finding{}
		}
	}
	for _, a := range c.Args {
		if p := shell.ResolvePath(c.Ex.Dir, a); isDevice(p) {
			return hit(c.Ex.Name + " rewrites the partitions or signatures of " + p)
		}
	}
	return Finding{}
}

func checkShred(c *Call) Finding {
	for _, a := range c.Args {
		if a == "--help" || a == "--version" {
			return Finding{}
		}
	}
	if c.selectiveFindExec() {
		return Finding{} // find src -name '*.key' -exec shred -u {} +: fs.find-delete judges the selection
	}
	for _, a := range c.Args {
		if strings.HasPrefix(a, "-") && a != "-" {
			continue
		}
		// A file of the workspace or a temporary directory is a delete
		// there, like rm; anything else (a device, home, the system,
		// .git, a path not known) is destroyed beyond recovery.
		l := c.Loc(a)
		if !l.Maybe && !l.Computed && (l.Place == InWorkspace || l.Place == InTemp || l.Place == Trusted) {
			continue
		}
		return hit("shred overwrites " + c.Show(a) + " (" + l.Place.String() + ") so that it can never be recovered")
	}
	return Finding{}
}

var (
	chmodSpec   = &shell.OptSpec{Short: "cfvR", Long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "help", "version"}, Abbrev: true}
	chownSpec   = &shell.OptSpec{Short: "cfvRhHLP", Long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "dereference", "no-dereference", "from=", "help", "version"}, Abbrev: true}
	setfaclSpec = &shell.OptSpec{Short: "m:M:x:X:bkndRLPtvh", Long: []string{"modify=", "modify-file=", "remove=", "remove-file=", "remove-all", "remove-default", "set=", "set-file=", "mask", "no-mask", "default", "restore=", "test", "recursive", "logical", "physical", "version", "help"}, Abbrev: true}
	modeWordRe  = &lazyregexp.Regexp{Expr: `^-[rwxXstugoa0-7,+=-]+$`}
)

// permRemovesWrite is a symbolic mode that only takes write, setuid,
// setgid or sticky bits away (go-w, a-w,o-t).
var permRemovesWrite = &lazyregexp.Regexp{Expr: `^[ugoa]*-[wst]+(,[ugoa]*-[wst]+)*$`}

// onlyRemovesWrite reports whether chmod's mode (its first operand, or a
// mode word such as -w) only takes write or set-id bits away.
func onlyRemovesWrite(args []string) bool {
	for _, a := range args {
		if a == "-R" || a == "--recursive" || a == "-v" || a == "-c" || a == "-f" {
			continue
		}
		if strings.HasPrefix(a, "-") && modeWordRe.MatchString(a) {
			return permRemovesWrite.MatchString(a)
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		return permRemovesWrite.MatchString(a)
	}
	return false
}

// checkPermRecursive: recursive permission or ownership changes of system
// paths, home, or a directory holding them; any change of / or home itself.
func checkPermRecursive(c *Call) Finding {
	p, targets, ok := permRecursiveArgs(c)
	if !ok {
		return Finding{}
	}
	recursive := p.Has("R", "recursive")
	if c.Ex.Name == "chmod" && onlyRemovesWrite(c.Args) {
		return Finding{} // taking write or set-id bits away harms nobody
	}
	for _, t := range targets {
		if f := permTargetChanged(c, c.Loc(t), recursive); f.Hit || f.Maybe {
			return f
		}
	}
	return Finding{}
}

// permRecursiveArgs parses chmod, chown, chgrp and setfacl and returns the
// paths they change (the mode or owner taken out, unless --reference gave
// it).
func permRecursiveArgs(c *Call) (p shell.Args, targets []string, ok bool) {
	switch c.Ex.Name {
	case "chmod":
		// A mode like -x looks like an option: take it out first.
		args := make([]string, 0, len(c.Args))
		modeGiven := false
		for _, a := range c.Args {
			if strings.HasPrefix(a, "-") && modeWordRe.MatchString(a) && !strings.ContainsAny(a[1:], "Rcfv") {
				modeGiven = true
				continue
			}
			args = append(args, a)
		}
		p = shell.ParseArgs(args, chmodSpec)
		return p, withoutModeOperand(p, modeGiven), true
	case "chown", "chgrp":
		p = shell.ParseArgs(c.Args, chownSpec)
		return p, withoutModeOperand(p, false), true
	case "setfacl":
		p = shell.ParseArgs(c.Args, setfaclSpec)
		return p, p.Operands, true
	}
	return p, nil, false
}

// withoutModeOperand are the operands but the first (the mode or owner)
// unless --reference or a mode taken out already gave it.
func withoutModeOperand(p shell.Args, given bool) []string {
	targets := p.Operands
	if _, ref := p.Value("reference"); !ref && !given && len(targets) > 0 {
		return targets[1:]
	}
	return targets
}

// permTargetChanged judges one path at l: / or home itself, and
// recursively anything critical, a home or a directory holding one;
// strict mode also asks for a recursive change inside home.
func permTargetChanged(c *Call, l Loc, recursive bool) Finding {
	bad := l.Place == Root || l.Place == Home && !l.Maybe
	if recursive {
		bad = bad || l.critical() || l.Place == Home || l.Place == OtherHome || l.Place == Ancestor
	}
	if bad {
		what := fmt.Sprintf("%s changes permissions or ownership of %s, %s", c.Ex.Name, l.Path, l.Place)
		if recursive {
			what = fmt.Sprintf("%s -R changes permissions or ownership of everything under %s, %s", c.Ex.Name, l.Path, l.Place)
		}
		if l.Maybe {
			return maybe(what)
		}
		return hit(what)
	}
	if recursive && l.Place == InHome && c.Ctx.Strict {
		return maybe(fmt.Sprintf("%s -R changes everything under %s, %s", c.Ex.Name, l.Path, l.Place))
	}
	return Finding{}
}
