package shell

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

// run analyses one resolved command: functions, builtins that change the
// state, wrappers, nested shells and interpreters; everything else is
// emitted as is.
func (a *analyzer) run(f *frame, st *state, ex *Exec) {
	if a.stopped {
		return
	}
	if len(ex.Via) > 64 {
		// Wrappers of wrappers: a Go stack overflow cannot be recovered,
		// so the walk is bounded here whatever the cause.
		a.stop(f, ex.Text, "more than 64 nested wrappers")
		return
	}
	if ex.Name == "" {
		a.emit(f, ex)
		a.dynamicName(f, ex)
		return
	}
	if body, ok := st.funcs[ex.Args[0]]; ok {
		a.callFunc(f, st, ex, body)
		return
	}
	if value, ok := st.aliases[ex.Args[0]]; ok && !slices.Contains(ex.Via, "alias "+ex.Args[0]) {
		a.child(f, st, ex, append(splitWords(value), ex.Args[1:]...), "alias "+ex.Args[0])
		return
	}
	if name := a.renamedName(ex); name != "" && name != ex.Name {
		// A copy or link of a program made earlier in the command.
		c := ex.with(ex.Args, "copy of "+name)
		c.Name = name
		ex = c
	}
	if twin := a.movedTwin(ex); twin != nil {
		a.emit(f, twin) // what the command does to what was moved
	}
	a.rememberCopy(ex)
	a.pipedCode(f, ex)
	if strings.Contains(ex.Args[0], "=") && len(ex.Args) > 1 {
		// `1A=2 cmd` is not an assignment, so bash looks for a command
		// named "1A=2"; the author meant to run cmd with a variable set.
		a.emit(f, ex)
		a.child(f, st, ex, ex.Args[1:], "invalid assignment")
		return
	}
	switch ex.Name {
	// Wrappers: the command they run is what matters.
	case "sudo", "sudoedit":
		a.sudo(f, st, ex)
	case "doas":
		if p := ParseArgs(ex.Args[1:], doasSpec); len(p.Operands) == 0 && p.Has("s") {
			a.child(f, st, ex, []string{"sh"}, "doas -s", func(c *Exec) { c.Sudo = true })
			return
		}
		a.optsThenCommand(f, st, ex, doasSpec, "doas", func(p Args, c *Exec) { c.Sudo = true })
	case "pkexec":
		a.optsThenCommand(f, st, ex, pkexecSpec, "pkexec", func(p Args, c *Exec) { c.Sudo = true })
	case "su", "runuser":
		a.su(f, st, ex)
	case "env":
		a.env(f, st, ex)
	case "npx", "bunx", "pnpx":
		a.npx(f, st, ex)
	case "nohup", "builtin", "unbuffer", "catchsegv", "nocache", "proxychains", "proxychains4", "torsocks", "tsocks":
		a.child(f, st, ex, ex.Args[1:], ex.Name)
	case "busybox", "toybox":
		if len(ex.Args) > 1 && !strings.HasPrefix(ex.Args[1], "-") {
			a.child(f, st, ex, ex.Args[1:], ex.Name)
		} else {
			a.emit(f, ex)
		}
	case "timeout":
		a.countThenCommand(f, st, ex, timeoutSpec, 1)
	case "nice":
		args := ex.Args[1:]
		if len(args) > 0 && niceNumberRe.MatchString(args[0]) {
			args = args[1:]
		}
		a.child(f, st, ex, ParseArgs(args, niceSpec).Operands, "nice")
	case "ionice":
		p := ParseArgs(ex.Args[1:], ioniceSpec)
		if p.Has("p", "P", "u", "pid", "pgid", "uid") {
			a.emit(f, ex)
			return
		}
		a.child(f, st, ex, p.Operands, "ionice")
	case "time":
		a.optsThenCommand(f, st, ex, timeSpec, "time", nil)
	case "stdbuf":
		a.optsThenCommand(f, st, ex, stdbufSpec, "stdbuf", nil)
	case "setsid":
		a.optsThenCommand(f, st, ex, setsidSpec, "setsid", nil)
	case "caffeinate":
		a.optsThenCommand(f, st, ex, caffeinateSpec, "caffeinate", nil)
	case "chroot":
		a.countThenCommand(f, st, ex, chrootSpec, 1)
	case "taskset":
		p := ParseArgs(ex.Args[1:], tasksetSpec)
		if p.Has("p", "pid") {
			a.emit(f, ex)
			return
		}
		a.countThenCommand(f, st, ex, tasksetSpec, 1)
	case "chrt":
		p := ParseArgs(ex.Args[1:], chrtSpec)
		if p.Has("p", "pid") {
			a.emit(f, ex)
			return
		}
		a.countThenCommand(f, st, ex, chrtSpec, 1)
	case "unshare", "nsenter", "firejail":
		a.skipDashWords(f, st, ex)
	case "flock":
		a.flock(f, st, ex)
	case "command":
		a.command(f, st, ex)
	case "exec":
		p := ParseArgs(ex.Args[1:], execSpec)
		if len(p.Operands) == 0 {
			a.emit(f, ex) // exec >file: redirections of the shell itself
			return
		}
		a.child(f, st, ex, p.Operands, "exec")
	case "xargs":
		a.xargs(f, st, ex)
	case "parallel":
		a.parallel(f, st, ex)
	case "watch":
		a.watch(f, st, ex)
	case "script":
		p := ParseArgs(ex.Args[1:], scriptSpec)
		a.emit(f, ex)
		if code, ok := p.Value("c", "command"); ok {
			a.nested(f, st, ex, code, "script -c", nil)
		}
	case "at", "batch":
		a.emit(f, ex)
		if !ParseArgs(ex.Args[1:], atSpec).Has("f", "l", "r", "d", "c") {
			a.stdinCode(f, st, ex, "sh")
		}

	// Builtins that change what later commands see.
	case "alias":
		a.emit(f, ex)
		a.alias(st, ex)
	case "cd", "pushd", "popd", "chdir":
		a.emit(f, ex)
		a.cd(st, ex)
	case "read", "mapfile", "readarray":
		a.emit(f, ex)
		a.read(st, ex)
	case "unset":
		a.emit(f, ex)
		p := ParseArgs(ex.Args[1:], &OptSpec{Short: "fvn"})
		for _, name := range p.Operands {
			if p.Has("f") {
				delete(st.funcs, name)
			} else {
				st.vars[name] = expand.Variable{}
			}
		}
	case "set":
		a.emit(f, ex)
		if i := slices.Index(ex.Args, "--"); i > 0 {
			st.pos, st.posKnown, st.posMore = slices.Clone(ex.Args[i+1:]), true, ""
		}
	case "shift":
		a.emit(f, ex)
		n := 1
		if len(ex.Args) > 1 {
			n, _ = strconv.Atoi(ex.Args[1])
		}
		if st.posKnown && n >= 0 {
			st.pos = st.pos[min(n, len(st.pos)):]
		}
	case "eval":
		code := strings.Join(ex.Args[1:], " ")
		a.nested(f, st, ex, code, "eval", nil)
	case "source", ".":
		a.emit(f, ex)
		if len(ex.Args) > 1 {
			switch ex.Args[1] {
			case "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0", "-":
				a.stdinCode(f, st, ex, "sh")
			default:
				a.scriptFile(f, st, ex, ex.Args[1], ex.Name, "sh", ex.Args[2:]...)
			}
		}
	case "trap":
		a.emit(f, ex)
		if len(ex.Args) > 2 && ex.Args[1] != "-" && !strings.HasPrefix(ex.Args[1], "-") {
			a.nested(f, st, ex, ex.Args[1], "trap", nil)
		}
	case "git":
		a.git(f, st, ex)
	case "find":
		a.find(f, st, ex)
	default:
		switch {
		case IsShell(ex.Name):
			a.shellCommand(f, st, ex)
		case Interpreter(ex.Name) != "":
			a.interpreter(f, st, ex, Interpreter(ex.Name))
		default:
			a.emit(f, ex)
			if strings.Contains(ex.Args[0], "/") {
				if text, ok := a.writtenScript(ex.Dir, ex.Args[0]); ok {
					lang := "sh"
					if first, _, _ := strings.Cut(text, "\n"); strings.HasPrefix(first, "#!") {
						for _, w := range strings.Fields(strings.TrimPrefix(first, "#!")) {
							if l := Interpreter(CommandName(w)); l != "" {
								lang = l
							}
						}
					}
					a.scriptFile(f, st, ex, ex.Args[0], ex.Args[0], lang, ex.Args[1:]...)
				}
			}
		}
	}
}

