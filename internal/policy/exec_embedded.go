package policy

import (
	"path"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/effects"
	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
	"github.com/gemini-guard/gemini-guard/internal/shell"
)

// Commands run through other programs (docs/threat-model.md, section 3). Many
// ordinary programs run a command given to them as data: an option value
// (tar --checkpoint-action=exec=…, rsync -e, ssh -o ProxyCommand=…, zip -TT,
// yt-dlp --exec, certbot --pre-hook), an environment variable (PAGER,
// *_COMMAND, LESSOPEN), an argument string (ssh host 'cmd', sqlite3
// '.system cmd', mysql -e '\! cmd', gdb -ex '!cmd'), a call inside a small
// language (system("…") in R, gnuplot, octave; (shell-command "…") in
// emacs; \write18{…} in TeX; %(…) in rpm macros; $(shell …) in make), or
// the rest of their argument list (strace, ltrace, valgrind, setarch,
// cpulimit, bundle exec, uv run, docker run --privileged …). The shell
// analysis knows the common wrappers; this rule covers the long tail by the
// mechanism: any argument shaped like a command, and any argument list that
// continues with a command the policy judges, is analysed as shell code and
// judged with the whole policy. It keys on the shape, not on the program,
// so that a program nobody listed is covered too; programs whose arguments
// are data (echo, grep, commit messages) are left out.

// maxEmbedded bounds the candidate commands analysed for one command.
const maxEmbedded = 48

// maxEmbeddedBytes bounds the candidate text analysed for one decision.
const maxEmbeddedBytes = 64 << 10

// dataCommands take text as data: a command written in their arguments is
// printed, searched for or stored, never run.
var dataCommands = []string{
	"echo", "printf", "print", "grep", "egrep", "fgrep", "rg", "ag", "ack", "git-grep", "zgrep",
	"which", "type", "whatis", "apropos", "whereis", "help", "tldr", "info", "hash", "alias", "unalias",
	"logger", "notify-send", "say", "wall", "figlet", "toilet", "cowsay", "banner", "lolcat",
	"pgrep", "pkill", "killall", "pidof", "history", "fc", "complete", "compgen", "bind",
	"export", "declare", "typeset", "local", "readonly", "test", "[", "[[", "jq", "yq", "gron",
	"head", "tail", "wc", "sort", "uniq", "cut", "tr", "column", "fold", "fmt", "diff", "cmp",
	"sha256sum", "md5sum", "base64", "xxd", "od", "hexdump", "strings", "file", "stat", "ls",
	"touch", "mkdir", "read", "cat", "tee", "less", "more", "bat", "nl", "rev", "tac", "look",
	"zsh-history", "shellcheck", "shfmt", "bashate", "explainshell", "dirname", "basename", "realpath", "readlink", "du",
	"mdls", "mdfind", "xattr", "getfileinfo", "wslpath", "cygpath", // a file's attributes, a search, a path converted
}

// messageOptions carry human text (a commit message, an issue body).
var messageOptions = []string{
	"-m", "--message", "--body", "--title", "--description", "--subject", "--comment", "--notes",
	"--note", "--summary", "--reason", "-t", "--text", "--msg", "-b",
}

// shortBodyTools use -b and -t for a body and a title (gh issue create -b);
// elsewhere -b and -t are ordinary options (gimp -b runs a batch script).
var shortBodyTools = []string{"gh", "glab", "hub", "tea", "jira", "git", "hg", "svn", "notify-send", "mail", "mailx", "mutt", "osascript", "terminal-notifier", "gitea", "lab", "bitbucket"}

// isMessageOption reports whether opt of program carries human text: a
// message option, or a cluster of git's or hg's short flags ending in m
// (git commit -am 'msg').
func isMessageOption(program, opt string) bool {
	if opt == "-b" || opt == "-t" {
		return slices.Contains(shortBodyTools, program)
	}
	if (program == "git" || program == "hg") && len(opt) > 2 && opt[0] == '-' && opt[1] != '-' && strings.HasSuffix(opt, "m") && isFlagCluster(opt) {
		return true
	}
	return slices.Contains(messageOptions, opt)
}

// containerCommands run their command inside a container, which is
// isolated unless --privileged or a bind of the host's / says otherwise.
var containerCommands = []string{"docker", "podman", "nerdctl", "ctr", "lxc", "kubectl", "oc", "incus", "systemd-nspawn", "machinectl"}

// harmVerbs are command names the policy judges through its every-command
// rules (reads of credentials, writes to protected paths) rather than by
// name, besides the names the table lists.
var harmVerbs = []string{
	"cat", "cp", "mv", "tee", "truncate", "ln", "base64", "xxd", "head", "tail", "less", "more", "install",
	"sed", "awk", "gawk", "mawk", "nawk", "busybox", "env", "sudo", "doas", "su", "xargs",
	"crontab", "chattr", "dd", "rm", "mkfs", "shred", "wipefs", "find", "tar", "zip", "chroot",
}

