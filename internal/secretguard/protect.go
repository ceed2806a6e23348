package secretguard

import (
	"path/filepath"
	"regexp"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/edit"
	"github.com/gemini-guard/gemini-guard/internal/policy"
	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// roots anchor the protected-path table (internal/protect) for a call.
func roots(env Env, cwd string) protect.Roots {
	r := protect.Roots{Home: env.Home, Workspace: cwd, FS: env.FS, StateDir: env.StateDir, Hosts: env.HostHomes}
	if env.Settings.GitleaksConfig != "" {
		r.GitleaksConfig = edit.Resolve(cwd, env.Settings.GitleaksConfig)
	}
	return r
}

// protectedFile says why writing path (absolute) is denied, or "" when it
// may be written. The table is internal/protect's, shared with the shell
// guard: guard and Gemini CLI configuration is never written; a .env file
// may be written unless the result gains or alters a control key (a
// GEMINI_* setting, BASH_ENV, PATH, LD_PRELOAD, NODE_OPTIONS, …:
// protect.EnvFamilies); the project's tightening file may be written when
// the result is at least as strict; a repository's .git/config, hooks and
// info/attributes are never written by these tools. Symlinks and hard
// links are followed through env.FS.
func protectedFile(env Env, cwd, path string, res edit.Result) (why, safer string) {
	e := protect.Check(roots(env, cwd), path)
	switch e.Kind {
	case protect.Config:
		return e.What, ""
	case protect.EnvFile:
		if ch, ok := protect.ChangesControlKey(res.Before, res.After); ok {
			return e.What + ", setting " + ch.Key + ": " + ch.Why, protect.SaferEnv
		}
	case protect.GitCode:
		return e.What + ": written by anything but git itself it is code planted to run later", protect.SaferGitCode
	case protect.Tightening:
		if protect.Weakens(cwd, res.Before, res.After) {
			return e.What + ", making it less strict (it may only tighten the guard)", ""
		}
	}
	return "", ""
}

// protectedCommand says why a shell command is denied for changing the
// guard's or Gemini CLI's configuration, or "". It is the shell guard's
// guard.tamper rule on the same analysis, so the two hooks agree: reads
// are allowed, writes, deletes and Gemini CLI invocations that switch the
// guard off are denied alike.
func protectedCommand(env Env, cwd string, res *shell.Result) (why, safer string) {
	ctx := policy.NewContext(cwd, env.Home, env.Settings)
	ctx.FS = env.FS
	ctx.StateDir = env.StateDir
	ctx.HostHomes = env.HostHomes
	if f, ok := policy.TamperFinding(res, &ctx); ok {
		return f.Describe(), f.Safer // not the fragment: it may hold a secret
	}
	return "", ""
}

// analyze parses a shell command as the shell guard does: run in dir
// (tool_input.dir_path, relative to the workspace, ~ for home).
func analyze(env Env, cwd, dir, command string) *shell.Result {
	switch {
	case dir == "":
		dir = cwd
	case dir == "~" || strings.HasPrefix(dir, "~/"):
		if env.Home != "" {
			dir = filepath.Join(env.Home, dir[1:])
		} else {
			dir = ""
		}
	case cwd == "" && !filepath.IsAbs(dir):
		dir = ""
	default:
		dir = edit.Resolve(cwd, dir)
	}
	return shell.Analyze(command, shell.Options{Dir: dir, Home: env.Home})
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
