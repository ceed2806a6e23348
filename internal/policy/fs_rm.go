package policy

// The fs.rm-* rules: rm and its kin over the root, home, the workspace,
// run-time lists and paths outside the workspace.

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/effects"
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

// parseRm reads the call's deletes: rm's own command line, rsync's
// --delete, and for every other program the deletes its spec in package
// effects names (tar --remove-files, zip -m, rimraf, trash, ...: a delete
// that is a side effect of another verb is the same delete).
func parseRm(c *Call) rmArgs {
	if !c.rmDone {
		c.rm, c.rmDone = readRm(c), true
	}
	return c.rm
}

func readRm(c *Call) rmArgs {
	switch c.Ex.Name {
	case "rm", "srm", "wipe":
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
	default:
		// The program does not prompt: a delete it is told to make is made.
		targets, tree := effects.Deleted(c.Ex.Name, c.Args)
		return rmArgs{targets: targets, recursive: tree, force: true}
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
		l := c.deleteLoc(t)
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
			l := c.deleteLoc(t)
			if l.Place == InHome && !l.Maybe && homeDotfile(c.Ctx.Home, l.Path) {
				return hit(c.Ex.Name + " deletes " + l.Path + ", a configuration or history file in home")
			}
			// rm -f ~/dir/*: every file of a directory in home (or of
			// home itself), whatever it holds.
			if (l.Place == Home || l.Place == InHome || l.Place == OtherHome) && !l.Maybe && wholeDirGlob(l.Path) {
				return hit(c.Ex.Name + " deletes every file in " + path.Dir(l.Path) + ", " + l.Place.String())
			}
		}
		return Finding{}
	}
	for _, t := range rm.targets {
		if l := c.deleteLoc(t); l.homeLike() {
			if l.Maybe {
				return maybe(deleteWhat(c, l, true))
			}
			return hit(deleteWhat(c, l, true))
		}
	}
	return Finding{}
}

// wholeDirGlob reports whether p ends in a glob that matches everything
// in its directory (*, .*, *.*), not a selection (*.log).
func wholeDirGlob(p string) bool {
	base := path.Base(p)
	return strings.ContainsAny(base, "*?") && strings.Trim(base, "*.?") == ""
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
	if f := c.userChangesDeleted(); f.Hit {
		return f
	}
	rm := parseRm(c)
	if !rm.recursive {
		return Finding{}
	}
	for _, t := range rm.targets {
		if l := c.deleteLoc(t); (l.Place == Workspace || l.Place == WorkspaceGit) && !l.Maybe {
			return hit(deleteWhat(c, l, true))
		}
	}
	return Finding{}
}

// userChangesDeleted: a delete of tracked files of the workspace that hold
// uncommitted changes which are not the agent's own (issue #38): git has
// no copy of those changes, so rm loses them as git checkout would. The
// facts come from the hook (Context.OwnFacts: git status of the deleted
// paths, the session's record), asked only for a delete inside the
// workspace; without them, or for untracked files, today's decision
// stands (rm of files inside the workspace is allowed).
func (c *Call) userChangesDeleted() Finding {
	if c.Ctx.OwnFacts == nil && c.Ctx.Own == nil {
		return Finding{}
	}
	var paths []string
	for _, e := range c.effectsOf() {
		if e.Kind == effects.Delete && shell.Known(e.Path) && c.inWorkspace(e.Path) && !slices.Contains(paths, e.Path) {
			paths = append(paths, e.Path)
		}
	}
	if len(paths) == 0 || c.Ex.Dir == "" {
		return Finding{}
	}
	d := Discard{Dir: c.Ex.Dir, Paths: paths}
	own := c.Ctx.ownFor(d)
	if own == nil {
		return Finding{}
	}
	for _, ch := range own.Scopes[d.Key()] {
		if ch.X == '?' || ch.X == '!' {
			continue // untracked or ignored: not a discard of git's
		}
		if why := notOwn(own.Files[ch.Path], d); why != "" {
			return hit(c.Ex.Name + " deletes " + c.relative(ch.Path) + ", which " + why + ": git keeps no copy of uncommitted changes")
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
		l := c.deleteLoc(t)
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

// deleteLoc places a delete target, following the symbolic links inside
// the workspace: with docs a link to ~/Documents, rm -rf docs/ (and
// docs/*, docs/old) deletes what is in ~/Documents. A link named without
// a trailing slash is itself what goes, so only the directories above the
// last element are followed then. The workspace's own path may hold links
// (macOS's /var is /private/var): only a place outside the real workspace
// counts.
func (c *Call) deleteLoc(t string) Loc {
	l := c.Loc(t)
	if l.Place != InWorkspace || l.Maybe || l.Computed || c.Ctx.Workspace == "" {
		return l
	}
	p := l.Path
	follow := strings.HasSuffix(t, "/") || strings.HasSuffix(t, "/.")
	from, rest := p, ""
	if i := strings.IndexAny(p, globChars); i >= 0 {
		from = p[:strings.LastIndex(p[:i], "/")] // the directory the glob is in
		rest = p[len(from):]
	} else if !follow {
		from, rest = path.Dir(p), "/"+path.Base(p)
	}
	if from == c.Ctx.Workspace || !under(from, c.Ctx.Workspace) {
		return l
	}
	real, ok := c.linkedEarlier(from)
	fsys := c.Ctx.fs()
	if !ok {
		var err error
		if real, err = bounded.EvalSymlinks(fsys, from); err != nil || real == from {
			return l
		}
	}
	if ws, err := bounded.EvalSymlinks(fsys, c.Ctx.Workspace); err == nil && under(real, ws) {
		return l
	}
	rl := c.Ctx.placeKnown(real + rest)
	rl.Path = p + " (through a symbolic link, " + real + rest + ")"
	return rl
}

// linkedEarlier is where from leads through a link the command itself
// made before this call (ln -s ~/Documents d; rm -rf d/*), which the file
// system does not hold yet; ok is false when no earlier ln made one above
// from.
func (c *Call) linkedEarlier(from string) (string, bool) {
	for j := slices.Index(c.Res.Execs, c.Ex) - 1; j >= 0; j-- {
		e := c.Res.Execs[j]
		if e.Name != "ln" && e.Name != "gln" {
			continue
		}
		var link, target string
		for _, eff := range effects.Of(e, c.Ctx.Home) {
			switch {
			case eff.Kind == effects.Write:
				link = eff.Path
			case eff.Kind == effects.Read && target == "":
				target = eff.Path
			}
		}
		if link != "" && target != "" && under(from, link) {
			return target + from[len(link):], true
		}
	}
	return "", false
}
