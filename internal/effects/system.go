package effects

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// ServiceManager describes how a service manager is told to stop or
// disable a service.
type ServiceManager struct {
	Names []string
	Opts  shell.OptSpec
	// Stops are the verbs that stop, disable, mask, unload or kill.
	Stops []string
	// NameFirst: the service comes before the verb (service NAME stop);
	// otherwise every operand after the verb is a service.
	NameFirst bool
	// Sub is a word before the verb (brew services stop NAME).
	Sub string
}

var serviceManagers = []ServiceManager{
	{Names: []string{"systemctl"}, Opts: shell.OptSpec{Short: "t:p:H:M:n:o:s:", Long: []string{"type=", "property=", "host=", "machine=", "lines=", "output=", "signal=", "kill-whom=", "kill-value=", "root=", "job-mode=", "what=", "state=", "timestamp=", "message=", "image="}},
		Stops: []string{"stop", "disable", "mask", "kill", "freeze", "clean", "revert"}},
	{Names: []string{"launchctl"}, Stops: []string{"unload", "bootout", "disable", "remove", "stop", "kill"}},
	{Names: []string{"service", "rc-service"}, NameFirst: true, Stops: []string{"stop", "disable", "onestop", "forcestop", "faststop", "zap"}},
	{Names: []string{"rc-update"}, Stops: []string{"del", "delete"}},
	{Names: []string{"rcctl"}, Stops: []string{"stop", "disable"}},
	{Names: []string{"update-rc.d"}, NameFirst: true, Stops: []string{"disable", "remove", "stop"}},
	{Names: []string{"chkconfig"}, Opts: shell.OptSpec{Long: []string{"level="}}, NameFirst: true, Stops: []string{"off", "--del"}},
	{Names: []string{"sv", "runsvctrl"}, Opts: shell.OptSpec{Short: "w:"}, Stops: []string{"down", "d", "stop", "exit", "x", "kill", "k", "force-stop", "force-shutdown", "shutdown"}},
	{Names: []string{"initctl"}, Stops: []string{"stop"}},
	{Names: []string{"brew"}, Sub: "services", Stops: []string{"stop", "kill"}},
	{Names: []string{"s6-svc"}, Stops: []string{"-d", "-k", "-x", "-D"}},
	{Names: []string{"pkill", "killall", "pkill.exe"}, Opts: shell.OptSpec{Short: "s:u:U:g:G:P:t:F:"}, Stops: []string{""}},
}

// serviceEffects finds services told to stop, disable, mask, unload or be
// killed. The service names are as given (a unit, a launchd label or
// plist path, a process name).
func serviceEffects(ex *shell.Exec, args []string) []Effect {
	// /etc/init.d/NAME stop, /usr/local/etc/rc.d/NAME stop
	if a0 := ex.Args[0]; strings.Contains(a0, "/init.d/") || strings.Contains(a0, "/rc.d/") {
		if len(args) > 0 && slices.Contains([]string{"stop", "onestop", "forcestop", "faststop", "disable"}, args[0]) {
			return stopped(nil, path.Base(a0), args[0])
		}
		return nil
	}
	if ex.Name == "sysrc" {
		return sysrcDisabled(args)
	}
	if ex.Name == "taskkill" {
		return taskkilled(args)
	}
	for i := range serviceManagers {
		if m := &serviceManagers[i]; slices.Contains(m.Names, ex.Name) {
			return m.stops(args)
		}
	}
	return nil
}

// stopped appends a service stopped, when its name is known.
func stopped(out []Effect, name, verb string) []Effect {
	if name == "" || !shell.Known(name) {
		return out
	}
	return append(out, Effect{Kind: Change, Area: Service, Name: name, Action: verb})
}

// taskkilled reads Windows' taskkill /im NAME: the process killed by its
// image name.
func taskkilled(args []string) []Effect {
	var out []Effect
	for i, a := range args {
		if (strings.EqualFold(a, "/im") || strings.EqualFold(a, "-im")) && i+1 < len(args) {
			out = stopped(out, args[i+1], "kill")
		}
	}
	return out
}

