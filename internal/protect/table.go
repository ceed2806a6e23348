package protect

import (
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
)

// place is where an object of the table is anchored.
type place uint8

const (
	// hostDir: each host's configuration directory, ~/.gemini (Gemini CLI,
	// Antigravity CLI) and ~/.qwen (Qwen Code), the same under the
	// workspace, the directories they are symlinks to, and the ones of a
	// Windows profile seen from WSL, Git Bash or Cygwin
	// (/mnt/<drive>/Users/<name>/.gemini).
	hostDir place = iota + 1
	// inWorkspace: the session's workspace.
	inWorkspace
	// inHome: the user's home directory.
	inHome
	// stateDir: gemini-guard's private state directory (internal/state):
	// ~/.local/state/gemini-guard.
	stateDir
	// absolute: rel is an absolute path.
	absolute
	// claudeHome: Claude Code's configuration directory, ~/.claude and
	// the one CLAUDE_CONFIG_DIR names (Roots.Hosts).
	claudeHome
	// codexHome: Codex CLI's, ~/.codex and the one CODEX_HOME names (and
	// where its symbolic links lead: Codex reads it at its real path).
	codexHome
)

// object is one protected object of the table: a file, or a tree (the
// directory and everything under it). what names it in a reason, %s
// standing for its path. files are, for a tree, the files in it a hard
// link can reach (relative to it): the identity check compares a file's
// device and inode with them.
type object struct {
	at    place
	rel   string
	tree  bool
	kind  Kind
	what  string
	files []string
}

// objects is the one table of protected objects. Classify matches a path
// against it (then the patterns no place anchors: any .gitleaks.toml,
// .env, a repository's .git), Identify compares a file's identity with
// its files (knownFiles), Contains and Holds find the directories above
// them.
var objects = []object{
	{at: hostDir, rel: "settings.json", kind: Config, what: "Gemini CLI's settings (%s), which switch hooks and extensions on and off"},
	{at: hostDir, rel: "extensions", tree: true, kind: Config, what: "Gemini CLI's extensions directory (%s, where gemini-guard, its programs and its .env settings are installed)",
		files: []string{
			"extension-enablement.json", "gemini-guard/.env", "gemini-guard/gemini-extension.json", "gemini-guard/qwen-extension.json",
			"gemini-guard/hooks/hooks.json", "gemini-guard/policies/gemini-guard.toml",
			"gemini-guard/bin/guard-shell", "gemini-guard/bin/guard-secrets", "gemini-guard/bin/guard-redact", "gemini-guard/bin/gemini-guard", "gemini-guard/bin/guard-scanner",
		}},
	{at: hostDir, rel: "trustedFolders.json", kind: Config, what: "Gemini CLI's trusted folders (%s), which decide whether a workspace's own settings, hooks and MCP servers load"},
	{at: hostDir, rel: "policies", tree: true, kind: Config, what: "Gemini CLI's policy rules (%s)"},
	{at: hostDir, rel: "config/hooks.json", kind: Config, what: "Antigravity CLI's hooks (%s), which run gemini-guard in agy"},
	{at: hostDir, rel: "antigravity-cli/hooks.json", kind: Config, what: "Antigravity CLI's hooks (%s), which run gemini-guard in agy"},
	{at: hostDir, rel: "antigravity-cli/settings.json", kind: Config, what: "Antigravity CLI's settings (%s), whose permissions decide what agy runs without asking"},
	{at: hostDir, rel: ".env", kind: EnvFile, what: envWhat},
	{at: hostDir, rel: "antigravity-cli/mcp_config.json", kind: Config, what: "Antigravity CLI's MCP servers (%s), programs agy starts in every session"},
	{at: inWorkspace, rel: ".agents/hooks.json", kind: Config, what: "the workspace's Antigravity CLI hooks (.agents/hooks.json), which agy runs without asking"},
	{at: inWorkspace, rel: ".agents/mcp_config.json", kind: Config, what: "the workspace's Antigravity CLI MCP servers (.agents/mcp_config.json), programs agy starts in the workspace"},
	{at: absolute, rel: "/etc/gemini-cli", tree: true, kind: Config, what: "Gemini CLI's system settings (/etc/gemini-cli)", files: []string{"settings.json"}},
	{at: absolute, rel: "/etc/qwen-code", tree: true, kind: Config, what: "Qwen Code's system settings (/etc/qwen-code)", files: []string{"settings.json"}},
	// The hosts the same binaries serve beside these: Claude Code's
	// settings (user, project, local, managed), where its hooks and
	// permissions live (the agent rewrote them in a real run), and Codex
	// CLI's config and hooks (an edit of a hook also drops its trust, which
	// switches it off) — protected on every host
	// (../shared/reference/claude-code-hooks.md, codex-hooks.md).
	{at: claudeHome, rel: "settings.json", kind: Config, what: claudeWhat},
	{at: claudeHome, rel: "settings.local.json", kind: Config, what: claudeWhat},
	{at: inWorkspace, rel: ".claude/settings.json", kind: Config, what: claudeWhat},
	{at: inWorkspace, rel: ".claude/settings.local.json", kind: Config, what: claudeWhat},
	{at: absolute, rel: "/etc/claude-code", tree: true, kind: Config, what: "Claude Code's managed settings (/etc/claude-code)", files: []string{"managed-settings.json"}},
	{at: absolute, rel: "/Library/Application Support/ClaudeCode", tree: true, kind: Config, what: "Claude Code's managed settings (%s)", files: []string{"managed-settings.json"}},
	{at: claudeHome, rel: "plugins", tree: true, kind: Config, what: "Claude Code's installed plugins (%s), whose hooks and MCP servers it runs without asking"},
	{at: codexHome, rel: "config.toml", kind: Config, what: codexWhat},
	{at: codexHome, rel: "hooks.json", kind: Config, what: codexWhat},
	{at: inWorkspace, rel: ".codex/config.toml", kind: Config, what: codexWhat},
	{at: inWorkspace, rel: ".codex/hooks.json", kind: Config, what: codexWhat},
	{at: absolute, rel: "/etc/codex", tree: true, kind: Config, what: "Codex CLI's system configuration (/etc/codex)", files: []string{"config.toml", "hooks.json"}},
	{at: stateDir, tree: true, kind: Config, what: "gemini-guard's state (%s: the session records and the record of the agent's own changes that let it discard them)"},
	{at: inWorkspace, rel: ProjectFile, kind: Tightening, what: "the project's tightening file (" + ProjectFile + ")"},
	{at: inHome, rel: ".gitconfig", kind: GitCode, what: gitConfigWhat},
	{at: inHome, rel: ".config/git/config", kind: GitCode, what: gitConfigWhat},
	{at: inHome, rel: ".config/git/attributes", kind: GitCode, what: gitConfigWhat},
}

