package policy

// guard.tamper's links and tree copies: a link made to a protected file,
// a whole tree copied or unpacked into the user's configuration, a mode
// changed on a protected path.

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// linkers create a link to their source: ln (hard by default), link
// (always hard), cp -l/-s, --link, --symbolic-link.
func linker(c *Call) (symbolic, ok bool) {
	switch c.Ex.Name {
	case "link":
		return false, true
	case "ln":
		return hasSymbolicFlag(c.Args), true
	case "cp":
		if hasArg(c.Args, "--symbolic-link") || hasShortFlag(c.Args, 's') {
			return true, true
		}
		if hasArg(c.Args, "--link") || hasShortFlag(c.Args, 'l') {
			return false, true
		}
	}
	return false, false
}

// treeWriters copy, sync, move or unpack a whole tree into a directory
// (git: checkout-index -a --prefix=DIR/).
var treeWriters = []string{"cp", "rsync", "ditto", "mv", "tar", "bsdtar", "unzip", "7z", "7za", "cpio", "scp", "git", "stow", "xstow"}

// treeIntoUserConfig: a recursive copy, sync, move or extraction whose
// destination tree takes in the user's Gemini CLI configuration (the home
// directory, ~/.gemini, or a directory above them): what the tree holds
// (a .gemini/settings.json, a .env) is not known when the command is
// judged. cp -r payload ~/ (a payload directory in home) and extraction
// into the workspace or a temporary directory stay allowed.
func treeIntoUserConfig(c *Call, r protect.Roots) Finding {
	if !slices.Contains(treeWriters, c.Ex.Name) {
		return Finding{}
	}
	ops := operands(c.Args)
	var dests []string
	unknown := false // a source not known statically: maybe its contents
	switch c.Ex.Name {
	case "cp", "rsync", "ditto", "scp", "mv":
		dests, unknown = treeCopyDests(c, ops)
	case "git":
		dests = checkoutIndexTree(c, ops)
	case "cpio":
		dests = cpioDests(c, ops)
	case "stow", "xstow":
		dests = stowTarget(c)
	default:
		if !treeExtracts(c, ops) {
			return Finding{}
		}
		dests = []string{extractionDir(c)}
	}
	for _, d := range dests {
		if d == "" || !shell.Known(d) {
			continue
		}
		if e := protect.HoldsUserConfig(r, d); e.Kind != protect.None {
			if unknown && c.Ex.Name != "ditto" && !noTargetDir(c) && !contentsCopied(c, ops) {
				return Finding{Maybe: true, What: c.Ex.Name + " copies sources not known statically into " + d + ", which holds " + e.What, Safer: protect.SaferTree}
			}
			return hitSafer(c.Ex.Name+" copies or unpacks a whole tree into "+d+", which takes in "+e.What+": whatever the tree holds there (a .gemini/settings.json, a .env) replaces it", protect.SaferTree)
		}
	}
	return Finding{}
}

// stowTarget is the directory stow links its packages' trees into: -t
// (--target), else the parent of the stow directory (-d, --dir, else
// $STOW_DIR, else the working directory). A simulation (-n) or a delete
// (-D) links nothing.
func stowTarget(c *Call) []string {
	p := shell.ParseArgs(c.Args, &shell.OptSpec{Short: "d:t:nvSDRp", Long: []string{"dir=", "target=", "no", "simulate", "verbose=?", "stow", "delete", "restow",
		"adopt", "no-folding", "ignore=", "defer=", "override=", "dotfiles", "compat"}})
	if p.Has("n", "no", "simulate", "D", "delete") {
		return nil
	}
	if t, ok := p.Value("t", "target"); ok && t != "" {
		return []string{c.resolve(t)}
	}
	dir, _ := p.Value("d", "dir")
	if dir == "" {
		dir = c.Ex.Env["STOW_DIR"]
	}
	if dir == "" {
		dir = "."
	}
	if !shell.Known(dir) {
		return nil
	}
	return []string{path.Dir(c.resolve(dir))}
}

// treeCopyDests is the destination of a recursive copy when what lands in
// it is a source's contents (src/., src/ for rsync and BSD cp, ditto
// always, -T) or not known statically (unknown), not src as a new
// directory.
func treeCopyDests(c *Call, ops []string) (dests []string, unknown bool) {
	if !copiesTree(c) || len(ops) < 2 {
		return nil, false
	}
	contents := c.Ex.Name == "ditto" || noTargetDir(c)
	for _, src := range ops[:len(ops)-1] {
		if strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/") && c.Ex.Name != "mv" || src == "." {
			contents = true
		} else if !shell.Known(src) {
			unknown = true
		}
	}
	if contents || unknown {
		dests = append(dests, c.resolve(ops[len(ops)-1]))
	}
	return dests, unknown
}