// sysrcDisabled reads sysrc NAME_enable=NO.
func sysrcDisabled(args []string) []Effect {
	var out []Effect
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if n, isEnable := strings.CutSuffix(k, "_enable"); ok && isEnable && strings.EqualFold(strings.Trim(v, `"'`), "NO") {
			out = stopped(out, n, "disable")
		}
	}
	return out
}

// stops reads one service manager's call.
func (m *ServiceManager) stops(args []string) []Effect {
	var out []Effect
	p := shell.ParseArgs(args, &m.Opts)
	ops := p.Operands
	switch {
	case m.Names[0] == "s6-svc": // s6-svc -d DIR
		for _, o := range p.Opts {
			if slices.Contains(m.Stops, "-"+o.Name) {
				for _, s := range ops {
					out = stopped(out, s, "down")
				}
			}
		}
		return out
	case m.Stops[0] == "": // pkill, killall: every operand is a process name
		for _, s := range ops {
			out = stopped(out, s, "kill")
		}
		return out
	}
	// launchctl kickstart -k kills the running instance before starting
	// it again: of a defence, the moment it is down is what is wanted.
	if m.Names[0] == "launchctl" && len(ops) >= 2 && ops[0] == "kickstart" && p.Has("k") {
		return stopped(out, ops[1], "kickstart -k")
	}
	if m.Sub != "" {
		if len(ops) == 0 || ops[0] != m.Sub {
			return nil
		}
		ops = ops[1:]
	}
	if m.NameFirst {
		if len(ops) >= 2 && slices.Contains(m.Stops, ops[1]) || len(ops) >= 1 && p.Has("del") && slices.Contains(m.Stops, "--del") {
			out = stopped(out, ops[0], ops[min(1, len(ops)-1)])
		}
		return out
	}
	if len(ops) >= 2 && slices.Contains(m.Stops, ops[0]) {
		for _, s := range ops[1:] {
			out = stopped(out, s, ops[0])
		}
	}
	return out
}

// packageRemovers uninstall packages: a defence's package removed is a
// defence switched off (apt-get purge clamav, pkg delete wazuh-agent).
var packageRemovers = []ServiceManager{
	{Names: []string{"apt", "apt-get", "aptitude"}, Opts: shell.OptSpec{Short: "o:c:t:"}, Stops: []string{"remove", "purge", "autoremove"}},
	{Names: []string{"dnf", "yum", "microdnf", "tdnf"}, Opts: shell.OptSpec{Short: "c:d:e:x:", Long: []string{"exclude=", "setopt=", "releasever="}}, Stops: []string{"remove", "erase", "autoremove"}},
	{Names: []string{"zypper"}, Stops: []string{"remove", "rm"}},
	{Names: []string{"apk"}, Stops: []string{"del"}},
	{Names: []string{"pkg"}, Opts: shell.OptSpec{Short: "j:c:r:o:R:"}, Stops: []string{"delete", "remove"}},
	{Names: []string{"brew", "port"}, Stops: []string{"uninstall", "remove", "rm"}},
	{Names: []string{"snap"}, Stops: []string{"remove"}},
	{Names: []string{"rpm", "dpkg", "pkg_delete"}, Stops: []string{}},
}

// packageEffects finds packages removed, as Change effects with Action
// "uninstall" (the policy asks the inventory whether one is a defence).
func packageEffects(name string, args []string) []Effect {
	for i := range packageRemovers {
		m := &packageRemovers[i]
		if !slices.Contains(m.Names, name) {
			continue
		}
		p := shell.ParseArgs(args, &m.Opts)
		var pkgs []string
		switch {
		case name == "rpm" && p.Has("e", "erase"), name == "dpkg" && p.Has("r", "P", "remove", "purge"):
			pkgs = p.Operands
		case name == "pkg_delete":
			pkgs = p.Operands
		case len(p.Operands) > 1 && slices.Contains(m.Stops, p.Operands[0]):
			pkgs = p.Operands[1:]
		}
		var out []Effect
		for _, k := range pkgs {
			out = append(out, Effect{Kind: Change, Area: Service, Name: k, Action: "uninstall"})
		}
		return out
	}
	return nil
}