var (
	sudoSpec = &OptSpec{Short: "AbBEHiKklnPSsVvhg:p:u:C:D:r:t:U:T:R:e", Long: []string{
		"askpass", "background", "bell", "chdir=", "chroot=", "close-from=", "command-timeout=", "edit",
		"group=", "help", "host=", "login", "list", "non-interactive", "other-user=", "preserve-env=?",
		"preserve-groups", "prompt=", "remove-timestamp", "reset-timestamp", "role=", "set-home", "shell",
		"stdin", "type=", "user=", "validate", "version",
	}, StopAtOperand: true, Abbrev: true}
	doasSpec       = &OptSpec{Short: "a:C:Lnsu:", StopAtOperand: true}
	pkexecSpec     = &OptSpec{Long: []string{"user=", "disable-internal-agent", "keep-cwd", "help", "version"}, StopAtOperand: true}
	suSpec         = &OptSpec{Short: "c:flmpPs:g:G:w:u:", Long: []string{"command=", "session-command=", "login", "shell=", "group=", "supp-group=", "preserve-environment", "pty", "whitelist-environment=", "fast", "user="}, Abbrev: true}
	envSpec        = &OptSpec{Short: "0iu:vC:S:P:", Long: []string{"ignore-environment", "null", "unset=", "chdir=", "split-string=", "debug", "default-signal=?", "ignore-signal=?", "block-signal=?", "list-signal-handling", "help", "version", "argv0="}, StopAtOperand: true, Abbrev: true}
	timeoutSpec    = &OptSpec{Short: "s:k:v", Long: []string{"signal=", "kill-after=", "preserve-status", "foreground", "verbose", "help", "version"}, StopAtOperand: true, Abbrev: true}
	niceSpec       = &OptSpec{Short: "n:", Long: []string{"adjustment=", "help", "version"}, StopAtOperand: true, Abbrev: true}
	ioniceSpec     = &OptSpec{Short: "c:n:p:P:u:tx", Long: []string{"class=", "classdata=", "pid=", "pgid=", "uid=", "ignore", "help", "version"}, StopAtOperand: true, Abbrev: true}
	timeSpec       = &OptSpec{Short: "pvqao:f:", Long: []string{"portability", "verbose", "quiet", "append", "output=", "format=", "help", "version"}, StopAtOperand: true, Abbrev: true}
	stdbufSpec     = &OptSpec{Short: "i:o:e:", Long: []string{"input=", "output=", "error=", "help", "version"}, StopAtOperand: true, Abbrev: true}
	setsidSpec     = &OptSpec{Short: "cfw", Long: []string{"ctty", "fork", "wait", "help", "version"}, StopAtOperand: true, Abbrev: true}
	caffeinateSpec = &OptSpec{Short: "dimsuw:t:", StopAtOperand: true}
	chrootSpec     = &OptSpec{Long: []string{"userspec=", "groups=", "skip-chdir", "help", "version"}, StopAtOperand: true, Abbrev: true}
	tasksetSpec    = &OptSpec{Short: "acpV", Long: []string{"all-tasks", "cpu-list", "pid", "help", "version"}, StopAtOperand: true, Abbrev: true}
	chrtSpec       = &OptSpec{Short: "abdefiormpRT:P:D:v", Long: []string{"all-tasks", "batch", "deadline", "fifo", "idle", "other", "rr", "reset-on-fork", "pid", "sched-runtime=", "sched-period=", "sched-deadline=", "max", "verbose", "help", "version"}, StopAtOperand: true, Abbrev: true}
	flockSpec      = &OptSpec{Short: "sexunow:E:Fc:hV", Long: []string{"shared", "exclusive", "unlock", "nonblock", "timeout=", "conflict-exit-code=", "close", "command=", "no-fork", "verbose", "help", "version"}, StopAtOperand: true, Abbrev: true}
	commandSpec    = &OptSpec{Short: "pvV", StopAtOperand: true}
	execSpec       = &OptSpec{Short: "a:cl", StopAtOperand: true}
	scriptSpec     = &OptSpec{Short: "ac:efqFT:t::O:B:I:m:E:", Long: []string{"append", "command=", "return", "flush", "force", "quiet", "timing=?", "log-io=", "log-in=", "log-out=", "logging-format=", "echo=", "output-limit="}, Abbrev: true}
	atSpec         = &OptSpec{Short: "q:mMf:t:lrdvcbV"}
	watchSpec      = &OptSpec{Short: "n:d::tbeghcpwxq:r:s:", Long: []string{"interval=", "differences=?", "no-title", "beep", "errexit", "chgexit", "color", "no-color", "precise", "no-wrap", "no-linewrap", "exec", "equexit=", "shotsdir=", "help", "version"}, StopAtOperand: true, Abbrev: true}
)