var (
	// quotedRe finds string literals in a small language's code:
	// system("cmd"), (shell-command "cmd"), callCommand "cmd".
	quotedRe = &lazyregexp.Regexp{Expr: `"((?:[^"\\]|\\.)*)"|'([^']*)'`}
	// groupRe finds the innermost bracketed bodies: \write18{cmd}, %(cmd),
	// $(shell cmd), `cmd`.
	groupRe = &lazyregexp.Regexp{Expr: `\{([^{}]*)\}|\(([^()]*)\)|` + "`([^`]*)`"}
)

// checkEmbeddedCommand judges the commands another program would run for
// c: see the comment at the top of this file.
func checkEmbeddedCommand(c *Call) Finding {
	ex := c.Ex
	if ex.Name == "" || shell.IsShell(ex.Name) {
		return Finding{}
	}
	args := ex.Args[1:]
	if f := c.containerGivesHost(args); f.Hit || f.Maybe {
		return f
	}
	var cands []string
	if slices.Contains(dataCommands, ex.Name) {
		cands = dataCandidates(ex, c.rules)
	} else {
		cands = embeddedCandidates(ex, args, c.Res, c.rules, c.Ctx.Home)
	}
	if len(cands) == 0 {
		return Finding{}
	}
	inner := innerContext(c.Ctx)
	for _, cand := range cands {
		if c.Ctx.embeddedSpent += len(cand); c.Ctx.embeddedSpent > maxEmbeddedBytes {
			// Bounded like the analysis itself: past the budget, deny
			// rather than spend unbounded time or let it through.
			return hit("hands more command text to other programs than gemini-guard checks in one command")
		}
		res := shell.Analyze(cand, shell.Options{Dir: ex.Dir, Home: c.Ctx.Home, MaxDepth: 4})
		// No program is named "-i": in ssh_command=ssh -i k, read as
		// shell, the words after an assignment are ssh's options.
		res.Execs = slices.DeleteFunc(slices.Clone(res.Execs), func(e *shell.Exec) bool { return strings.HasPrefix(e.Name, "-") })
		for _, f := range evaluate(c.rules, res, &inner, false) {
			return hit(ex.Name + " runs a command given to it as data, and that command " + f.Describe() + " (" + f.Rule.ID + ")")
		}
	}
	return Finding{}
}

// innerRulesOff are the rules an embedded command is not judged by: this
// one (no recursion), and those about the shape of shell text, which a
// command handed over as data need not have.
var innerRulesOff = []string{"exec.embedded-command", "shell.parse-error", "shell.too-complex", "shell.dynamic-code", "shell.interpreter-code"}

// innerContext is ctx for judging an embedded command: standard mode, with
// innerRulesOff and the user's disabled rules off.
func innerContext(ctx *Context) Context {
	inner := *ctx
	inner.Disabled = map[string]bool{}
	for _, id := range innerRulesOff {
		inner.Disabled[id] = true
	}
	for id := range ctx.Disabled {
		inner.Disabled[id] = true
	}
	inner.Strict = false
	return inner
}

// candidates collects the texts a program may run as commands: at most
// maxEmbedded, each once, none starting with "-".
type candidates struct {
	// rules is the policy, which names the commands it judges
	// (payloadName).
	rules []*Rule
	// anyLength takes texts of any length (a data command's environment
	// and pager escapes); otherwise 3 to 8192 bytes.
	anyLength bool
	// home is the session's home directory, for the host credentials a
	// container is given.
	home string
	out  []string
}

// add offers s. A command never starts with "-": "-i ~/.ssh/k -p 2222" is
// the rest of an ssh command line (mosh --ssh='ssh -i k'), options handed
// to ssh, not a command.
func (cs *candidates) add(s string) {
	s = strings.TrimSpace(s)
	if len(cs.out) >= maxEmbedded || !cs.anyLength && (len(s) < 3 || len(s) > 8192) ||
		strings.HasPrefix(s, "-") || !shell.Known(s) || slices.Contains(cs.out, s) {
		return
	}
	cs.out = append(cs.out, s)
}

// lines offers the code shapes of every line of text.
func (cs *candidates) lines(text string) {
	for _, line := range strings.Split(text, "\n") {
		cs.shapes(line)
	}
}

// env offers the code shapes of the command's own variables.
func (cs *candidates) env(ex *shell.Exec) {
	for _, v := range ex.Env {
		cs.shapes(v)
	}
}

// dataCandidates are what a data command (dataCommands) runs: its
// arguments are data, but its environment is not (LESSOPEN, PAGER and
// friends are run), nor a pager's start-up command (less +'!cmd', more
// +'!cmd'), which runs its shell escape before the file is shown.
func dataCandidates(ex *shell.Exec, rules []*Rule) []string {
	cs := &candidates{rules: rules, anyLength: true}
	cs.env(ex)
	for _, a := range ex.Args[1:] {
		if rest, ok := strings.CutPrefix(a, "+"); ok && strings.Contains(rest, "!") {
			cs.shapes(rest)
		}
	}
	return cs.out
}

