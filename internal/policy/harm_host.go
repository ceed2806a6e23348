package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// harmNetworkRedirect: the machine's traffic or name lookups sent through
// a host the user did not choose, through the system's own settings tools.
var harmNetworkRedirect = &Rule{
	ID: "harm.network-redirect", Category: "harm",
	Protects: "the machine's traffic, name lookups and clock, from settings that send them through another host: macOS networksetup proxies (web, HTTPS, SOCKS, auto-config, proxy state on, bypass domains removed), DNS servers and search domains, and systemsetup's time server or time sync off; a proxy or resolver on this machine (localhost, 127.0.0.1, ::1) and Empty (back to DHCP) are the developer's own",
	What:     "sends the machine's traffic, name lookups or clock through another host",
	Safer:    "ask the user to change the network settings; set a proxy for one command (curl -x, HTTPS_PROXY=… cmd) if the task needs one",
	Unknown:  "A host that cannot be known statically is not judged here.",
	Commands: []string{"*"}, exec: checkNetworkRedirect,
	Block: []string{
		`sudo networksetup -setwebproxy Wi-Fi 203.0.113.9 8080`,
		`networksetup -setsecurewebproxy Ethernet proxy.example.net 443`,
		`networksetup -setautoproxyurl Wi-Fi http://203.0.113.9/proxy.pac`,
		`sudo networksetup -setdnsservers Wi-Fi 203.0.113.53`,
		`networksetup -setsearchdomains Wi-Fi corp.example.net`,
		`sudo networksetup -setsocksfirewallproxystate Wi-Fi on`,
		`sudo systemsetup -setnetworktimeserver time.example.net`,
		`sudo systemsetup -setusingnetworktime off`,
	},
	Allow: []string{
		`networksetup -getwebproxy Wi-Fi`,
		`networksetup -listallnetworkservices`,
		`networksetup -setwebproxy Wi-Fi 127.0.0.1 8888`,
		`networksetup -setdnsservers Wi-Fi Empty`,
		`sudo networksetup -setwebproxystate Wi-Fi off`,
		`systemsetup -getnetworktimeserver`,
		`sudo systemsetup -settimezone Europe/Paris`,
		`scutil --dns`,
	},
}

func checkNetworkRedirect(c *Call) Finding {
	if e, ok := c.effect(effects.Change, effects.Network); ok {
		return hit(e.Action + " sends " + e.Name + " through another host")
	}
	return Finding{}
}

// harmRemoteLogin: the machine opened to logins from the network through
// its own settings tools.
var harmRemoteLogin = &Rule{
	ID: "harm.remote-login", Category: "harm",
	Protects: "the machine, from remote logins turned on: macOS systemsetup -setremotelogin on and -setremoteappleevents on, Apple Remote Desktop's kickstart -activate … -on; on the BSDs sysrc NAME_enable=YES and rcctl enable for sshd, telnetd, VNC and inetd, and sshd flags that allow root or password logins",
	What:     "opens the machine to logins from the network",
	Safer:    "ask the user to turn remote login on themselves",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkRemoteLogin,
	Block: []string{
		`sudo systemsetup -setremotelogin on`,
		`sudo systemsetup -setremoteappleevents on`,
		`sudo /System/Library/CoreServices/RemoteManagement/ARDAgent.app/Contents/Resources/kickstart -activate -configure -access -on -privs -all`,
		`sudo sysrc sshd_enable=YES`,
		`doas rcctl enable sshd`,
		`sudo sysrc sshd_flags="-o PermitRootLogin=yes"`,
	},
	Allow: []string{
		`systemsetup -getremotelogin`,
		`sudo systemsetup -setremotelogin off`,
		`sysrc sshd_enable`,
		`sudo sysrc ntpd_enable=YES`,
		`doas rcctl enable httpd`,
		`rcctl get sshd flags`,
	},
}

func checkRemoteLogin(c *Call) Finding {
	if e, ok := c.effect(effects.Change, effects.RemoteAccess); ok {
		return hit(e.Action + " turns on " + e.Name + " for logins from the network")
	}
	return Finding{}
}