// AccountTool is a program that changes users, groups or passwords, with
// the options or subcommands that only read.
type AccountTool struct {
	Names []string
	Opts  shell.OptSpec
	// ReadOnly are option names (without dashes) or first operands that
	// make the call only read.
	ReadOnly []string
	// Changes, when set, are the only options or first operands that
	// change (dscl . -create): anything else reads.
	Changes []string
}

var accountTools = []AccountTool{
	{Names: []string{"useradd", "adduser", "usermod", "userdel", "deluser", "groupadd", "addgroup", "groupmod", "groupdel", "delgroup", "chpasswd", "chgpasswd", "newusers", "vipw", "vigr", "pwconv", "grpconv", "rmuser", "chpass", "smbpasswd", "pdbedit", "adcli", "realm", "usermgr", "lusermod", "luseradd", "luserdel"},
		ReadOnly: []string{"help", "h", "version", "V", "list", "L", "show"}},
	{Names: []string{"passwd"}, ReadOnly: []string{"S", "status", "help", "h", "version"}},
	{Names: []string{"chage"}, ReadOnly: []string{"l", "list", "help", "h"}},
	{Names: []string{"gpasswd", "chsh", "chfn"}, ReadOnly: []string{"help", "h", "l", "list-shells"}},
	{Names: []string{"dscl"}, Opts: shell.OptSpec{SingleDash: true, Long: []string{"u=", "P=", "p", "plist", "raw", "url", "q"}}, Changes: []string{"create", "append", "merge", "delete", "passwd", "change", "changei", "createpl", "appendpl", "mergepl", "deletepl", "createpli", "appendpli", "deletepli"}},
	{Names: []string{"sysadminctl"}, Opts: shell.OptSpec{SingleDash: true, Long: []string{"password=", "fullName=", "UID=", "GID=", "shell=", "home=", "hint=", "picture=", "adminPassword=", "adminUser="}}, Changes: []string{"addUser", "deleteUser", "resetPasswordFor", "newPassword", "secureTokenOn", "secureTokenOff", "adminUser", "guestAccount", "autologin", "afpGuestAccess", "smbGuestAccess", "screenLock"}},
	{Names: []string{"dseditgroup"}, Opts: shell.OptSpec{Short: "o:a:d:t:T:n:u:P:r:c:i:s:q:m:L:"}, Changes: []string{"edit", "create", "delete"}},
	{Names: []string{"dsimport", "dsenableroot", "createhomedir"}, ReadOnly: []string{"help", "h"}},
	{Names: []string{"pw"}, ReadOnly: []string{"N"}, Changes: []string{"useradd", "usermod", "userdel", "groupadd", "groupmod", "groupdel", "lock", "unlock"}},
	{Names: []string{"user", "group"}, Changes: []string{"add", "del", "mod"}}, // NetBSD: user add -G wheel x
	{Names: []string{"pwpolicy"}, Opts: shell.OptSpec{SingleDash: true, Long: []string{"u=", "a=", "p=", "n=", "v", "getaccountpolicies", "authentication-allowed"}},
		Changes: []string{"disableuser", "enableuser", "clearaccountpolicies", "setaccountpolicies", "setglobalpolicy", "setpolicy", "clearglobalpolicy", "setglobalhashtypes", "sethashtypes", "setpassword", "deleteaccountpolicies"}},
	{Names: []string{"fdesetup"}, Changes: []string{"add", "remove", "changerecovery", "removerecovery", "sync"}},
	{Names: []string{"pwd_mkdb"}, Opts: shell.OptSpec{Short: "d:u:s:"}, ReadOnly: []string{"C", "help"}},
	{Names: []string{"visudo"}, Opts: shell.OptSpec{Short: "f:x:"}, ReadOnly: []string{"c", "check", "help", "h", "V", "version"}},
	{Names: []string{"samba-tool"}, Changes: []string{"add", "create", "delete", "setpassword", "enable", "addmembers", "setexpiry"}},
	{Names: []string{"ldapadd", "ldapmodify", "ldapdelete", "ldappasswd", "ldapmodrdn"}, ReadOnly: []string{"help", "h", "VV"}},
	{Names: []string{"groupmems"}, ReadOnly: []string{"l", "list", "h", "help"}},
	{Names: []string{"sss_override"}, Changes: []string{"user-add", "group-add", "user-del", "group-del", "user-import", "group-import"}},
	{Names: []string{"ipa"}, Changes: []string{"user-add", "user-mod", "user-del", "user-enable", "user-unlock", "passwd", "group-add-member", "role-add-member",
		"sudorule-add-user", "sudorule-add-member", "hbacrule-add-user", "privilege-add-member"}},
}

