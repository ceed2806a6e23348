package policy

// proc.kernel-control: the kernel's control files, its modules, the
// firmware's boot entries, the mounts and the network the system needs.

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// kernelTool judges the programs named names: a hit when the call
// replaces, stops or reconfigures the running kernel, its modules, the
// firmware's boot entries, the mounts or the network the system needs.
type kernelTool struct {
	names []string
	judge func(c *Call) Finding
}

// kernelTools are the programs checkKernelControl judges, by name.
var kernelTools = []kernelTool{
	{[]string{"kexec"}, kernelKexec},
	{[]string{"sysctl"}, sysctlWrites},
	{[]string{"efibootmgr"}, efibootmgrChanges},
	{[]string{"nvram"}, nvramChanges},
	{[]string{"swapoff"}, kernelSwapoff},
	{[]string{"umount"}, umountsSystem},
	{[]string{"mount"}, remountsSystemReadOnly},
	{[]string{"ip"}, kernelIp},
	{[]string{"ifconfig", "ifdown"}, kernelIfconfig},
	{[]string{"nmcli"}, kernelNmcli},
}

// kernelKexec judges kexec.
func kernelKexec(c *Call) Finding {
	if !hasArg(c.Args, "--help", "-h", "--version") {
		return hit("kexec loads or boots another kernel, replacing the running system")
	}
	return Finding{}
}

// kernelSwapoff judges swapoff.
func kernelSwapoff(c *Call) Finding {
	if hasArg(c.Args, "-a", "--all") {
		return hit("swapoff -a turns all swap off: the machine can run out of memory and kill processes")
	}
	return Finding{}
}

// kernelIp judges ip.
func kernelIp(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) >= 4 && (ops[0] == "link" || ops[0] == "l") && ops[1] == "set" && ops[len(ops)-1] == "down" && !strings.HasPrefix(ops[len(ops)-2], "lo") {
		return hit("ip link set … down cuts the machine off the network")
	}
	return Finding{}
}

// kernelIfconfig judges ifconfig.
func kernelIfconfig(c *Call) Finding {
	ops := operands(c.Args)
	if c.Ex.Name == "ifdown" && len(ops) > 0 || len(ops) >= 2 && ops[len(ops)-1] == "down" && ops[0] != "lo" && ops[0] != "lo0" {
		return hit(c.Ex.Name + " cuts the machine off the network")
	}
	return Finding{}
}

// kernelNmcli judges nmcli.
func kernelNmcli(c *Call) Finding {
	ops := operands(c.Args)
	if len(ops) >= 2 && (ops[0] == "networking" || ops[0] == "n") && ops[1] == "off" {
		return hit("nmcli networking off cuts the machine off the network")
	}
	return Finding{}
}

// kernelControl: writes to the kernel's control files and the commands
// that replace or stop the running kernel.
func checkKernelControl(c *Call) Finding {
	if f := kernelFileWritten(c); f.Hit {
		return f
	}
	for _, t := range kernelTools {
		if slices.Contains(t.names, c.Ex.Name) {
			return t.judge(c)
		}
	}
	return Finding{}
}

// kernelFileWritten: a write to /proc/sysrq-trigger, to a knob under
// /proc/sys that guards the machine (the file of a sysctl key: the same
// table as sysctl's), or under /sys (but the tracing marker).
func kernelFileWritten(c *Call) Finding {
	writes, _ := changes(c)
	for _, p := range writes {
		if p == "/proc/sysrq-trigger" {
			return hit("writes /proc/sysrq-trigger, which can crash, reboot or power off the machine at once")
		}
		if key, ok := strings.CutPrefix(p, "/proc/sys/"); ok && key != "" && shell.Known(p) && !sysctlGuardedKey(key) {
			continue // a tuning knob, as sysctl -w sets it
		}
		if under(p, "/proc/sys") || under(p, "/sys") && !strings.HasPrefix(p, "/sys/kernel/debug/tracing/trace_marker") {
			return hit("writes the kernel setting " + p)
		}
	}
	return Finding{}
}

// sysctlWrites: sysctl loading a file of settings (-p, -f, --load,
// --system: what it sets cannot be read here), or setting a knob that
// guards the machine (sysctlGuarded). Ordinary tuning (open files, the
// listen backlog, TCP timers, inotify watches) is what a developer does
// for a benchmark or a dev server and changes nothing the threat model
// protects.
func sysctlWrites(c *Call) Finding {
	for _, a := range c.Args {
		if a == "--load" || strings.HasPrefix(a, "--load=") || a == "--system" || strings.ContainsAny(shortFlags(a), "pf") {
			return hit("sysctl loads kernel settings from a file into the running system")
		}
		if strings.HasPrefix(a, "-") {
			continue
		}
		key, _, set := strings.Cut(a, "=")
		if !set {
			continue
		}
		if !shell.Known(key) {
			return hit("sysctl sets a kernel setting the command line does not show")
		}
		if sysctlGuardedKey(key) {
			return hit("sysctl sets " + key + ", a kernel setting that guards the machine (its defences, the code the kernel runs, or whether it keeps running)")
		}
	}
	return Finding{}
}

