package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// The system's own software removed through its package manager: an
// essential package (the C library, the init system, the shell, the package
// manager itself, the kernel, sudo, the system's Python), a removal forced
// past the manager's dependency checks, or every package the manager lists
// (brew uninstall $(brew list), sudo pip uninstall -r <(pip freeze)); a
// system manager given a list made at run time is allowed, as the usual
// clean-up of removed packages' configuration is written that way.
// Removing one ordinary package, orphans or caches is routine.

// essentialPackages break the system when removed (names or prefixes
// ending in -, matched without a version or architecture suffix).
var essentialPackages = []string{"glibc", "libc6", "libc-bin", "musl", "systemd", "systemd-sysv", "init", "coreutils", "bash", "dash", "sh",
	"sudo", "util-linux", "login", "passwd", "shadow", "pam", "libpam-modules", "apt", "dpkg", "rpm", "dnf", "yum", "pacman", "apk-tools", "zypper",
	"python3", "python3-minimal", "python", "perl-base", "base", "base-files", "base-passwd", "filesystem", "busybox", "alpine-base",
	"linux", "linux-image-", "linux-generic", "kernel", "kernel-core", "grub", "grub2", "grub-pc", "grub-efi-", "grub2-common", "shim", "shim-signed",
	"openssh-server", "e2fsprogs", "tar", "gzip", "findutils", "grep", "sed", "ncurses-base", "debianutils", "bsdutils", "ubuntu-minimal", "libselinux", "selinux-policy"}

// removalWord is a word any removal by the managers below carries.
func removalWord(a string) bool {
	switch a {
	case "remove", "purge", "autopurge", "erase", "rm", "del", "delete", "uninstall", "autoremove", "un", "r", "uninstall-all",
		"-r", "-P", "--remove", "--purge", "-e", "--erase":
		return true
	}
	return strings.HasPrefix(a, "-R") || strings.HasPrefix(a, "-e") || strings.HasPrefix(a, "--remove")
}

func essentialPackage(op string) bool {
	name := strings.ToLower(op)
	if i := strings.IndexAny(name, ":=<>"); i > 0 {
		name = name[:i] // libc6:amd64, bash=5.1
	}
	name = strings.TrimSuffix(name, "*")
	for _, e := range essentialPackages {
		if name == e || strings.HasSuffix(e, "-") && strings.HasPrefix(name, e) {
			return true
		}
	}
	return false
}

// checkPackagesRemoved judges the removal verbs of system, language and
// desktop package managers.
func checkPackagesRemoved(c *Call) Finding {
	name, args := c.Ex.Name, c.Args
	if !slices.ContainsFunc(args, removalWord) {
		return Finding{} // npm ci, apt install …: nothing to look at (and nothing allocated)
	}
	if hasArg(args, "--help", "-h", "--simulate", "-s", "--dry-run", "--just-print", "--no-act", "--recon", "--assumeno", "--print") && name != "pacman" {
		return Finding{}
	}
	rm, ok := packageRemoval(c, operands(args))
	if !ok {
		return rm.decided
	}
	if f := removalForced(name, args); f.Hit {
		return f
	}
	return rm.judge(name)
}

// removal is what a package manager's call removes: packages, from the
// system's manager (system) or a user's (brew, pip, npm -g). decided is the
// finding when the call is judged before its packages are.
type removal struct {
	pkgs    []string
	system  bool
	decided Finding
}

// judge: an essential package removed by the system's manager, or a list
// decided at run time by a user's manager.
func (rm removal) judge(name string) Finding {
	for _, r := range rm.pkgs {
		if rm.system && essentialPackage(r) {
			return hit(name + " removes " + r + ", which the system needs to run, boot or be administered")
		}
		if !rm.system && !shell.Known(r) {
			return hit(name + " removes a list of packages decided at run time (every package it lists, as written): the installed software as a whole")
		}
	}
	return Finding{}
}

