package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// changes lists the paths a call writes (creates, overwrites, appends to)
// and the ones it deletes or moves away. Paths are resolved where possible.
func changes(c *Call) (writes, deletes []string) {
	ex := c.Ex
	for _, r := range ex.Redirs {
		if r.Writes() && r.Target != "" {
			writes = append(writes, c.resolve(r.Target))
		}
	}
	ops := operands(c.Args)
	switch ex.Name {
	case "tee", "sudoedit", "truncate", "nano", "vi", "vim", "nvim", "emacs", "ed", "touch":
		if ex.Name == "touch" {
			break
		}
		for _, o := range ops {
			writes = append(writes, c.resolve(o))
		}
	case "cp", "install", "ln", "rsync", "mv":
		if len(ops) >= 2 {
			dst := c.resolve(ops[len(ops)-1])
			writes = append(writes, dst)
			for _, src := range ops[:len(ops)-1] {
				writes = append(writes, path.Join(dst, path.Base(src)))
				if ex.Name == "mv" {
					deletes = append(deletes, c.resolve(src))
				}
			}
		}
		for i, a := range c.Args {
			if (a == "-t" || a == "--target-directory") && i+1 < len(c.Args) {
				for _, src := range ops {
					writes = append(writes, path.Join(c.resolve(c.Args[i+1]), path.Base(src)))
				}
			}
		}
	case "sed", "perl":
		inPlace := false
		scriptGiven := false
		for _, a := range c.Args {
			if a == "-i" || strings.HasPrefix(a, "-i") || strings.HasPrefix(a, "--in-place") || ex.Name == "perl" && strings.HasPrefix(a, "-") && strings.Contains(a, "i") && !strings.HasPrefix(a, "--") {
				inPlace = true
			}
			if a == "-e" || a == "-f" || a == "--expression" || a == "--file" || strings.HasPrefix(a, "--expression=") {
				scriptGiven = true
			}
		}
		if inPlace {
			files := ops
			if ex.Name == "sed" && !scriptGiven && len(files) > 0 {
				files = files[1:]
			}
			for _, f := range files {
				writes = append(writes, c.resolve(f))
			}
		}
	case "dd":
		for _, a := range c.Args {
			if v, ok := strings.CutPrefix(a, "of="); ok {
				writes = append(writes, c.resolve(v))
			}
		}
	case "rm", "unlink", "shred", "srm", "rmdir":
		for _, o := range ops {
			deletes = append(deletes, c.resolve(o))
		}
	}
	if ex.CodeWrites {
		for _, l := range ex.CodeLiterals {
			if l != "" && !strings.ContainsAny(l, "\n") && len(l) < 4096 {
				writes = append(writes, c.resolve(l))
			}
		}
	}
	return writes, deletes
}

// guardFile says whether p is a file that configures gemini-guard or Gemini
// CLI; envChange is set for .env files, which only count when the change
// mentions a GEMINI_GUARD_ setting.
func (c *Context) guardFile(p string) (what string, envFile bool) {
	if c.Home != "" {
		g := c.Home + "/.gemini"
		switch {
		case p == g || p == g+"/settings.json":
			return "Gemini CLI's user settings (~/.gemini/settings.json)", false
		case under(p, g+"/extensions"):
			if path.Base(p) == ".env" {
				return "an extension's settings (" + p + ")", false
			}
			return "Gemini CLI's installed extensions (~/.gemini/extensions)", false
		case under(p, g+"/policies"):
			return "Gemini CLI's user policies (~/.gemini/policies)", false
		}
	}
	if w := c.Workspace; w != "" {
		switch {
		case p == w+"/.gemini/settings.json":
			return "the workspace's Gemini CLI settings (.gemini/settings.json)", false
		case under(p, w+"/.gemini/extensions"):
			return "the workspace's Gemini CLI extensions", false
		case under(p, w+"/.gemini/policies"):
			return "the workspace's Gemini CLI policies", false
		case p == w+"/.gitleaks.toml":
			return "the workspace's gitleaks configuration (.gitleaks.toml)", false
		case p == w+"/.gitleaksignore":
			return "the workspace's gitleaks ignore list (.gitleaksignore)", false
		case p == w+"/.env":
			return "the workspace .env, from which Gemini CLI loads the guard's settings", true
		}
	}
	return "", false
}