// harmSystemStop: every installed package removed, or the machine shut
// down, restarted or logged out through a tool the program-keyed rules do
// not read (AppleScript's System Events).
var harmSystemStop = &Rule{
	ID: "harm.system-stop", Category: "harm",
	Protects: "the machine as a whole: every installed package removed (FreeBSD pkg delete -a or -g '*', OpenBSD pkg_delete -X), and AppleScript telling Finder to empty the Trash or System Events or Finder to shut down, restart or log out",
	What:     "removes every package, empties the Trash or stops the machine",
	Safer:    "remove the one package the task needs (pkg delete NAME); ask the user to empty the Trash or restart the machine",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkSystemStop,
	Block: []string{
		`sudo pkg delete -a`,
		`pkg delete -fay`,
		`sudo pkg remove -y -g '*'`,
		`doas pkg_delete -X`,
		`osascript -e 'tell application "System Events" to shut down'`,
		`osascript -e 'tell app "Finder" to restart'`,
		`osascript -e 'tell application "Finder" to empty trash'`,
	},
	Allow: []string{
		`pkg delete -n -a`,
		`sudo pkg delete -y py311-requests`,
		`pkg info -a`,
		`doas pkg_delete -a`,
		`osascript -e 'display notification "done"'`,
		`osascript -e 'tell application "System Events" to get name of every process'`,
		`osascript -e 'tell application "Finder" to reveal POSIX file "/Users/dev/proj/dist"'`,
	},
}

func checkSystemStop(c *Call) Finding {
	for _, e := range c.effectsOf() {
		switch {
		case e.Kind == effects.Delete && e.Area == effects.Wholesale:
			return hit(e.Action + " removes " + e.Name)
		case e.Kind == effects.Change && e.Area == effects.Power:
			return hit(c.Ex.Name + " tells the system to " + e.Action)
		}
	}
	return Finding{}
}

// harmCapture: the screen, camera or microphone recorded without the user
// choosing what (macOS).
var harmCapture = &Rule{
	ID: "harm.capture", Category: "harm",
	Protects: "what the user sees, says and shows, on macOS: screencapture without an interactive selection (-i, -w, -W), imagesnap (the camera), ffmpeg or ffplay reading an AVFoundation device (camera, microphone, screen); listing the devices and a capture the user selects are allowed",
	What:     "records the screen, camera or microphone",
	Safer:    "ask the user for a screenshot, or take one with screencapture -i so that the user picks what is captured",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkCapture,
	Block: []string{
		`screencapture -x /tmp/s.png`,
		`screencapture -C -T 5 ~/shot.jpg`,
		`imagesnap -q /tmp/cam.jpg`,
		`ffmpeg -f avfoundation -i ":0" -t 30 /tmp/m.m4a`,
	},
	Allow: []string{
		`screencapture -i ./docs/img/screen.png`,
		`screencapture -W ./docs/img/window.png`,
		`imagesnap -l`,
		`ffmpeg -f avfoundation -list_devices true -i ""`,
		`ffmpeg -i ./assets/demo.mov ./docs/demo.gif`,
		`xcrun simctl io booted screenshot ./docs/img/sim.png`,
	},
}

func checkCapture(c *Call) Finding {
	if e, ok := c.effect(effects.Read, effects.Capture); ok {
		return hit(e.Action + " records " + e.Name)
	}
	return Finding{}
}

// harmKernelModule: code loaded into the kernel by the loaders the
// program-keyed rules do not read.
var harmKernelModule = &Rule{
	ID: "harm.kernel-module", Category: "harm",
	Protects: "the running kernel, from modules loaded or unloaded: NetBSD's modload, macOS's kextutil (unless -n/--no-load), kextload, kextunload and kmutil load|unload|install, the BSDs' kldload (of a file, or a module that acts on loading) and kldunload (but of the project's own module), Linux's insmod, rmmod and modprobe (not its dry runs)",
	What:     "loads code into the kernel or takes it out",
	Safer:    "ask the user to load the module; check a kext without loading it (kextutil -n, kmutil print-diagnostics)",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkKernelModule,
	Block: []string{
		`doas modload /tmp/lkm.kmod`,
		`sudo kextutil -t /tmp/Hook.kext`,
		`sudo kmutil load -p /Library/Extensions/Hook.kext`,
		`sudo kextutil -b com.example.hook`,
		`sudo kldload /tmp/rk.ko`,
		`sudo kldload ./hook.ko`,
		`sudo kldload ipfw`,
		`sudo kldunload /tmp/x.ko`,
		`sudo rmmod e1000`,
		`sudo kextunload -b com.example.driver`,
		`sudo kldunload pf`,
		`sudo modprobe -r e1000e`,
		`sudo modprobe --remove nouveau`,
	},
	Allow: []string{
		`modstat`,
		`kextutil -n -t ./build/MyDriver.kext`,
		`kmutil showloaded --list-only`,
		`kmutil print-diagnostics -p ./build/MyDriver.kext`,
		`sudo kldload -n vmm`,
		`sudo kldload fusefs`,
		`sudo kldunload ./build/mydrv.ko`,
		`modprobe -n e1000`,
		`sudo modprobe --show-depends e1000`,
		`lsmod`,
		`modinfo e1000e`,
		`sudo modprobe --dry-run --remove e1000e`,
	},
}

