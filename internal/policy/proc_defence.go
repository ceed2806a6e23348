package policy

import (
	"path"
	"slices"
	"strings"
)

// The system's own defences and its record of what happened: a firewall,
// mandatory access control and the audit subsystem switched off, and the
// system logs emptied or deleted. Neither destroys a file the user made,
// but both take away what protects or tells about everything else.

// defenceServices are the services that enforce or record security policy.
var defenceServices = []string{"firewalld", "ufw", "nftables", "iptables", "ip6tables", "netfilter-persistent",
	"apparmor", "auditd", "selinux", "fail2ban", "crowdsec", "clamav-daemon", "clamav-freshclam", "osqueryd", "falco", "wazuh-agent", "rsyslog", "syslog", "syslog-ng", "systemd-journald"}

// defenceTool judges the programs named names: a Finding that hits when
// the call switches a defence off. ops are the call's operands.
type defenceTool struct {
	names []string
	judge func(c *Call, ops []string) Finding
}

// defenceTools are the firewalls, mandatory access controls, audit
// systems and service managers judged, by program.
var defenceTools = []defenceTool{
	{[]string{"iptables", "ip6tables", "iptables-legacy", "iptables-nft", "ip6tables-legacy", "ip6tables-nft", "ebtables", "arptables"}, iptablesOff},
	{[]string{"nft"}, defenceNft},
	{[]string{"ufw"}, ufwOff},
	{[]string{"firewall-cmd"}, firewalldTrusted},
	{[]string{"setenforce"}, defenceSetenforce},
	{[]string{"csrutil"}, defenceCsrutil},
	{[]string{"spctl"}, defenceSpctl},
	{[]string{"pfctl"}, pfctlOff}, // pf on macOS and the BSDs
	{[]string{"ipfw"}, defenceIpfw},
	{[]string{"socketfilterfw"}, defenceSocketfilterfw},
	{[]string{"defaults"}, defenceDefaults},
	{[]string{"aa-teardown"}, defenceAaTeardown},
	{[]string{"auditctl"}, auditctlOff},
	{[]string{"systemctl", "service", "rc-service", "launchctl"}, defenceServiceStopped},
}

// defenceNft judges nft.
func defenceNft(c *Call, ops []string) Finding {
	if len(ops) >= 2 && (ops[0] == "flush" || ops[0] == "delete" || ops[0] == "destroy") && slices.Contains([]string{"ruleset", "table", "chain"}, ops[1]) {
		return hit("nft " + ops[0] + " " + ops[1] + " deletes the firewall's rules")
	}
	return Finding{}
}

// defenceSetenforce judges setenforce.
func defenceSetenforce(c *Call, ops []string) Finding {
	if len(ops) == 1 && (ops[0] == "0" || strings.EqualFold(ops[0], "permissive")) {
		return hit("setenforce " + ops[0] + " stops SELinux enforcing its policy")
	}
	return Finding{}
}

// defenceCsrutil judges csrutil: macOS System Integrity Protection.
func defenceCsrutil(c *Call, ops []string) Finding {
	if slices.Contains(ops, "disable") {
		return hit("csrutil disable switches System Integrity Protection off")
	}
	return Finding{}
}

// defenceSpctl judges spctl: macOS Gatekeeper.
func defenceSpctl(c *Call, ops []string) Finding {
	if hasArg(c.Args, "--master-disable", "--global-disable", "--disable") {
		return hit("spctl disables Gatekeeper: unsigned programs run unchecked")
	}
	return Finding{}
}

// defenceIpfw judges ipfw.
func defenceIpfw(c *Call, ops []string) Finding {
	if len(ops) > 0 && (ops[0] == "flush" || ops[0] == "disable") {
		return hit("ipfw " + ops[0] + " deletes the firewall's rules or turns it off")
	}
	return Finding{}
}

// defenceSocketfilterfw judges socketfilterfw: macOS application firewall.
func defenceSocketfilterfw(c *Call, ops []string) Finding {
	if optionIs(c.Args, "--setglobalstate", "off") {
		return hit("socketfilterfw switches the macOS firewall off")
	}
	return Finding{}
}

// defenceDefaults judges defaults.
func defenceDefaults(c *Call, ops []string) Finding {
	if len(ops) >= 2 && ops[0] == "write" && strings.Contains(ops[1], "com.apple.alf") && slices.Contains(ops, "globalstate") && slices.Contains(ops, "0") {
		return hit("defaults write com.apple.alf globalstate 0 switches the macOS firewall off")
	}
	return Finding{}
}