// embeddedCandidates lists the texts in ex's arguments, environment,
// input and the files it is handed that ex may run as commands, at most
// maxEmbedded.
func embeddedCandidates(ex *shell.Exec, args []string, res *shell.Result, rules []*Rule, home string) []string {
	cs := &candidates{rules: rules, home: home}
	if ex.Name == "sed" || ex.Name == "gsed" {
		// sed runs only what its e command or s///e flag names: its
		// scripts are read by sed's grammar, not searched for shapes
		// (s/rm -rf x/…/ is no command named s/rm).
		cs.env(ex)
		if p, ok := effects.Parse(ex.Name, args); ok {
			for _, script := range sedScripts(p) {
				for _, cmd := range shell.SedRuns(script) {
					cs.add(cmd)
				}
			}
		}
		return cs.out
	}
	cs.restOfArgs(ex.Name, args)
	cs.containerShapes(ex.Name, args)
	cs.env(ex)
	cs.processFiles(res, args)
	cs.stdin(ex, args)
	cs.writtenConfigs(ex, res, args)
	cs.codeLiterals(ex)
	return cs.out
}

// sedScripts are the scripts of a sed command line read by sed's spec
// (effects.Parse): every -e/--expression value, else its first operand (a
// -f file is not read here).
func sedScripts(p shell.Args) []string {
	var out []string
	for _, o := range p.Opts {
		if o.HasValue && (o.Name == "e" || o.Name == "expression") {
			out = append(out, o.Value)
		}
	}
	if len(out) == 0 && len(p.Operands) > 0 && !p.Has("f", "file") {
		out = append(out, p.Operands[0])
	}
	return out
}

// restOfArgs offers the rest of the argument list, from the first word
// that names a command the policy judges: strace -f git push --force,
// setarch x -R rm -rf ~, bundle exec …, docker run --privileged img dd
// of=/dev/sda. A container's command (for docker, podman and nerdctl the
// one their grammar reads after the image) is judged as if it ran on the
// host when the container reaches the host (containerAccess): its paths
// under a host path bound into it are that host path's, the others its
// own scratch space, or, privileged, the host's.
func (cs *candidates) restOfArgs(program string, args []string) {
	container := slices.Contains(containerCommands, program)
	var host containerHost
	if container {
		var inner []string
		host, inner = containerAccess(program, args)
		host, inner = throughSocket(host, inner)
		if !host.privileged && len(host.binds) == 0 {
			return
		}
		if inner != nil {
			program, args = "", inner
		}
	}
	for i := range args {
		if !cs.startsCommand(program, args, i) {
			continue
		}
		rest := quoteArgs(args[i:])
		if container {
			rest = host.paths(rest)
		}
		if shell.Known(rest) {
			cs.out = append(cs.out, rest)
		}
		return
	}
}

// startsCommand reports whether args[i] of program starts a command it
// runs: a command the policy judges with arguments after it, not an
// option, not a subcommand of program's own (git rm, npm rm, brew
// install) or of the tool it runs (xcrun simctl shutdown), not an entry
// name (pass generate web/new-service), not a message (git commit -m 'rm
// -rf x').
func (cs *candidates) startsCommand(program string, args []string, i int) bool {
	w := args[i]
	switch {
	case strings.HasPrefix(w, "-") || !payloadName(cs.rules, shell.CommandName(w)) || len(args)-i < 2:
		return false
	case i == 0:
		return firstWordRuns(program, w)
	case slices.Contains(entryNameTools, program), slices.Contains(subcommandTools, args[i-1]):
		// pass generate web/new-service: an entry's name; xcrun simctl
		// shutdown all: simctl's own verb.
		return false
	}
	return !isMessageOption(program, args[i-1])
}

// entryNameTools take the names of their entries after their subcommand,
// never a command (pass git … runs git: its first word, judged above).
var entryNameTools = []string{"pass", "gopass"}

// argShapes offers the code shapes of every argument and option value but
// messages (-m 'text', --body=text).
func (cs *candidates) argShapes(program string, args []string) {
	for i, w := range args {
		if i > 0 && isMessageOption(program, args[i-1]) {
			continue
		}
		if strings.HasPrefix(w, "--") {
			if k, v, ok := strings.Cut(w, "="); ok && isMessageOption(program, k) {
				continue
			} else if ok {
				w = v
			}
		}
		cs.shapes(w)
	}
}

// containerShapes offers the code shapes of the arguments (argShapes),
// those of the command a container runs (docker run IMAGE sh -c '…') with
// its paths as the host's (containerHost.paths), and none of them when the
// container reaches nothing of the host: its own rm -rf /var/lib/apt/lists
// is not the host's.
func (cs *candidates) containerShapes(program string, args []string) {
	if !slices.Contains(containerCommands, program) {
		cs.argShapes(program, args)
		return
	}
	host, inner := containerAccess(program, args)
	if inner == nil {
		cs.argShapes(program, args)
		return
	}
	cs.argShapes(program, args[:len(args)-len(inner)])
	if !host.privileged && len(host.binds) == 0 {
		return
	}
	in := &candidates{rules: cs.rules, home: cs.home}
	in.argShapes("", inner)
	for _, c := range in.out {
		cs.add(host.paths(c))
	}
}