var (
	niceNumberRe  = &lazyregexp.Regexp{Expr: `^--?\d+$`}
	placeholderRe = &lazyregexp.Regexp{Expr: `\{(\d+)?(\.|/|//|/\.|#|%)?\}`}
)

// child runs args as a command reached through label, keeping ex's
// directory, environment, redirections and input.
func (a *analyzer) child(f *frame, st *state, ex *Exec, args []string, label string, mods ...func(*Exec)) {
	if len(args) == 0 {
		a.emit(f, ex)
		return
	}
	c := ex.with(args, label)
	for _, m := range mods {
		m(c)
	}
	a.run(f, st, c)
}

// optsThenCommand skips the wrapper's options; the first operand starts the
// command.
func (a *analyzer) optsThenCommand(f *frame, st *state, ex *Exec, spec *OptSpec, label string, mod func(Args, *Exec)) {
	p := ParseArgs(ex.Args[1:], spec)
	a.child(f, st, ex, p.Operands, label, func(c *Exec) {
		if mod != nil {
			mod(p, c)
		}
	})
}

// countThenCommand skips the options and n operands (timeout's duration,
// chroot's directory) before the command.
func (a *analyzer) countThenCommand(f *frame, st *state, ex *Exec, spec *OptSpec, n int) {
	p := ParseArgs(ex.Args[1:], spec)
	if len(p.Operands) <= n {
		a.emit(f, ex)
		return
	}
	a.child(f, st, ex, p.Operands[n:], ex.Name)
}

// skipDashWords drops every leading word that starts with "-" (wrappers
// whose many options take their values after "=").
func (a *analyzer) skipDashWords(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		done := args[0] == "--"
		args = args[1:]
		if done {
			break
		}
	}
	a.child(f, st, ex, args, ex.Name)
}

func (a *analyzer) sudo(f *frame, st *state, ex *Exec) {
	if ex.Name == "sudoedit" {
		a.emit(f, ex) // the policy judges the files it edits
		return
	}
	p := ParseArgs(ex.Args[1:], sudoSpec)
	if p.Has("e", "edit") {
		// sudoedit writes the files it is given.
		a.child(f, st, ex, append([]string{"sudoedit"}, p.Operands...), "sudo -e", func(c *Exec) { c.Sudo = true })
		return
	}
	ops := p.Operands
	envs := map[string]string{}
	for len(ops) > 0 && isAssignment(ops[0]) {
		name, val, _ := strings.Cut(ops[0], "=")
		envs[name] = val
		ops = ops[1:]
	}
	if len(ops) == 0 {
		if p.Has("s", "shell", "i", "login") {
			// A root shell reading its commands from standard input.
			a.child(f, st, ex, []string{"sh"}, "sudo -s", func(c *Exec) { c.Sudo = true })
			return
		}
		a.emit(f, ex)
		return
	}
	mod := func(c *Exec) {
		c.Sudo = true
		for k, v := range envs {
			if c.Env == nil {
				c.Env = map[string]string{}
			}
			c.Env[k] = v
		}
		if d, ok := p.Value("D", "chdir"); ok {
			c.Dir = ResolvePath(c.Dir, d)
		}
	}
	if p.Has("s", "shell", "i", "login") {
		a.child(f, st, ex, []string{"sh", "-c", strings.Join(ops, " ")}, "sudo -s", mod)
		return
	}
	a.child(f, st, ex, ops, "sudo", mod)
}

