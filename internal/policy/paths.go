package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Place is where a path lies, as far as deleting or changing it goes.
type Place int

const (
	// Unknown: the path cannot be placed statically.
	Unknown Place = iota
	// Root is / itself.
	Root
	// CoreSystem is under /etc, /usr, /bin, /boot, /lib*, /sbin, /System,
	// ... : the operating system.
	CoreSystem
	// System is another system location (/var, /opt, /srv, /mnt, /root,
	// /home itself, ...).
	System
	// Protected is a path the user listed in the protected paths setting.
	Protected
	// Ancestor is a directory that holds the workspace or the home
	// directory: deleting it deletes them.
	Ancestor
	// Home is the home directory itself.
	Home
	// InHome is inside the home directory but outside the workspace.
	InHome
	// OtherHome is another user's home directory or inside it.
	OtherHome
	// Workspace is the workspace root itself.
	Workspace
	// WorkspaceGit is the workspace's .git directory or inside it.
	WorkspaceGit
	// InWorkspace is inside the workspace.
	InWorkspace
	// Trusted is inside (or is) a trusted delete root.
	Trusted
	// TempRoot is a temporary directory itself (/tmp, $TMPDIR).
	TempRoot
	// InTemp is inside a temporary directory.
	InTemp
	// Outside is anywhere else.
	Outside
)

var placeNames = [...]string{
	Unknown: "a location that cannot be known statically", Root: "the root directory", CoreSystem: "a system directory",
	System: "a system location", Protected: "a protected path", Ancestor: "a directory holding the workspace or home",
	Home: "the home directory", InHome: "a path in the home directory outside the workspace", OtherHome: "another user's home directory",
	Workspace: "the whole workspace", WorkspaceGit: "the workspace's git history (.git)", InWorkspace: "a path inside the workspace",
	Trusted: "a trusted delete root", TempRoot: "a temporary directory", InTemp: "a path in a temporary directory", Outside: "a path outside the workspace",
}

func (p Place) String() string {
	if p < 0 || int(p) >= len(placeNames) {
		return ""
	}
	return placeNames[p]
}

// Loc is a classified path.
type Loc struct {
	Place Place
	// Path is the resolved path as far as known, for messages.
	Path string
	// Maybe is set when part of the path is unknown: the place is what the
	// known part says, but the unknown part could lead elsewhere (for
	// Unknown, the whole path is unknown).
	Maybe bool
	// Computed is set when the path was computed from a run-time value the
	// analysis could evaluate (`pwd`/x): standard mode takes the place as
	// known, strict mode does not.
	Computed bool
}

// Danger tiers used by the delete rules.
func (l Loc) critical() bool {
	switch l.Place {
	case Root, CoreSystem, System, Protected:
		return true
	}
	return false
}

func (l Loc) homeLike() bool {
	switch l.Place {
	case Home, InHome, OtherHome, Ancestor:
		return true
	}
	return false
}

var (
	coreSystemDirs = []string{"/bin", "/boot", "/dev", "/etc", "/lib", "/lib32", "/lib64", "/libx32", "/proc", "/sbin", "/sys", "/usr", "/System", "/Library", "/private/etc"}
	systemDirs     = []string{"/var", "/opt", "/srv", "/mnt", "/media", "/root", "/run", "/snap", "/nix", "/home", "/Users", "/Applications", "/private", "/cores", "/Volumes", "/lost+found", "/boot", "/usr/local"}
	tempRoots      = []string{"/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp", "/dev/shm"}
	tempRootRe     = &lazyregexp.Regexp{Expr: `^(?:/private)?/var/folders/[^/]+/[^/]+/T$|(?i)^(?:/mnt)?/[a-z]/users/[^/]+/appdata/local/temp$`}
)

// winProfileEntryRe matches a file or folder below one of the folders of
// a Windows profile as WSL (/mnt/c/Users/ann/Downloads/x) or Git Bash
// (/c/Users/ann/Downloads/x) sees it; not the profile or its folders.
var winProfileEntryRe = &lazyregexp.Regexp{Expr: `(?i)^(?:/mnt)?/[a-z]/users/[^/]+/[^/]+/[^/]+`}

// winProfileEntry reports whether p is below a folder of a Windows profile.
func winProfileEntry(p string) bool { return winProfileEntryRe.MatchString(p) }