// kadminChanges are the kadmin queries that change principals, passwords
// or keys (ktadd also rotates the keys it extracts).
var kadminChanges = []string{"addprinc", "add_principal", "ank", "cpw", "change_password", "delprinc", "delete_principal", "modprinc", "modify_principal",
	"ktadd", "xst", "ktremove", "renprinc", "rename_principal", "purgekeys"}

// kadminQuery reads kadmin -q QUERY and kadmin.local -q QUERY.
func kadminQuery(name string, args []string) (string, bool) {
	if name != "kadmin" && name != "kadmin.local" {
		return "", false
	}
	for i, a := range args {
		q := ""
		switch {
		case a == "-q" && i+1 < len(args):
			q = args[i+1]
		case strings.HasPrefix(a, "-q") && len(a) > 2:
			q = a[2:]
		}
		if f := strings.Fields(q); len(f) > 0 && slices.Contains(kadminChanges, f[0]) {
			return f[0], true
		}
	}
	return "", false
}

// noArgChanges change accounts with no arguments (chpasswd reads
// user:password lines from stdin). A bare passwd, the user changing their
// own password interactively, is not among them.
var noArgChanges = []string{"vipw", "vigr", "pwconv", "grpconv", "chpasswd", "chgpasswd", "newusers", "chsh", "chfn", "visudo"}

// accountEffects finds users, groups or passwords changed.
func accountEffects(name string, args []string) []Effect {
	if q, ok := kadminQuery(name, args); ok {
		return []Effect{{Kind: Change, Area: Accounts, Name: name, Action: q}}
	}
	if name == "wmic" && slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "useraccount") }) &&
		slices.ContainsFunc(args, func(a string) bool {
			return strings.EqualFold(a, "set") || strings.EqualFold(a, "create") || strings.EqualFold(a, "delete")
		}) {
		return []Effect{{Kind: Change, Area: Accounts, Name: name, Action: "useraccount"}}
	}
	for i := range accountTools {
		t := &accountTools[i]
		if !slices.Contains(t.Names, name) {
			continue
		}
		p := shell.ParseArgs(args, &t.Opts)
		// pw useradd -N prints the record it would add; sysadminctl
		// -guestAccount status reads the setting it would change.
		if p.Has(t.ReadOnly...) || name == "sysadminctl" && slices.Contains(p.Operands, "status") {
			return nil
		}
		if len(t.Changes) > 0 {
			for _, o := range p.Opts {
				if slices.Contains(t.Changes, o.Name) || o.HasValue && slices.Contains(t.Changes, o.Value) {
					return []Effect{{Kind: Change, Area: Accounts, Name: name, Action: o.Name}}
				}
			}
			for _, o := range p.Operands {
				if w := strings.TrimLeft(o, "-"); slices.Contains(t.Changes, w) {
					return []Effect{{Kind: Change, Area: Accounts, Name: name, Action: w}}
				}
			}
			return nil
		}
		if p.Has(t.ReadOnly...) || len(p.Operands) > 0 && slices.Contains(t.ReadOnly, p.Operands[0]) {
			return nil
		}
		if len(args) == 0 && !slices.Contains(noArgChanges, name) {
			return nil // usage only
		}
		return []Effect{{Kind: Change, Area: Accounts, Name: name}}
	}
	return nil
}