// processFiles offers what a file handed over as <(echo 'code') holds:
// nmap --script, a config, a script; what the substitution prints is what
// the program reads.
func (cs *candidates) processFiles(res *shell.Result, args []string) {
	for _, a := range args {
		for _, u := range res.Unknowns(a) {
			if u.Kind != shell.ProcessFile {
				continue
			}
			for _, p := range u.Execs {
				if text, ok := shell.ProducedText(p); ok {
					cs.lines(text)
				}
			}
		}
	}
}

// stdin offers the commands in the program's standard input. ed, mysql,
// gdb and friends read commands there and run a line starting with ! in
// a shell; tclsh, jshell, expect run exec/system calls written in it.
func (cs *candidates) stdin(ex *shell.Exec, args []string) {
	in := ex.Stdin
	if in == nil {
		return
	}
	if in.HasText {
		cs.lines(in.Text)
	}
	filters := filtersToShell(args)
	for _, p := range in.Producers {
		if text, ok := shell.ProducedText(p); ok {
			cs.piped(ex.Name, text, filters)
		}
	}
}

// filtersToShell reports whether an option names a bare shell (split
// --filter=sh): the program hands its input to that shell.
func filtersToShell(args []string) bool {
	return slices.ContainsFunc(args, func(a string) bool {
		_, v, ok := strings.Cut(a, "=")
		return ok && strings.HasPrefix(a, "-") && shell.IsShell(shell.CommandName(v))
	})
}

// piped offers the commands in text piped into program: all of it when
// the program filters it through a shell, a line starting with !, and the
// exec/system calls of code piped into a stdin runner (echo 'exec rm -rf
// ~' | tclsh).
func (cs *candidates) piped(program, text string, filters bool) {
	if filters {
		cs.add(text)
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(strings.TrimSpace(line), "!"):
			cs.add(trimLead(line))
			cs.shapes(line) // cpan's ! runs perl: ! system("cmd")
		case shell.RunsStdin(program):
			cs.shapes(line)
		}
	}
}

// writtenConfigs offers what a file this command line wrote holds when it
// is handed to this program as a config, script, hook or search
// directory. Project runners read their files from the working directory
// (Makefile, package.json, .git/hooks): make, npm run, git commit.
func (cs *candidates) writtenConfigs(ex *shell.Exec, res *shell.Result, args []string) {
	if len(res.Written) == 0 || slices.Contains(inertCommands, ex.Name) {
		return
	}
	vals := slices.Clone(args)
	for _, v := range ex.Env {
		vals = append(vals, v)
	}
	vals = append(vals, gluedOptionValues(args)...)
	vals = append(vals, ex.Dir, ex.Dir+"/.git/hooks")
	for _, v := range vals {
		for _, text := range writtenUnder(res.Written, shell.ResolvePath(ex.Dir, v)) {
			cs.add(text)
			cs.lines(text)
		}
	}
}

// gluedOptionValues are the values glued to options: --config=f, and after a
// colon (tshark -Xlua_script:f).
func gluedOptionValues(args []string) []string {
	var out []string
	for _, v := range args {
		if _, val, ok := strings.Cut(v, "="); ok {
			out = append(out, val)
		} else if _, val, ok := strings.Cut(v, ":"); ok && strings.HasPrefix(v, "-") {
			out = append(out, val)
		}
	}
	return out
}

// codeLiterals offers the string literals of interpreter code, which
// count as commands only when the code runs commands (system, exec,
// spawn, popen, | "sh"): a string it only prints is not one.
func (cs *candidates) codeLiterals(ex *shell.Exec) {
	if len(ex.CodeLiterals) == 0 || !runsCommandsRe.MatchString(ex.Text) {
		return
	}
	for i, l := range ex.CodeLiterals {
		cs.shapes(l)
		if payloadName(cs.rules, shell.CommandName(l)) && i+1 < len(ex.CodeLiterals) {
			// An argument vector: Deno.Command("rm", {args: ["-rf", …]}).
			cs.add(quoteArgs(ex.CodeLiterals[i:min(len(ex.CodeLiterals), i+8)]))
		}
	}
}

// shapes offers the ways a word may hold a command: itself, after a key=
// or scheme: prefix, after leading punctuation (!cmd, ;cmd, |cmd, }; cmd),
// after a short option glued to it (-Hcmd), the pieces of a
// comma-separated argv (sh,-c,cmd), and the string literals and bracketed
// bodies of code (system("cmd"), \write18{cmd}, %(cmd)).
func (cs *candidates) shapes(w string) {
	if !strings.ContainsAny(w, " \t\n") {
		return // a command that can do harm has arguments
	}
	cs.add(trimLead(w))
	head, _, _ := strings.Cut(w, " ")
	for i, r := range head {
		if r == '=' || r == ':' {
			cs.add(trimLead(w[i+1:]))
		}
	}
	if len(head) > 2 && head[0] == '-' && head[1] != '-' {
		cs.add(trimLead(w[2:]))
	}
	if first, rest, ok := strings.Cut(trimLead(w), " "); ok && (strings.HasPrefix(first, ".") || len(first) <= 6) {
		cs.add(rest) // sqlite3 .system cmd, sed 1e cmd, expect spawn cmd, mysql system cmd
	}
	cs.splitArgv(w)
	if strings.Contains(head, ",") {
		cs.commaArgv(w)
	}
	if strings.ContainsAny(w, "\"'{(`") {
		cs.codeBodies(w)
	}
}

