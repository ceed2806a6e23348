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
	ops := operands(args)
	var removed []string
	system := true
	switch name {
	case "apt", "apt-get", "aptitude", "dnf", "yum", "microdnf", "zypper", "apk", "snap", "port", "pkg", "xbps-remove", "emerge":
		if len(ops) == 0 || !slices.Contains([]string{"remove", "purge", "autopurge", "erase", "rm", "del", "delete", "uninstall", "autoremove"}, ops[0]) && name != "xbps-remove" {
			return Finding{}
		}
		removed = ops[1:]
		if name == "xbps-remove" {
			removed = ops
		}
	case "dpkg":
		if !hasArg(args, "-r", "-P", "--remove", "--purge") {
			return Finding{}
		}
		removed = ops
	case "rpm":
		if !hasArg(args, "-e", "--erase") && !hasPrefixArg(args, "-e") {
			return Finding{}
		}
		removed = ops
	case "pacman":
		r := false
		for _, a := range args {
			if strings.HasPrefix(a, "-R") || a == "--remove" {
				r = true
			}
		}
		if !r || hasArg(args, "-p", "--print") {
			return Finding{}
		}
		removed = ops
	case "brew":
		if len(ops) == 0 || !slices.Contains([]string{"uninstall", "remove", "rm"}, ops[0]) {
			return Finding{}
		}
		removed, system = ops[1:], false
	case "pip", "pip3", "pipx":
		if name == "pipx" && len(ops) > 0 && ops[0] == "uninstall-all" {
			return hit("pipx uninstall-all removes every application pipx installed")
		}
		if len(ops) == 0 || ops[0] != "uninstall" {
			return Finding{}
		}
		removed, system = ops[1:], false
		for i, a := range args {
			if (a == "-r" || a == "--requirement") && i+1 < len(args) {
				removed = append(removed, args[i+1])
			}
		}
		if !c.Ex.Sudo && !hasArg(args, "--break-system-packages") {
			return Finding{} // a virtual environment's or the user's own packages
		}
	case "npm", "pnpm", "yarn":
		if len(ops) == 0 || !slices.Contains([]string{"uninstall", "remove", "rm", "un", "r"}, ops[0]) || !hasArg(args, "-g", "--global") && !slices.Contains(ops, "global") {
			return Finding{}
		}
		removed, system = ops[1:], false
	default:
		return Finding{}
	}
	for _, a := range args {
		switch {
		case a == "--nodeps" || a == "--force-all" || a == "--force-remove-essential" || a == "--force-depends" || a == "--allow-remove-essential" || a == "--force-remove-reinstreq":
			return hit(name + " " + a + " removes packages past the dependency checks that keep the system working")
		case name == "pacman" && strings.HasPrefix(a, "-R") && strings.Count(a, "d") >= 2:
			return hit("pacman " + a + " removes packages past the dependency checks that keep the system working")
		}
	}
	for _, r := range removed {
		if system && essentialPackage(r) {
			return hit(name + " removes " + r + ", which the system needs to run, boot or be administered")
		}
		if !system && !shell.Known(r) {
			return hit(name + " removes a list of packages decided at run time (every package it lists, as written): the installed software as a whole")
		}
	}
	return Finding{}
}