func checkKernelModule(c *Call) Finding {
	for _, e := range c.effectsOf() {
		if e.Kind != effects.Change || e.Area != effects.Kernel {
			continue
		}
		if f := kernelModuleChange(c, e); f.Hit {
			return f
		}
	}
	return Finding{}
}

// kldloadActs are FreeBSD modules that change the machine the moment they
// load: ipfw's default rule denies every packet, cutting the machine off
// the network.
var kldloadActs = []string{"ipfw", "ipfw.ko", "ipl", "ipl.ko"}

// kernelModuleChange judges one module loaded or unloaded. FreeBSD's
// kldload of a bare name loads a module already installed in the module
// path (/boot/kernel, /boot/modules, which only root writes), as the
// handbook does for vmm, linux64 or fusefs; a path loads a file anyone may
// have written. Unloading the module built in the project (named by its
// path there) is the developer's own; a module named otherwise may be a
// defence (pf, a MAC policy) or a driver the machine runs on.
func kernelModuleChange(c *Call, e effects.Effect) Finding {
	switch e.Action {
	case "kldload":
		if strings.Contains(e.Name, "/") || !shell.Known(e.Name) {
			return hit("kldload " + e.Name + " loads a kernel module from a file rather than the system's module path")
		}
		if slices.Contains(kldloadActs, e.Name) {
			return hit("kldload " + e.Name + " loads a firewall whose default rule denies every packet")
		}
		return Finding{}
	case "kldunload":
		if strings.Contains(e.Name, "/") && c.Loc(e.Name).Place == InWorkspace {
			return Finding{}
		}
	}
	switch {
	case e.Name == "":
		return hit(e.Action + " changes the modules of the running kernel")
	case strings.Contains(e.Action, "unload") || e.Action == "rmmod":
		return hit(e.Action + " " + e.Name + " takes a module out of the running kernel")
	}
	return hit(e.Action + " loads " + e.Name + " into the kernel")
}

// harmCredentialDelete: a saved credential deleted from the store that
// keeps it.
var harmCredentialDelete = &Rule{
	ID: "harm.credential-delete", Category: "harm",
	Protects: "the user's saved credentials and keys, from the macOS keychain's delete verbs (security delete-generic-password, delete-internet-password, delete-identity, delete-keychain) and geli kill -a (every attached disk's encryption keys)",
	What:     "deletes a saved credential or a keychain",
	Safer:    "leave the keychain to the user; a test item the task created itself can be named by the user for removal",
	Unknown:  noUnknownStory,
	Commands: []string{"*"}, exec: checkCredentialDelete,
	Block: []string{
		`security delete-generic-password -s "Gemini API" -a "$USER"`,
		`security delete-internet-password -s github.com`,
		`security delete-keychain ~/Library/Keychains/login.keychain-db`,
		`sudo geli kill -a`,
	},
	Allow: []string{
		`security find-generic-password -s "Gemini API"`,
		`security list-keychains`,
		`security add-generic-password -a ci -s test -w dummy -U`,
	},
}

func checkCredentialDelete(c *Call) Finding {
	if e, ok := c.effect(effects.Delete, effects.Secrets); ok {
		return hit(e.Action + " deletes " + e.Name)
	}
	return Finding{}
}