// commaArgv offers the pieces of a comma-separated argv (sh,-c,cmd), each
// after a key= of its own.
func (cs *candidates) commaArgv(w string) {
	for _, p := range strings.Split(w, ",") {
		if _, v, ok := strings.Cut(p, "="); ok && !strings.Contains(p[:strings.Index(p, "=")], " ") {
			p = v
		}
		if strings.Contains(p, " ") {
			cs.add(trimLead(p))
		}
	}
}

// codeBodies offers the bracketed bodies of code and the string literals
// in them and in w.
func (cs *candidates) codeBodies(w string) {
	for _, m := range groupRe.Get().FindAllStringSubmatch(w, maxEmbedded) {
		body := m[1] + m[2] + m[3]
		cs.add(trimLead(strings.TrimPrefix(body, "shell ")))
		var lits []string
		for _, q := range quotedRe.Get().FindAllStringSubmatch(body, maxEmbedded) {
			cs.add(trimLead(q[1] + q[2]))
			lits = append(lits, q[1]+q[2])
		}
		if len(lits) > 1 && payloadName(cs.rules, shell.CommandName(lits[0])) {
			// An argument vector in any language: System.cmd("rm",
			// ["-rf", "/etc"]), ProcessBuilder("rm", "-rf", "/").
			cs.add(quoteArgs(lits[:min(len(lits), 8)]))
		}
	}
	for _, q := range quotedRe.Get().FindAllStringSubmatch(w, maxEmbedded) {
		cs.add(trimLead(q[1] + q[2]))
		cs.splitArgv(q[1] + q[2])
	}
}

// splitArgv offers a shell command line as Java's Runtime.exec(String)
// runs it, split on spaces without quoting: exec("sh -c $@|sh _ echo rm
// -rf ~") is sh -c '$@|sh' _ echo rm -rf ~.
func (cs *candidates) splitArgv(s string) {
	if f := strings.Fields(trimLead(s)); len(f) > 3 && shell.IsShell(shell.CommandName(f[0])) && f[1] == "-c" {
		cs.add(quoteArgs(f))
	}
}

// trimLead drops what comes before a command in shell escapes: ! ; | & }
// ) : and \! (mysql), and surrounding space.
func trimLead(s string) string {
	s = strings.TrimLeft(s, " \t\n!;|&}):\\")
	// make's recipe prefixes (-rm, @rm, +rm): a command never starts so.
	// A one-letter option ("-i ~/.ssh/k", handed to ssh) is no prefix.
	if !shortOption(s) {
		s = strings.TrimLeft(s, "-@+")
	}
	return strings.TrimSpace(s)
}

// shortOption reports whether s starts with a one-letter option and its
// value: -i key, -p 2222.
func shortOption(s string) bool {
	return len(s) >= 2 && s[0] == '-' && s[1] != '-' && (len(s) == 2 || s[2] == ' ' || s[2] == '=')
}

// payloadName reports whether name is a command rules judge.
func payloadName(rules []*Rule, name string) bool {
	if name == "" {
		return false
	}
	if shell.IsShell(name) || shell.Interpreter(name) != "" || slices.Contains(harmVerbs, name) {
		return true
	}
	for _, r := range rules {
		if r.exec != nil && !slices.Contains(r.Commands, "*") && r.judges(name) {
			return true
		}
	}
	return false
}

// firstWordRuns reports whether the first argument w of program names a
// command it runs rather than one of its own subcommands (git rm, cargo
// install): a path, a shell or interpreter, or a program no tool names a
// subcommand after.
func firstWordRuns(program, w string) bool {
	name := shell.CommandName(w)
	return strings.Contains(w, "/") || shell.IsShell(name) || shell.Interpreter(name) != "" ||
		name == "dd" || name == "git" && program != "git" ||
		!slices.Contains(subcommandTools, program) && !slices.Contains(platformCLIs, program) ||
		slices.Contains(binRunners, program) && !slices.Contains(binRunnerCommands, name)
}

// binRunners run a project's installed binary when their first word is
// not one of their own commands (pnpm sst remove, yarn prisma migrate
// reset): the word is a command they run.
var binRunners = []string{"pnpm", "yarn"}

