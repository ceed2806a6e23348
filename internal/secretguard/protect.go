package secretguard

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/gemini-guard/gemini-guard/internal/edit"
)

// protectedFile says why writing path (absolute) is denied, or "" when it
// may be written. Protected are the files the guard takes its configuration
// from and Gemini CLI's own configuration:
//
//   - any .gitleaks.toml or .gitleaksignore (gitleaks config and ignore
//     lists), and the gitleaks config the GitleaksConfig setting names;
//   - Gemini CLI's settings.json, extensions/ and policies/ under ~/.gemini
//     and the workspace's .gemini, and /etc/gemini-cli;
//   - a .env file when the call adds a GEMINI_GUARD_* assignment (Gemini
//     CLI loads .env files into its environment, and hooks inherit it).
//
// The workspace's .gemini/gemini-guard.toml is not protected: it may only
// tighten the guard. Paths are compared case-insensitively and also after
// resolving symlinks, so a link to a protected file is protected.
func protectedFile(env Env, cwd, path string, res edit.Result) string {
	for _, p := range candidates(path) {
		if why := protectedPath(env, cwd, p); why != "" {
			return why
		}
		if strings.EqualFold(filepath.Base(p), ".env") && addsGuardVariable(res.Before, res.After) {
			return "a .env file, adding a GEMINI_GUARD_* setting (Gemini CLI loads .env files into the environment its hooks read their settings from)"
		}
	}
	return ""
}

// candidates are path and the paths it leads to through symlinks: the
// resolved path (for a file that does not exist yet, its resolved
// directory joined with its name) and each link target on the way, also
// when the final target does not exist (a dangling link to .gitleaks.toml
// creates that file when written).
func candidates(path string) []string {
	out := []string{path}
	add := func(p string) {
		for _, o := range out {
			if o == p {
				return
			}
		}
		out = append(out, p)
	}
	if real, err := filepath.EvalSymlinks(path); err == nil {
		add(real)
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(path)); err == nil {
		add(filepath.Join(dir, filepath.Base(path)))
	}
	p := path
	for range 40 {
		target, err := os.Readlink(p)
		if err != nil {
			break
		}
		if !filepath.IsAbs(target) {
			target = filepath.Join(filepath.Dir(p), target)
		}
		p = filepath.Clean(target)
		add(p)
	}
	return out
}

func protectedPath(env Env, cwd, p string) string {
	base := filepath.Base(p)
	switch {
	case strings.EqualFold(base, ".gitleaks.toml"):
		return "a gitleaks config whose rules and allowlists the secrets guard applies"
	case strings.EqualFold(base, ".gitleaksignore"):
		return "a gitleaks ignore list"
	}
	if env.Settings.GitleaksConfig != "" {
		for _, c := range candidates(edit.Resolve(cwd, env.Settings.GitleaksConfig)) {
			if samePath(p, c) {
				return "the gitleaks config gemini-guard is set to use"
			}
		}
	}
	var roots []string
	for _, r := range []string{env.Home, cwd} {
		if r == "" {
			continue
		}
		roots = append(roots, filepath.Join(r, ".gemini"))
		if real, err := filepath.EvalSymlinks(filepath.Join(r, ".gemini")); err == nil {
			roots = append(roots, real)
		}
	}
	for _, g := range roots {
		switch {
		case samePath(p, filepath.Join(g, "settings.json")):
			return "Gemini CLI's settings (they switch hooks and extensions on and off)"
		case within(p, filepath.Join(g, "extensions")):
			return "Gemini CLI's extensions directory (where gemini-guard and its settings are installed)"
		case within(p, filepath.Join(g, "policies")):
			return "Gemini CLI's policy rules"
		}
	}
	if within(p, "/etc/gemini-cli") {
		return "Gemini CLI's system settings"
	}
	return ""
}

func samePath(a, b string) bool { return strings.EqualFold(filepath.Clean(a), filepath.Clean(b)) }

// within reports whether p is dir or inside it.
func within(p, dir string) bool {
	p, dir = strings.ToLower(filepath.Clean(p)), strings.ToLower(filepath.Clean(dir))
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

var guardVariable = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^[ \t]*(?:export[ \t]+)?GEMINI_GUARD_[A-Za-z0-9_]*[ \t]*=.*$`)
})

// addsGuardVariable reports whether after has a GEMINI_GUARD_* assignment
// line that before does not.
func addsGuardVariable(before, after string) bool {
	if !strings.Contains(after, "GEMINI_GUARD_") {
		return false
	}
	had := map[string]bool{}
	for _, l := range guardVariable().FindAllString(before, -1) {
		had[strings.TrimSpace(l)] = true
	}
	for _, l := range guardVariable().FindAllString(after, -1) {
		if !had[strings.TrimSpace(l)] {
			return true
		}
	}
	return false
}

// protectedNames are the names whose mention, with a write, makes a shell
// command touch the guard's configuration.
var protectedNames = []string{".gitleaks.toml", ".gitleaksignore", ".gemini/settings.json", ".gemini/extensions", ".gemini/policies", "/etc/gemini-cli"}

// writes matches a command that writes, moves, deletes or edits a file in
// place (output redirections are checked per file name, see redirectsTo).
var writes = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|(\x60$'"])(?:tee|cp|mv|rm|ln|install|truncate|dd|rsync|chmod|chown|touch|unlink|shred|sed[ \t][^;|&]*-[a-zA-Z]*i|sed[ \t][^;|&]*--in-place|perl[ \t][^;|&]*-[a-zA-Z]*i|git[ \t]+(?:checkout|restore|rm|mv|apply|am))(?:$|[\s;&|)\x60'"])`)
})