func isAssignment(s string) bool {
	name, _, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return false
	}
	for i, c := range name {
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func (a *analyzer) su(f *frame, st *state, ex *Exec) {
	p := ParseArgs(ex.Args[1:], suSpec)
	a.emit(f, ex)
	if code, ok := p.Value("c", "command", "session-command"); ok {
		a.nested(f, st, ex, code, ex.Name+" -c", func(c *Exec) { c.Sudo = true })
		return
	}
	if ex.Name == "runuser" && p.Has("u", "user") {
		a.child(f, st, ex, p.Operands, "runuser", func(c *Exec) { c.Sudo = true })
		return
	}
	// Without -c, su runs a shell that reads standard input.
	a.child(f, st, ex, []string{"sh"}, ex.Name, func(c *Exec) { c.Sudo = true })
}

func (a *analyzer) env(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	dir := ex.Dir
	// -S splits its value into words placed before the remaining ones.
	for range 4 {
		p := ParseArgs(args, envSpec)
		split, ok := p.Value("S", "split-string")
		if !ok {
			break
		}
		var pre []string
		for _, o := range p.Opts {
			if o.Name != "S" && o.Name != "split-string" {
				pre = append(pre, optWord(o))
			}
		}
		args = append(append(pre, splitWords(split)...), p.Operands...)
	}
	p := ParseArgs(args, envSpec)
	if d, ok := p.Value("C", "chdir"); ok {
		dir = ResolvePath(dir, d)
	}
	ops := p.Operands
	if len(ops) > 0 && ops[0] == "-" {
		ops = ops[1:]
	}
	envs := map[string]string{}
	for len(ops) > 0 && isAssignment(ops[0]) {
		name, val, _ := strings.Cut(ops[0], "=")
		envs[name] = val
		ops = ops[1:]
	}
	if len(ops) == 0 {
		a.emit(f, ex) // env alone prints the environment
		return
	}
	a.child(f, st, ex, ops, "env", func(c *Exec) {
		c.Dir = dir
		for k, v := range envs {
			if c.Env == nil {
				c.Env = map[string]string{}
			}
			c.Env[k] = v
		}
	})
}

func optWord(o Opt) string {
	if o.Long {
		if o.HasValue {
			return "--" + o.Name + "=" + o.Value
		}
		return "--" + o.Name
	}
	return "-" + o.Name + o.Value
}

// splitWords splits env -S's string: blanks separate words, quotes group.
func splitWords(s string) []string {
	var out []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, c := range s {
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				cur.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == ' ' || c == '\t' || c == '\n':
			if inWord {
				out = append(out, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(c)
			inWord = true
		}
	}
	if inWord {
		out = append(out, cur.String())
	}
	return out
}

// npx runs a package's program: that program is the command (npx -c runs
// a shell command line).
func (a *analyzer) npx(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	for len(args) > 0 && strings.HasPrefix(args[0], "-") {
		switch o := args[0]; {
		case o == "--":
			args = args[1:]
			a.child(f, st, ex, args, ex.Name)
			return
		case o == "-c" || o == "--call":
			a.emit(f, ex)
			if len(args) > 1 {
				a.nested(f, st, ex, args[1], ex.Name+" -c", nil)
			}
			return
		case o == "-p" || o == "--package":
			args = args[1:]
		}
		if len(args) > 0 {
			args = args[1:]
		}
	}
	a.child(f, st, ex, args, ex.Name)
}

func (a *analyzer) flock(f *frame, st *state, ex *Exec) {
	p := ParseArgs(ex.Args[1:], flockSpec)
	a.emit(f, ex)
	if code, ok := p.Value("c", "command"); ok {
		a.nested(f, st, ex, code, "flock -c", nil)
		return
	}
	ops := p.Operands
	if len(ops) >= 3 && (ops[1] == "-c" || ops[1] == "--command") {
		a.nested(f, st, ex, ops[2], "flock -c", nil)
		return
	}
	if len(ops) >= 2 {
		a.child(f, st, ex, ops[1:], "flock")
	}
}

// command runs its operands, except `command -v/-V name` which only looks a
// name up. A lookup followed by a whole command line is judged as running
// it: nobody looks up `reset` and `--hard`.
func (a *analyzer) command(f *frame, st *state, ex *Exec) {
	p := ParseArgs(ex.Args[1:], commandSpec)
	if p.Has("v", "V") && !p.Unknown() && len(p.Operands) <= 1 {
		a.emit(f, ex)
		return
	}
	a.child(f, st, ex, p.Operands, "command")
}

func (a *analyzer) watch(f *frame, st *state, ex *Exec) {
	p := ParseArgs(ex.Args[1:], watchSpec)
	if len(p.Operands) == 0 {
		a.emit(f, ex)
		return
	}
	if p.Has("x", "exec") {
		a.child(f, st, ex, p.Operands, "watch")
		return
	}
	// watch hands its words, joined, to sh -c. When the words are a command
	// line of their own (watch sh -c 'x'), that is judged too: the joining
	// mangles it, but the intent is plain.
	a.emit(f, ex)
	a.nested(f, st, ex, strings.Join(p.Operands, " "), "watch", nil)
	if len(p.Operands) > 1 {
		a.child(f, st, ex, p.Operands, "watch")
	}
}

func (a *analyzer) cd(st *state, ex *Exec) {
	if ex.Name == "popd" {
		st.dir = ""
		return
	}
	p := ParseArgs(ex.Args[1:], &OptSpec{Short: "LPe@", StopAtOperand: true})
	switch {
	case len(p.Operands) == 0:
		st.dir = a.opts.Home
	case p.Operands[0] == "-" || strings.HasPrefix(p.Operands[0], "+") && ex.Name == "pushd":
		st.dir = ""
	default:
		target := p.Operands[0]
		if target == "~" || strings.HasPrefix(target, "~/") {
			// A tilde bash did not expand (it came from a variable) is
			// still meant as home.
			if a.opts.Home != "" {
				target = a.opts.Home + target[1:]
			}
		}
		st.dir = ResolvePath(st.dir, target)
	}
}

func (a *analyzer) read(st *state, ex *Exec) {
	if ex.Name == "read" {
		p := ParseArgs(ex.Args[1:], &OptSpec{Short: "ersa:d:i:n:N:p:t:u:"})
		if arr, ok := p.Value("a"); ok {
			st.vars[arr] = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{a.unknown(Unknown{Kind: Input, Name: arr})}}
		}
		names := p.Operands
		if len(names) == 0 && !p.Has("a") {
			names = []string{"REPLY"}
		}
		for _, n := range names {
			st.vars[n] = expand.Variable{Set: true, Kind: expand.String, Str: a.unknown(Unknown{Kind: Input, Name: n})}
		}
		return
	}
	p := ParseArgs(ex.Args[1:], &OptSpec{Short: "d:n:O:s:tu:C:c:"})
	name := "MAPFILE"
	if len(p.Operands) > 0 {
		name = p.Operands[0]
	}
	st.vars[name] = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{a.unknown(Unknown{Kind: Input, Name: name})}}
}

