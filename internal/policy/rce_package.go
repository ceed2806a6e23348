package policy

import (
	"slices"
	"strings"
)

// Code run straight from the network by a runtime that may change the
// machine: uv run / pipx run of a Python script's URL, deno
// run/install/x/compile of an http(s) URL with a permission
// beyond the network (-A, --allow-run, --allow-write, --allow-read, ...: deno
// without them is sandboxed and may only compute and fetch), and R or Julia
// code that sources or evaluates a script fetched from a URL.
//
// A package manager installing a package is not judged by where the package
// comes from: a registry name, a git repository (pip install git+https://…,
// cargo install --git, npm i user/repo) or an archive URL run the same kind
// of unread install scripts, and installing is the user's everyday work (the
// threat model, section 3, says why).

// harmfulPermission are deno's flags that let a script change the machine
// or read what it holds (read or env with the network sends it away), and
// harmfulShort their one-letter forms, alone or in a cluster (-gAf).
var harmfulPermission = []string{"--allow-all", "--allow-run", "--allow-write", "--allow-ffi", "--allow-sys", "--allow-env", "--allow-read"}

const harmfulShort = "ARWES"

// webURL reports whether a is an http(s) URL.
func webURL(a string) bool {
	return strings.HasPrefix(a, "https://") || strings.HasPrefix(a, "http://")
}

// remoteCodeCall finds, in R or Julia code, a call that runs code fetched
// from the network.
func remoteCodeCall(code string) (string, bool) {
	for _, call := range []string{"source_gist(", "source_url("} {
		if strings.Contains(code, call) {
			return strings.TrimSuffix(call, "("), true
		}
	}
	if !strings.Contains(code, "://") {
		return "", false
	}
	for _, call := range []string{"source(", "include(", "sys.source(", "eval(parse("} {
		if strings.Contains(code, call) {
			return strings.TrimSuffix(call, "("), true
		}
	}
	return "", false
}

// checkRemotePackage: a runtime given a script by URL with the
// permissions to act on it, or R/Julia code sourcing one.
func checkRemotePackage(c *Call) Finding {
	switch c.Ex.Name { // every command comes here: leave the others at once
	case "deno":
		return denoRemote(c.Args)
	case "uv", "pipx":
		return scriptRunRemote(c.Ex.Name, c.Args)
	case "r", "rscript", "julia":
		// R's source("https://…"), Julia's include(download("https://…")).
		for _, a := range c.Args {
			if call, ok := remoteCodeCall(a); ok {
				return hit(c.Ex.Name + " code calls " + call + " on code from the network: it runs without anyone reading it")
			}
		}
	}
	return Finding{}
}

// denoRunners are deno's subcommands that run the module they are given.
var denoRunners = []string{"run", "install", "x", "compile"}

// denoRemote: deno running a module from a URL with a permission beyond
// the network given before it; without one it is sandboxed.
func denoRemote(args []string) Finding {
	if len(args) == 0 || !slices.Contains(denoRunners, args[0]) {
		return Finding{}
	}
	allowed := false
	for _, a := range args[1:] {
		flag, _, _ := strings.Cut(a, "=")
		if slices.Contains(harmfulPermission, flag) || strings.ContainsAny(shortFlags(flag), harmfulShort) {
			allowed = true
		}
		if !webURL(a) {
			continue
		}
		if !allowed {
			return Finding{} // sandboxed: no permission beyond the network
		}
		return hit("deno " + args[0] + " runs " + a + " straight from the network with permission to act on this machine: its code runs without anyone reading it")
	}
	return Finding{}
}

// scriptRunRemote: uv run URL / pipx run URL, a Python script fetched and
// run at once, with the user's rights (a package spec is a package).
func scriptRunRemote(name string, args []string) Finding {
	if len(args) <= 1 || args[0] != "run" {
		return Finding{}
	}
	for _, a := range args[1:] {
		if strings.HasPrefix(a, "-") {
			continue
		}
		if webURL(a) && strings.HasSuffix(a, ".py") {
			return hit(name + " run runs " + a + " straight from the network: its code runs without anyone reading it")
		}
		break
	}
	return Finding{}
}