const (
	claudeWhat    = "Claude Code's settings (%s), whose hooks and permissions decide what runs unchecked"
	codexWhat     = "Codex CLI's configuration (%s), whose hooks and their trust decide what runs unchecked"
	envWhat       = "a .env file, which Gemini CLI loads into its own environment and every hook's"
	gitConfigWhat = "the user's git config (%s), whose aliases, hooks path, ssh command and filters every later git command runs"
)

// hostDirNames are the hosts' configuration directories' names.
var hostDirNames = []string{".gemini", ".qwen"}

// patternSamples are the files the table matches by name at any depth
// (Classify's patterns), as they lie in the home and the workspace: the
// identity check compares with them there.
var patternSamples = []string{".env", ".gitleaks.toml", ".gitleaksignore", ".git/config"}

// anchor is one place an object may be at: its directory, and whether it
// is a home's (the user's, or a Windows profile's).
type anchor struct {
	at   place
	dir  string
	home bool
}

// anchors are the places the table is anchored to under r, and for the
// path p (when not "") the Windows profile it lies in. What does not
// depend on p (the host directories of home and workspace with their
// symlinks resolved, which costs a few lstat calls each) is computed once
// per Memo: a command that deletes three paths asked for it three times
// per path checked.
func anchors(r Roots, p string) []anchor {
	var before, after []anchor
	if m := r.Memo; m != nil && m.done {
		before, after = m.before, m.after
	} else {
		before, after = fixedAnchors(r)
		if m != nil {
			m.done, m.before, m.after = true, before, after
		}
	}
	win := windowsProfile(p)
	if win == "" {
		return append(before[:len(before):len(before)], after...)
	}
	out := make([]anchor, 0, len(before)+len(hostDirNames)+len(after))
	out = append(out, before...)
	for _, n := range hostDirNames {
		out = append(out, anchor{hostDir, filepath.Join(win, n), true}) // no symlinks on its drive
	}
	return append(out, after...)
}

// Memo keeps what the checks of one Roots compute once (anchors). The zero
// value is empty; a Roots without one computes every time. A Memo serves
// one Roots: its home, workspace, state directory and file system.
type Memo struct {
	done          bool
	before, after []anchor
	// checked are Check's answers by path: the rules of one command ask
	// about the same path several times (deleted, written, linked).
	checked map[string]Entry
}