func (a *analyzer) callFunc(f *frame, st *state, ex *Exec, body *syntax.Stmt) {
	name := ex.Args[0]
	if st.calling[name] {
		return // recursion: the first call already showed what runs
	}
	if st.calling == nil {
		st.calling = map[string]bool{}
	}
	st.calling[name] = true
	savedPos, savedKnown, savedMore := st.pos, st.posKnown, st.posMore
	st.pos, st.posKnown, st.posMore = slices.Clone(ex.Args[1:]), true, ""
	ff := *f
	ff.via = append(slices.Clip(f.via), "function "+name)
	a.tracef(f, "call function %s", name)
	a.stmt(&ff, st, body, ioCtx{stdin: ex.Stdin, redirs: ex.Redirs})
	st.pos, st.posKnown, st.posMore = savedPos, savedKnown, savedMore
	delete(st.calling, name)
}

// dynamicName reports a command whose name is not known statically.
func (a *analyzer) dynamicName(f *frame, ex *Exec) {
	if len(ex.Args) == 0 {
		return
	}
	h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Detail: "the command name is not known statically: " + a.res.Show(ex.Args[0])}
	if Known(ex.Args[0]) {
		h.Detail = "the command name is a glob: " + ex.Args[0]
	}
	a.addSources(&h, ex.Args[0])
	a.res.Hazards = append(a.res.Hazards, h)
	a.tracef(f, "unknown: %s", h.Detail)
}

// addSources records where the unknown parts of s come from.
func (a *analyzer) addSources(h *Hazard, s string) {
	for _, u := range a.res.Unknowns(s) {
		h.Sources = append(h.Sources, u.Execs...)
		if u.Kind == Input {
			h.FromInput = true
		}
	}
}

// nested analyses code run by a nested shell for ex (bash -c, eval, su -c,
// watch, trap). positional holds $0, $1, ... when known.
func (a *analyzer) nested(f *frame, st *state, ex *Exec, code, label string, mod func(*Exec), positional ...string) {
	via := append(slices.Clip(ex.Via), label)
	// Values computed statically ($(echo rm -rf ~)) are code here.
	code, _ = a.res.Substitute(code)
	if f.depth+1 > a.maxDepth {
		a.res.Hazards = append(a.res.Hazards, Hazard{Kind: TooDeep, Text: ex.Text, Via: via, Detail: fmt.Sprintf("shells nested more than %d deep", a.maxDepth)})
		return
	}
	for _, u := range a.res.Unknowns(code) {
		if u.Kind == Input {
			// Data read at run time is spliced into code: a file name
			// like $(rm -rf ~) would run.
			h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: via, Interpreter: label, FromInput: true,
				Detail: "run-time input becomes part of the code of " + label}
			a.addSources(&h, code)
			a.res.Hazards = append(a.res.Hazards, h)
			break
		}
	}
	nf := &frame{src: code, via: via, depth: f.depth + 1, stdin: ex.Stdin}
	sub := st.copy()
	if len(positional) > 0 {
		sub.zero, sub.zeroKnown = positional[0], true
		sub.pos, sub.posKnown, sub.posMore = slices.Clone(positional[1:]), true, ""
		if n := len(sub.pos); n > 0 && !Known(sub.pos[n-1]) {
			for _, u := range a.res.Unknowns(sub.pos[n-1]) {
				if u.Kind == Input {
					sub.posMore = sub.pos[n-1]
				}
			}
		}
	} else if label != "eval" && label != "trap" {
		sub.pos, sub.posKnown, sub.posMore = nil, true, ""
	}
	a.tracef(f, "nested %s: %s", label, a.res.Show(code))
	start := len(a.res.Execs)
	a.script(nf, sub, code, ioCtx{stdin: ex.Stdin, redirs: ex.Redirs})
	for _, c := range a.res.Execs[start:] {
		if ex.Sudo {
			c.Sudo = true
		}
		if mod != nil {
			mod(c)
		}
	}
	if label == "eval" || label == "trap" {
		// eval runs in the current shell: its assignments and cd stay.
		for k, v := range sub.vars {
			st.vars[k] = v
		}
		st.dir = sub.dir
	}
}

// scriptFile looks at the file a shell or interpreter is asked to run: a
// process substitution or command output is code from elsewhere.
func (a *analyzer) scriptFile(f *frame, st *state, ex *Exec, file, interp, lang string, args ...string) {
	if text, ok := a.writtenScript(ex.Dir, file); ok {
		// A script the command wrote a moment ago: judge what it holds.
		if lang == "sh" {
			a.nested(f, st, ex, text, interp+" "+file, nil, append([]string{file}, args...)...)
		} else {
			a.interpCode(f, st, ex, lang, text, interp+" "+file)
		}
		return
	}
	if Known(file) {
		return
	}
	if text, ok := a.echoedFile(file); ok {
		if lang == "sh" {
			a.nested(f, st, ex, text, interp+" <(echo)", nil, append([]string{file}, args...)...)
		} else {
			a.interpCode(f, st, ex, lang, text, interp+" <(echo)")
		}
		return
	}
	h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: interp, Detail: interp + " runs a script that is not known statically: " + a.res.Show(file)}
	a.addSources(&h, file)
	if len(h.Sources) == 0 && !h.FromInput {
		return // a script path in a variable: a local file
	}
	h.FromInput = false // `xargs bash` runs the listed local scripts
	if len(h.Sources) == 0 {
		return
	}
	a.res.Hazards = append(a.res.Hazards, h)
	a.tracef(f, "unknown: %s", h.Detail)
}