// under reports whether p is dir or inside it.
func under(p, dir string) bool {
	if dir == "/" {
		return strings.HasPrefix(p, "/")
	}
	return p == dir || strings.HasPrefix(p, dir+"/")
}

func isTempRoot(p string) bool {
	for _, t := range tempRoots {
		if p == t {
			return true
		}
	}
	return tempRootRe.MatchString(p)
}

// tempRootOf returns the temporary directory p is in, "" if none.
func tempRootOf(p string) string {
	for _, t := range tempRoots {
		if under(p, t) {
			return t
		}
	}
	for dir := p; dir != "/" && dir != "."; dir = path.Dir(dir) {
		if tempRootRe.MatchString(dir) {
			return dir
		}
	}
	return ""
}

var globChars = "*?["

// Classify places the path arg, as written for a command running in dir.
func (c *Context) Classify(res *shell.Result, dir, arg string) Loc {
	if arg == "" {
		return Loc{Place: Unknown, Maybe: true}
	}
	// Values the analysis computed ($(pwd), $(echo /etc)) are judged as
	// their value, flagged as computed for strict mode.
	substArg, argComputed := res.Substitute(arg)
	substDir, dirComputed := res.Substitute(dir)
	if argComputed || dirComputed {
		l := c.Classify(res, substDir, substArg)
		l.Computed = true
		l.Path = res.Show(arg)
		return l
	}
	// A ~ that bash did not expand (it came out of a variable) is still
	// meant as home.
	if c.Home != "" && (arg == "~" || strings.HasPrefix(arg, "~/")) {
		arg = c.Home + arg[1:]
	} else if strings.HasPrefix(arg, "~") && shell.Known(arg) && !strings.HasPrefix(arg, "~+") && !strings.HasPrefix(arg, "~-") {
		return Loc{Place: OtherHome, Path: arg}
	}
	// $X/... : if $X were empty, what would it be? "$DIR"/* with an unset
	// DIR is the classic way to delete /.
	if parts := res.Parts(arg); len(parts) > 0 && parts[0].Unknown != nil {
		switch parts[0].Unknown.Kind {
		case shell.TempDir, shell.OtherHome, shell.Computed:
		default:
			if tail := res.Rest(arg); strings.HasPrefix(tail, "/") && shell.Known(tail) {
				if l := c.placeKnown(shell.CleanPath(tail)); l.critical() {
					return Loc{Place: l.Place, Path: res.Show(arg), Maybe: true}
				}
			}
		}
	}
	p := shell.ResolvePath(dir, arg)
	if p == "" {
		// Relative to a directory that is not known.
		return Loc{Place: Unknown, Path: res.Show(arg), Maybe: true}
	}
	if shell.Known(p) {
		return c.placeKnown(p)
	}
	return c.placeUnknown(res, p)
}

// placeUnknown places a path with unknown parts.
func (c *Context) placeUnknown(res *shell.Result, p string) Loc {
	parts := res.Parts(p)
	show := res.Show(p)
	if len(parts) > 0 && parts[0].Unknown != nil {
		u := parts[0].Unknown
		tail := res.Rest(p)
		switch u.Kind {
		case shell.TempDir:
			if tail != "" && !strings.HasPrefix(tail, "/") {
				return Loc{Place: Unknown, Path: show, Maybe: true} // ${TMPDIR}x
			}
			switch cl := shell.CleanPath("t" + tail); {
			case cl == "t":
				return Loc{Place: TempRoot, Path: show, Maybe: true}
			case !strings.HasPrefix(cl, "t/"):
				// $TMPDIR/..: out of the temporary directory on purpose.
				return Loc{Place: Outside, Path: show}
			}
			return Loc{Place: InTemp, Path: show, Maybe: true}
		case shell.OtherHome:
			return Loc{Place: OtherHome, Path: show}
		}
		return Loc{Place: Unknown, Path: show, Maybe: true}
	}
	// A known prefix, then something unknown: place the known directory.
	known := parts[0].Text
	dir := known
	if !strings.HasSuffix(dir, "/") {
		dir = path.Dir(dir)
	}
	dir = shell.CleanPath(dir)
	l := c.placeKnown(dir)
	// /$x is some top-level entry, or / itself when $x is empty: Root.
	l.Place = entryOf(l.Place)
	l.Path, l.Maybe = show, true
	return l
}

