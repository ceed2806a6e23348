package policy

import (
	"slices"
	"strings"

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
}

// messageOptions carry human text (a commit message, an issue body).
var messageOptions = []string{
	"-m", "--message", "--body", "--title", "--description", "--subject", "--comment", "--notes",
	"--note", "--summary", "--reason", "-t", "--text", "--msg", "-b",
}

// shortBodyTools use -b and -t for a body and a title (gh issue create -b);
// elsewhere -b and -t are ordinary options (gimp -b runs a batch script).
var shortBodyTools = []string{"gh", "glab", "hub", "tea", "jira", "git", "hg", "svn", "notify-send", "mail", "mailx", "mutt", "osascript", "terminal-notifier", "gitea", "lab", "bitbucket"}

// isMessageOption reports whether opt of program carries human text.
func isMessageOption(program, opt string) bool {
	if opt == "-b" || opt == "-t" {
		return slices.Contains(shortBodyTools, program)
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

// init attaches checkEmbeddedCommand to its rule: the check judges with
// the whole table, so the table literal cannot name it (an initialisation
// cycle).
func init() {
	for _, r := range table {
		if r.ID == "exec.embedded-command" {
			r.exec = checkEmbeddedCommand
		}
	}
}

// checkEmbeddedCommand judges the commands another program would run for
// c: see the comment at the top of this file.
func checkEmbeddedCommand(c *Call) Finding {
	ex := c.Ex
	if ex.Name == "" || shell.IsShell(ex.Name) {
		return Finding{}
	}
	var cands []string
	if slices.Contains(dataCommands, ex.Name) {
		// Its arguments are data, but its environment is not: LESSOPEN,
		// PAGER and friends are run.
		add := func(s string) {
			if s = strings.TrimSpace(s); len(cands) < maxEmbedded && shell.Known(s) && !strings.HasPrefix(s, "-") && !slices.Contains(cands, s) {
				cands = append(cands, s)
			}
		}
		for _, v := range ex.Env {
			codeShapes(v, add)
		}
		// A pager's start-up command (less +'!cmd', more +'!cmd') runs
		// its shell escape before the file is shown.
		for _, a := range ex.Args[1:] {
			if rest, ok := strings.CutPrefix(a, "+"); ok && strings.Contains(rest, "!") {
				codeShapes(rest, add)
			}
		}
	} else {
		cands = embeddedCandidates(ex, c.Res)
	}
	if len(cands) == 0 {
		return Finding{}
	}
	inner := *c.Ctx
	inner.Disabled = map[string]bool{
		"exec.embedded-command": true, "shell.parse-error": true, "shell.too-complex": true,
		"shell.dynamic-code": true, "shell.interpreter-code": true,
	}
	for id := range c.Ctx.Disabled {
		inner.Disabled[id] = true
	}
	inner.Strict = false
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
		for _, f := range Evaluate(res, &inner, false) {
			return hit(ex.Name + " runs a command given to it as data, and that command " + f.Describe() + " (" + f.Rule.ID + ")")
		}
	}
	return Finding{}
}

// embeddedCandidates lists the texts in ex's arguments and environment
// that ex may run as commands, at most maxEmbedded.
func embeddedCandidates(ex *shell.Exec, res *shell.Result) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(s)
		// A command never starts with "-": "-i ~/.ssh/k -p 2222" is the
		// rest of an ssh command line (mosh --ssh='ssh -i k'), options
		// handed to ssh, not a command.
		if len(out) >= maxEmbedded || len(s) < 3 || len(s) > 8192 || strings.HasPrefix(s, "-") || !shell.Known(s) || slices.Contains(out, s) {
			return
		}
		out = append(out, s)
	}
	args := ex.Args[1:]
	container := slices.Contains(containerCommands, ex.Name)
	// The rest of the argument list, from the first word that names a
	// command the policy judges: strace -f git push --force, setarch x -R
	// rm -rf ~, bundle exec …, docker run --privileged img dd of=/dev/sda.
	for i, w := range args {
		if container && !privilegedContainer(args) {
			break // the command runs inside an isolated container
		}
		if strings.HasPrefix(w, "-") || !payloadName(shell.CommandName(w)) || len(args)-i < 2 {
			continue
		}
		if i == 0 && !firstWordRuns(ex.Name, w) {
			continue // a subcommand: git rm, npm rm, brew install
		}
		if i > 0 && isMessageOption(ex.Name, args[i-1]) {
			continue
		}
		rest := quoteArgs(args[i:])
		if container {
			rest = hostPaths(rest, hostRootMounts(args))
		}
		if shell.Known(rest) {
			out = append(out, rest)
		}
		break
	}
	for i, w := range args {
		if i > 0 && isMessageOption(ex.Name, args[i-1]) {
			continue
		}
		if strings.HasPrefix(w, "--") {
			if k, v, ok := strings.Cut(w, "="); ok && isMessageOption(ex.Name, k) {
				continue
			} else if ok {
				w = v
			}
		}
		codeShapes(w, add)
	}
	for _, v := range ex.Env {
		codeShapes(v, add)
	}
	// A file handed over as <(echo 'code'): nmap --script, a config, a
	// script; what the substitution prints is what the program reads.
	for _, a := range args {
		for _, u := range res.Unknowns(a) {
			if u.Kind != shell.ProcessFile {
				continue
			}
			for _, p := range u.Execs {
				if text, ok := shell.ProducedText(p); ok {
					for _, line := range strings.Split(text, "\n") {
						codeShapes(line, add)
					}
				}
			}
		}
	}
	if in := ex.Stdin; in != nil && in.HasText {
		// ed, mysql, gdb and friends read commands on standard input and
		// run a line starting with ! in a shell; tclsh, jshell, expect run
		// exec/system calls written in it.
		for _, line := range strings.Split(in.Text, "\n") {
			codeShapes(line, add)
		}
	}
	if in := ex.Stdin; in != nil {
		// split --filter=sh, or any option naming a bare shell: the
		// program hands its input to that shell.
		filtersToShell := slices.ContainsFunc(args, func(a string) bool {
			_, v, ok := strings.Cut(a, "=")
			return ok && strings.HasPrefix(a, "-") && shell.IsShell(shell.CommandName(v))
		})
		for _, p := range in.Producers {
			text, ok := shell.ProducedText(p)
			if !ok {
				continue
			}
			if filtersToShell {
				add(text)
			}
			for _, line := range strings.Split(text, "\n") {
				switch {
				case strings.HasPrefix(strings.TrimSpace(line), "!"):
					add(trimLead(line))
					codeShapes(line, add) // cpan's ! runs perl: ! system("cmd")
				case shell.RunsStdin(ex.Name):
					// tclsh, expect, jshell: exec/system calls in the code
					// piped in (echo 'exec rm -rf ~' | tclsh).
					codeShapes(line, add)
				}
			}
		}
	}
	if len(res.Written) > 0 && !slices.Contains(inertCommands, ex.Name) {
		// A file this command line wrote, handed to this program as a
		// config, script, hook or search directory: judge what it holds.
		vals := slices.Clone(args)
		for _, v := range ex.Env {
			vals = append(vals, v)
		}
		for _, v := range args {
			if _, val, ok := strings.Cut(v, "="); ok {
				vals = append(vals, val)
			} else if _, val, ok := strings.Cut(v, ":"); ok && strings.HasPrefix(v, "-") {
				vals = append(vals, val) // tshark -Xlua_script:f
			}
		}
		// Project runners read their files from the working directory
		// (Makefile, package.json, .git/hooks): make, npm run, git commit.
		vals = append(vals, ex.Dir, ex.Dir+"/.git/hooks")
		for _, v := range vals {
			for _, text := range writtenUnder(res.Written, shell.ResolvePath(ex.Dir, v)) {
				add(text)
				for _, line := range strings.Split(text, "\n") {
					codeShapes(line, add)
				}
			}
		}
	}
	// The string literals of interpreter code count as commands only when
	// the code runs commands (system, exec, spawn, popen, | "sh"): a
	// string it only prints is not one.
	if len(ex.CodeLiterals) > 0 && runsCommandsRe.MatchString(ex.Text) {
		for i, l := range ex.CodeLiterals {
			codeShapes(l, add)
			if payloadName(shell.CommandName(l)) && i+1 < len(ex.CodeLiterals) {
				// An argument vector: Deno.Command("rm", {args: ["-rf", …]}).
				add(quoteArgs(ex.CodeLiterals[i:min(len(ex.CodeLiterals), i+8)]))
			}
		}
	}
	return out
}