// netPeer is a program that can hand each network connection to a
// process: ExecOpts name the options whose value is that process.
type netPeer struct {
	Names    []string
	Opts     shell.OptSpec
	ExecOpts []string
}

var netPeers = []netPeer{
	{Names: []string{"nc", "netcat", "nc.traditional", "nc.openbsd", "ncat", "cryptcat", "pwncat", "pwncat-cs", "sbd", "gsocket", "gs-netcat"},
		Opts:     shell.OptSpec{Short: "e:c:p:s:w:i:q:x:X:T:I:O:V:m:", Long: []string{"exec=", "sh-exec=", "lua-exec=", "source=", "source-port=", "wait=", "proxy=", "proxy-type=", "allow=", "deny=", "max-conns="}},
		ExecOpts: []string{"e", "c", "exec", "sh-exec", "lua-exec"}},
	{Names: []string{"telnetd", "utelnetd"}, Opts: shell.OptSpec{Short: "l:p:b:f:"}, ExecOpts: []string{"l"}},
	{Names: []string{"websocketd"}, Opts: shell.OptSpec{Long: []string{"port=", "address=", "staticdir=", "cgidir=", "sslcert=", "sslkey="}}},
	{Names: []string{"tcpserver", "tcpsvd", "udpsvd", "s6-tcpserver", "inetd-tcp"}, Opts: shell.OptSpec{Short: "c:C:x:B:g:u:b:l:t:T:"}},
}

// exposeEffects finds a process handed to whoever connects: nc -e PROG
// whatever PROG is, socat's EXEC:/SYSTEM: addresses, tcpserver HOST PORT
// PROG.
func exposeEffects(name string, args []string) []Effect {
	if name == "socat" {
		for _, a := range args {
			l := strings.ToLower(a)
			if strings.HasPrefix(l, "exec:") || strings.HasPrefix(l, "system:") {
				return []Effect{{Kind: Expose, Name: a}}
			}
		}
		return nil
	}
	for i := range netPeers {
		np := &netPeers[i]
		if !slices.Contains(np.Names, name) {
			continue
		}
		p := shell.ParseArgs(args, &np.Opts)
		if len(np.ExecOpts) == 0 { // the program is an operand
			ops := p.Operands
			if name == "websocketd" && len(ops) > 0 {
				return []Effect{{Kind: Expose, Name: ops[0]}}
			}
			if len(ops) > 2 {
				return []Effect{{Kind: Expose, Name: ops[2]}}
			}
			return nil
		}
		for _, o := range p.Opts {
			if slices.Contains(np.ExecOpts, o.Name) && o.HasValue {
				return []Effect{{Kind: Expose, Name: o.Value}}
			}
		}
	}
	return nil
}

// deviceTools write the disk they are given through a subcommand or an
// option: BSD and macOS formatters, labellers, partitioners, sanitizers.
// A disk named without /dev (ada0, sd1, nvme0) is the one under /dev.
var deviceTools = []Switch{
	{Names: []string{"newfs", "newfs_msdos", "newfs_hfs", "newfs_apfs", "newfs_exfat", "newfs_udf", "newfs_ext2fs", "mkfs.msdos"}, Opts: shell.OptSpec{Short: "b:c:d:e:f:g:h:i:j:k:l:m:o:p:r:s:v:F:L:O:S:T:B:C:E:I:P:R:"}, Words: [][]string{}},
	{Names: []string{"disklabel", "bsdlabel"}, Opts: shell.OptSpec{Short: "f:"}, Flags: []string{"w", "R", "e", "E", "B"}},
	{Names: []string{"fdisk"}, Opts: shell.OptSpec{Short: "b:c:e:f:l:"}, Flags: []string{"i", "u", "a", "A", "B", "e"}},
	{Names: []string{"gpart"}, Opts: shell.OptSpec{Short: "a:b:i:l:s:t:f:p:"}, Words: [][]string{{"destroy"}, {"create"}, {"delete"}, {"add"}, {"bootcode"}, {"recover"}, {"resize"}}},
	{Names: []string{"nvmecontrol"}, Words: [][]string{{"format"}, {"sanitize"}, {"ns", "delete"}}},
	{Names: []string{"camcontrol"}, Words: [][]string{{"sanitize"}, {"format"}, {"security"}}},
	{Names: []string{"geli", "gbde"}, Opts: shell.OptSpec{Short: "a:b:B:e:i:J:K:l:s:V:"}, Words: [][]string{{"kill"}, {"destroy"}, {"init"}, {"onetime"}, {"setkey"}, {"delkey"}}},
	{Names: []string{"bioctl"}, Flags: []string{"c", "d", "C"}},
	{Names: []string{"xfs_repair"}, Opts: shell.OptSpec{Short: "m:o:l:r:c:"}, Flags: []string{"L"}},
}

