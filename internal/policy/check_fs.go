package policy

import (
	"fmt"
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
		del := false
		for _, a := range c.Args {
			if strings.HasPrefix(a, "--del") || a == "--remove-source-files" {
				del = true
			}
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

// selectiveFindExec reports whether the call is run by find -exec or
// -execdir over a workspace subdirectory with a test before it: the same
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
		filtered, done := false, false
		shell.FindExpr(expr, func(p, _ string, _ []string) {
			if p == "-exec" || p == "-execdir" || p == "-ok" || p == "-okdir" {
				done = true
			}
			if !done && slices.Contains(findFilters, p) {
				filtered = true
			}
		})
		return filtered && len(starts) > 0 && c.allSelectiveStarts(starts)
	}
	return false
}

// allSelectiveStarts: every start is a literal subdirectory of the
// workspace (not its root, not .git, no ..).
func (c *Call) allSelectiveStarts(starts []string) bool {
	for _, s := range starts {
		l := c.Loc(s)
		if !shell.Known(s) || strings.ContainsAny(s, globChars) || l.Maybe || l.Computed || l.Place != InWorkspace || slices.Contains(strings.Split(s, "/"), "..") {
			return false
		}
	}
	return true
}

// findFilters are find tests that select what -delete deletes.
var findFilters = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type",
	"-empty", "-mindepth", "-prune", "-newer", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-size", "-user", "-group", "-perm", "-links"}

// checkFindDelete: find -delete removes whatever the expression matches at
// run time (and -delete before the tests removes everything); only literal
// paths inside temporary directories or trusted roots are allowed.
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
	deletes, filtered := false, false
	shell.FindExpr(expr, func(p, _ string, _ []string) {
		if p == "-delete" {
			deletes = true
		}
		if !deletes && slices.Contains(findFilters, p) {
			filtered = true // a test before -delete narrows what it deletes
		}
	})
	if !deletes {
		return Finding{}
	}
	if len(starts) == 0 {
		starts = []string{"."}
	}
	for _, s := range starts {
		l := c.Loc(s)
		literal := shell.Known(s) && !strings.ContainsAny(s, globChars) && !l.Maybe && !l.Computed
		hasDotDot := false
		for _, seg := range strings.Split(s, "/") {
			if seg == ".." {
				hasDotDot = true
			}
		}
		if literal && !hasDotDot && (l.Place == InTemp || l.Place == Trusted) {
			continue
		}
		// A selective delete under a subdirectory of the workspace (not
		// its root, not .git) is the everyday cleanup of caches and
		// build output.
		if literal && !hasDotDot && filtered && l.Place == InWorkspace {
			continue
		}
		return hit(fmt.Sprintf("find -delete deletes whatever its expression matches under %s, %s", l.Path, l.Place))
	}
	return Finding{}
}

// Devices: writing to these destroys a disk or partition. The harmless
// character devices are allowed.
var safeDevRe = &lazyregexp.Regexp{Expr: `^/dev/(null|zero|full|random|urandom|stdin|stdout|stderr|tty\w*|pts/\d+|fd/\d+|shm(/.*)?|console|ptmx)$`}

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
		case "-l", "--list", "print", "-p", "--print", "--help", "-h", "-V", "--version", "--dry-run", "-n", "--noact":
			return Finding{}
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
	for _, a := range c.Args {
		if !strings.HasPrefix(a, "-") || a == "-" {
			return hit("shred overwrites " + c.Show(a) + " so that it can never be recovered")
		}
	}
	return Finding{}
}

var (
	chmodSpec   = &shell.OptSpec{Short: "cfvR", Long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "help", "version"}, Abbrev: true}
	chownSpec   = &shell.OptSpec{Short: "cfvRhHLP", Long: []string{"changes", "silent", "quiet", "verbose", "no-preserve-root", "preserve-root", "reference=", "recursive", "dereference", "no-dereference", "from=", "help", "version"}, Abbrev: true}
	setfaclSpec = &shell.OptSpec{Short: "m:M:x:X:bkndRLPtvh", Long: []string{"modify=", "modify-file=", "remove=", "remove-file=", "remove-all", "remove-default", "set=", "set-file=", "mask", "no-mask", "default", "restore=", "test", "recursive", "logical", "physical", "version", "help"}, Abbrev: true}
	modeWordRe  = &lazyregexp.Regexp{Expr: `^-[rwxXstugoa0-7,+=-]+$`}
)

// checkPermRecursive: recursive permission or ownership changes of system
// paths, home, or a directory holding them; any change of / or home itself.
func checkPermRecursive(c *Call) Finding {
	var p shell.Args
	var targets []string
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
		targets = p.Operands
		if _, ref := p.Value("reference"); !ref && !modeGiven && len(targets) > 0 {
			targets = targets[1:]
		}
	case "chown", "chgrp":
		p = shell.ParseArgs(c.Args, chownSpec)
		targets = p.Operands
		if _, ref := p.Value("reference"); !ref && len(targets) > 0 {
			targets = targets[1:]
		}
	case "setfacl":
		p = shell.ParseArgs(c.Args, setfaclSpec)
		targets = p.Operands
	default:
		return Finding{}
	}
	recursive := p.Has("R", "recursive")
	for _, t := range targets {
		l := c.Loc(t)
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
		if recursive && l.Place == InHome {
			return maybe(fmt.Sprintf("%s -R changes everything under %s, %s", c.Ex.Name, l.Path, l.Place))
		}
	}
	return Finding{}
}
