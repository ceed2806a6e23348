package policy

// persist.privileged: files and programs that run code as root, at
// every login or boot, or that grant privileges.

import (
	"slices"
	"strings"
)

// privileged persistence: files that run code as root or at every login or
// boot, or that grant privileges.
var persistPaths = []struct{ prefix, what string }{
	{"/etc/sudoers", "grants sudo rights"},
	{"/etc/doas.conf", "grants doas rights"},
	{"/etc/ld.so.preload", "preloads a library into every program"},
	{"/etc/ld.so.conf", "changes where every program loads libraries from"},
	{"/etc/profile", "runs at every login"},
	{"/etc/bash.bashrc", "runs in every shell"},
	{"/etc/environment", "sets the environment of every login"},
	{"/etc/pam.d/", "changes how every login is authenticated"},
	{"/etc/security/", "changes login security"},
	{"/etc/passwd", "adds or changes user accounts"},
	{"/etc/shadow", "changes passwords"},
	{"/etc/group", "changes group membership (and so privileges)"},
	{"/etc/gshadow", "changes group passwords"},
	{"/etc/rc.local", "runs at every boot"},
	{"/etc/init.d/", "installs a boot service"},
	{"/etc/systemd/", "installs or changes a system service or timer"},
	{"/lib/systemd/", "installs or changes a system service or timer"},
	{"/usr/lib/systemd/", "installs or changes a system service or timer"},
	{"/etc/cron", "installs a scheduled job"},
	{"/var/spool/cron", "installs a scheduled job"},
	{"/etc/anacrontab", "installs a scheduled job"},
	{"/etc/xdg/autostart/", "starts a program at every desktop login"},
	{"/etc/udev/rules.d/", "runs a program when a device appears"},
	{"/etc/modules-load.d/", "loads kernel modules at boot"},
	{"/etc/update-motd.d/", "runs at every login"},
	{"/etc/apt/apt.conf.d/", "runs commands at every package operation"},
	{"/etc/NetworkManager/dispatcher.d/", "runs a program on every network change"},
	{"/Library/LaunchDaemons/", "installs a launch daemon that runs as root"},
	{"/Library/LaunchAgents/", "installs a launch agent for every user"},
	{"/etc/ssh/sshd_config", "changes who may log in over SSH"},
	{"/etc/rc.d/", "runs at every boot"},
	{"/etc/init/", "installs a boot job"},
	{"/etc/xinetd.d/", "installs a network service"},
	{"/etc/inetd.conf", "installs a network service"},
	{"/etc/bash_completion.d/", "runs in every interactive shell"},
}

// homePersist are files under home that run code at login or in new
// shells beyond the shell rc files persist.shell-rc knows.
var homePersist = []string{".bash_aliases", ".bash_completion", ".ssh/rc", ".config/upstart/", ".termux/boot/", ".xprofile", ".xinitrc", ".xsessionrc", ".xsession", ".pam_environment", ".config/environment.d/", ".config/autostart/", ".config/systemd/", "Library/LaunchAgents/", ".local/share/systemd/", ".config/plasma-workspace/env/", ".kde/Autostart/"}

// accountTools create or change user accounts, groups or passwords.
var accountTools = []string{"vipw", "vigr", "useradd", "adduser", "usermod", "passwd", "chpasswd", "gpasswd", "groupadd", "newusers"}

// persistTool judges the programs named names: a hit when the call
// installs something that runs on its own or grants privileges.
type persistTool struct {
	names []string
	judge func(c *Call) Finding
}

// persistTools are the programs checkPrivilegedPersist judges by their
// arguments; what any program writes is judged by persistFileWritten.
var persistTools = []persistTool{
	{[]string{"visudo"}, persistVisudo},
	{[]string{"scrontab"}, persistScrontab},
	{[]string{"systemctl"}, systemctlLinksUnitFile},
	{[]string{"launchctl"}, persistLaunchctl},
	{[]string{"dscl"}, dsclChangesAccounts},
	{[]string{"dseditgroup"}, persistDseditgroup},
	{[]string{"sysadminctl"}, persistSysadminctl},
	{[]string{"osascript"}, osascriptLoginItem},
	{[]string{"defaults"}, defaultsLoginItem},
}

// persistVisudo judges visudo.
func persistVisudo(c *Call) Finding {
	if !hasArg(c.Args, "-c", "--check", "--help", "-h", "-V", "--version") {
		return hit("visudo edits sudoers, granting or changing sudo rights")
	}
	return Finding{}
}

// persistScrontab judges scrontab.
func persistScrontab(c *Call) Finding {
	if !hasArg(c.Args, "-l", "--help", "-h") {
		return hit("scrontab installs or removes scheduled jobs")
	}
	return Finding{}
}

// persistLaunchctl judges launchctl: load, bootstrap, submit and enable
// install a job that starts on its own, but for a job whose plist is the
// project's own (launchJobsInProject).
func persistLaunchctl(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) > 0 && slices.Contains([]string{"load", "bootstrap", "submit", "enable"}, ops[0]) && !launchJobsInProject(c, ops) {
		return hit("launchctl " + ops[0] + " installs a job that starts on its own")
	}
	return Finding{}
}