// sysctlGuarded are the prefixes (Linux, macOS and the BSDs) of kernel
// settings whose change weakens a defence (ASLR, ptrace and kernel-memory
// restrictions, securelevel, MAC policies, firewalls, veriexec), makes the
// kernel run a program (core_pattern, modprobe, hotplug), turns the
// machine into a router, or stops or panics it. Anything else is tuning.
var sysctlGuarded = []string{
	// Linux
	"kernel.randomize_va_space", "kernel.yama", "kernel.kptr_restrict", "kernel.dmesg_restrict",
	"kernel.modules_disabled", "kernel.kexec_load_disabled", "kernel.unprivileged_bpf_disabled",
	"kernel.unprivileged_userns_clone", "kernel.perf_event_paranoid", "kernel.sysrq", "kernel.core_pattern",
	"kernel.modprobe", "kernel.hotplug", "kernel.poweroff_cmd", "kernel.usermodehelper", "kernel.io_uring_disabled",
	"kernel.ctrl-alt-del", "user.max_user_namespaces",
	"fs.protected_", "fs.suid_dumpable", "vm.mmap_min_addr", "vm.overcommit_memory", "vm.unprivileged_userfaultfd",
	"net.core.bpf_jit", "net.ipv4.tcp_syncookies", "net.bridge.bridge-nf-call", "dev.tty.ldisc_autoload",
	// macOS and the BSDs
	"security.", "kern.securelevel", "kern.allowkmem", "kern.veriexec", "kern.elf", "kern.module_path",
	"kern.corefile", "kern.nosuidcoredump", "kern.geom.debugflags", "kern.randompid", "kern.wxabort",
	"machdep.allowaperture", "debug.kdb.", "ddb.", "net.pf.", "net.link.ether.ipfw",
}

// sysctlGuardedWords guard a knob wherever they appear in its name (the
// panic switches, IP forwarding and redirects on every interface, the
// ipfw and ipfilter knobs of each family).
var sysctlGuardedWords = []string{"panic", "aslr", "forward", "redirect", "source_route", "rp_filter", "route_localnet", ".fw.", "ipfilter"}

// sysctlGuardedKey reports whether the sysctl key (dots or slashes)
// guards the machine.
func sysctlGuardedKey(key string) bool {
	k := strings.ReplaceAll(strings.ToLower(strings.TrimSpace(key)), "/", ".")
	return slices.ContainsFunc(sysctlGuarded, func(p string) bool { return strings.HasPrefix(k, p) }) ||
		slices.ContainsFunc(sysctlGuardedWords, func(w string) bool { return strings.Contains(k, w) })
}

func efibootmgrChanges(c *Call) Finding {
	for _, a := range c.Args {
		if efibootChanges.MatchString(a) {
			return hit("efibootmgr " + a + " changes the firmware's boot entries: what the machine boots next, or whether it boots")
		}
	}
	return Finding{}
}

// nvramChanges: firmware variables (boot arguments, SIP's, the boot disk)
// set, deleted or cleared.
func nvramChanges(c *Call) Finding {
	for _, a := range c.Args {
		if a == "-d" || a == "-c" || a == "-f" || !strings.HasPrefix(a, "-") && strings.Contains(a, "=") {
			return hit("nvram " + a + " changes the firmware's variables (how the machine boots)")
		}
	}
	return Finding{}
}

func umountsSystem(c *Call) Finding {
	if hasArg(c.Args, "-a", "--all") || hasShortFlag(c.Args, 'a') {
		return hit("umount -a unmounts every file system")
	}
	for _, o := range operands(c.Args) {
		if systemMount(c.resolve(o)) {
			return hit("umount " + o + " unmounts a file system the running system needs")
		}
	}
	return Finding{}
}

// remountsSystemReadOnly: mount -o remount,ro of a system mount.
func remountsSystemReadOnly(c *Call) Finding {
	// mount's arguments are read by its program spec (internal/effects),
	// the one reader of them: the same spec says a mount point is written.
	p, _ := effects.Parse("mount", c.Args)
	for _, o := range p.Opts {
		if !o.HasValue || o.Name != "o" && o.Name != "options" {
			continue
		}
		if !strings.Contains(o.Value, "remount") || !slices.Contains(strings.Split(o.Value, ","), "ro") {
			continue
		}
		for _, op := range p.Operands {
			if systemMount(c.resolve(op)) {
				return hit("mount -o " + o.Value + " " + op + " remounts a file system the running system needs")
			}
		}
	}
	return Finding{}
}

// systemMount reports whether p is a mount point the running system needs:
// unmounting or remounting it read-only stops the machine working.
func systemMount(p string) bool {
	switch p {
	case "/", "/usr", "/boot", "/boot/efi", "/var", "/home", "/etc", "/opt", "/System/Volumes/Data":
		return true
	}
	return false
}

// efibootChanges are efibootmgr's options that write the firmware's boot
// entries (create, delete, order, next boot, active flag), in short
// clusters or long form.
var efibootChanges = &lazyregexp.Regexp{Expr: `^(-[a-zA-Z]*[cBoOnNaAD][a-zA-Z]*|--(create|create-only|delete-bootnum|bootorder|delete-bootorder|bootnext|delete-bootnext|active|inactive|remove-dups)(=.*)?)$`}
