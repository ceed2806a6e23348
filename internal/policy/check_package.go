package policy

import (
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Packages taken from a URL, a git repository or a GitHub shorthand rather
// than from a registry by name: their install scripts (setup.py, npm's
// lifecycle scripts, build.rs, an RPM's scriptlets) and their code run
// unread, with no published name and version anyone can review or pin.

// remotePackageSpec reports whether a package argument names a remote
// location rather than a registry package: a URL (not file://), a git
// URL (git+https://, git@host:), or a host shorthand (github:u/r).
func remotePackageSpec(a string) bool {
	if strings.HasPrefix(a, "-") {
		return false
	}
	if i := strings.Index(a, "://"); i > 0 {
		return !strings.HasPrefix(a, "file://")
	}
	for _, p := range []string{"git+", "github:", "gitlab:", "bitbucket:", "gist:", "git@"} {
		if strings.HasPrefix(a, p) {
			return true
		}
	}
	return false
}

// githubShorthand reports npm's user/repo form, which npm, yarn, pnpm,
// bun and npx fetch from GitHub (@scope/name and paths are not).
func githubShorthand(a string) bool {
	if a == "" || strings.ContainsAny(a[:1], "@./~-$") || strings.Contains(a, ":") || strings.Count(a, "/") != 1 {
		return false
	}
	user, repo, _ := strings.Cut(a, "/")
	return user != "" && repo != ""
}

// remoteGoPackage reports go run's pkg@version form of a package outside
// the module (github.com/u/tool@latest): fetched, built and run at once.
func remoteGoPackage(a string) bool {
	pkg, version, ok := strings.Cut(a, "@")
	if !ok || version == "" || strings.HasPrefix(pkg, ".") || strings.HasPrefix(pkg, "/") {
		return false
	}
	host, _, _ := strings.Cut(pkg, "/")
	return strings.Contains(host, ".")
}

// indexOptions take a value that is an index, a registry, a mirror or a
// file of requirements, not a package: pip install -i https://… pkg.
var indexOptions = []string{"-i", "--index-url", "--extra-index-url", "--index", "--default-index", "-f", "--find-links",
	"--trusted-host", "-c", "--constraint", "-r", "--requirement", "--registry", "--proxy", "--cert", "--source", "--python", "-p"}

// packageOperands are the operands of a package command without the values
// of its index and registry options.
func packageOperands(args []string) []string {
	var out []string
	for i, a := range args {
		if strings.HasPrefix(a, "-") || i > 0 && slices.Contains(indexOptions, args[i-1]) {
			continue
		}
		out = append(out, a)
	}
	return out
}

// remoteCodeCall finds, in R or Julia code, a call that runs or installs
// code fetched from the network.
func remoteCodeCall(code string) (string, bool) {
	for _, call := range []string{"install_github(", "install_gitlab(", "install_bitbucket(", "install_url(", "install_git(", "source_gist(", "source_url(", "Pkg.add(url"} {
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

// checkRemotePackage: a package manager or runner given a package by URL,
// git repository or GitHub shorthand.
func checkRemotePackage(c *Call) Finding {
	name, args := c.Ex.Name, c.Args
	if via := c.Ex.Via; len(via) > 0 && len(c.Ex.Args) > 0 {
		// npx github:u/tool: the analysis unwraps npx and runs the package
		// as the command.
		switch w := via[len(via)-1]; w {
		case "npx", "bunx", "pnpx":
			if a := c.Ex.Args[0]; remotePackageSpec(a) || githubShorthand(a) {
				return hit(w + " runs " + a + " straight from the network: its install scripts and code run without anyone reading them")
			}
		}
	}
	if shell.Interpreter(name) == "python" && len(args) > 1 && args[0] == "-m" {
		name, args = args[1], args[2:] // python -m pip install …
	}
	switch name { // every command comes here (npx's package is the command): leave the others at once
	case "pip", "pip3", "pipx", "uv", "poetry", "pdm", "conda", "mamba", "uvx", "npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx",
		"deno", "r", "rscript", "julia", "go", "cargo", "brew", "rpm", "dnf", "yum", "zypper", "pacman", "dpkg", "apt", "apt-get", "gem", "snap", "flatpak":
	default:
		return Finding{}
	}
	ops := packageOperands(args)
	sub := ""
	if len(ops) > 0 {
		sub = ops[0]
	}
	found := func(spec, verb string) Finding {
		return hit(name + " " + verb + " " + spec + " straight from the network: its install scripts and code run without anyone reading them")
	}
	// optValue finds the value of an option naming the source (--spec,
	// --from, --git), in both spellings.
	optValue := func(opts ...string) string {
		for i, a := range args {
			for _, o := range opts {
				if a == o && i+1 < len(args) {
					return args[i+1]
				}
				if v, ok := strings.CutPrefix(a, o+"="); ok {
					return v
				}
			}
		}
		return ""
	}
	switch name {
	case "pip", "pip3", "pipx", "uv", "poetry", "pdm", "conda", "mamba":
		if name == "uv" && sub == "pip" && len(ops) > 1 {
			sub, ops = ops[1], ops[1:]
		}
		if name == "uv" && sub == "tool" && len(ops) > 1 {
			sub, ops = ops[1], ops[1:]
		}
		switch sub {
		case "install", "add", "run":
			if v := optValue("--spec", "--from", "-e", "--editable"); v != "" || sub == "run" {
				// pipx run --spec p app args…, uv run script args…: only
				// the package or script is a spec, the rest are its
				// arguments.
				if v == "" && len(ops) > 1 {
					v = ops[1]
				}
				if remotePackageSpec(v) {
					return found(v, sub+"s")
				}
				if sub == "run" {
					break
				}
			}
			for _, o := range ops[1:] {
				if remotePackageSpec(o) {
					return found(o, sub+"s")
				}
			}
		}
	case "uvx":
		if v := optValue("--from"); remotePackageSpec(v) {
			return found(v, "runs")
		}
		if len(ops) > 0 && remotePackageSpec(ops[0]) {
			return found(ops[0], "runs")
		}
	case "npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx":
		verb := "installs"
		rest := ops
		switch {
		case name == "npx" || name == "pnpx" || name == "bunx":
			verb = "runs"
		case sub == "install" || sub == "i" || sub == "add" || sub == "isntall" || sub == "in":
			rest = ops[1:]
		case name == "npm" && (sub == "exec" || sub == "x") || name == "bun" && sub == "x" || sub == "dlx":
			verb, rest = "runs", ops[1:]
		default:
			return Finding{}
		}
		if v := optValue("--package", "-p"); remotePackageSpec(v) || githubShorthand(v) {
			return found(v, verb)
		}
		for i, o := range rest {
			if remotePackageSpec(o) || githubShorthand(o) {
				return found(o, verb)
			}
			if verb == "runs" && i == 0 {
				break // npx tool args…: only the package is a spec
			}
		}
	case "deno":
		switch sub {
		case "run", "install", "x", "compile":
			for _, o := range ops[1:] {
				if strings.HasPrefix(o, "https://") || strings.HasPrefix(o, "http://") {
					return found(o, "runs")
				}
			}
		}
	case "r", "rscript", "julia":
		// R's source("https://…"), devtools::install_github("u/r"),
		// Julia's include(download("https://…")), Pkg.add(url=…).
		for _, a := range args {
			if call, ok := remoteCodeCall(a); ok {
				return hit(name + " code calls " + call + " on code from the network: it runs without anyone reading it")
			}
		}
	case "go":
		if sub == "run" && len(ops) > 1 && remoteGoPackage(ops[1]) {
			return found(ops[1], "runs")
		}
	case "cargo":
		if sub == "install" {
			if v := optValue("--git"); v != "" {
				return found(v, "builds and installs")
			}
		}
	case "brew":
		if sub == "install" || sub == "reinstall" {
			for _, o := range ops[1:] {
				if strings.Contains(o, "://") {
					return found(o, "installs")
				}
			}
		}
	case "rpm", "dnf", "yum", "zypper", "pacman", "dpkg", "apt", "apt-get", "gem", "snap", "flatpak":
		for _, o := range ops {
			if strings.HasPrefix(o, "https://") || strings.HasPrefix(o, "http://") || strings.HasPrefix(o, "ftp://") {
				return found(o, "installs")
			}
		}
	}
	return Finding{}
}
