package effects

import (
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Network is the Area of a Change that sends the machine's traffic or name
// lookups somewhere else: a proxy, a DNS server, a search domain, a time
// server (Name what is redirected, Action the setting).
const Network Area = 12

// RemoteAccess is the Area of a Change that lets people log in from the
// network: SSH remote login, screen sharing, Remote Management, remote
// Apple events (Name the service).
const RemoteAccess Area = 13

// Wholesale is the Area of a Delete of a whole collection the user keeps:
// every installed package (pkg delete -a), everything in the Trash (Name
// which).
const Wholesale Area = 14

// Power is the Area of a Change that shuts the machine down, restarts it
// or logs the user out (Action which).
const Power Area = 15

// Capture is the Area of a Read of what the user sees, says or shows: the
// screen captured without a selection, the camera or the microphone
// recorded (Name which).
const Capture Area = 16

// Kernel is the Area of a Change that loads code into the kernel (Name the
// module, Action the loader).
const Kernel Area = 17

// hostEffects finds the host settings of macOS and the BSDs changed
// through their own command lines: networksetup and systemsetup, sysrc
// and rcctl enabling remote login, pkg removing every package, AppleScript
// given to osascript.
func hostEffects(name string, args []string) []Effect {
	switch name {
	case "networksetup":
		return networksetupEffects(args)
	case "systemsetup":
		return systemsetupEffects(args)
	case "sysrc", "rcctl":
		return remoteLoginEnabled(name, args)
	case "kickstart": // ARDAgent.app/.../kickstart -activate -access -on
		if hasWord(args, "-activate") && hasWord(args, "-on") {
			return []Effect{{Kind: Change, Area: RemoteAccess, Name: "Remote Management", Action: "kickstart -activate"}}
		}
	case "pkg", "pkg_delete":
		return packageWipe(name, args)
	case "osascript":
		return appleScriptEffects(args)
	case "screencapture", "imagesnap", "ffmpeg", "ffplay":
		return captureEffects(name, args)
	case "security":
		// security delete-generic-password, delete-keychain, ...: a saved
		// credential or a whole keychain destroyed (the user has to find
		// and enter it again, if they can).
		if ops := shell.ParseArgs(args, &shell.OptSpec{}).Operands; len(ops) > 0 && (ops[0] == "delete-keychain" || ops[0] == "delete-identity" ||
			strings.HasPrefix(ops[0], "delete-") && strings.HasSuffix(ops[0], "-password")) && !hasWord(args, "-h") {
			return []Effect{{Kind: Delete, Area: Secrets, Name: "a saved keychain item", Action: "security " + ops[0]}}
		}
	case "modload", "kextutil", "kmutil", "kldload", "kldunload", "kextload", "kextunload", "insmod", "rmmod", "modprobe":
		return moduleLoad(name, args)
	case "geli":
		// geli kill -a destroys the keys of every attached provider (geli
		// kill ada0p3 writes that disk: harm.device-write).
		if ops := shell.ParseArgs(args, &shell.OptSpec{}).Operands; len(ops) == 1 && ops[0] == "kill" && hasWord(args, "-a") {
			return []Effect{{Kind: Delete, Area: Secrets, Name: "every GELI disk-encryption key", Action: "geli kill -a"}}
		}
	}
	return nil
}

// moduleLoad: the programs that load code into the running kernel or take
// it out — NetBSD's modload, macOS's kextutil (which loads unless -n or
// --no-load), kextload, kextunload and kmutil load|unload|install, the
// BSDs' kldload and kldunload, Linux's insmod, rmmod and modprobe (not its
// dry runs and listings). Action is the loader ("kmutil load"), Name the
// module as given (a path or a name), "" when none is named.
func moduleLoad(name string, args []string) []Effect {
	spec := &shell.OptSpec{Short: "d:b:p:r:a:A:c:s:C:S:o:", Long: []string{"bundle-identifier=", "bundle-path=", "repository=", "arch=",
		"dependency=", "config=", "set-version=", "dirname="}}
	if name == "modprobe" || name == "insmod" || name == "rmmod" {
		// Linux's: -r removes, -C and -d take values (modprobe(8)).
		spec = &shell.OptSpec{Short: "C:d:S:o:", Long: []string{"config=", "dirname=", "set-version=", "options="}}
	}
	p := shell.ParseArgs(args, spec)
	if p.Has("h", "help", "version") || (name == "kextutil" || name == "modprobe") && p.Has("n", "no-load", "dry-run") ||
		name == "modprobe" && p.Has("show-depends", "D", "c", "showconfig") {
		return nil
	}
	ops := p.Operands
	action := name
	if name == "kmutil" {
		if len(ops) == 0 || ops[0] != "load" && ops[0] != "unload" && ops[0] != "install" {
			return nil
		}
		action, ops = "kmutil "+ops[0], ops[1:]
	}
	var out []Effect
	for _, o := range ops {
		out = append(out, Effect{Kind: Change, Area: Kernel, Name: o, Action: action})
	}
	for _, o := range p.Opts {
		if o.HasValue && (o.Name == "p" || o.Name == "bundle-path" || o.Name == "b" || o.Name == "bundle-identifier") {
			out = append(out, Effect{Kind: Change, Area: Kernel, Name: o.Value, Action: action})
		}
	}
	if len(out) == 0 && (name == "kextunload" || name == "kmutil") && len(args) > 0 {
		out = append(out, Effect{Kind: Change, Area: Kernel, Action: action})
	}
	return out
}

// pfRulesFromStdin: pfctl -f - (or /dev/stdin) given rules that pass
// traffic and block none (echo 'pass all' | pfctl -f -).
func pfRulesFromStdin(ex *shell.Exec, args []string) bool {
	if ex.Name != "pfctl" || ex.Stdin == nil || !(hasWord(args, "-") || hasWord(args, "/dev/stdin")) {
		return false
	}
	var text strings.Builder
	for _, pr := range ex.Stdin.Producers {
		if pr.Name != "echo" && pr.Name != "printf" {
			return false
		}
		for _, a := range pr.Args[1:] {
			text.WriteString(strings.ToLower(a) + " ")
		}
	}
	t := text.String()
	return strings.Contains(t, "pass") && !strings.Contains(t, "block")
}

// captureEffects: macOS screencapture without an interactive selection
// (-i, -w, -W: the user picks what is taken, and sees it), imagesnap
// (the camera), ffmpeg or ffplay reading an AVFoundation device (camera,
// microphone, screen). Listing the devices records nothing.
func captureEffects(name string, args []string) []Effect {
	switch name {
	case "screencapture":
		p := shell.ParseArgs(args, &shell.OptSpec{Short: "t:T:R:l:V:D:B:G:J:"})
		if p.Has("i", "w", "W", "h", "help") {
			return nil
		}
		what := "the screen"
		if p.Has("V", "v") {
			what = "the screen (video)"
		}
		return []Effect{{Kind: Read, Area: Capture, Name: what, Action: "screencapture"}}
	case "imagesnap":
		if hasWord(args, "-l") || hasWord(args, "-h") {
			return nil
		}
		return []Effect{{Kind: Read, Area: Capture, Name: "the camera", Action: "imagesnap"}}
	}
	avf := false
	for i, a := range args {
		if a == "-list_devices" {
			return nil
		}
		if a == "-f" && i+1 < len(args) && args[i+1] == "avfoundation" {
			avf = true
		}
	}
	if avf && hasWord(args, "-i") {
		return []Effect{{Kind: Read, Area: Capture, Name: "the camera, microphone or screen", Action: name + " -f avfoundation"}}
	}
	return nil
}

func hasWord(args []string, w string) bool {
	for _, a := range args {
		if strings.EqualFold(a, w) {
			return true
		}
	}
	return false
}

// loopback reports whether a host (or a URL's host) is this machine: a
// proxy or resolver there is the developer's own (Charles, mitmproxy, a
// local dnsmasq).
func loopback(h string) bool {
	// By hand, not net/url and net: the hook binaries link no network
	// package (TestHookDependencies).
	if _, rest, ok := strings.Cut(h, "://"); ok {
		h, _, _ = strings.Cut(rest, "/")
		if strings.HasPrefix(h, "[") {
			h, _, _ = strings.Cut(h[1:], "]")
		} else {
			h, _, _ = strings.Cut(h, ":")
		}
	}
	h = strings.ToLower(strings.Trim(h, "[]"))
	return h == "localhost" || h == "empty" || h == "::1" || strings.HasPrefix(h, "127.") || strings.HasSuffix(h, ".localhost")
}

// networksetupRedirect is what networksetup's setting flag sends through a
// host given after the network service ("" for another flag). A switch,
// not a map, so that nothing is built at start-up.
func networksetupRedirect(flag string) string {
	switch flag {
	case "-setwebproxy":
		return "web traffic"
	case "-setsecurewebproxy":
		return "HTTPS traffic"
	case "-setsocksfirewallproxy":
		return "all traffic (SOCKS)"
	case "-setftpproxy":
		return "FTP traffic"
	case "-setstreamingproxy":
		return "streaming traffic"
	case "-setgopherproxy":
		return "gopher traffic"
	case "-setautoproxyurl":
		return "traffic (a proxy auto-config)"
	case "-setdnsservers":
		return "name lookups"
	case "-setsearchdomains":
		return "name lookups (search domains)"
	}
	return ""
}

// networksetupSwitch is what networksetup's *state flag turns on the
// configured proxy for ("" for another flag).
func networksetupSwitch(flag string) string {
	switch flag {
	case "-setwebproxystate":
		return "web traffic"
	case "-setsecurewebproxystate":
		return "HTTPS traffic"
	case "-setsocksfirewallproxystate":
		return "all traffic (SOCKS)"
	case "-setautoproxystate":
		return "traffic (a proxy auto-config)"
	case "-setproxyautodiscovery":
		return "traffic (proxy auto-discovery)"
	}
	return ""
}

// networksetupEffects: networksetup -setwebproxy SERVICE HOST PORT and the
// like, to a host other than this machine (networksetup -getwebproxy,
// -listallnetworkservices only read).
func networksetupEffects(args []string) []Effect {
	if len(args) < 3 {
		return nil
	}
	flag := strings.ToLower(args[0])
	if what := networksetupRedirect(flag); what != "" {
		hosts := args[2:]
		if flag == "-setwebproxy" || flag == "-setsecurewebproxy" || flag == "-setsocksfirewallproxy" || flag == "-setftpproxy" || flag == "-setstreamingproxy" || flag == "-setgopherproxy" {
			hosts = args[2:3] // HOST PORT [authenticated user password]
		}
		for _, h := range hosts {
			if shell.Known(h) && !loopback(h) {
				return []Effect{{Kind: Change, Area: Network, Name: what, Action: "networksetup " + args[0] + " " + h}}
			}
		}
		return nil
	}
	if what := networksetupSwitch(flag); what != "" && strings.EqualFold(args[len(args)-1], "on") {
		return []Effect{{Kind: Change, Area: Network, Name: what, Action: "networksetup " + args[0] + " on"}}
	}
	if flag == "-setproxybypassdomains" && strings.EqualFold(args[2], "empty") {
		return []Effect{{Kind: Change, Area: Network, Name: "local traffic (proxy bypass removed)", Action: "networksetup " + args[0]}}
	}
	return nil
}

// systemsetupEffects: remote login and remote Apple events turned on, the
// time server moved or time sync turned off (logs and certificates trust
// the clock).
func systemsetupEffects(args []string) []Effect {
	var out []Effect
	for i := 0; i+1 < len(args); i++ {
		v := strings.ToLower(args[i+1])
		switch strings.ToLower(args[i]) {
		case "-setremotelogin":
			if v == "on" {
				out = append(out, Effect{Kind: Change, Area: RemoteAccess, Name: "SSH remote login", Action: "systemsetup -setremotelogin on"})
			}
		case "-setremoteappleevents":
			if v == "on" {
				out = append(out, Effect{Kind: Change, Area: RemoteAccess, Name: "remote Apple events", Action: "systemsetup -setremoteappleevents on"})
			}
		case "-setnetworktimeserver":
			if !loopback(args[i+1]) {
				out = append(out, Effect{Kind: Change, Area: Network, Name: "the clock (time server)", Action: "systemsetup -setnetworktimeserver " + args[i+1]})
			}
		case "-setusingnetworktime":
			if v == "off" {
				out = append(out, Effect{Kind: Change, Area: Network, Name: "the clock (time sync off)", Action: "systemsetup -setusingnetworktime off"})
			}
		}
	}
	return out
}

// remoteServices are the daemons that let people log in from the network.
var remoteServices = []string{"sshd", "telnetd", "vncserver", "x11vnc", "xrdp", "inetd"}

// remoteLoginEnabled: sysrc sshd_enable=YES, rcctl enable sshd, and sshd
// given flags that allow root or password logins.
func remoteLoginEnabled(name string, args []string) []Effect {
	var out []Effect
	if name == "rcctl" {
		if len(args) >= 2 && args[0] == "enable" {
			for _, s := range args[1:] {
				if slicesContains(remoteServices, s) {
					out = append(out, Effect{Kind: Change, Area: RemoteAccess, Name: s, Action: "rcctl enable"})
				}
			}
		}
		if len(args) >= 4 && args[0] == "set" && args[1] == "sshd" && args[2] == "flags" && weakSSHFlags(strings.Join(args[3:], " ")) {
			out = append(out, Effect{Kind: Change, Area: RemoteAccess, Name: "sshd", Action: "rcctl set sshd flags"})
		}
		return out
	}
	for _, a := range args {
		k, v, ok := strings.Cut(a, "=")
		if !ok {
			continue
		}
		v = strings.Trim(v, `"'`)
		if n, isEnable := strings.CutSuffix(k, "_enable"); isEnable && strings.EqualFold(v, "YES") && slicesContains(remoteServices, n) {
			out = append(out, Effect{Kind: Change, Area: RemoteAccess, Name: n, Action: "sysrc " + a})
		}
		if k == "sshd_flags" && weakSSHFlags(v) {
			out = append(out, Effect{Kind: Change, Area: RemoteAccess, Name: "sshd", Action: "sysrc sshd_flags"})
		}
	}
	return out
}

func weakSSHFlags(flags string) bool {
	f := strings.ToLower(strings.ReplaceAll(flags, " ", ""))
	return strings.Contains(f, "permitrootlogin=yes") || strings.Contains(f, "passwordauthentication=yes") || strings.Contains(f, "permitemptypasswords=yes")
}

func slicesContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// packageWipe: pkg delete -a (every package), pkg delete -g '*', and
// OpenBSD's pkg_delete -X (every package but those named). A dry run
// (-n) only lists.
func packageWipe(name string, args []string) []Effect {
	p := shell.ParseArgs(args, &shell.OptSpec{Short: "j:c:r:o:R:C:", Long: []string{"jail=", "chroot=", "rootdir=", "option=", "repo-conf-dir="}})
	if p.Has("n", "dry-run", "h", "help") {
		return nil
	}
	all := Effect{Kind: Delete, Area: Wholesale, Name: "every installed package", Action: name}
	if name == "pkg_delete" {
		if p.Has("X") {
			return []Effect{all}
		}
		return nil
	}
	ops := p.Operands
	if len(ops) == 0 || ops[0] != "delete" && ops[0] != "remove" {
		return nil
	}
	sub := shell.ParseArgs(args[indexOf(args, ops[0])+1:], &shell.OptSpec{Short: "x:g:i:", Long: []string{"glob=", "regex=", "case-insensitive"}})
	if sub.Has("a", "all") {
		return []Effect{all}
	}
	for _, o := range sub.Opts {
		if (o.Name == "g" || o.Name == "glob" || o.Name == "x" || o.Name == "regex") && o.HasValue && (o.Value == "*" || o.Value == ".*" || o.Value == "^.*$") {
			return []Effect{all}
		}
	}
	return nil
}

func indexOf(args []string, w string) int {
	for i, a := range args {
		if a == w {
			return i
		}
	}
	return -1
}

// appleScriptEffects reads the AppleScript given to osascript -e: a
// password dialog (hidden answer) is a password asked for, the content of
// Mail, Notes or Contacts and a browser tab's cookies are read out, a
// login item made runs at every login, and System Events or Finder told
// to shut down, restart or log out stops the machine.
func appleScriptEffects(args []string) []Effect {
	var text strings.Builder
	for i, a := range args {
		if i > 0 && args[i-1] == "-e" {
			text.WriteString(strings.ToLower(a))
			text.WriteString("\n")
		}
	}
	s := text.String()
	if s == "" {
		return nil
	}
	app := func(names ...string) bool {
		for _, n := range names {
			if strings.Contains(s, `application "`+n+`"`) || strings.Contains(s, `app "`+n+`"`) {
				return true
			}
		}
		return false
	}
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(s, w) {
				return true
			}
		}
		return false
	}
	var out []Effect
	read := func(what string) { out = append(out, Effect{Kind: Read, Area: Secrets, Name: what}) }
	switch {
	case has("display dialog", "display alert") && has("hidden answer"):
		read("a password asked for in a fake dialog")
	case app("mail") && has("content of", "source of", "content", "every message"):
		read("Apple Mail's messages")
	case app("notes") && has("body", "plaintext"):
		read("the user's notes")
	case app("contacts", "address book") && has("value of", "phones", "emails", "vcard", "address"):
		read("the user's contacts")
	case app("messages") && has("text of", "every chat", "messages of"):
		read("the Messages history")
	case has("javascript") && has("cookie", "localstorage", "password"):
		read("a browser tab's cookies or passwords")
	}
	if app("finder") && has("empty trash", "empty the trash") {
		out = append(out, Effect{Kind: Delete, Area: Wholesale, Name: "everything in the Trash, for good", Action: "osascript (Finder empty trash)"})
	}
	if has("login item") && has("make ") {
		out = append(out, Effect{Kind: Change, Area: Jobs, Name: "a login item", Action: "osascript"})
	}
	if app("system events", "finder", "loginwindow") {
		for _, w := range []string{"shut down", "restart", "log out"} {
			if strings.Contains(s, " to "+w) || strings.Contains(s, "\n"+w) || strings.Contains(s, " "+w+"\n") {
				out = append(out, Effect{Kind: Change, Area: Power, Name: "the machine", Action: w})
				break
			}
		}
	}
	return out
}