// binRunnerCommands are pnpm's and yarn's own commands.
var binRunnerCommands = []string{"add", "install", "i", "remove", "rm", "uninstall", "un", "update", "up", "upgrade", "upgrade-interactive",
	"run", "exec", "dlx", "create", "init", "publish", "pack", "link", "unlink", "list", "ls", "outdated", "audit", "why", "store",
	"prune", "rebuild", "rb", "test", "t", "start", "config", "set", "cache", "info", "view", "import", "patch", "patch-commit",
	"deploy", "env", "setup", "bin", "root", "licenses", "workspace", "workspaces", "global", "version", "login", "logout",
	"whoami", "dedupe", "fetch", "node", "plugin", "constraints", "tag", "npm", "explain", "stage", "unplug", "help", "self-update"}

// subcommandTools name their own subcommands after commands (git rm, npm
// rm, docker cp, brew install): their first word is not a command they
// run. Any other program given a command name first runs it (multitime rm
// -rf ~, distcc rm …, fakeroot rm …), the way the wrappers the analysis
// knows do.
var subcommandTools = []string{
	"git", "hg", "svn", "bzr", "fossil", "darcs", "brew", "port", "apt", "apt-get", "aptitude", "dnf", "yum",
	"pacman", "yay", "paru", "apk", "snap", "flatpak", "nix", "nix-env", "guix", "pkg", "pkgin", "emerge",
	"go", "pip", "pip3", "pipx", "conda", "mamba", "micromamba", "uv", "rye", "pdm", "hatch", "opam",
	"stack", "rustup", "bun", "deno", "composer", "kubectl", "systemctl", "launchctl", "service",
	"restic", "borg", "rclone", "mc", "gsutil", "virsh", "vboxmanage", "lxc", "incus", "ctr", "crictl",
	"nerdctl", "buildah", "skopeo", "ostree", "rpm-ostree", "zfs", "zpool", "btrfs", "lvm", "mdadm",
	"ip", "nmcli", "tc", "bridge", "firewall-cmd", "ufw", "iptables", "nft", "ipset", "redis-cli",
	"mongosh", "etcdctl", "consul", "vault", "nomad", "terraform", "tofu", "pulumi", "ansible-galaxy",
	"hadoop", "hdfs", "gcloud", "az", "aws", "doctl", "keyctl", "gpg", "gpg2", "security", "sfdx", "sf",
	"task", "todo.sh", "trash", "gio", "kioclient", "kde-open", "xdg-mime", "ffmpeg", "sox", "convert",
	"magick", "jj", "sl", "repo", "west", "idf.py", "platformio", "pio", "arduino-cli", "esptool.py",
	"adb", "fastboot", "idevice", "xcrun", "simctl", "swift", "dotnet", "mix", "rebar3", "lein", "clj",
	"sbt", "mvn", "gradle", "ant", "bazel", "buck", "pants", "please", "meson", "ninja", "cmake", "scons",
	"conan", "vcpkg", "just", "task", "mise", "asdf", "rtx", "nvm", "fnm", "volta", "sdk", "pyenv", "rbenv",
	"tmux", "screen", "zellij", "abduco", "dtach", "busctl", "loginctl", "machinectl", "coredumpctl",
	"hostnamectl", "localectl", "timedatectl", "networkctl", "resolvectl", "udevadm", "journalctl",
	"borgmatic", "duplicity", "rsnapshot", "timeshift", "snapper", "tarsnap", "rdiff-backup",
}

// inertCommands only move or inspect a file they are given: they never
// run what it holds.
var inertCommands = []string{"chmod", "chown", "chgrp", "rm", "mv", "cp", "wc", "diff", "stat", "file", "ls", "cat", "touch", "mkdir", "sha256sum", "shasum", "md5sum"}

// writtenUnder returns the written files at p or directly inside the
// directory p.
func writtenUnder(written map[string]string, p string) []string {
	if p == "" {
		return nil
	}
	var out []string
	for path, text := range written {
		if path == p || strings.TrimSuffix(path[:strings.LastIndex(path, "/")+1], "/") == p {
			out = append(out, text)
		}
	}
	slices.Sort(out) // map order must not change the verdict's reason
	return out
}

// containerHost is what of the host a container reaches.
type containerHost struct {
	// privileged: the whole host (--privileged, the host's / bound, the
	// container daemon's socket bound, a disk given as a device).
	privileged bool
	// binds are the host paths bound into it.
	binds []bind
}

// bind is a host path (src) seen inside a container at dst, read-only
// or not.
type bind struct {
	src, dst string
	ro       bool
}

