// Package protect is the one table of files that configure gemini-guard or
// Gemini CLI, which the agent may read but not change. Both guards ask it:
// the shell guard (policy rule guard.tamper, for the paths a parsed command
// writes or deletes) and the secrets guard (guard.protected-config, for
// write_file and replace, and for shell commands through the same policy
// check), so the two give one answer for one path.
//
// Paths are absolute and compared case-insensitively (macOS and Windows
// file systems are), also after resolving symlinks (Candidates), so a link
// in the workspace that points into ~/.gemini is as protected as its
// target, and by identity (Identify): a hard link to a protected file is
// that file. The file system is read only through Roots.FS (metadata and
// link targets, never a file's content), which the tests fake.
package protect

import (
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// Kind says how a protected path may be changed.
type Kind int

const (
	// None: not protected.
	None Kind = iota
	// Config: never written, moved or deleted by the agent.
	Config
	// EnvFile: a .env file. Gemini CLI loads .env files (the workspace's,
	// its parents', ~/.gemini/.env, ~/.env) into its own environment and
	// its hooks', so a change that adds or alters a control key (a
	// GEMINI_* setting, BASH_ENV, PATH, LD_PRELOAD, NODE_OPTIONS, …:
	// EnvFamilies) is denied; ordinary keys may be written.
	EnvFile
	// Tightening: the workspace's .gemini/gemini-guard.toml, which may only
	// tighten the guard. Writing it is allowed when the result is at least
	// as strict as before (Weakens); deleting, blanking or moving it away
	// is denied (strict would drop to standard).
	Tightening
	// GitCode: a repository's .git/config, .git/hooks/** and
	// .git/info/attributes, and the user's global git config and
	// attributes, which a later ordinary git command runs code
	// from (an alias, core.hooksPath, core.sshCommand, core.fsmonitor, a
	// filter or diff driver, a hook). git itself may change them (git
	// config is judged by the git rules); any other writer is denied.
	// Deleting them runs nothing and is allowed.
	GitCode
)

// Roots are the places the table is anchored to. Empty fields are unknown:
// then the paths under them cannot be recognised.
type Roots struct {
	// Home is the user's home directory.
	Home string
	// Workspace is the session's workspace (project) directory.
	Workspace string
	// GitleaksConfig is the absolute path of the gitleaks config the
	// settings name, "" if none.
	GitleaksConfig string
	// FS is the file system symlinks and identities are read from; nil
	// means the real one (bounded.OS).
	FS bounded.FS
	// StateDir is gemini-guard's state directory (internal/state's, one
	// level above its sessions: $XDG_STATE_HOME/gemini-guard), protected
	// beside the default ~/.local/state/gemini-guard; "" for that alone.
	StateDir string
	// Hosts are the other hosts' configuration directories the
	// environment moves (HostHomesFrom); their defaults in Home are
	// always protected.
	Hosts HostHomes
	// Memo, when set, keeps what checks against these roots compute once
	// (the host directories' symlinks resolved): one per decision.
	Memo *Memo
}

// HostHomes are Claude Code's and Codex CLI's configuration directories
// where the environment puts them ("" for the default one in home): their
// settings and hooks are protected there too, or a user who moved them
// would have the agent free to switch the guard off.
type HostHomes struct {
	// Claude is $CLAUDE_CONFIG_DIR, Codex $CODEX_HOME (absolute).
	Claude, Codex string
}

// HostHomesFrom reads HostHomes from an environment.
func HostHomesFrom(getenv func(string) string) HostHomes {
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			return ""
		}
		return filepath.Clean(p)
	}
	return HostHomes{Claude: abs(getenv("CLAUDE_CONFIG_DIR")), Codex: abs(getenv("CODEX_HOME"))}
}

// Entry is a protected path: what it is, as a block reason says it, and how
// it may change.
type Entry struct {
	What string
	Kind Kind
}

// ProjectFile is the tightening file, relative to the workspace.
const ProjectFile = settings.ProjectFile