// copiesTree reports whether a copier copies whole directories: cp -r/-a,
// rsync -r/-a (not a dry run), scp -r, ditto and mv always.
func copiesTree(c *Call) bool {
	switch c.Ex.Name {
	case "rsync":
		if hasArg(c.Args, "--dry-run", "--list-only") || hasShortFlag(c.Args, 'n') {
			return false // writes nothing
		}
		return hasArg(c.Args, "--recursive", "--archive") || hasShortFlag(c.Args, 'r') || hasShortFlag(c.Args, 'a')
	case "cp":
		return hasArg(c.Args, "--recursive", "--archive") || hasShortFlag(c.Args, 'r') || hasShortFlag(c.Args, 'R') || hasShortFlag(c.Args, 'a')
	case "scp":
		return hasShortFlag(c.Args, 'r')
	}
	return c.Ex.Name == "ditto" || c.Ex.Name == "mv"
}

// checkoutIndexTree is the directory git checkout-index -a (or --stdin)
// writes the index into, when its prefix names one (--prefix=$HOME/).
func checkoutIndexTree(c *Call, ops []string) []string {
	if len(ops) == 0 || ops[0] != "checkout-index" {
		return nil
	}
	prefix, all := checkoutIndexPrefix(c.Args)
	if !all || prefix == "" {
		return nil
	}
	if !strings.HasSuffix(prefix, "/") {
		prefix = path.Dir(prefix) // --prefix=dir/old- writes dir/old-<file>
	}
	return []string{c.resolve(prefix)}
}

// cpioDests is where cpio extracts (-i: the working directory) or copies
// the files it reads the names of (-p DIR, pass-through).
func cpioDests(c *Call, ops []string) []string {
	if hasArg(c.Args, "--pass-through") || hasShortFlag(c.Args, 'p') {
		if len(ops) > 0 {
			return []string{c.resolve(ops[len(ops)-1])}
		}
		return nil
	}
	if treeExtracts(c, ops) {
		return []string{extractionDir(c)}
	}
	return nil
}

// treeExtracts reports whether an archiver extracts: unzip always, cpio
// -i, 7z x/e, tar -x.
func treeExtracts(c *Call, ops []string) bool {
	switch c.Ex.Name {
	case "unzip":
		return true
	case "cpio":
		return hasArg(c.Args, "--extract") || hasShortFlag(c.Args, 'i')
	case "7z", "7za":
		return len(ops) > 0 && (ops[0] == "x" || ops[0] == "e")
	case "tar", "bsdtar":
		return extracts(c.Args)
	}
	return false
}

// extractionDir is where an archiver extracts: the last -C, --directory,
// unzip -d or 7z -o, else the working directory.
func extractionDir(c *Call) string {
	dir := c.Ex.Dir
	sevenZip := c.Ex.Name == "7z" || c.Ex.Name == "7za"
	for i, a := range c.Args {
		switch {
		case (a == "-C" || a == "--directory" || a == "-d" && c.Ex.Name == "unzip") && i+1 < len(c.Args):
			dir = c.resolve(c.Args[i+1])
		case strings.HasPrefix(a, "--directory="):
			dir = c.resolve(strings.TrimPrefix(a, "--directory="))
		case strings.HasPrefix(a, "-o") && len(a) > 2 && sevenZip:
			dir = c.resolve(a[2:])
		}
	}
	return dir
}

// modeChanges are the files whose mode, owner, flags, security context or
// extended attributes a call changes: chmod -x on a hook's binary makes Gemini CLI let every call
// through, since a hook that cannot run does not deny. A mode that only
// takes group's and others' access away changes nothing the guard needs.
func modeChanges(c *Call) []string {
	switch c.Ex.Name {
	case "chmod", "chown", "chgrp", "chattr", "setfacl", "chflags", "chcon", "setfattr":
	case "xattr":
		// macOS: a quarantine attribute written on a hook's binary stops
		// it running; listing and printing (-l, -p) change nothing.
		if !hasShortFlag(c.Args, 'w') && !hasShortFlag(c.Args, 'd') && !hasShortFlag(c.Args, 'c') {
			return nil
		}
	default:
		return nil
	}
	ops, mode := operands(c.Args), ""
	if c.Ex.Name == "chmod" {
		mode, ops = chmodArgs(c.Args)
	}
	tightens := mode != "" && tighteningMode(mode)
	var out []string
	for _, o := range ops {
		p := c.resolve(o)
		if !tightens || !c.keepsOwnerAccess(mode, p) {
			out = append(out, p)
		}
	}
	return out
}