// fixedAnchors are anchors' parts that do not depend on the path: the host
// directories under home and the workspace (and where their symlinks
// lead), then the workspace, home, state directories and the root.
func fixedAnchors(r Roots) (before, after []anchor) {
	for i, root := range []string{r.Home, r.Workspace} {
		if root == "" {
			continue
		}
		home := i == 0
		for _, n := range hostDirNames {
			g := filepath.Join(root, n)
			before = append(before, anchor{hostDir, g, home})
			if real, err := bounded.EvalSymlinks(bounded.Or(r.FS), g); err == nil && real != g {
				before = append(before, anchor{hostDir, real, home})
			}
		}
	}
	if r.Workspace != "" {
		after = append(after, anchor{inWorkspace, filepath.Clean(r.Workspace), false})
	}
	after = append(after, hostHomeAnchors(r)...)
	if r.Home != "" {
		after = append(after, anchor{inHome, filepath.Clean(r.Home), true}, anchor{stateDir, filepath.Join(r.Home, ".local", "state", "gemini-guard"), true})
	}
	if r.StateDir != "" && filepath.IsAbs(r.StateDir) {
		after = append(after, anchor{stateDir, filepath.Clean(r.StateDir), true})
	}
	return before, append(after, anchor{absolute, "/", false})
}

// hostHomeAnchors are Claude Code's and Codex CLI's configuration
// directories: the default ones in home, the ones the environment names
// (CLAUDE_CONFIG_DIR, CODEX_HOME), and where their symbolic links lead.
func hostHomeAnchors(r Roots) []anchor {
	var out []anchor
	add := func(at place, dir string) {
		if dir == "" || !filepath.IsAbs(dir) {
			return
		}
		dir = filepath.Clean(dir)
		out = append(out, anchor{at, dir, true})
		if real, err := bounded.EvalSymlinks(bounded.Or(r.FS), dir); err == nil && real != dir {
			out = append(out, anchor{at, real, true})
		}
	}
	if r.Home != "" {
		add(claudeHome, filepath.Join(r.Home, ".claude"))
		add(codexHome, filepath.Join(r.Home, ".codex"))
	}
	add(claudeHome, r.Hosts.Claude)
	add(codexHome, r.Hosts.Codex)
	return out
}

// windowsProfile is the Windows user profile p lies in, as WSL
// (/mnt/c/Users/ann), Git Bash (/c/Users/ann) or Cygwin
// (/cygdrive/c/Users/ann) mount it: Gemini CLI run on the Windows side
// keeps its configuration there. "" when p is in none.
func windowsProfile(p string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(p)), "/")
	for _, skip := range []int{2, 1} { // /mnt/c or /cygdrive/c; /c
		i := 1 + skip // index of "Users"
		if len(parts) <= i+1 || len(parts[i-1]) != 1 || !strings.EqualFold(parts[i], "Users") || parts[i+1] == "" {
			continue
		}
		if skip == 2 && !strings.EqualFold(parts[1], "mnt") && !strings.EqualFold(parts[1], "cygdrive") {
			continue
		}
		return strings.Join(parts[:i+2], "/")
	}
	return ""
}

// path is the object's path under the anchor.
func (o *object) path(a anchor) string {
	if o.at == absolute {
		return o.rel
	}
	return filepath.Join(a.dir, o.rel)
}

// entry is the object at path p, named.
func (o *object) entry(p string) Entry {
	return Entry{strings.Replace(o.what, "%s", p, 1), o.kind}
}

// located matches p against the table's located objects.
func located(r Roots, p string) (Entry, bool) {
	p = filepath.Clean(p)
	as := anchors(r, p)
	for _, a := range as {
		if a.at == hostDir && a.home && samePath(p, a.dir) {
			return hostDirEntry(a.dir), true
		}
	}
	for i := range objects {
		o := &objects[i]
		for _, a := range as {
			if a.at != o.at {
				continue
			}
			dir, rel := a.dir, o.rel
			if o.at == absolute {
				dir, rel = o.rel, ""
			}
			if exact, within := joinedHolds(p, dir, rel); exact || o.tree && within {
				q := o.path(a)
				e := o.entry(q)
				if a.at == hostDir && strings.EqualFold(filepath.Base(a.dir), ".qwen") {
					e.What = strings.Replace(e.What, "Gemini CLI's", "Qwen Code's", 1)
				}
				return e, true
			}
		}
	}
	return Entry{}, false
}

