package policy

import (
	"slices"
	"strings"
)

// checkKill: kill -9 -1 (every process), kill 1 (init).
func checkKill(c *Call) Finding {
	args := c.Args
	sigDone := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-l" || a == "-L" || a == "--list" || a == "--help":
			return Finding{}
		case a == "--":
			sigDone = true
		case (a == "-s" || a == "-n") && !sigDone:
			i++
			sigDone = true
		case strings.HasPrefix(a, "-") && !sigDone && len(a) > 1 && a != "-1":
			sigDone = true
		case a == "-1" && !sigDone && i == len(args)-1:
			// kill -1 alone: signal 1, no process.
		case a == "-1":
			return hit("kill -1 sends the signal to every process the user may signal")
		case a == "1":
			return hit("kill 1 signals init, the process every other one depends on")
		default:
			sigDone = true
		}
	}
	return Finding{}
}

func checkKillall(c *Call) Finding {
	if c.Ex.Name == "killall5" {
		return hit("killall5 signals every process")
	}
	names, everyone := killallNames(c.Args)
	for _, n := range names {
		if n == "." || n == ".*" || n == "^" || n == "" {
			return hit(c.Ex.Name + " " + n + " matches every process")
		}
	}
	if everyone && len(names) == 0 {
		return hit(c.Ex.Name + " -u kills every process of the user")
	}
	return Finding{}
}

// killallUserOpts select processes by user; killallValued are the other
// options of killall and pkill that take a value.
var (
	killallUserOpts = []string{"-u", "--user", "-U", "--euid", "--uid"}
	killallValued   = []string{"-s", "--signal", "-o", "-y", "--older-than", "--younger-than", "-n", "--ns", "-g", "-G", "-P", "-t", "-F"}
)

// killallNames are the process names (patterns) of a killall or pkill,
// and whether it selects by user.
func killallNames(args []string) (names []string, everyone bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case slices.Contains(killallUserOpts, a):
			everyone = true
			i++
		case slices.Contains(killallValued, a):
			i++
		case strings.HasPrefix(a, "-"):
		default:
			names = append(names, a)
		}
	}
	return names, everyone
}

// machineTargets are systemd targets that stop, reboot, suspend or
// isolate the machine when reached.
var machineTargets = []string{"poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "rescue", "emergency", "soft-reboot", "ctrl-alt-del", "exit"}

func checkShutdown(c *Call) Finding {
	if shutdownHelp(c) {
		return Finding{}
	}
	switch c.Ex.Name {
	case "shutdown", "reboot", "halt", "poweroff":
		return hit(c.Ex.Name + " stops the machine")
	case "init", "telinit":
		if len(c.Args) > 0 && slices.Contains([]string{"0", "6", "1", "s", "S"}, c.Args[0]) {
			return hit(c.Ex.Name + " " + c.Args[0] + " changes the run level: shutdown, reboot or single-user")
		}
	case "dnf", "yum":
		if ops := operands(c.Args); len(ops) > 1 && ops[0] == "system-upgrade" && ops[1] == "reboot" || len(ops) > 0 && ops[0] == "offline-upgrade" && hasArg(ops, "reboot") {
			return hit(c.Ex.Name + " reboots the machine into an upgrade")
		}
	case "systemctl", "loginctl":
		return machineStopVerb(c)
	}
	return Finding{}
}

// shutdownHelp reports whether the call only asks for help or a version,
// or cancels a shutdown (shutdown -c; -h is shutdown's halt).
func shutdownHelp(c *Call) bool {
	for _, a := range c.Args {
		if a == "--help" || a == "-h" && c.Ex.Name != "shutdown" || a == "-c" && c.Ex.Name == "shutdown" || a == "--version" {
			return true
		}
	}
	return false
}

// machineStopVerbs are systemctl's and loginctl's verbs that stop,
// suspend or isolate the machine.
var machineStopVerbs = []string{"poweroff", "reboot", "halt", "kexec", "suspend", "hibernate", "hybrid-sleep", "suspend-then-hibernate", "rescue", "emergency", "soft-reboot", "isolate", "default", "switch-root"}

// machineStopVerb: systemctl poweroff …, or a target that does the same
// (systemctl start reboot.target is systemctl reboot).
func machineStopVerb(c *Call) Finding {
	for _, a := range c.Args {
		if slices.Contains(machineStopVerbs, a) {
			return hit(c.Ex.Name + " " + a + " stops or suspends the machine")
		}
		if unit := strings.TrimSuffix(a, ".target"); unit != a && slices.Contains(machineTargets, unit) {
			return hit(c.Ex.Name + " reaches " + a + ", which stops, reboots or suspends the machine")
		}
	}
	return Finding{}
}