// chmodArgs splits chmod's arguments into its mode (a -x or -w mode looks
// like an option) and its files; with --reference there is no mode.
func chmodArgs(args []string) (mode string, files []string) {
	ref := false
	for _, a := range args {
		switch {
		case strings.HasPrefix(a, "--reference"):
			ref = true
		case strings.HasPrefix(a, "--"), mode == "" && !ref && len(a) > 1 && a[0] == '-' && strings.Trim(a[1:], "RvcfhHLP") == "":
			// an option: -R, -v, --recursive, ...
		case mode == "" && !ref:
			mode = a
		default:
			files = append(files, a)
		}
	}
	return mode, files
}

// keepsOwnerAccess reports whether a numeric chmod mode keeps every
// permission the owner has on p now (chmod 600 on a settings file keeps
// its rw-; on a hook's binary it takes the x away, and a hook that cannot
// run does not deny). Symbolic tightening modes (go-rwx) leave the owner's
// alone. A file that cannot be looked at must keep read and write, and
// execute in a bin directory.
func (c *Call) keepsOwnerAccess(mode, p string) bool {
	if mode == "" || mode[0] < '0' || mode[0] > '7' {
		return true
	}
	owner := mode[len(mode)-3] - '0'
	need := byte(6)
	if path.Base(path.Dir(p)) == "bin" {
		need = 7 // a program
	}
	if st, err := c.Ctx.fs().Stat(p); err == nil {
		need = byte(st.Mode().Perm()>>6) & 7
	}
	return owner&need == need
}

func hasSymbolicFlag(args []string) bool {
	for _, a := range args {
		if a == "--symbolic" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "s") {
			return true
		}
	}
	return false
}

// noTargetDir reports cp's and mv's -T (--no-target-directory): the
// source's contents become the destination.
func noTargetDir(c *Call) bool {
	return (c.Ex.Name == "cp" || c.Ex.Name == "mv") && (hasArg(c.Args, "--no-target-directory") || hasShortFlag(c.Args, 'T'))
}

// contentsCopied reports whether a source of a tree copy names a
// directory's contents (src/., src/, .).
func contentsCopied(c *Call, ops []string) bool {
	for _, src := range ops[:len(ops)-1] {
		if strings.HasSuffix(src, "/.") || strings.HasSuffix(src, "/") && c.Ex.Name != "mv" || src == "." {
			return true
		}
	}
	return false
}

// linksToProtected: a link (ln, ln -s, cp -l, cp -s) whose source is a
// protected file, or for a symlink a directory holding one: a later
// ordinary write through the link lands there. A link to a .env is allowed
// (monorepos share one); writes through it are judged by content.
func linksToProtected(c *Call, r protect.Roots) Finding {
	symbolic, targets := linkSources(c)
	if len(targets) == 0 {
		return Finding{}
	}
	kind := "hard link"
	if symbolic {
		kind = "symlink"
	}
	for _, t := range targets {
		if !shell.Known(t) {
			continue
		}
		p := c.resolve(t)
		e := protect.Check(r, p)
		if symbolic && (e.Kind == protect.None || e.Kind == protect.EnvFile) {
			e = protect.Holds(r, p)
		}
		if e.Kind != protect.None && e.Kind != protect.EnvFile {
			return hitSafer("creates a "+kind+" to "+e.What+", through which a later write would change it", protect.SaferLink)
		}
	}
	return Finding{}
}

// linkSources are the files a call links to: a linker's operands but the
// last, or the literals of interpreter code that makes links
// (os.link(SRC, DST), perl's link SRC, DST), taken as symbolic when the
// code names a symlink call.
func linkSources(c *Call) (symbolic bool, srcs []string) {
	if c.Ex.CodeLinks {
		return strings.Contains(codeText(c), "sym"), c.Ex.CodeLiterals
	}
	symbolic, ok := linker(c)
	if !ok {
		return false, nil
	}
	ops := operands(c.Args)
	if len(ops) >= 2 {
		return symbolic, ops[:len(ops)-1]
	}
	return symbolic, ops
}

