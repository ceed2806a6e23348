package policy

// guard.tamper's reading of Gemini CLI invocations (however spelled), of
// the session environment setters and of pkill/kill of the guard's processes.

import (
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/protect"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// cliArgs returns the arguments of a Gemini CLI invocation, however it is
// spelled: gemini, npx/bunx/pnpx @google/gemini-cli, pnpm/yarn dlx,
// npm exec/x, node|bun|deno <path to gemini or gemini-cli>.
func cliArgs(c *Call) ([]string, bool) {
	args := c.Args
	name := c.Ex.Name
	if name == "gemini" || len(c.Ex.Args) > 0 && isCLIName(c.Ex.Args[0]) {
		return args, true // npx and bunx are unwrapped by the analysis
	}
	switch name {
	case "npm", "pnpm", "yarn":
		ops := operands(args)
		if len(ops) == 0 || !slices.Contains([]string{"exec", "x", "dlx"}, ops[0]) {
			return nil, false
		}
		i := slices.Index(args, ops[0])
		return packageRunnerArgs(args[i+1:])
	case "npx", "bunx", "pnpx":
		return packageRunnerArgs(args)
	case "node", "bun", "deno", "nodejs":
		for i, a := range args {
			if strings.HasPrefix(a, "-") {
				continue
			}
			if a == "run" && (name == "deno" || name == "bun") {
				continue
			}
			if isCLIName(a) || locatesCLI(c, a) {
				return args[i+1:], true
			}
			return nil, false
		}
	}
	return nil, false
}

// locatesCLI reports whether the word a is the output of a command that
// finds the gemini program: node $(which gemini), node "$(command -v
// gemini)", node `type -p gemini`.
func locatesCLI(c *Call, a string) bool {
	for _, u := range c.Res.Unknowns(a) {
		for _, e := range u.Execs {
			if e.Name != "which" && e.Name != "command" && e.Name != "type" && e.Name != "whereis" && e.Name != "readlink" && e.Name != "realpath" {
				continue
			}
			for _, x := range e.Args[1:] {
				if isCLIName(x) {
					return true
				}
			}
		}
	}
	return false
}

// packageRunnerArgs finds the Gemini CLI package in npx-style arguments
// (options, then the package, then its arguments; or --package P then a
// binary name).
func packageRunnerArgs(args []string) ([]string, bool) {
	pkg := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "-p" || a == "--package" {
			if i+1 < len(args) && isCLIName(args[i+1]) {
				pkg = true
			}
			i++
			continue
		}
		if v, ok := strings.CutPrefix(a, "--package="); ok {
			pkg = pkg || isCLIName(v)
			continue
		}
		if a == "--" || strings.HasPrefix(a, "-") {
			continue
		}
		if pkg || isCLIName(a) {
			return args[i+1:], true
		}
		return nil, false
	}
	return nil, false
}

// isCLIName reports whether a package name or path names Gemini CLI.
func isCLIName(a string) bool {
	a = strings.ToLower(a)
	if strings.HasPrefix(a, "@google/gemini-cli") || strings.Contains(a, "/gemini-cli") || strings.HasPrefix(a, "gemini-cli") ||
		strings.Contains(a, "qwen-code") { // Qwen Code loads the same extension (qwen-extension.json)
		return true
	}
	b := path.Base(a)
	b = strings.TrimSuffix(strings.TrimSuffix(b, ".js"), ".mjs")
	if at := strings.LastIndex(b, "@"); at > 0 {
		b = b[:at]
	}
	return b == "gemini" || b == "qwen"
}

// checkCLI judges a Gemini CLI invocation: switching the extension or hooks
// off, installing or linking another extension, or starting a child agent
// without the guard (-e none, -e <list without gemini-guard>) or with
// approvals off (-y, --yolo, --approval-mode yolo), or with GEMINI_GUARD_
// settings of its own.
func checkCLI(c *Call, args []string) Finding {
	ops := operands(args)
	if hasArg(args, "--help", "-h", "--version", "-v") && len(ops) <= 2 {
		return Finding{}
	}
	if len(ops) >= 2 && (ops[0] == "extensions" || ops[0] == "extension") {
		return cliExtensionsVerb(c, args, ops)
	}
	if len(ops) >= 2 && ops[0] == "hooks" && (ops[1] == "disable" || ops[1] == "remove") {
		return hit("gemini hooks " + ops[1] + " switches hooks off")
	}
	if f := cliEnv(c); f.Hit {
		return f
	}
	if f := cliAssigned(c); f.Hit {
		return f
	}
	return cliFlags(args)
}