// mentionsGuardSetting reports whether the call's arguments or input name a
// GEMINI_GUARD_ setting.
func mentionsGuardSetting(c *Call) bool {
	return strings.Contains(strings.ToUpper(codeText(c)), "GEMINI_GUARD")
}

// checkGuardTamper: changing or deleting the guard's or Gemini CLI's
// configuration, or switching the extension off.
func checkGuardTamper(c *Call) Finding {
	if c.Ex.Name == "gemini" {
		ops := operands(c.Args)
		if len(ops) >= 2 && (ops[0] == "extensions" || ops[0] == "extension") {
			switch ops[1] {
			case "disable", "uninstall", "remove", "config", "link", "update":
				if len(ops) == 2 || hasArg(ops[2:], "gemini-guard") {
					return hit("gemini extensions " + ops[1] + " gemini-guard switches the guard off or changes its settings")
				}
			}
		}
		if len(ops) >= 2 && ops[0] == "hooks" && (ops[1] == "disable" || ops[1] == "remove") {
			return hit("gemini hooks " + ops[1] + " switches hooks off")
		}
	}
	writes, deletes := changes(c)
	for _, p := range append(writes, deletes...) {
		what, env := c.Ctx.guardFile(p)
		if what == "" || !shell.Known(p) {
			continue
		}
		if env && !mentionsGuardSetting(c) {
			continue
		}
		return hit("changes " + what)
	}
	return Finding{}
}

var rcNames = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".kshrc", ".mkshrc",
	".tcshrc", ".cshrc", "config.fish", "bash.bashrc", "bashrc", "zshrc", "zprofile",
	"zshenv", "profile", "environment"}

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

func checkShellRC(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		base := path.Base(p)
		if !slices.Contains(rcNames, base) || !c.Ctx.outsideProject(c.Res, p) {
			continue
		}
		if (base == "profile" || base == "environment" || base == "bashrc" || base == "zshrc") && !strings.HasPrefix(p, "/etc/") {
			continue
		}
		if strings.Contains(p, "/fish/") || strings.HasPrefix(base, ".") || strings.HasPrefix(p, "/etc/") {
			return hit("writes the shell startup file " + p + ", which runs in every new shell")
		}
	}
	for _, p := range writes {
		if strings.Contains(p, "/etc/profile.d/") || strings.Contains(p, "/.config/fish/conf.d/") {
			return hit("writes the shell startup file " + p + ", which runs in every new shell")
		}
	}
	return Finding{}
}

func checkCron(c *Call) Finding {
	if c.Ex.Name == "crontab" {
		onlyList := len(c.Args) > 0
		for _, a := range c.Args {
			switch a {
			case "-l", "--list", "-h", "--help", "-V":
			case "-u":
			default:
				if !strings.HasPrefix(a, "-") && len(c.Args) > 1 && hasArg(c.Args, "-u") && (a != "-" && !strings.Contains(a, "/") && !strings.Contains(a, ".")) {
					continue // the user name after -u
				}
				onlyList = false
			}
		}
		if !onlyList {
			return hit("crontab installs or removes scheduled jobs that run on their own later")
		}
		return Finding{}
	}
	writes, _ := changes(c)
	for _, p := range writes {
		if strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron") || p == "/etc/anacrontab" || strings.HasPrefix(p, "/var/spool/anacron") {
			return hit("writes " + p + ", installing a scheduled job")
		}
	}
	return Finding{}
}

func checkAuthorizedKeys(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		if b := path.Base(p); (b == "authorized_keys" || b == "authorized_keys2") && strings.Contains(p, "/.ssh/") && c.Ctx.outsideProject(c.Res, p) {
			return hit("writes " + p + ", letting someone log in with their key")
		}
	}
	return Finding{}
}

func checkServiceUnit(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		for _, d := range []string{"/.config/systemd/", "/etc/systemd/", "/lib/systemd/system/", "/usr/lib/systemd/", "/Library/LaunchAgents/", "/Library/LaunchDaemons/", "/.config/autostart/", "/etc/init.d/", "/etc/rc.local"} {
			if strings.Contains(p, d) && c.Ctx.outsideProject(c.Res, p) {
				return hit("writes " + p + ", a service or login item that starts on its own")
			}
		}
	}
	return Finding{}
}