// launchJobsInProject reports whether a launchctl load or bootstrap names
// only plists inside the project: the developer's own agent under
// development, loaded for this session from where it is written (a plist
// outside the launchd folders is not loaded again at the next login). A
// plist in /tmp or home is not the project's. ops are the operands: load
// [-S session] [-D domain] PATHS, bootstrap DOMAIN PATHS.
func launchJobsInProject(c *Call, ops []string) bool {
	paths := ops[1:]
	switch ops[0] {
	case "load":
		paths = slices.DeleteFunc(slices.Clone(paths), func(o string) bool {
			return slices.Contains(optionValues(c.Args, "-S", "-D"), o)
		})
	case "bootstrap":
		if len(paths) > 0 {
			paths = paths[1:]
		}
	default:
		return false
	}
	return len(paths) > 0 && !slices.ContainsFunc(paths, func(p string) bool { return c.Loc(p).Place != InWorkspace })
}

// persistDseditgroup judges dseditgroup.
func persistDseditgroup(c *Call) Finding {
	if hasArg(c.Args, "-a", "-d") {
		return hit("dseditgroup changes a group's members (and so privileges)")
	}
	return Finding{}
}

// persistSysadminctl judges sysadminctl.
func persistSysadminctl(c *Call) Finding {
	if hasArg(c.Args, "-addUser", "-resetPasswordFor", "-secureTokenOn", "-adminUser") && !hasArg(c.Args, "-deleteUser") {
		return hit("sysadminctl creates or changes user accounts or passwords")
	}
	return Finding{}
}

func checkPrivilegedPersist(c *Call) Finding {
	if slices.Contains(accountTools, c.Ex.Name) {
		return accountChanged(c)
	}
	for _, t := range persistTools {
		if !slices.Contains(t.names, c.Ex.Name) {
			continue
		}
		if f := t.judge(c); f.Hit {
			return f
		}
		break
	}
	return persistFileWritten(c)
}

// accountChanged: useradd, usermod, passwd … but passwd for one's own
// password, interactively, or a status, and help.
func accountChanged(c *Call) Finding {
	if c.Ex.Name == "passwd" && (len(c.Args) == 0 || hasArg(c.Args, "-S", "--status")) {
		return Finding{} // one's own password, interactively, or a status
	}
	if hasArg(c.Args, "--help", "-h", "-V", "--version") {
		return Finding{}
	}
	return hit(c.Ex.Name + " creates or changes user accounts, groups or passwords")
}

// systemctlLinksUnitFile: a unit file from a path (not one a package
// installed) linked or enabled starts on its own from now on.
func systemctlLinksUnitFile(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) <= 1 || ops[0] != "link" && ops[0] != "enable" && ops[0] != "reenable" {
		return Finding{}
	}
	for _, o := range ops[1:] {
		if strings.Contains(o, "/") {
			return hit("systemctl " + ops[0] + " " + o + " installs a unit that starts on its own")
		}
	}
	return Finding{}
}

// dsclChangesAccounts: macOS accounts: a user created or added to a group
// (admin).
func dsclChangesAccounts(c *Call) Finding {
	for _, a := range c.Args {
		if l := strings.ToLower(a); l == "-create" || l == "-append" || l == "-merge" || l == "-passwd" {
			return hit("dscl " + a + " creates or changes user accounts, groups or passwords")
		}
	}
	return Finding{}
}

// osascriptLoginItem: a login item added through System Events.
func osascriptLoginItem(c *Call) Finding {
	for _, a := range c.Args {
		if l := strings.ToLower(a); strings.Contains(l, "login item") && strings.Contains(l, "make") {
			return hit("osascript adds a login item that starts at every login")
		}
	}
	return Finding{}
}

// defaultsLoginItem: defaults write of login items and login/logout hooks.
func defaultsLoginItem(c *Call) Finding {
	for _, a := range c.Args {
		if strings.Contains(a, "AutoLaunchedApplicationDictionary") || a == "LoginHook" || a == "LogoutHook" || strings.Contains(a, "com.apple.loginitems") {
			if ops := operands(c.Args); len(ops) > 0 && ops[0] == "write" {
				return hit("defaults write " + a + " starts a program at every login")
			}
		}
	}
	return Finding{}
}

// persistFileWritten: a write to one of persistPaths, or to one of
// homePersist outside the project.
func persistFileWritten(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		for _, pp := range persistPaths {
			if strings.HasPrefix(p, pp.prefix) {
				return hit("writes " + p + ", which " + pp.what)
			}
		}
		if homePersistWritten(c, p) {
			return hit("writes " + p + ", which runs programs at login or in new shells")
		}
	}
	return Finding{}
}

// homePersistWritten reports whether p is one of homePersist, outside the
// project.
func homePersistWritten(c *Call, p string) bool {
	if c.Ctx.Home == "" || !c.Ctx.outsideProject(c.Res, p) {
		return false
	}
	rel, ok := strings.CutPrefix(p, c.Ctx.Home+"/")
	if !ok {
		return false
	}
	return slices.ContainsFunc(homePersist, func(h string) bool {
		return rel == strings.TrimSuffix(h, "/") || strings.HasPrefix(rel, h) && strings.HasSuffix(h, "/")
	})
}