// defenceAaTeardown judges aa-teardown.
func defenceAaTeardown(c *Call, ops []string) Finding {
	return hit("aa-teardown unloads every AppArmor profile")
}

// optionIs reports whether args hold the option name followed by value.
func optionIs(args []string, name, value string) bool {
	for i, a := range args {
		if a == name && i+1 < len(args) && args[i+1] == value {
			return true
		}
	}
	return false
}

// checkDefenceOff: firewall rules flushed or opened, a firewall, MAC or
// audit service stopped, SELinux permissive, audit rules deleted.
func checkDefenceOff(c *Call) Finding {
	for _, t := range defenceTools {
		if slices.Contains(t.names, c.Ex.Name) {
			return t.judge(c, operands(c.Args))
		}
	}
	return Finding{}
}

// iptablesOff: the rules flushed or chains deleted (-F, -X), or a default
// policy of ACCEPT.
func iptablesOff(c *Call, _ []string) Finding {
	name, args := c.Ex.Name, c.Args
	for i, a := range args {
		switch {
		case a == "-F" || a == "--flush" || a == "-X" || a == "--delete-chain" || strings.HasPrefix(a, "--flush=") ||
			len(a) > 2 && a[0] == '-' && a[1] != '-' && strings.ContainsAny(a[1:], "FX") && !strings.ContainsAny(a[1:], "LSCZ"):
			return hit(name + " " + a + " deletes the firewall's rules")
		case (a == "-P" || a == "--policy") && i+2 < len(args) && strings.EqualFold(args[i+2], "ACCEPT"):
			return hit(name + " " + a + " " + args[i+1] + " ACCEPT opens the firewall to everything")
		}
	}
	return Finding{}
}

func ufwOff(_ *Call, ops []string) Finding {
	if len(ops) >= 1 && (ops[0] == "disable" || ops[0] == "reset") {
		return hit("ufw " + ops[0] + " turns the firewall off")
	}
	if len(ops) >= 2 && ops[0] == "default" && ops[1] == "allow" {
		return hit("ufw default allow opens the firewall to everything")
	}
	return Finding{}
}

// firewalldTrusted: firewall-cmd --set-default-zone=trusted.
func firewalldTrusted(c *Call, _ []string) Finding {
	for _, a := range c.Args {
		if strings.HasPrefix(a, "--set-default-zone=") && strings.TrimPrefix(a, "--set-default-zone=") == "trusted" {
			return hit("firewall-cmd makes every connection trusted")
		}
	}
	if hasArg(c.Args, "--set-default-zone") && hasArg(c.Args, "trusted") {
		return hit("firewall-cmd makes every connection trusted")
	}
	return Finding{}
}

func pfctlOff(c *Call, _ []string) Finding {
	args := c.Args
	for i, a := range args {
		if a == "-d" || a == "-F" || a == "-Fa" || a == "-Fr" || a == "-Fall" || (a == "-f" && i+1 < len(args) && args[i+1] == "/dev/null") {
			return hit("pfctl " + a + " turns the pf firewall off or deletes its rules")
		}
	}
	return Finding{}
}

func auditctlOff(c *Call, _ []string) Finding {
	args := c.Args
	for i, a := range args {
		if a == "-D" || a == "-e" && i+1 < len(args) && args[i+1] == "0" {
			return hit("auditctl " + a + " switches the audit trail off")
		}
	}
	return Finding{}
}

// defenceServiceStopped: a service manager stopping, disabling or masking
// one of defenceServices (service and rc-service name the unit first).
func defenceServiceStopped(c *Call, ops []string) Finding {
	name := c.Ex.Name
	verbs := []string{"stop", "disable", "mask", "kill", "unload", "bootout"}
	for i, o := range ops {
		unit := strings.TrimSuffix(strings.TrimSuffix(path.Base(o), ".service"), ".socket")
		if !slices.Contains(defenceServices, unit) {
			continue
		}
		for _, v := range ops {
			if slices.Contains(verbs, v) && (name != "service" && name != "rc-service" || i == 0) {
				return hit(name + " " + v + " " + unit + " switches off a service that guards or records the system")
			}
		}
	}
	return Finding{}
}
