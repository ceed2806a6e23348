package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

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

// systemdRunTimers are systemd-run's options that make a transient timer:
// the command runs later, on its own.
var systemdRunTimers = []string{"--on-active", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-calendar", "--on-clock-change", "--on-timezone-change", "--timer-property"}

func checkCron(c *Call) Finding {
	switch c.Ex.Name {
	case "systemd-run":
		for _, a := range c.Args {
			name, _, _ := strings.Cut(a, "=")
			if slices.Contains(systemdRunTimers, name) {
				return hit("systemd-run " + name + " schedules a command that runs later on its own")
			}
		}
		return Finding{}
	case "at", "batch":
		// at -l/-d/-r/-c only list, remove or show queued jobs.
		if hasArg(c.Args, "-l", "-d", "-r", "-c", "-V", "--help") {
			return Finding{}
		}
		return hit(c.Ex.Name + " queues a job that runs later on its own")
	case "crontab":
		return hitIf(!crontabOnlyLists(c.Args), func() string { return "crontab installs or removes scheduled jobs that run on their own later" })
	}
	writes, _ := changes(c)
	for _, p := range writes {
		if strings.HasPrefix(p, "/etc/cron") || strings.HasPrefix(p, "/var/spool/cron") || p == "/etc/anacrontab" || strings.HasPrefix(p, "/var/spool/anacron") {
			return hit("writes " + p + ", installing a scheduled job")
		}
	}
	return Finding{}
}

// crontabOnlyLists reports whether a crontab only lists or asks for help
// (crontab -l, crontab -u bob -l); crontab alone reads a table from its
// input.
func crontabOnlyLists(args []string) bool {
	onlyList := len(args) > 0
	for _, a := range args {
		switch a {
		case "-l", "--list", "-h", "--help", "-V":
		case "-u":
		default:
			if crontabUserName(args, a) {
				continue // the user name after -u
			}
			onlyList = false
		}
	}
	return onlyList
}

// crontabUserName reports whether a, an argument of a crontab given -u,
// looks like the user name rather than a file.
func crontabUserName(args []string, a string) bool {
	return !strings.HasPrefix(a, "-") && len(args) > 1 && hasArg(args, "-u") && (a != "-" && !strings.Contains(a, "/") && !strings.Contains(a, "."))
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