// geminiConfigCommand matches Gemini CLI commands that change its
// extensions or hooks.
var geminiConfigCommand = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:^|[\s;&|(\x60$'"/])gemini[ \t]+(?:extensions?|hooks)[ \t]+(?:uninstall|disable|enable|config|link|install|update|new|migrate)\b`)
})

// protectedCommand says why a shell command is denied for touching the
// guard's configuration, or "". It is a text heuristic (the shell guard
// parses commands properly): a protected file's name together with a write,
// a GEMINI_GUARD_ assignment written to a .env file, or `gemini extensions
// disable|uninstall|config ...`.
func protectedCommand(env Env, cwd, command string) string {
	lower := strings.ToLower(command)
	// The regexps only run on commands that mention something protected:
	// most commands mention nothing, and compiling costs a hook ~0.1 ms.
	if strings.Contains(lower, "gemini") && geminiConfigCommand().MatchString(lower) {
		return "Gemini CLI's extensions or hooks (gemini-guard is one of them)"
	}
	names := protectedNames
	if env.Settings.GitleaksConfig != "" {
		names = append(names[:len(names):len(names)], strings.ToLower(filepath.Base(env.Settings.GitleaksConfig)))
	}
	for _, n := range names {
		if strings.Contains(lower, n) && (redirectsTo(lower, n) || writes().MatchString(lower)) {
			return n + ", part of the guard's or Gemini CLI's configuration"
		}
	}
	if strings.Contains(command, "GEMINI_GUARD_") && strings.Contains(lower, ".env") && (redirectsTo(lower, ".env") || writes().MatchString(lower)) {
		return "a .env file with a GEMINI_GUARD_* setting (Gemini CLI loads .env files into the environment its hooks read their settings from)"
	}
	return ""
}

// redirectsTo reports whether an output redirection in command targets a
// word containing name (`> .gitleaks.toml`, `>>"$HOME/.gemini/settings.json"`).
func redirectsTo(command, name string) bool {
	for i := 0; i < len(command); i++ {
		if command[i] != '>' {
			continue
		}
		j := i + 1
		for j < len(command) && (command[j] == '>' || command[j] == '|' || command[j] == ' ' || command[j] == '\t') {
			j++
		}
		k := j
		for k < len(command) && !strings.ContainsRune(" \t\n;&|<>()", rune(command[k])) {
			k++
		}
		if strings.Contains(command[j:k], name) {
			return true
		}
	}
	return false
}

// skipped reports whether path (absolute) matches one of the skip globs,
// matched against the path relative to the workspace with '/' separators.
// `**` matches any number of directories, `*` and `?` stay within one; a
// glob without '/' also matches the file's base name at any depth. Paths
// outside the workspace are never skipped.
func skipped(globs []string, cwd, path string) bool {
	if len(globs) == 0 || cwd == "" {
		return false
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, g := range globs {
		re, err := globRegexp(filepath.ToSlash(g))
		if err != nil {
			continue
		}
		if re.MatchString(rel) || (!strings.Contains(g, "/") && re.MatchString(pathBase(rel))) {
			return true
		}
	}
	return false
}

func pathBase(rel string) string {
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		return rel[i+1:]
	}
	return rel
}

// globRegexp translates a glob into an anchored regexp.
func globRegexp(g string) (*regexp.Regexp, error) {
	g = strings.TrimPrefix(g, "./")
	var b strings.Builder
	b.WriteString("^")
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case c == '*' && i+1 < len(g) && g[i+1] == '*':
			i++
			if i+1 < len(g) && g[i+1] == '/' {
				i++
				b.WriteString("(?:.*/)?")
			} else {
				b.WriteString(".*")
			}
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			j := strings.IndexByte(g[i:], ']')
			if j < 0 {
				b.WriteString(regexp.QuoteMeta(string(c)))
				continue
			}
			class := g[i+1 : i+j]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + class + "]")
			i += j
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.Compile(b.String())
}