// containerAccess reads what of the host a container command reaches and,
// for the programs with a grammar that names their run, create and exec
// subcommands (docker, podman, nerdctl), the command the container runs
// (nil for the others, whose arguments are searched for one). A host path
// is bound by -v/--volume SRC:DST[:OPTS] or --mount
// type=bind,source=SRC,target=DST[,readonly] (src=, dst=, destination=),
// in any of the spellings the grammar reads (--volume=…, -vSRC:DST).
func containerAccess(program string, args []string) (containerHost, []string) {
	var h containerHost
	var vols, mounts []string
	var inner []string
	if g := effects.GrammarOf(program); g != nil && len(g.Subs) > 0 {
		cmd := effects.ParseCommand(program, args, nil)
		if cmd.Sub == 0 {
			return h, nil
		}
		inner = cmd.Words[min(cmd.Sub+1, len(cmd.Words)):]
		priv, _ := cmd.Value("privileged")
		h.privileged = cmd.Has("privileged") && priv != "false"
		h.privileged = h.privileged || slices.ContainsFunc(cmd.Values("device"), diskDevice) || hostNamespaces(&cmd)
		vols, mounts = cmd.Values("v", "volume"), cmd.Values("mount")
	} else {
		h.privileged = slices.ContainsFunc(args, func(a string) bool {
			return a == "--privileged" || strings.HasPrefix(a, "--privileged=t") || strings.Contains(a, "security.privileged=true")
		})
		vols, mounts = rawContainerValues(args)
	}
	for _, v := range vols {
		src, rest, _ := strings.Cut(v, ":")
		dst, opts, _ := strings.Cut(rest, ":")
		h.bind(src, dst, slices.Contains(strings.Split(opts, ","), "ro"))
	}
	for _, m := range mounts {
		h.mount(m)
	}
	return h, inner
}

// containerGivesHost: a container given the host — privileged, the
// host's processes or its / (writable), the container daemon's socket, or
// a system directory or the home directory bound writable — that runs
// what gemini-guard cannot judge: no command (the image's own), a shell
// reading its standard input or the terminal (docker run -it -v /:/host
// alpine sh), chroot or nsenter into the host without a command. What it
// runs is then any command, as root over those host paths. A known command
// is judged on the host paths instead (restOfArgs); a writable bind of
// another path outside the workspace with such a command is a maybe
// (strict mode denies it).
func (c *Call) containerGivesHost(args []string) Finding {
	if !slices.Contains(containerCommands, c.Ex.Name) || effects.GrammarOf(c.Ex.Name) == nil {
		return Finding{}
	}
	h, inner := containerAccess(c.Ex.Name, args)
	h, inner = throughSocket(h, inner)
	if inner == nil || !opaqueContainerCommand(inner) {
		return Finding{}
	}
	what := ""
	if h.privileged {
		what = "the host (privileged, its processes, its / or the container daemon's socket)"
	}
	maybe := ""
	for _, b := range h.binds {
		if b.ro || what != "" {
			continue
		}
		switch loc := c.Loc(b.src); loc.Place {
		case Root, CoreSystem, System, Home, OtherHome, Ancestor:
			what = b.src + " (" + loc.Place.String() + ") writable"
		case InHome, Protected, Unknown:
			maybe = b.src
		}
	}
	run := "the image's own command"
	if len(inner) > 0 {
		run = shell.CommandName(inner[0]) + " with no command to judge"
	}
	switch {
	case what != "":
		return hit(c.Ex.Name + " gives a container " + what + " and runs " + run + ": whatever runs there changes the machine as root")
	case maybe != "":
		return Finding{Maybe: true, What: c.Ex.Name + " binds " + maybe + " writable into a container that runs " + run}
	}
	return Finding{}
}

// opaqueContainerCommand: what a container runs cannot be judged — no
// command (the image's), a shell with no -c or script (it reads its
// input), or chroot/nsenter with no command after their operands.
func opaqueContainerCommand(inner []string) bool {
	if len(inner) == 0 {
		return true
	}
	name := shell.CommandName(inner[0])
	rest := inner[1:]
	switch {
	case shell.IsShell(name):
		return !slices.ContainsFunc(rest, func(a string) bool {
			return !strings.HasPrefix(a, "-") || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "c")
		})
	case name == "chroot":
		return len(rest) <= 1
	case name == "nsenter":
		p := shell.ParseArgs(rest, &shell.OptSpec{Short: "t:S:G:", Long: []string{"target=", "setuid=", "setgid=", "wd=?", "root=?"}})
		return len(p.Operands) == 0 || shell.IsShell(shell.CommandName(p.Operands[0])) && len(p.Operands) == 1
	}
	return false
}

// rawContainerValues are the values of -v, --volume, --mount and --bind
// (and a device given to one) in the arguments of a container program
// without a grammar (lxc, systemd-nspawn, ctr).
func rawContainerValues(args []string) (vols, mounts []string) {
	for i, a := range args {
		k, v, eq := strings.Cut(a, "=")
		if !eq && i+1 < len(args) {
			v = args[i+1]
		}
		switch k {
		case "-v", "--volume", "--bind", "--bind-ro":
			vols = append(vols, v)
		case "--mount":
			mounts = append(mounts, v)
		}
	}
	return vols, mounts
}

// throughSocket follows a container that runs another container through
// the host's daemon (docker run -v /var/run/docker.sock:… docker:cli
// docker run -v /:/h alpine rm -rf /h/etc): the inner container's binds
// are the host's paths, and its command is the one judged. A few levels.
func throughSocket(h containerHost, inner []string) (containerHost, []string) {
	for range 4 {
		if !h.privileged || len(inner) < 2 {
			break
		}
		name := shell.CommandName(inner[0])
		if effects.GrammarOf(name) == nil || !slices.Contains(containerCommands, name) {
			break
		}
		next, nextInner := containerAccess(name, inner[1:])
		if nextInner == nil {
			break
		}
		h, inner = next, nextInner
	}
	return h, inner
}