// codeShapes offers the ways a word may hold a command: itself, after a
// key= or scheme: prefix, after leading punctuation (!cmd, ;cmd, |cmd,
// }; cmd), after a short option glued to it (-Hcmd), the pieces of a
// comma-separated argv (sh,-c,cmd), and the string literals and bracketed
// bodies of code (system("cmd"), \write18{cmd}, %(cmd)).
func codeShapes(w string, add func(string)) {
	if !strings.ContainsAny(w, " \t\n") {
		return // a command that can do harm has arguments
	}
	add(trimLead(w))
	head, _, _ := strings.Cut(w, " ")
	for i, r := range head {
		if r == '=' || r == ':' {
			add(trimLead(w[i+1:]))
		}
	}
	if len(head) > 2 && head[0] == '-' && head[1] != '-' {
		add(trimLead(w[2:]))
	}
	if first, rest, ok := strings.Cut(trimLead(w), " "); ok && (strings.HasPrefix(first, ".") || len(first) <= 6) {
		add(rest) // sqlite3 .system cmd, sed 1e cmd, expect spawn cmd, mysql system cmd
	}
	splitArgv(w, add)
	if strings.Contains(head, ",") {
		for _, p := range strings.Split(w, ",") {
			if _, v, ok := strings.Cut(p, "="); ok && !strings.Contains(p[:strings.Index(p, "=")], " ") {
				p = v
			}
			if strings.Contains(p, " ") {
				add(trimLead(p))
			}
		}
	}
	if strings.ContainsAny(w, "\"'{(`") {
		for _, m := range groupRe.Get().FindAllStringSubmatch(w, maxEmbedded) {
			body := m[1] + m[2] + m[3]
			add(trimLead(strings.TrimPrefix(body, "shell ")))
			var lits []string
			for _, q := range quotedRe.Get().FindAllStringSubmatch(body, maxEmbedded) {
				add(trimLead(q[1] + q[2]))
				lits = append(lits, q[1]+q[2])
			}
			if len(lits) > 1 && payloadName(shell.CommandName(lits[0])) {
				// An argument vector in any language: System.cmd("rm",
				// ["-rf", "/etc"]), ProcessBuilder("rm", "-rf", "/").
				add(quoteArgs(lits[:min(len(lits), 8)]))
			}
		}
		for _, q := range quotedRe.Get().FindAllStringSubmatch(w, maxEmbedded) {
			add(trimLead(q[1] + q[2]))
			splitArgv(q[1]+q[2], add)
		}
	}
}