// stdinCode analyses the code a shell or interpreter reads from its
// standard input.
func (a *analyzer) stdinCode(f *frame, st *state, ex *Exec, lang string) {
	in := ex.Stdin
	if in == nil {
		return
	}
	label := ex.Name + " <stdin>"
	var code string
	known := false
	switch {
	case in.HasText:
		code, known = in.Text, true
	case in.File != "":
		a.scriptFile(f, st, ex, in.File, ex.Name, lang)
		return
	case len(in.Producers) > 0:
		var b strings.Builder
		known = true
		for _, p := range in.Producers {
			out, ok := echoOutput(p.Args)
			if !ok || p.Stdin != nil && len(p.Stdin.Producers) > 0 {
				known = false
				break
			}
			b.WriteString(out)
		}
		code = b.String()
	}
	if !known {
		text := ex.Text
		for i := len(in.Producers) - 1; i >= 0; i-- {
			if p := in.Producers[i]; p.Depth == ex.Depth && p.Text != "" && !strings.Contains(text, p.Text) {
				text = p.Text + " | " + text
			}
		}
		h := Hazard{Kind: DynamicCode, Text: text, Via: f.via, Interpreter: ex.Name, Sources: in.Producers,
			Detail: ex.Name + " runs code piped in from another command"}
		a.res.Hazards = append(a.res.Hazards, h)
		a.tracef(f, "unknown: %s", h.Detail)
		return
	}
	if lang == "sh" {
		a.codeString(f, st, ex, code, label)
		return
	}
	a.interpCode(f, st, ex, lang, code, label)
}

var shellNames = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash", "yash", "posh", "fish", "csh", "tcsh", "ksh93", "oksh", "loksh", "hush"}

// IsShell reports whether the command name (CommandName) is a shell that
// runs scripts and -c code (sh, bash, zsh, dash, ksh, fish, ...).
func IsShell(name string) bool {
	return slices.Contains(shellNames, name)
}

// shellCommand analyses bash/sh/zsh/...: -c code (any flag cluster holding
// c), a script file, or code on standard input.
func (a *analyzer) shellCommand(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	cFlag, noExec, stdinFlag := false, false, false
	var operands []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" || w == "-" {
			operands = args[i+1:]
			break
		}
		if strings.HasPrefix(w, "--") {
			switch strings.ToLower(w) {
			case "--rcfile", "--init-file":
				i++
			}
			continue
		}
		if (w[0] == '-' || w[0] == '+') && len(w) > 1 {
			for j := 1; j < len(w); j++ {
				switch w[j] {
				case 'c':
					cFlag = true
				case 'n':
					noExec = true
				case 's':
					stdinFlag = true
				case 'o', 'O':
					i++ // -o option
				}
			}
			continue
		}
		operands = args[i:]
		break
	}
	a.emit(f, ex)
	if noExec {
		return
	}
	if cFlag {
		if len(operands) == 0 {
			return // bash -c with no code is an error
		}
		code := operands[0]
		for i := range ex.Args {
			if ex.Args[i] == code && i > 0 {
				ex.Args[i] = "" // blank the code: it is analysed as code
				break
			}
		}
		a.codeString(f, st, ex, code, ex.Name+" -c", operands[1:]...)
		return
	}
	if len(operands) > 0 && !stdinFlag {
		a.scriptFile(f, st, ex, operands[0], ex.Name, "sh", operands[1:]...)
		return
	}
	a.stdinCode(f, st, ex, "sh")
}

// codeString analyses code given to a shell as a string: a string that is
// wholly unknown is a hazard with its sources; otherwise it is parsed,
// unknown parts staying unknown inside.
func (a *analyzer) codeString(f *frame, st *state, ex *Exec, code, label string, positional ...string) {
	code, _ = a.res.Substitute(code)
	if !Known(code) {
		parts := a.res.Parts(code)
		if len(parts) == 1 && parts[0].Unknown != nil {
			u := parts[0].Unknown
			h := Hazard{Kind: DynamicCode, Text: ex.Text, Via: f.via, Interpreter: label, Sources: u.Execs, FromInput: u.Kind == Input,
				Detail: label + " runs code that is not known statically: " + a.res.Show(code)}
			a.res.Hazards = append(a.res.Hazards, h)
			a.tracef(f, "unknown: %s", h.Detail)
			return
		}
	}
	a.nested(f, st, ex, code, label, nil, positional...)
}

// gitCodeKeys are git configuration keys whose value git runs as shell
// code; gitCodeEnv the same for environment variables.
var (
	gitCodeKeyRe = &lazyregexp.Regexp{Expr: `^(core\.(pager|editor|sshcommand|fsmonitor)|sequence\.editor|diff\.external|pager\..*|filter\..*\.(clean|smudge|process)|diff\..*\.(textconv|command)|merge\..*\.driver|credential\.helper|uploadpack\.packobjectshook)$`}
	gitCodeEnv   = []string{"GIT_SSH_COMMAND", "GIT_PAGER", "GIT_EDITOR", "GIT_EXTERNAL_DIFF", "GIT_SEQUENCE_EDITOR"}
	gitGlobal    = &OptSpec{Short: "C:c:pPhv", Long: []string{
		"git-dir=", "work-tree=", "namespace=", "exec-path=?", "config-env=", "super-prefix=", "list-cmds=", "attr-source=",
		"paginate", "no-pager", "bare", "no-replace-objects", "no-lazy-fetch", "literal-pathspecs", "glob-pathspecs",
		"noglob-pathspecs", "icase-pathspecs", "no-optional-locks", "no-advice", "html-path", "man-path", "info-path",
		"version", "help",
	}, StopAtOperand: true}
)

// GitConfig returns the configuration a git command line sets for itself:
// -c key=value options, GIT_CONFIG_COUNT/KEY_n/VALUE_n and
// GIT_CONFIG_PARAMETERS from env. Keys are lower-cased (git config keys are
// case-insensitive but for the middle part; aliases are not).
func GitConfig(args []string, env map[string]string) map[string]string {
	cfg := map[string]string{}
	set := func(kv string) {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			v = "true"
		}
		cfg[strings.ToLower(k)] = v
	}
	if s, ok := env["GIT_CONFIG_PARAMETERS"]; ok {
		for _, item := range splitWords(s) {
			set(item)
		}
	}
	if n, err := strconv.Atoi(env["GIT_CONFIG_COUNT"]); err == nil {
		for i := range min(n, 64) {
			k, v := env[fmt.Sprint("GIT_CONFIG_KEY_", i)], env[fmt.Sprint("GIT_CONFIG_VALUE_", i)]
			if k != "" {
				cfg[strings.ToLower(k)] = v
			}
		}
	}
	p := ParseArgs(args, gitGlobal)
	for _, o := range p.Opts {
		if o.Name == "c" && o.HasValue {
			set(o.Value)
		}
	}
	return cfg
}

