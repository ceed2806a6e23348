package policy

import (
	"path"
	"slices"
	"strings"
)

// persistRules judge code planted to run later: shell start-up files, cron, authorized keys, services.
var persistRules = []*Rule{
	{
		ID: "persist.shell-rc", Category: "persist",
		Protects: "shell startup files (~/.bashrc, ~/.zshrc, ~/.profile, /etc/profile.d, ...), which run in every new shell",
		What:     "writes a shell startup file",
		Safer:    "tell the user what to add to their shell configuration",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkShellRC,
		Block: []string{`echo 'export PATH=$PATH:~/bin' >> ~/.bashrc`, `tee -a ~/.zshrc < snippet`, `cp evil ~/.profile`},
		Allow: []string{`cat ~/.bashrc`, `echo x >> dotfiles/.bashrc`, `grep PATH ~/.zshrc`},
	},
	{
		ID: "persist.cron", Category: "persist",
		Protects: "scheduled jobs, which run later on their own",
		What:     "installs or removes scheduled jobs",
		Safer:    "tell the user the crontab line to add",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkCron,
		Block: []string{`crontab mycron`, `echo '* * * * * x' | crontab -`, `crontab -r`, `echo job > /etc/cron.d/x`, `systemd-run --user --on-calendar=daily ./job.sh`, `echo ./job.sh | at now + 1 hour`},
		Allow: []string{`crontab -l`, `cat /etc/crontab`, `atq`, `at -l`, `systemd-run --user --scope make`},
	},
	{
		ID: "persist.ssh-authorized-keys", Category: "persist",
		Protects: "~/.ssh/authorized_keys, the list of keys that may log in",
		What:     "adds a key that may log in to this machine",
		Safer:    "tell the user the key to add",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkAuthorizedKeys,
		Block: []string{`echo ssh-ed25519 AAAA x >> ~/.ssh/authorized_keys`, `cat key.pub >> /root/.ssh/authorized_keys`},
		Allow: []string{`cat ~/.ssh/authorized_keys`, `ssh-copy-id user@example.com`},
	},
	{
		ID: "persist.service", Category: "persist",
		Protects: "systemd units, launchd agents and autostart entries, which start programs on their own",
		What:     "installs a service or login item",
		Safer:    "tell the user the unit to install",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkServiceUnit,
		Block: []string{`cp x.service ~/.config/systemd/user/`, `tee ~/Library/LaunchAgents/x.plist < x.plist`},
		Allow: []string{`systemctl --user status x`, `cat ~/.config/systemd/user/x.service`},
	},
	{
		ID: "persist.privileged", Category: "persist",
		Protects: "files that grant privileges or run code at boot, login or every program start: sudoers, /etc/ld.so.preload, PAM, accounts, /etc/profile*, systemd units and timers, cron, udev rules, launch daemons, autostart entries, ~/.xprofile and the like",
		What:     "installs persistence or grants privileges",
		Safer:    "tell the user the change to make",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkPrivilegedPersist,
		Block: []string{`echo 'dev ALL=(ALL) NOPASSWD:ALL' | sudo tee /etc/sudoers.d/dev`, `sudo visudo`, `echo /tmp/x.so > /etc/ld.so.preload`, `cp x.timer /etc/systemd/system/`, `useradd -m -G sudo evil`, `launchctl load ~/Library/LaunchAgents/x.plist`, `launchctl load -w /tmp/x.plist`, `launchctl load ~/x.plist`, `sudo launchctl bootstrap system ./contrib/x.plist ~/y.plist`, `launchctl submit -l x -- ./run.sh`, `echo x >> ~/.xprofile`, `scrontab -e`, `sudo dscl . -append /Groups/admin GroupMembership eve`, `osascript -e 'tell application "System Events" to make login item at end with properties {path:"/tmp/x.app"}'`, `sudo defaults write com.apple.loginwindow LoginHook /tmp/hook.sh`},
		Allow: []string{`cat /etc/sudoers`, `visudo -c`, `sudo -l`, `launchctl list`, `launchctl load -w ./contrib/launchd/com.example.devserver.plist`, `launchctl bootstrap gui/501 ./contrib/launchd/dev.plist`, `launchctl load -S Aqua ./dev.plist`, `systemctl status cron`, `passwd`, `dscl . -list /Users`, `defaults write com.apple.dock autohide -bool true`, `osascript -e 'display notification "done"'`, `rc-update show`, `sudo update-rc.d nginx defaults`, `sudo rc-update add nginx default`},
	},
}

var rcNames = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zprofile", ".zshenv", ".zlogin", ".zlogout", ".kshrc", ".mkshrc",
	".tcshrc", ".cshrc", "config.fish", "bash.bashrc", "bashrc", "zshrc", "zprofile",
	"zshenv", "profile", "environment"}

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
		if !crontabOnlyLists(c.Args) {
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