// deviceEffects finds a disk written by a BSD or macOS disk tool.
func deviceEffects(name string, args []string) []Effect {
	for i := range deviceTools {
		t := &deviceTools[i]
		if !slices.Contains(t.Names, name) {
			continue
		}
		p := shell.ParseArgs(args, &t.Opts)
		if p.Has("N", "n", "l", "help") && strings.HasPrefix(name, "newfs") || !(t.Words != nil && len(t.Words) == 0) && !t.matches(name, args) {
			return nil // newfs -N only prints what it would do
		}
		var out []Effect
		for _, o := range p.Operands {
			if d := deviceNamed(o); d != "" {
				out = append(out, Effect{Kind: Write, Path: d})
			}
		}
		return out
	}
	return nil
}

// deviceNamed turns ada0, /dev/ada0 or sd1c into the device's path, ""
// for a word that is not a disk.
func deviceNamed(o string) string {
	if strings.HasPrefix(o, "/dev/") {
		return o
	}
	if o == "" || strings.ContainsAny(o, "/.=") {
		return ""
	}
	if p := "/dev/" + o; LookupClass(p, "", Device) != nil {
		return p
	}
	return ""
}

// Jobs is the Area of a Change that registers something to run later on
// its own: a scheduler's table, a process manager's boot hook, a library
// injected into every program a service manager starts.
const Jobs Area = 11

// schedulers register a job through their own command line (the files
// they keep are in the inventory): Words start the operands; ReadOnly
// options only list.
var schedulers = []Switch{
	{Names: []string{"incrontab"}, Opts: shell.OptSpec{Short: "u:"}, Words: [][]string{}, What: "an incron job"},
	{Names: []string{"pm2"}, Words: [][]string{{"startup"}, {"save"}}, What: "pm2's processes restarted at boot"},
	{Names: []string{"launchctl"}, Words: [][]string{{"setenv", "DYLD_INSERT_LIBRARIES"}, {"setenv", "DYLD_LIBRARY_PATH"}, {"setenv", "LD_PRELOAD"}}, What: "a library injected into every program launchd starts"},
	// launchctl config user|system path: the PATH every program launchd
	// starts inherits, kept across reboots (a directory the command
	// chose, searched first).
	{Names: []string{"launchctl"}, Words: [][]string{{"config", "user", "path"}, {"config", "system", "path"}}, What: "the PATH of every program launchd starts, kept across reboots"},
	// A configuration profile installs, system-wide and for good,
	// trusted root certificates, proxies, DNS, VPNs or an MDM enrolment:
	// profiles install (-I), or opening a .mobileconfig, which hands it
	// to System Settings to install.
	{Names: []string{"profiles"}, Opts: shell.OptSpec{Short: "F:t:p:U:", Long: []string{"path=", "type=", "user="}}, Words: [][]string{{"install"}, {"-I"}}, What: "a configuration profile (root certificates, proxies, VPN, MDM)"},
	{Names: []string{"forever"}, Words: [][]string{{"start"}}, Flags: []string{"a"}, What: "a process kept alive by forever"},
	{Names: []string{"supervisorctl"}, Words: [][]string{{"add"}}, What: "a supervisord program"},
	{Names: []string{"schtasks"}, Flags: []string{"create"}, What: "a Windows scheduled task"},
	{Names: []string{"fcrontab"}, Opts: shell.OptSpec{Short: "u:c:"}, Words: [][]string{}, What: "an fcron job"},
}