// Classify says whether the absolute path p is protected under r. It looks
// at p as written; call Check to also follow symlinks.
//
// The table (objects, in table.go) holds the objects at known places:
//   - in each host's configuration directory (~/.gemini, ~/.qwen, the
//     workspace's .gemini and .qwen, a Windows profile's under /mnt/<drive>/Users/<name>):
//     settings.json, trustedFolders.json, extensions/** (gemini-guard itself, its programs and
//     .env settings, any other extension), policies/**, Antigravity CLI's hooks
//     (config/hooks.json, antigravity-cli/hooks.json), settings
//     (antigravity-cli/settings.json) and MCP servers (mcp_config.json),
//     and the directory itself in a home;
//   - the workspace's .agents/hooks.json and .agents/mcp_config.json;
//     /etc/gemini-cli/**, /etc/qwen-code/**;
//   - gemini-guard's state directory (~/.local/state/gemini-guard/**, and
//     Roots.StateDir);
//   - the workspace's .gemini/gemini-guard.toml (Tightening);
//   - the user's ~/.gitconfig, ~/.config/git/config and attributes (GitCode);
//
// then the patterns found at any depth:
//   - any .gitleaks.toml or .gitleaksignore (a gitleaks config or ignore
//     list: scans of a subdirectory read them) and the gitleaks config the
//     settings name;
//   - any .env file (EnvFile);
//   - .git/config, .git/hooks/** and .git/info/attributes of any
//     repository, a .git in the workspace written whole (GitCode).
func Classify(r Roots, p string) Entry {
	if p == "" {
		return Entry{}
	}
	p = filepath.Clean(p)
	if e, ok := located(r, p); ok {
		return e
	}
	base := filepath.Base(p)
	switch {
	case strings.EqualFold(base, ".gitleaks.toml"):
		return Entry{"a gitleaks config (" + base + ") whose rules and allowlists the secrets guard applies", Config}
	case strings.EqualFold(base, ".gitleaksignore"):
		return Entry{"a gitleaks ignore list (" + base + ")", Config}
	}
	if r.GitleaksConfig != "" && samePath(p, r.GitleaksConfig) {
		return Entry{"the gitleaks config gemini-guard is set to use", Config}
	}
	if strings.EqualFold(base, ".env") {
		return Entry{envWhat, EnvFile}
	}
	if strings.EqualFold(base, ".git") && r.Workspace != "" && Within(p, r.Workspace) {
		// A .git written whole (a gitdir: file, a copied directory) points git
		// at a config and hooks of the writer's choosing.
		return Entry{"a repository's .git (" + p + "), whose config and hooks, or the repository a gitdir: line names, a later git command runs", GitCode}
	}
	if g := gitDir(p); g != "" {
		switch {
		case samePath(p, filepath.Join(g, "config")):
			return Entry{"a repository's git config (" + p + "), whose aliases, hooks path, ssh command and filters a later git command runs", GitCode}
		case Within(p, filepath.Join(g, "hooks")):
			return Entry{"a repository's git hooks (" + filepath.Join(g, "hooks") + "), which git runs on commit, checkout, push and merge", GitCode}
		case samePath(p, filepath.Join(g, "info", "attributes")):
			return Entry{"a repository's git attributes (" + p + "), which choose the filter and diff drivers a later git command runs", GitCode}
		}
	}
	return Entry{}
}

// gitDir is the innermost .git directory p is in, "" if none.
func gitDir(p string) string {
	for d := filepath.Dir(p); ; d = filepath.Dir(d) {
		if strings.EqualFold(filepath.Base(d), ".git") {
			return d
		}
		if filepath.Dir(d) == d {
			return ""
		}
	}
}

// Check is Classify of p and of every path p leads to through symlinks
// (Candidates), then Identify: the first protected one wins, with the link
// named.
func Check(r Roots, p string) Entry {
	m := r.Memo
	if m == nil {
		return check(r, p)
	}
	if e, ok := m.checked[p]; ok {
		return e
	}
	e := check(r, p)
	if m.checked == nil {
		m.checked = map[string]Entry{}
	}
	m.checked[p] = e
	return e
}