// splitArgv offers a shell command line as Java's Runtime.exec(String)
// runs it, split on spaces without quoting: exec("sh -c $@|sh _ echo rm
// -rf ~") is sh -c '$@|sh' _ echo rm -rf ~.
func splitArgv(s string, add func(string)) {
	if f := strings.Fields(trimLead(s)); len(f) > 3 && shell.IsShell(shell.CommandName(f[0])) && f[1] == "-c" {
		add(quoteArgs(f))
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

// payloadName reports whether name is a command the policy judges.
func payloadName(name string) bool {
	if name == "" {
		return false
	}
	if shell.IsShell(name) || shell.Interpreter(name) != "" || slices.Contains(harmVerbs, name) {
		return true
	}
	for _, r := range table {
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
		!slices.Contains(subcommandTools, program) && !slices.Contains(platformCLIs, program)
}

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

// privilegedContainer reports whether a container command reaches the
// host: --privileged, or the host's / (or a device) bound into it.
func privilegedContainer(args []string) bool {
	for i, a := range args {
		if a == "--privileged" || strings.HasPrefix(a, "--privileged=t") || strings.Contains(a, "security.privileged=true") {
			return true
		}
		v := a
		if (a == "-v" || a == "--volume" || a == "--mount" || a == "--device") && i+1 < len(args) {
			v = args[i+1]
		}
		if strings.HasPrefix(v, "/:") || strings.Contains(v, "src=/,") || strings.Contains(v, "source=/,") || strings.HasPrefix(v, "/dev/sd") || strings.HasPrefix(v, "/dev/nvme") {
			return true
		}
	}
	return false
}

// hostRootMounts returns where a container command mounts the host's /
// (-v /:/host, --volume=/:/mnt:rw, --mount type=bind,source=/,target=/h).
func hostRootMounts(args []string) []string {
	var out []string
	for i, a := range args {
		v := a
		if (a == "-v" || a == "--volume" || a == "--mount") && i+1 < len(args) {
			v = args[i+1]
		} else if k, val, ok := strings.Cut(a, "="); ok && (k == "--volume" || k == "--mount") {
			v = val
		}
		if rest, ok := strings.CutPrefix(v, "/:"); ok {
			t, _, _ := strings.Cut(rest, ":")
			out = append(out, t)
			continue
		}
		if strings.Contains(v, "source=/,") || strings.Contains(v, "src=/,") || strings.HasSuffix(v, "source=/") || strings.HasSuffix(v, "src=/") {
			for _, f := range strings.Split(v, ",") {
				if k, t, ok := strings.Cut(f, "="); ok && (k == "target" || k == "dst" || k == "destination") {
					out = append(out, t)
				}
			}
		}
	}
	return out
}

// hostPaths rewrites paths under the mount points of the host's / in a
// command run inside the container as the host paths they are: rm -rf
// /host/etc is rm -rf /etc.
func hostPaths(cmd string, mounts []string) string {
	for _, m := range mounts {
		m = strings.TrimSuffix(m, "/")
		if m == "" || !strings.HasPrefix(m, "/") {
			continue
		}
		cmd = strings.ReplaceAll(cmd, m+"/", "/")
		for _, end := range []string{"'", " ", "\"", ";"} {
			cmd = strings.ReplaceAll(cmd, m+end, "/"+end)
		}
	}
	return cmd
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

var (
	// fetchRe and evalRe find interpreter code that downloads code and
	// evaluates it (issue 12 item 3): urlopen/requests/fetch/open-uri/LWP/
	// file_get_contents of a URL, then exec/eval/Function/load.
	fetchRe = &lazyregexp.Regexp{Expr: `(?i)(urlopen|urlretrieve|requests\.get|httpx\.get|urllib|fetch\s*\(|https?\.get\s*\(|axios|open-uri|URI\.open|Net::HTTP|LWP|HTTP::Tiny|\bget\s*\(\s*["']https?:|file_get_contents\s*\(\s*["']https?:|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|DownloadString|curl|wget)`}
	evalRe  = &lazyregexp.Regexp{Expr: `(\bexec\s*\(|\beval\b|new\s+Function|\bFunction\s*\(|instance_eval|(?:^|[^.\w])load\s*\(|Invoke-Expression|(?i:\biex\b)|\brunpy\b|vm\.run)`}
	urlRe   = &lazyregexp.Regexp{Expr: `https?://`}
	// runsCommandsRe finds the calls through which interpreter code runs
	// a command.
	runsCommandsRe = &lazyregexp.Regexp{Expr: `(?i)(system|exec|spawn|popen|execute|shell|passthru|proc_open|Command|callCommand|getline|\|\s*["'](ba|z|da)?sh\b)`}
)

// checkFetchEval finds interpreter code that fetches code from the network
// and evaluates it, whatever the language's spelling.
func checkFetchEval(h *shell.Hazard, _ *Context) Finding {
	if h.Kind != shell.InterpreterCode || !urlRe.MatchString(h.Text) {
		return Finding{}
	}
	if fetchRe.MatchString(h.Text) && evalRe.MatchString(h.Text) {
		return hit(h.Interpreter + " code downloads code from the network and evaluates it without anyone reading it")
	}
	return Finding{}
}