// GitSubcommand returns the index in args of git's subcommand, -1 if none.
func GitSubcommand(args []string) int {
	p := ParseArgs(args, gitGlobal)
	if len(p.Operands) == 0 {
		return -1
	}
	return len(args) - len(p.Operands)
}

// git expands inline aliases and analyses the shell code git would run
// from its configuration (core.sshCommand, GIT_SSH_COMMAND, pagers, ...).
func (a *analyzer) git(f *frame, st *state, ex *Exec) {
	envs := a.exportedEnv(st, ex)
	if len(envs) > 0 {
		ex.Env = envs
	}
	cfg := GitConfig(ex.Args[1:], envs)
	for k, v := range cfg {
		if gitCodeKeyRe.MatchString(k) {
			if k == "credential.helper" && !strings.HasPrefix(v, "!") {
				continue
			}
			a.nested(f, st, ex, strings.TrimPrefix(v, "!"), "git -c "+k, nil)
		}
	}
	for _, name := range gitCodeEnv {
		if v, ok := envs[name]; ok && v != "" {
			a.nested(f, st, ex, v, "git "+name, nil)
		}
	}
	i := GitSubcommand(ex.Args[1:])
	if i >= 0 && countVia(ex.Via, "git alias") < 5 {
		i++ // index in ex.Args
		sub := ex.Args[i]
		if alias, ok := cfg["alias."+strings.ToLower(sub)]; ok {
			if code, ok := strings.CutPrefix(alias, "!"); ok {
				a.emit(f, ex)
				full := code
				if rest := ex.Args[i+1:]; len(rest) > 0 {
					full += " " + strings.Join(rest, " ")
				}
				a.nested(f, st, ex, full, "git alias "+sub, nil)
				return
			}
			args := slices.Concat(ex.Args[:i], splitWords(alias), ex.Args[i+1:])
			a.child(f, st, ex, args, "git alias "+sub)
			return
		}
	}
	a.emit(f, ex)
}

// exportedEnv is the environment a command sees from the text itself: its
// own assignments over the variables the text exported before.
func (a *analyzer) exportedEnv(st *state, ex *Exec) map[string]string {
	envs := map[string]string{}
	for k, v := range st.vars {
		if strings.HasPrefix(k, "GIT_") && v.Kind == expand.String {
			envs[k] = v.Str
		}
	}
	for k, v := range ex.Env {
		envs[k] = v
	}
	return envs
}

func countVia(via []string, prefix string) int {
	n := 0
	for _, v := range via {
		if strings.HasPrefix(v, prefix) {
			n++
		}
	}
	return n
}

// FindStart splits find's arguments (without "find") into its starting
// points and its expression.
func FindStart(args []string) (starts, expr []string) {
	i := 0
	for i < len(args) {
		a := args[i]
		switch {
		case a == "-H" || a == "-L" || a == "-P" || a == "-E" || a == "-X" || a == "-s" || a == "-x" || strings.HasPrefix(a, "-O"):
			i++
		case a == "-D" && i+1 < len(args):
			i += 2
		case a == "--":
			i++
		default:
			goto paths
		}
	}
paths:
	for i < len(args) {
		a := args[i]
		if strings.HasPrefix(a, "-") && len(a) > 1 || a == "(" || a == "!" || a == "," || a == ")" {
			break
		}
		starts = append(starts, a)
		i++
	}
	return starts, args[i:]
}

// findTakesValue lists find primaries whose next word is their value (not
// a primary), so that `-name -delete` is not read as -delete.
var findTakesValue = []string{
	"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename",
	"-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype",
	"-user", "-group", "-uid", "-gid", "-perm", "-size", "-newer",
	"-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin", "-amin",
	"-cmin", "-inum", "-samefile", "-links", "-maxdepth", "-mindepth",
	"-fprint", "-fprint0", "-fls", "-fstype", "-used", "-regextype",
	"-context", "-newerXY", "-printf", "-files0-from",
}

// FindExpr walks find's expression: primaries with their values, and the
// command of each -exec/-execdir/-ok/-okdir. It calls fn for each primary
// (value is its value, cmd the command of an -exec family primary).
func FindExpr(expr []string, fn func(primary, value string, cmd []string)) {
	for i := 0; i < len(expr); i++ {
		p := expr[i]
		switch {
		case p == "-exec" || p == "-execdir" || p == "-ok" || p == "-okdir":
			j := i + 1
			for j < len(expr) && expr[j] != ";" && expr[j] != "+" {
				j++
			}
			fn(p, "", expr[i+1:j])
			i = j
		case slices.Contains(findTakesValue, p) && i+1 < len(expr):
			fn(p, expr[i+1], nil)
			i++
		default:
			fn(p, "", nil)
		}
	}
}

func (a *analyzer) find(f *frame, st *state, ex *Exec) {
	a.emit(f, ex)
	_, expr := FindStart(ex.Args[1:])
	pattern := ""
	FindExpr(expr, func(p, v string, _ []string) {
		if (p == "-name" || p == "-iname") && pattern == "" {
			pattern = v
		}
	})
	FindExpr(expr, func(p, _ string, cmd []string) {
		if len(cmd) == 0 {
			return
		}
		found := a.unknown(Unknown{Kind: Input, Name: pattern})
		args := make([]string, len(cmd))
		for i, w := range cmd {
			args[i] = strings.ReplaceAll(w, "{}", found)
		}
		a.child(f, st, ex, args, "find "+p, func(c *Exec) {
			c.Stdin = nil
			if p == "-execdir" || p == "-okdir" {
				c.Dir = ""
			}
		})
	})
}