// branchSubs are the git commands that bring another commit's tree into
// the work tree: whatever files it carries replace the ones there.
var branchSubs = []string{"checkout", "switch", "merge", "pull", "rebase", "reset", "cherry-pick"}

// branchOverConfig: a branch switch, merge, pull, rebase or hard reset in
// a work tree that holds protected configuration. Which files the other
// commit carries cannot be known statically: in a repository whose work
// tree holds the home directory's ~/.gemini (the workspace is home, a
// dotfiles repository) it is denied; where the work tree holds a
// protected file of its own (.gemini/settings.json, .gitleaks.toml) it is
// a Maybe (strict mode denies). git checkout -- <paths> is judged by the
// paths it names (changes).
func branchOverConfig(c *Call, r protect.Roots) Finding {
	if c.Ex.Name != "git" {
		return Finding{}
	}
	g := parseGit(c)
	if !slices.Contains(branchSubs, g.sub) || !bringsTree(g) {
		return Finding{}
	}
	if dir := c.gitStartDir(); dir != "" {
		if e := protect.Check(r, dir); denyingKind(e.Kind) {
			// The repository is itself protected: a guard installed from
			// git (git -C ~/.gemini/extensions/gemini-guard checkout v0.0.1).
			return hit("git " + g.sub + " in " + dir + " replaces the files of " + e.What + " with another commit's")
		}
	}
	root := c.workTree()
	if root == "" {
		return Finding{}
	}
	if e := protect.HoldsUserConfig(r, root); e.Kind != protect.None {
		return hit("git " + g.sub + " in a repository whose work tree (" + root + ") holds " + e.What + ": the commit it brings in may carry its own .gemini/settings.json or extensions")
	}
	for _, p := range protect.Below(r, root) {
		if e := protect.Classify(r, p); denyingKind(e.Kind) {
			return maybe("git " + g.sub + " may replace " + e.What + " with the other commit's version, which cannot be known statically")
		}
	}
	return Finding{}
}

// bringsTree reports whether a git command of branchSubs replaces the work
// tree's files with another commit's: not checkout -- <paths> or
// checkout -b (judged elsewhere), reset only with --hard, --merge or
// --keep.
func bringsTree(g gitCall) bool {
	switch g.sub {
	case "checkout":
		return !slices.Contains(g.args, "--") && !hasArg(g.args, "-b", "-B", "--orphan") && len(operands(g.args)) == 1
	case "reset":
		return hasArg(g.args, "--hard", "--merge", "--keep")
	}
	return true
}

// workTree is the work tree the call's git runs in: the nearest directory
// at or above its working directory holding a .git, "" if none or unknown.
func (c *Call) workTree() string {
	d := c.gitStartDir()
	if d == "" || !shell.Known(d) || !path.IsAbs(d) {
		return ""
	}
	for {
		if _, err := c.Ctx.fs().Lstat(path.Join(d, ".git")); err == nil {
			return d
		}
		parent := path.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// gitStartDir is the directory git starts in: the call's, moved by its
// global -C options in turn (each relative to the one before), or its
// --work-tree; "" when unknown.
func (c *Call) gitStartDir() string {
	d := c.Ex.Dir
	global := c.Args
	if i := shell.GitSubcommand(c.Args); i >= 0 {
		global = c.Args[:i]
	}
	for i := 0; i < len(global); i++ {
		switch a := global[i]; {
		case a == "-C" && i+1 < len(global):
			i++
			d = c.resolveFrom(d, global[i])
		case a == "--work-tree" && i+1 < len(global):
			return c.resolveFrom(d, global[i+1])
		case strings.HasPrefix(a, "--work-tree="):
			return c.resolveFrom(d, strings.TrimPrefix(a, "--work-tree="))
		}
	}
	return d
}

// resolveFrom is p resolved against dir (~ is home), "" when unknown.
func (c *Call) resolveFrom(dir, p string) string {
	if !shell.Known(p) {
		return ""
	}
	if p == "~" || strings.HasPrefix(p, "~/") {
		if c.Ctx.Home == "" {
			return ""
		}
		p = c.Ctx.Home + p[1:]
	}
	return shell.ResolvePath(dir, p) // as resolve does for the call's own directory
}