// systemRemovalVerbs are the removal verbs of the system managers that
// take a verb first.
var systemRemovalVerbs = []string{"remove", "purge", "autopurge", "erase", "rm", "del", "delete", "uninstall", "autoremove"}

// packageRemoval is what the call removes; ok is false when it removes
// nothing judged (rm.decided then says the finding, if any).
func packageRemoval(c *Call, ops []string) (rm removal, ok bool) {
	name, args := c.Ex.Name, c.Args
	switch name {
	case "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "snap", "port", "pkg", "emerge":
		if len(ops) == 0 || !slices.Contains(systemRemovalVerbs, ops[0]) {
			return removal{}, false
		}
		return removal{pkgs: ops[1:], system: true}, true
	case "xbps-remove":
		return removal{pkgs: ops, system: true}, len(ops) > 0
	case "dpkg":
		return removal{pkgs: ops, system: true}, hasArg(args, "-r", "-P", "--remove", "--purge")
	case "rpm":
		return removal{pkgs: ops, system: true}, hasArg(args, "-e", "--erase") || hasPrefixArg(args, "-e")
	case "pacman":
		removes := hasPrefixArg(args, "-R") || hasArg(args, "--remove")
		return removal{pkgs: ops, system: true}, removes && !hasArg(args, "-p", "--print")
	case "brew":
		return removal{pkgs: verbOperands(ops, "uninstall", "remove", "rm")}, len(ops) > 0 && slices.Contains([]string{"uninstall", "remove", "rm"}, ops[0])
	case "pip", "pip3", "pipx":
		return pipRemoval(c, ops)
	case "npm", "pnpm", "yarn":
		global := hasArg(args, "-g", "--global") || slices.Contains(ops, "global")
		return removal{pkgs: verbOperands(ops, "uninstall", "remove", "rm", "un", "r")}, global && len(ops) > 0 && slices.Contains([]string{"uninstall", "remove", "rm", "un", "r"}, ops[0])
	}
	return removal{}, false
}

// verbOperands are the operands after the verb when the first is one of
// verbs.
func verbOperands(ops []string, verbs ...string) []string {
	if len(ops) == 0 || !slices.Contains(verbs, ops[0]) {
		return nil
	}
	return ops[1:]
}

// pipRemoval: pip uninstall of packages and -r files, judged only with
// sudo or --break-system-packages (else a virtual environment's or the
// user's own packages); pipx uninstall-all removes every application.
func pipRemoval(c *Call, ops []string) (removal, bool) {
	args := c.Args
	if c.Ex.Name == "pipx" && len(ops) > 0 && ops[0] == "uninstall-all" {
		return removal{decided: hit("pipx uninstall-all removes every application pipx installed")}, false
	}
	if len(ops) == 0 || ops[0] != "uninstall" {
		return removal{}, false
	}
	removed := append(ops[1:len(ops):len(ops)], optionValues(args, "-r", "--requirement")...)
	if !c.Ex.Sudo && !hasArg(args, "--break-system-packages") {
		return removal{}, false // a virtual environment's or the user's own packages
	}
	return removal{pkgs: removed}, true
}

// forcedRemovalOpts remove packages past the manager's dependency checks.
var forcedRemovalOpts = []string{"--nodeps", "--force-all", "--force-remove-essential", "--force-depends", "--allow-remove-essential", "--force-remove-reinstreq"}

// removalForced: a removal past the dependency checks (--nodeps,
// --force-remove-essential, pacman -Rdd).
func removalForced(name string, args []string) Finding {
	for _, a := range args {
		switch {
		case slices.Contains(forcedRemovalOpts, a):
			return hit(name + " " + a + " removes packages past the dependency checks that keep the system working")
		case name == "pacman" && strings.HasPrefix(a, "-R") && strings.Count(a, "d") >= 2:
			return hit("pacman " + a + " removes packages past the dependency checks that keep the system working")
		}
	}
	return Finding{}
}