var xargsSpec = &OptSpec{Short: "0a:d:E:e::I:i::L:l::n:P:prs:txJ:R:S:o", Long: []string{
	"null", "arg-file=", "delimiter=", "eof=?", "replace=?", "max-lines=?", "max-args=", "max-procs=",
	"interactive", "no-run-if-empty", "max-chars=", "verbose", "exit", "show-limits", "process-slot-var=",
	"open-tty", "help", "version",
}, StopAtOperand: true, Abbrev: true}

// xargs runs its command with items read at run time: appended, or in place
// of the replace string (-I, -i, --replace, BSD -J).
func (a *analyzer) xargs(f *frame, st *state, ex *Exec) {
	p := ParseArgs(ex.Args[1:], xargsSpec)
	cmd := p.Operands
	if len(cmd) == 0 {
		cmd = []string{"echo"}
	}
	var producers []*Exec
	if ex.Stdin != nil {
		producers = ex.Stdin.Producers
	}
	item := a.unknown(Unknown{Kind: Input, Name: "xargs input", Execs: producers})
	repl, replace := "", false
	for _, o := range p.Opts {
		switch o.Name {
		case "I", "J":
			repl, replace = o.Value, true
		case "i", "replace":
			repl, replace = o.Value, true
			if repl == "" {
				repl = "{}"
			}
		}
	}
	args := slices.Clone(cmd)
	replaced := false
	if replace && repl != "" {
		for i := 1; i < len(args); i++ {
			if strings.Contains(args[i], repl) {
				args[i] = strings.ReplaceAll(args[i], repl, item)
				replaced = true
			}
		}
	}
	if !replaced {
		// Without a replace string the items are appended. With one that
		// the command does not use, they are judged as appended too.
		args = append(args, item)
	}
	a.child(f, st, ex, args, "xargs", func(c *Exec) { c.Stdin = nil })
}

var parallelValueOpts = []string{
	"-j", "--jobs", "-S", "--sshlogin", "-I", "-N", "-n", "--max-args",
	"-L", "--max-lines", "-P", "-d", "--delimiter", "-E", "-a", "--arg-file",
	"--colsep", "-C", "--results", "--joblog", "--workdir", "--wd", "--timeout",
	"--retries", "--delay", "--tmpdir", "--basefile", "--bf", "--return",
	"--env", "--tag-string", "--tagstring", "--memfree", "--load", "--nice",
	"--block", "--blocksize", "--process-slot-var", "--slf", "--sshloginfile",
	"--halt", "--termseq", "--limit", "-s", "--max-chars", "--shebang-wrap",
}

// parallel runs its command once per item, through a shell; with no
// command, each item is a command line.
func (a *analyzer) parallel(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	i := 0
	repl := "{}"
	for i < len(args) && strings.HasPrefix(args[i], "-") && !strings.HasPrefix(args[i], ":::") {
		o := args[i]
		if o == "--" {
			i++
			break
		}
		name, _, hasVal := strings.Cut(o, "=")
		if name == "-I" && i+1 < len(args) {
			repl = args[i+1]
		}
		if slices.Contains(parallelValueOpts, name) && !hasVal {
			i++
		}
		i++
	}
	var cmd []string
	for i < len(args) && !strings.HasPrefix(args[i], ":::") {
		cmd = append(cmd, args[i])
		i++
	}
	var items []string
	fromStdin := true
	for i < len(args) {
		sep := args[i]
		i++
		fromStdin = false
		for i < len(args) && !strings.HasPrefix(args[i], ":::") {
			if strings.HasPrefix(sep, "::::") {
				items = append(items, a.unknown(Unknown{Kind: Input, Name: "parallel input"}))
			} else {
				items = append(items, args[i])
			}
			i++
		}
	}
	if fromStdin {
		var producers []*Exec
		if ex.Stdin != nil {
			producers = ex.Stdin.Producers
		}
		items = []string{a.unknown(Unknown{Kind: Input, Name: "parallel input", Execs: producers})}
	}
	if len(items) > 8 {
		items = items[:8]
	}
	a.emit(f, ex)
	if len(cmd) == 0 {
		for _, it := range items {
			a.codeString(f, st, ex, it, "parallel")
		}
		return
	}
	placeholder := placeholderRe.Get()
	if repl != "{}" {
		placeholder = regexp.MustCompile(regexp.QuoteMeta(repl))
	}
	for _, it := range items {
		c := slices.Clone(cmd)
		used := false
		for j := range c {
			if placeholder.MatchString(c[j]) {
				c[j] = placeholder.ReplaceAllLiteralString(c[j], it)
				used = true
			}
		}
		if !used {
			c = append(c, it)
		}
		a.child(f, st, ex, c, "parallel", func(c *Exec) { c.Stdin = nil })
	}
}

// ResolvePath joins p to dir as the kernel would, cleaning . and ..
// lexically. An absolute p, or one starting with an unknown value (usually
// an absolute path in a variable), stands alone; a relative p under an
// unknown dir ("") is unknown (""). A .. right after an unknown element is
// kept: nothing is known about where it leads.
func ResolvePath(dir, p string) string {
	if p == "" {
		return ""
	}
	switch {
	case strings.HasPrefix(p, "/"):
	case strings.HasPrefix(p, string(markOpen)):
	case dir == "":
		return ""
	default:
		p = dir + "/" + p
	}
	return CleanPath(p)
}

// CleanPath is path.Clean that never lets a .. cancel an unknown element.
func CleanPath(p string) string {
	abs := strings.HasPrefix(p, "/")
	var out []string
	for _, seg := range strings.Split(p, "/") {
		switch seg {
		case "", ".":
			continue
		case "..":
			if n := len(out); n > 0 && out[n-1] != ".." && Known(out[n-1]) {
				out = out[:n-1]
				continue
			}
			if abs && len(out) == 0 {
				continue
			}
			out = append(out, seg)
		default:
			out = append(out, seg)
		}
	}
	s := strings.Join(out, "/")
	if abs {
		return "/" + s
	}
	if s == "" {
		return "."
	}
	return s
}