// entryOf is the place of an entry of a directory at p: inside the
// workspace, home or temporary directory for the directory itself, p for
// everything else.
func entryOf(p Place) Place {
	switch p {
	case Workspace:
		return InWorkspace
	case Home:
		return InHome
	case TempRoot:
		return InTemp
	}
	return p
}

// placeKnown places a known absolute path. Globs: a last element that is
// all wildcards (*, .*) means the whole directory's content, judged like
// the directory; other globs mean entries inside it.
func (c *Context) placeKnown(p string) Loc {
	if i := strings.IndexAny(p, globChars); i >= 0 {
		return c.placeGlob(p, i)
	}
	if pl, ok := c.placeOwn(p); ok {
		return Loc{Place: pl, Path: p}
	}
	return Loc{Place: c.placeElsewhere(p), Path: p}
}

// placeGlob places p, whose first wildcard is at i, by the directory the
// glob is in.
func (c *Context) placeGlob(p string, i int) Loc {
	dir := p[:strings.LastIndex(p[:i], "/")+1]
	rest := p[len(dir):]
	seg, _, more := strings.Cut(rest, "/")
	wholeDir := strings.Trim(seg, "*.?") == "" && !more
	base := shell.CleanPath(dir)
	l := c.placeKnown(base)
	l.Path = p
	if wholeDir {
		return l
	}
	switch l.Place {
	case Root:
		l = Loc{Place: Outside, Path: p}
		if strings.ContainsAny(seg, globChars) && strings.Trim(seg, "*?[]") == "" {
			l.Place = Root
		}
	case Ancestor:
		l.Place = Outside
		if c.Home != "" && under(c.Home, base) || c.Workspace != "" && under(c.Workspace, base) {
			l.Place = Ancestor // a glob in a directory holding home could match it
		}
	default:
		l.Place = entryOf(l.Place)
	}
	if more {
		l.Maybe = true
	}
	return l
}

// placeOwn places p among the places the context knows by name: the root,
// a protected path, the workspace, a trusted directory, home and the
// directories holding them.
func (c *Context) placeOwn(p string) (Place, bool) {
	if p == "/" {
		return Root, true
	}
	if slices.ContainsFunc(c.Protected, func(pr string) bool { return under(p, pr) }) {
		return Protected, true
	}
	if w := c.Workspace; w != "" && under(p, w) {
		switch {
		case p == w:
			return Workspace, true
		case under(p, w+"/.git"):
			return WorkspaceGit, true
		}
		return InWorkspace, true
	}
	if slices.ContainsFunc(c.Trusted, func(t string) bool { return under(p, t) }) {
		return Trusted, true
	}
	if !isTempRoot(p) && (c.Workspace != "" && under(c.Workspace, p) || c.Home != "" && under(c.Home, p)) {
		if p == c.Home {
			return Home, true
		}
		return Ancestor, true
	}
	if h := c.Home; h != "" && under(p, h) {
		return InHome, true
	}
	return 0, false
}

// placeElsewhere places a path outside the workspace, home and the
// context's own places: a neighbour of a workspace in a temporary
// directory, temporary directories, other users' homes, system
// directories.
func (c *Context) placeElsewhere(p string) Place {
	// A workspace that lives in a temporary directory: its neighbours
	// (../other-project) are the user's, not scratch space.
	if w := c.Workspace; w != "" {
		if parent := path.Dir(w); !isTempRoot(parent) && tempRootOf(parent) != "" && under(p, parent) {
			return Outside
		}
	}
	switch {
	case isTempRoot(p):
		return TempRoot
	case tempRootOf(p) != "":
		return InTemp
	case strings.HasPrefix(p, "/home/") || strings.HasPrefix(p, "/Users/"):
		return OtherHome
	}
	if slices.ContainsFunc(coreSystemDirs, func(d string) bool { return under(p, d) }) {
		return CoreSystem
	}
	if slices.ContainsFunc(systemDirs, func(d string) bool { return under(p, d) }) {
		return System
	}
	return Outside
}

// outsideProject reports whether p is outside the workspace and the
// temporary directories (a dotfiles repository may edit its own .bashrc).
func (c *Context) outsideProject(res *shell.Result, p string) bool {
	if !shell.Known(p) {
		return false
	}
	l := c.placeKnown(p)
	switch l.Place {
	case InWorkspace, Workspace, WorkspaceGit, InTemp, TempRoot, Trusted:
		return false
	}
	return true
}