// joinedHolds compares the clean path p with filepath.Join(dir, rel)
// (dir clean and absolute, rel clean and relative or ""), case-insensitively
// as samePath and Within do, without building the joined path: located
// asks it for every object at every anchor, for each path a command
// touches. exact: p is that path; within: p is it or lies inside it.
func joinedHolds(p, dir, rel string) (exact, within bool) {
	if len(p) < len(dir) || !strings.EqualFold(p[:len(dir)], dir) {
		return false, false
	}
	rest := p[len(dir):]
	if rel != "" {
		if dir != "/" {
			if rest == "" || rest[0] != filepath.Separator {
				return false, false
			}
			rest = rest[1:]
		}
		if len(rest) < len(rel) || !strings.EqualFold(rest[:len(rel)], rel) {
			return false, false
		}
		rest = rest[len(rel):]
	} else if dir == "/" {
		return p == "/", true
	}
	if rest == "" {
		return true, true
	}
	return false, rest[0] == filepath.Separator
}

// knownFiles are the protected files a hard link can reach: the table's
// files that exist on their own (directories cannot be hard linked), each
// under every place the table anchors them, and the pattern files as they
// lie in the home and the workspace.
func knownFiles(r Roots) []string {
	var out []string
	as := anchors(r, "")
	for i := range objects {
		o := &objects[i]
		for _, a := range as {
			if a.at != o.at {
				continue
			}
			q := o.path(a)
			if !o.tree {
				out = append(out, q)
			}
			for _, f := range o.files {
				out = append(out, filepath.Join(q, f))
			}
		}
	}
	for _, root := range []string{r.Home, r.Workspace} {
		if root == "" {
			continue
		}
		for _, f := range patternSamples {
			out = append(out, filepath.Join(root, f))
		}
	}
	if r.GitleaksConfig != "" {
		out = append(out, r.GitleaksConfig)
	}
	return out
}

// holders are the table's objects a directory deleted, moved or linked to
// takes with it: each host's configuration directory, the workspace's agy
// hooks (when they exist), the state directory, each with the root (home
// or workspace) it lies in.
func holders(r Roots) (objs, roots []string) {
	for _, a := range anchors(r, "") {
		root := r.Workspace
		if a.home {
			root = r.Home
		}
		switch a.at {
		case hostDir:
			objs, roots = append(objs, a.dir), append(roots, root)
		case stateDir:
			root := r.Home
			if root == "" || !Within(a.dir, root) {
				root = filepath.Dir(filepath.Dir(a.dir)) // $XDG_STATE_HOME/gemini-guard: above $XDG_STATE_HOME
			}
			objs, roots = append(objs, a.dir), append(roots, root)
		case claudeHome, codexHome:
			// Only when it exists: a directory deleted with it takes the
			// host's hooks and their trust.
			if _, err := bounded.Or(r.FS).Lstat(a.dir); err == nil {
				root := r.Home
				if root == "" || !Within(a.dir, root) {
					root = filepath.Dir(a.dir)
				}
				objs, roots = append(objs, a.dir), append(roots, root)
			}
		case inWorkspace:
			// Only when it exists: .agents holds other tools' files too.
			h := filepath.Join(a.dir, ".agents", "hooks.json")
			if _, err := bounded.Or(r.FS).Lstat(h); err == nil {
				objs, roots = append(objs, h), append(roots, r.Workspace)
			}
		}
	}
	return objs, roots
}

// holderEntry names a directory of holders that no table object names.
func holderEntry(r Roots, g string) Entry {
	for _, a := range anchors(r, "") {
		if a.dir != g {
			continue
		}
		switch a.at {
		case claudeHome:
			return Entry{"Claude Code's configuration directory (" + g + "), whose settings hold its hooks", Config}
		case codexHome:
			return Entry{"Codex CLI's configuration directory (" + g + "), whose config.toml and hooks.json hold its hooks and their trust", Config}
		}
	}
	return hostDirEntry(g)
}

// hostDirEntry names a host's configuration directory.
func hostDirEntry(g string) Entry {
	if strings.EqualFold(filepath.Base(g), ".qwen") {
		return Entry{"Qwen Code's configuration directory (" + g + ")", Config}
	}
	return Entry{"Gemini CLI's configuration directory (" + g + ")", Config}
}

// Below are the table's files and directories that exist strictly inside
// dir: what a program walking dir (find dir -delete, find dir -exec chmod)
// reaches, whatever its tests select.
func Below(r Roots, dir string) []string {
	fsys := bounded.Or(r.FS)
	objs, _ := holders(r)
	var out []string
	for _, p := range append(knownFiles(r), objs...) {
		if Within(p, dir) && !samePath(p, dir) && !slices.Contains(out, p) {
			if _, err := fsys.Lstat(p); err == nil {
				out = append(out, p)
			}
		}
	}
	return out
}