// check is Check without the memo.
func check(r Roots, p string) Entry {
	for i, c := range Candidates(r.FS, p) {
		if e := Classify(r, c); e.Kind != None {
			if i > 0 {
				e.What += ", through the symlink " + p
			}
			return e
		}
	}
	return Identify(r, p)
}

// Contains reports whether deleting or moving the directory p would take a
// protected directory with it: a host's configuration directory (.gemini,
// .qwen), the workspace's .agents/hooks.json or the guard's state
// directory, or a directory between it and the home or workspace holding
// it (rm -rf ~/.gemini, mv .gemini x, rm -rf ~/.local/state/gemini-guard).
// Deleting home or the workspace itself is for the delete rules to judge.
func Contains(r Roots, p string) Entry {
	return containing(r, p, false)
}

// Holds is Contains for any directory above a protected one, home and /
// included: a symlink to one reaches the protected files through it.
func Holds(r Roots, p string) Entry {
	return containing(r, p, true)
}

func containing(r Roots, p string, anyAncestor bool) Entry {
	p = filepath.Clean(p)
	objs, roots := holders(r)
	for i, g := range objs {
		if roots[i] == "" || !Within(g, p) {
			continue
		}
		if anyAncestor || Within(p, roots[i]) && !samePath(p, roots[i]) {
			if e, ok := located(r, g); ok {
				return e
			}
			return holderEntry(r, g)
		}
	}
	return Entry{}
}

// Candidates are p and the paths it leads to through symlinks on the real
// file system: the resolved path (for a path that does not exist yet, its
// deepest existing ancestor resolved, with the rest joined on) and each
// link target on the way, also when the final target does not exist (writing a dangling link
// to .gitleaks.toml creates that file).
func Candidates(fsys bounded.FS, p string) []string {
	fsys = bounded.Or(fsys)
	out := []string{p}
	add := func(q string) {
		for _, o := range out {
			if o == q {
				return
			}
		}
		out = append(out, q)
	}
	// The deepest existing ancestor, resolved, with the rest of p joined
	// on: a file or directories that do not exist yet under a link.
	rest := ""
	for d := filepath.Clean(p); ; {
		if real, err := bounded.EvalSymlinks(fsys, d); err == nil {
			add(filepath.Join(real, rest))
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		rest = filepath.Join(filepath.Base(d), rest)
		d = parent
	}
	q := p
	for range 40 {
		target, err := fsys.Readlink(q)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(q), target)
		}
		q = filepath.Clean(target)
		add(q)
	}
	return out
}

func samePath(a, b string) bool { return strings.EqualFold(filepath.Clean(a), filepath.Clean(b)) }

// Within reports whether p is dir or inside it (case-insensitively).
func Within(p, dir string) bool {
	p, dir = strings.ToLower(filepath.Clean(p)), strings.ToLower(filepath.Clean(dir))
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// Safer ways for what the table denies, worded once for both guards.
const (
	// SaferEnv: a control key in a .env.
	SaferEnv = "keep the variable out of .env files: set it only for the one program that needs it " +
		"(NAME=value program, or that program's own config file), or ask the user to add it themselves"
	// SaferGitCode: .git/config, hooks, info/attributes.
	SaferGitCode = "change git settings with git config only when the user asked for that setting, and keep hook " +
		"scripts in the repository (for example scripts/pre-commit) for the user to install themselves"
	// SaferLink: a link to a protected file.
	SaferLink = "copy the file's content (cp without -l or -s) or read it where it is; never link to Gemini CLI's or the guard's configuration"
	// SaferTree: a tree copied or unpacked into home.
	SaferTree = "copy or unpack into the workspace or a temporary directory, then move only the files the task needs; " +
		"never a .gemini directory or a .env into the home directory"
)

// SaferFor is the safer way for a write to an entry of kind k, "" for the
// generic one.
func SaferFor(k Kind) string {
	switch k {
	case EnvFile:
		return SaferEnv
	case GitCode:
		return SaferGitCode
	}
	return ""
}