// hostNamespaces: a container that shares the host's processes
// (--pid=host: its root signals and traces the host's) or holds the
// capabilities that reach past it (--cap-add ALL, SYS_ADMIN, SYS_MODULE,
// SYS_PTRACE, DAC_READ_SEARCH).
func hostNamespaces(cmd *effects.Command) bool {
	if slices.Contains(cmd.Values("pid"), "host") {
		return true
	}
	return slices.ContainsFunc(cmd.Values("cap-add"), func(c string) bool {
		c = strings.TrimPrefix(strings.ToUpper(c), "CAP_")
		return c == "ALL" || c == "SYS_ADMIN" || c == "SYS_MODULE" || c == "SYS_PTRACE" || c == "DAC_READ_SEARCH"
	})
}

// diskDevice: a disk given to a container (--device /dev/sda).
func diskDevice(d string) bool {
	return strings.HasPrefix(d, "/dev/sd") || strings.HasPrefix(d, "/dev/nvme") || strings.HasPrefix(d, "/dev/disk") || strings.HasPrefix(d, "/dev/mapper")
}

// mount reads --mount's comma-separated keys: a bind of a host path (its
// type bind, or a source that is a path).
func (h *containerHost) mount(m string) {
	typ, src, dst, ro := "", "", "", false
	for _, f := range strings.Split(m, ",") {
		k, v, _ := strings.Cut(f, "=")
		switch strings.ToLower(k) {
		case "type":
			typ = v
		case "source", "src":
			src = v
		case "target", "dst", "destination":
			dst = v
		case "readonly", "ro":
			ro = v == "" || v == "true" || v == "1"
		}
	}
	if typ == "" && strings.HasPrefix(src, "/") || typ == "bind" {
		h.bind(src, dst, ro)
	}
}

// bind records the host path src bound at dst: a path (absolute or
// relative), not a named volume. The host's / and the container daemon's
// socket give the container the host.
func (h *containerHost) bind(src, dst string, ro bool) {
	if src == "" || dst == "" || !strings.HasPrefix(src, "/") && !strings.HasPrefix(src, ".") {
		return
	}
	if path.Clean(src) == "/" && !ro || daemonSocket(src) {
		h.privileged = true
	}
	h.binds = append(h.binds, bind{src: src, dst: dst, ro: ro})
}

// daemonSocket: the socket of a container daemon (docker.sock,
// podman.sock, containerd.sock): whoever holds it starts containers with
// the host's / bound, as root.
func daemonSocket(p string) bool {
	base := path.Base(p)
	return base == "docker.sock" || base == "podman.sock" || base == "containerd.sock" || base == "dockershim.sock" || base == "crio.sock"
}

// containerScratch is where a path of the container's own file system is
// judged: scratch space the container takes with it.
const containerScratch = "/tmp/gemini-guard-container"

// paths rewrites the absolute paths of a command run inside the container
// as the paths they are on the host: under a bind, the host path bound
// (rm -rf /h/dev is rm -rf /home/dev with /home at /h; cat /k/id_rsa is
// cat ~/.ssh/id_rsa with ~/.ssh at /k); elsewhere the host's own when the
// container is privileged, its scratch space when it is not. One pass
// over the text.
func (h containerHost) paths(cmd string) string {
	var b strings.Builder
	for i := 0; i < len(cmd); {
		if cmd[i] != '/' || i > 0 && strings.IndexByte(" '\"=:;(`\t\n|&<>", cmd[i-1]) < 0 {
			b.WriteByte(cmd[i])
			i++
			continue
		}
		j := i
		for j < len(cmd) && strings.IndexByte(" '\";|&)`\t\n<>", cmd[j]) < 0 {
			j++
		}
		b.WriteString(h.hostPath(cmd[i:j]))
		i = j
	}
	return b.String()
}

// hostPath is the host path of the container's absolute path p.
func (h containerHost) hostPath(p string) string {
	best, bestLen := -1, -1
	for k, m := range h.binds {
		dst := strings.TrimSuffix(m.dst, "/")
		if (p == dst || strings.HasPrefix(p, dst+"/") || dst == "") && len(dst) > bestLen {
			best, bestLen = k, len(dst)
		}
	}
	if best >= 0 {
		src := strings.TrimSuffix(h.binds[best].src, "/")
		if rest := p[bestLen:]; src != "" || rest != "" {
			return src + rest
		}
		return "/"
	}
	if h.privileged {
		return p
	}
	return containerScratch + p
}

// privilegedContainer reports whether a container command reaches the
// whole host (containerAccess).
func privilegedContainer(program string, args []string) bool {
	h, _ := containerAccess(program, args)
	return h.privileged
}

// quoteArgs renders resolved words as shell text for a new analysis.
func quoteArgs(args []string) string {
	var b strings.Builder
	for i, a := range args {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("'" + strings.ReplaceAll(a, "'", `'\''`) + "'")
	}
	return b.String()
}
