// Package protect is the one table of files that configure gemini-guard or
// Gemini CLI, which the agent may read but not change. Both guards ask it:
// the shell guard (policy rule guard.tamper, for the paths a parsed command
// writes or deletes) and the secrets guard (guard.protected-config, for
// write_file and replace, and for shell commands through the same policy
// check), so the two give one answer for one path.
//
// Paths are absolute and compared case-insensitively (macOS and Windows
// file systems are), and also after resolving symlinks on the real file
// system (Candidates), so a link in the workspace that points into
// ~/.gemini is as protected as its target.
package protect

import (
	"os"
	"path/filepath"
	"strings"

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
	// its parents', ~/.gemini/.env, ~/.env) into the environment its hooks
	// read their settings from, so a change that adds or alters a
	// GEMINI_GUARD_* line is denied; ordinary keys may be written.
	EnvFile
	// Tightening: the workspace's .gemini/gemini-guard.toml, which may only
	// tighten the guard. Writing it is allowed when the result is at least
	// as strict as before (Weakens); deleting, blanking or moving it away
	// is denied (strict would drop to standard).
	Tightening
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
// The table:
//   - ~/.gemini/settings.json, trustedFolders.json, extensions/** (gemini-guard itself, its
//     .env settings, any other extension), policies/**, and the same under
//     the workspace's .gemini; /etc/gemini-cli/** (system settings);
//   - Antigravity CLI's hooks (~/.gemini/config/hooks.json, its fallback
//     ~/.gemini/antigravity-cli/hooks.json, the workspace's
//     .agents/hooks.json) and settings (~/.gemini/antigravity-cli/settings.json);
//   - any .gitleaks.toml or .gitleaksignore (a gitleaks config or ignore
//     list, at any depth: scans of a subdirectory read them) and the
//     gitleaks config the settings name;
//   - the workspace's .gemini/gemini-guard.toml (Tightening);
//   - any .env file (EnvFile).
func Classify(r Roots, p string) Entry {
	if p == "" {
		return Entry{}
	}
	p = filepath.Clean(p)
	base := filepath.Base(p)
	for _, g := range geminiDirs(r) {
		switch {
		case samePath(p, g) && r.Home != "" && Within(g, r.Home):
			return Entry{"Gemini CLI's configuration directory (" + g + ")", Config}
		case samePath(p, filepath.Join(g, "settings.json")):
			return Entry{"Gemini CLI's settings (" + filepath.Join(g, "settings.json") + "), which switch hooks and extensions on and off", Config}
		case Within(p, filepath.Join(g, "extensions")):
			return Entry{"Gemini CLI's extensions directory (" + filepath.Join(g, "extensions") + ", where gemini-guard and its .env settings are installed)", Config}
		case samePath(p, filepath.Join(g, "trustedFolders.json")):
			return Entry{"Gemini CLI's trusted folders (" + filepath.Join(g, "trustedFolders.json") + "), which decide whether a workspace's own settings, hooks and MCP servers load", Config}
		case Within(p, filepath.Join(g, "policies")):
			return Entry{"Gemini CLI's policy rules (" + filepath.Join(g, "policies") + ")", Config}
		case samePath(p, filepath.Join(g, "config", "hooks.json")) || samePath(p, filepath.Join(g, "antigravity-cli", "hooks.json")):
			return Entry{"Antigravity CLI's hooks (" + p + "), which run gemini-guard in agy", Config}
		case samePath(p, filepath.Join(g, "antigravity-cli", "settings.json")):
			return Entry{"Antigravity CLI's settings (" + p + "), whose permissions decide what agy runs without asking", Config}
		}
	}
	if r.Workspace != "" && samePath(p, filepath.Join(r.Workspace, ".agents", "hooks.json")) {
		return Entry{"the workspace's Antigravity CLI hooks (.agents/hooks.json), which agy runs without asking", Config}
	}
	if Within(p, "/etc/gemini-cli") {
		return Entry{"Gemini CLI's system settings (/etc/gemini-cli)", Config}
	}
	switch {
	case strings.EqualFold(base, ".gitleaks.toml"):
		return Entry{"a gitleaks config (" + base + ") whose rules and allowlists the secrets guard applies", Config}
	case strings.EqualFold(base, ".gitleaksignore"):
		return Entry{"a gitleaks ignore list (" + base + ")", Config}
	}
	if r.GitleaksConfig != "" && samePath(p, r.GitleaksConfig) {
		return Entry{"the gitleaks config gemini-guard is set to use", Config}
	}
	if r.Workspace != "" {
		if samePath(p, filepath.Join(r.Workspace, ProjectFile)) {
			return Entry{"the project's tightening file (" + ProjectFile + ")", Tightening}
		}
	}
	if strings.EqualFold(base, ".env") {
		return Entry{"a .env file, from which Gemini CLI loads the guard's GEMINI_GUARD_* settings", EnvFile}
	}
	return Entry{}
}

// Check is Classify of p and of every path p leads to through symlinks
// (Candidates): the first protected one wins, with the link named.
func Check(r Roots, p string) Entry {
	for i, c := range Candidates(p) {
		if e := Classify(r, c); e.Kind != None {
			if i > 0 {
				e.What += ", through the symlink " + p
			}
			return e
		}
	}
	return Entry{}
}

// Contains reports whether deleting or moving the directory p would take a
// protected directory with it: a .gemini directory or a directory between
// it and the home or workspace holding it (rm -rf ~/.gemini, mv .gemini x).
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
	for _, root := range []string{r.Home, r.Workspace} {
		if root == "" {
			continue
		}
		g := filepath.Join(root, ".gemini")
		if !Within(g, p) {
			continue
		}
		if anyAncestor || Within(p, root) && !samePath(p, root) {
			return Entry{"Gemini CLI's configuration directory (" + g + ")", Config}
		}
	}
	return Entry{}
}

func geminiDirs(r Roots) []string {
	var out []string
	for _, root := range []string{r.Home, r.Workspace} {
		if root == "" {
			continue
		}
		g := filepath.Join(root, ".gemini")
		out = append(out, g)
		if real, err := filepath.EvalSymlinks(g); err == nil && real != g {
			out = append(out, real)
		}
	}
	return out
}

// Candidates are p and the paths it leads to through symlinks on the real
// file system: the resolved path (for a path that does not exist yet, its
// deepest existing ancestor resolved, with the rest joined on) and each
// link target on the way, also when the final target does not exist (writing a dangling link
// to .gitleaks.toml creates that file).
func Candidates(p string) []string {
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
		if real, err := filepath.EvalSymlinks(d); err == nil {
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
		target, err := os.Readlink(q)
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