// cliExtensionsVerb: gemini extensions disable/uninstall/… of gemini-guard
// (or every extension), install and link of any. update brings the
// installed extensions to their own sources' new versions: the same
// extensions, from where the user installed them.
func cliExtensionsVerb(c *Call, args, ops []string) Finding {
	switch ops[1] {
	case "disable", "uninstall", "remove", "config", "link", "install":
		if ops[1] == "install" || ops[1] == "link" || len(ops) == 2 || hasArg(ops[2:], "gemini-guard") || hasArg(args, "--all") ||
			slices.ContainsFunc(ops[2:], func(o string) bool { return c.inputNames(o, "gemini-guard") }) {
			return hit("gemini extensions " + ops[1] + " changes the installed extensions (gemini-guard is one of them, and another extension's hooks and settings run beside it)")
		}
	}
	return Finding{}
}

// inputNames reports whether the word o, read at run time by xargs, may be
// name: the items echo or printf give it, or a here-string's.
func (c *Call) inputNames(o, name string) bool {
	for _, u := range c.Res.Unknowns(o) {
		if u.Kind != shell.Input {
			continue
		}
		if strings.Contains(u.Name, name) {
			return true
		}
		for _, p := range u.Execs {
			if (p.Name == "echo" || p.Name == "printf") && slices.Contains(p.Args[1:], name) {
				return true
			}
		}
	}
	return false
}

// cliEnv: Gemini CLI started with a GEMINI_GUARD_ setting or a child-agent
// key of its own in its environment.
func cliEnv(c *Call) Finding {
	for _, k := range slices.Sorted(maps.Keys(c.Ex.Env)) {
		if strings.HasPrefix(strings.ToUpper(k), "GEMINI_GUARD_") {
			return hit("starts Gemini CLI with its own " + k + " setting, which the guard's hooks in that session would read")
		}
		// HOME=/tmp/x gemini, GEMINI_CLI_HOME=…, XDG_CONFIG_HOME=…: a child
		// agent that loads no extension (no guard, no policy wall), or
		// whose hooks run under BASH_ENV, LD_PRELOAD, NODE_OPTIONS, ….
		if why, ok := protect.ChildAgentKey(k, c.Ex.Env[k], shell.Known(c.Ex.Env[k])); ok {
			return hitSafer("starts Gemini CLI with "+k+" set: "+why+", so the child agent may run without the guard", protect.SaferEnv)
		}
	}
	return Finding{}
}

// cliAssigned: the shell that starts Gemini CLI sets a GEMINI_GUARD_
// setting or a child-agent key.
func cliAssigned(c *Call) Finding {
	for _, k := range c.Res.Assigned {
		if strings.HasPrefix(strings.ToUpper(k), "GEMINI_GUARD_") {
			// export GEMINI_GUARD_MODE=warn; gemini …: the child inherits it
			// (and a plain assignment changes an already exported one).
			return hit("sets " + k + " in the shell that starts Gemini CLI, whose guard hooks would read it")
		}
		// export HOME=/tmp/x; gemini …. PATH is left to the other rules:
		// scripts extend it before running tools all the time.
		v, known := exportedValue(c.Res, k)
		if why, ok := protect.ChildAgentKey(k, v, known); ok && k != "PATH" {
			return hitSafer("sets "+k+" in the shell that starts Gemini CLI: "+why+", so the child agent may run without the guard", protect.SaferEnv)
		}
	}
	return Finding{}
}

// cliFlags: a child agent started without gemini-guard in its -e list or
// with approvals off.
func cliFlags(args []string) Finding {
	for i, a := range args {
		if v, ok := extensionsValue(args, i); ok && !extensionListKeepsGuard(args, v) {
			return hit("starts a Gemini CLI agent without the gemini-guard extension (" + a + " " + v + ")")
		}
		if a == "-y" || a == "--yolo" || a == "--approval-mode=yolo" || a == "--approval-mode" && i+1 < len(args) && args[i+1] == "yolo" {
			return hit("starts a Gemini CLI agent that runs every tool call without asking (" + a + ")")
		}
	}
	return Finding{}
}

// extensionsValue is the value of an -e/--extensions option at args[i].
func extensionsValue(args []string, i int) (string, bool) {
	a := args[i]
	switch {
	case a == "-e" || a == "--extensions":
		if i+1 < len(args) {
			return args[i+1], true
		}
	case strings.HasPrefix(a, "--extensions="):
		return strings.TrimPrefix(a, "--extensions="), true
	case strings.HasPrefix(a, "-e") && len(a) > 2 && !strings.HasPrefix(a, "--"):
		return strings.TrimPrefix(strings.TrimPrefix(a, "-e"), "="), true
	}
	return "", false
}

