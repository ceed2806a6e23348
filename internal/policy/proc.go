package policy

import (
	"slices"
	"strings"
)

// procRules protect running processes and the machine itself: fork bombs, killing everything, shutdown, kernel control, defences switched off.
var procRules = []*Rule{
	{
		ID: "proc.fork-bomb", Category: "proc",
		Protects: "the machine, from processes that multiply until it stops responding",
		What:     "starts processes that multiply without limit (a fork bomb)",
		Safer:    "run a bounded number of processes, for example with xargs -P or parallel -j",
		Unknown:  noUnknownStory,
		hazard:   checkForkBomb,
		Block: []string{
			`:(){ :|:& };:`,
			`bomb() { bomb | bomb & }; bomb`,
			`perl -e 'fork while fork'`,
			`python3 -c "import os
while True: os.fork()"`,
		},
		Allow: []string{
			`f() { echo hi; }; f`,
			`walk() { for d in "$@"; do walk "$d"/*; done; }`,
		},
	},
	{
		ID: "proc.kill-all", Category: "proc",
		Protects: "every running process",
		What:     "kills every process",
		Safer:    "kill the specific process by its pid or name",
		Unknown:  noUnknownStory,
		Commands: []string{"kill", "killall", "killall5", "pkill"}, exec: checkKillAll,
		Block: []string{`kill -9 -1`, `kill -KILL -1`, `killall5 -9`, `pkill -u $USER`, `sudo kill -9 1`},
		Allow: []string{`kill 1234`, `kill -9 %1`, `killall node`, `pkill -f 'npm run dev'`},
	},
	{
		ID: "proc.shutdown", Category: "proc",
		Protects: "the running machine",
		What:     "shuts down or reboots the machine",
		Safer:    "ask the user",
		Unknown:  noUnknownStory,
		Commands: []string{"shutdown", "reboot", "halt", "poweroff", "init", "telinit", "systemctl", "loginctl", "dnf", "yum"}, exec: checkShutdown,
		Block: []string{`shutdown -h now`, `shutdown`, `sudo reboot`, `systemctl poweroff`, `init 0`, `systemctl isolate rescue.target`, `sudo dnf system-upgrade reboot`, `systemctl start reboot.target`, `shutdown.exe /s /t 0`, `shutdown.exe /a /s`},
		Allow: []string{`systemctl status nginx`, `shutdown -c`, `systemctl start nginx.service`, `shutdown.exe /a`},
	},
	{
		ID: "proc.kernel-control", Category: "proc",
		Protects: "the running kernel: /proc/sysrq-trigger, settings under /proc/sys and /sys, the kernel itself (kexec), the firmware's boot entries, the mounts and the network the system needs (modules loaded and unloaded are harm.kernel-module's)",
		What:     "changes or replaces the running kernel",
		Safer:    "ask the user to change kernel settings",
		Unknown:  noUnknownStory,
		Commands: []string{"*"}, exec: checkKernelControl,
		Block: []string{`echo b > /proc/sysrq-trigger`, `echo 1 | sudo tee /proc/sys/kernel/panic`, `sysctl -w kernel.randomize_va_space=0`, `sudo sysctl kern.securelevel=-1`, `sysctl -w net.ipv4.conf.all.forwarding=1`, `sudo sysctl -p /etc/sysctl.d/99-x.conf`, `sudo sysctl -w "$KEY=1"`, `echo 0 | sudo tee /proc/sys/kernel/yama/ptrace_scope`, `echo 1 > /proc/sys/net/ipv4/conf/all/forwarding`, `kexec -e`, `echo 0 > /sys/class/backlight/x/brightness`, `efibootmgr -b 0001 -B`, `efibootmgr -o 0002,0001`, `sudo nvram boot-args="amfi_get_out_of_my_way=1"`, `sudo swapoff -a`, `sudo umount -l /`, `sudo mount -o remount,ro /`, `sudo ip link set eth0 down`, `sudo nmcli networking off`, `sudo mount --options remount,ro /`},
		Allow: []string{`cat /proc/sys/kernel/hostname`, `sysctl -a`, `sysctl vm.swappiness`, `sysctl -w vm.swappiness=10`, `sudo sysctl -w kern.maxfiles=524288`, `sudo sysctl net.inet.tcp.msl=7500`, `sysctl -w fs.inotify.max_user_watches=524288`, `echo 524288 | sudo tee /proc/sys/fs/inotify/max_user_watches`, `lsmod`, `efibootmgr -v`, `swapon --show`, `sudo umount /mnt/usb`, `sudo mount /dev/sdb1 /mnt/usb`, `ip link show eth0`, `nvram -p`, `sudo ip link set lo up`, `sudo mount -o remount,rw /boot/efi`},
	},
	{
		ID: "proc.defence-off", Category: "proc",
		Protects: "the system's defences: firewall rules (iptables, nft, ufw, firewalld), SELinux and AppArmor enforcement, the audit subsystem, and the services that run them",
		What:     "switches off a firewall, access control or auditing",
		Safer:    "ask the user to change the machine's security settings; open one port or add one rule if the task needs it",
		Unknown:  noUnknownStory,
		Commands: []string{"iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft", "ebtables", "arptables", "nft", "ufw", "firewall-cmd", "setenforce", "aa-teardown", "auditctl", "systemctl", "service", "rc-service", "launchctl", "csrutil", "spctl", "pfctl", "socketfilterfw", "ipfw", "defaults"},
		exec:     checkDefenceOff,
		Block:    []string{`iptables -F`, `sudo iptables -t nat --flush`, `iptables -P INPUT ACCEPT`, `nft flush ruleset`, `ufw disable`, `ufw default allow incoming`, `setenforce 0`, `systemctl disable --now firewalld`, `sudo service auditd stop`, `auditctl -D`, `aa-teardown`, `firewall-cmd --set-default-zone=trusted`, `csrutil disable`, `sudo spctl --master-disable`, `sudo pfctl -d`, `sudo pfctl -F all`, `sudo /usr/libexec/ApplicationFirewall/socketfilterfw --setglobalstate off`},
		Allow:    []string{`iptables -L -n`, `iptables -A INPUT -p tcp --dport 8080 -j ACCEPT`, `nft list ruleset`, `ufw status`, `ufw allow 22/tcp`, `getenforce`, `systemctl status firewalld`, `systemctl restart nginx`, `auditctl -l`, `service apparmor status`, `csrutil status`, `spctl --status`, `spctl --assess -v ./MyApp.app`, `sudo pfctl -s rules`},
	},
}

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
// or cancels a shutdown (shutdown -c; -h is shutdown's halt; Windows'
// shutdown.exe /a aborts one, and given anything else too it may stop).
func shutdownHelp(c *Call) bool {
	if c.Ex.Name == "shutdown" && len(c.Args) == 1 && strings.EqualFold(c.Args[0], "/a") {
		return true
	}
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