// windowsHooks are what Windows runs later on its own, registered from
// WSL or Git Bash through reg, sc, netsh, bitsadmin or wmic: the words a
// call's arguments hold, lower-cased and without backslashes (bash removes
// them from unquoted words).
var windowsHooks = []struct {
	Name  string
	Words []string
	What  string
}{
	{"reg", []string{"add", "environment", "userinitmprlogonscript"}, "a Windows logon script"},
	{"reg", []string{"add", "commandprocessor", "autorun"}, "a command every cmd.exe runs first"},
	{"reg", []string{"add", "shellopencommand"}, "a Windows file or protocol handler"},
	{"reg", []string{"add", "imagefileexecutionoptions", "debugger"}, "a debugger run in place of a Windows program"},
	{"reg", []string{"add", "winlogon"}, "a Windows logon program"},
	{"reg", []string{"add", "currentversionrun"}, "a Windows Run key"},
	{"reg", []string{"add", "inprocserver32"}, "a COM server (loaded by other programs)"},
	{"sc", []string{"create", "binpath="}, "a Windows service"},
	{"sc", []string{"config", "binpath="}, "a Windows service repointed"},
	{"netsh", []string{"add", "helper"}, "a netsh helper DLL"},
	{"bitsadmin", []string{"/setnotifycmdline"}, "a program run when a BITS job completes"},
	{"wmic", []string{"__eventfilter", "create"}, "a WMI event subscription"},
	{"wmic", []string{"commandlineeventconsumer", "create"}, "a WMI event subscription"},
}

// windowsHook finds a Windows launch hook registered: every word of an
// entry is in one of the arguments.
func windowsHook(name string, args []string) (string, bool) {
	var text string
	for _, h := range windowsHooks {
		if h.Name != name {
			continue
		}
		if text == "" {
			text = strings.ToLower(strings.NewReplacer(`\`, "", "/", "", " ", "").Replace(strings.Join(args, "\x00")))
		}
		all := true
		for _, w := range h.Words {
			if !strings.Contains(text, strings.ReplaceAll(w, "/", "")) {
				all = false
				break
			}
		}
		if all {
			return h.What, true
		}
	}
	return "", false
}

// jobEffects finds a job registered through a scheduler's command line.
func jobEffects(name string, args []string) []Effect {
	if name == "open" && slices.ContainsFunc(args, func(a string) bool { return strings.HasSuffix(strings.ToLower(a), ".mobileconfig") }) {
		return []Effect{{Kind: Change, Area: Jobs, Name: "a configuration profile (root certificates, proxies, VPN, MDM)", Action: "open"}}
	}
	if what, ok := windowsHook(name, args); ok {
		return []Effect{{Kind: Change, Area: Jobs, Name: what, Action: name}}
	}
	for i := range schedulers {
		s := &schedulers[i]
		if !slices.Contains(s.Names, name) {
			continue
		}
		p := shell.ParseArgs(args, &s.Opts)
		if p.Has("l", "list", "help", "h", "d") && name != "profiles" { // incrontab -l, -d (reload)
			continue
		}
		if name == "profiles" && (p.Has("I") || slices.Contains(p.Operands, "install")) {
			return []Effect{{Kind: Change, Area: Jobs, Name: s.What, Action: name}}
		}
		if s.Words != nil && len(s.Words) == 0 || s.matches(name, args) || name == "schtasks" && slices.ContainsFunc(args, func(a string) bool { return strings.EqualFold(a, "/create") }) {
			return []Effect{{Kind: Change, Area: Jobs, Name: s.What, Action: name}}
		}
	}
	return nil
}