// extensionListKeepsGuard reports whether the -e/--extensions lists of
// args (the flag may repeat) include gemini-guard. "none" loads nothing.
func extensionListKeepsGuard(args []string, first string) bool {
	lists := []string{first}
	for i, a := range args {
		if (a == "-e" || a == "--extensions") && i+1 < len(args) {
			lists = append(lists, args[i+1])
		}
	}
	for _, l := range lists {
		for _, n := range strings.Split(l, ",") {
			if strings.EqualFold(strings.TrimSpace(n), "gemini-guard") {
				return true
			}
		}
	}
	return false
}

// sessionEnvSetters set variables in the environment of programs the
// session manager, service manager or terminal multiplexer starts later:
// each with the verbs that set (none listed: the program only sets).
// launchctl getenv, systemctl show-environment and tmux show-environment
// only read.
var sessionEnvSetters = []struct {
	name  string
	verbs []string
}{
	{"launchctl", []string{"setenv", "config"}},
	{"systemctl", []string{"set-environment", "import-environment"}},
	{"tmux", []string{"setenv", "set-environment"}},
	{"screen", []string{"setenv"}},
	{"dbus-update-activation-environment", nil},
	{"setx", nil},
	{"setenv", nil},
}

// setsSessionEnv reports whether c is one of sessionEnvSetters setting,
// or fish's set -U.
func setsSessionEnv(c *Call) bool {
	if c.Ex.Name == "set" {
		return hasShortFlag(c.Args, 'U') || hasArg(c.Args, "--universal")
	}
	for _, s := range sessionEnvSetters {
		if s.name != c.Ex.Name {
			continue
		}
		if s.verbs == nil {
			return true
		}
		return slices.ContainsFunc(operands(c.Args), func(o string) bool { return slices.Contains(s.verbs, o) })
	}
	return false
}

// exportedValue is the value the command line gives k (X=v, export X=v),
// when it gives one known statically.
func exportedValue(res *shell.Result, k string) (string, bool) {
	v, ok := res.Values[k]
	return v, ok && shell.Known(v)
}

// setsControlKey is the control key (protect.ControlKey) a session
// environment setter names: launchctl setenv K V, systemctl
// set-environment K=V, tmux setenv K V, setx K V, fish's set -U K V.
func setsControlKey(c *Call) string {
	if mentionsGuardSetting(c) {
		for _, o := range operands(c.Args) {
			if k, _, _ := strings.Cut(o, "="); strings.HasPrefix(strings.ToUpper(k), "GEMINI_GUARD") {
				return k
			}
		}
		return "a GEMINI_GUARD_ setting"
	}
	for _, o := range operands(c.Args) {
		k, _, _ := strings.Cut(o, "=")
		if _, ok := protect.ControlKey(k); ok && k == strings.ToUpper(k) {
			return k
		}
	}
	return ""
}

// killsGuard: pkill/killall of gemini-guard's processes by name. The
// scanner daemon killed between two scans leaves its socket name free for
// any program of the same user to answer the next scan.
func killsGuard(c *Call) Finding {
	guardName := func(args []string) string {
		for _, o := range operands(args) {
			l := strings.ToLower(o)
			if strings.Contains(l, "guard-scanner") || strings.Contains(l, "guard-shell") || strings.Contains(l, "guard-secrets") ||
				strings.Contains(l, "guard-redact") || strings.Contains(l, "gemini-guard") {
				return o
			}
		}
		return ""
	}
	stops := func(what string) Finding {
		return hit(c.Ex.Name + " stops gemini-guard's processes (" + what + "): until they are started again, another program can answer in the scanner's place")
	}
	switch c.Ex.Name {
	case "pkill", "killall", "skill":
		if o := guardName(c.Args); o != "" {
			return stops(o)
		}
	case "kill":
		// kill $(pgrep guard-scanner), kill `pidof guard-scanner`.
		for _, a := range c.Args {
			for _, u := range c.Res.Unknowns(a) {
				for _, e := range u.Execs {
					if (e.Name == "pgrep" || e.Name == "pidof") && len(e.Args) > 1 {
						if o := guardName(e.Args[1:]); o != "" {
							return stops(o)
						}
					}
				}
			}
		}
	}
	return Finding{}
}

// mentionsGuardSetting reports whether the call's arguments or input name a
// GEMINI_GUARD_ setting.
func mentionsGuardSetting(c *Call) bool {
	return strings.Contains(strings.ToUpper(codeText(c)), "GEMINI_GUARD")
}
