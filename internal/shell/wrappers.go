package shell

import (
	"maps"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/lazyregexp"
)

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
	niceNumberRe = &lazyregexp.Regexp{Expr: `^--?\d+$`}
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
	envs, ops := leadingAssignments(p.Operands)
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
		setEnv(c, envs)
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

// leadingAssignments splits the NAME=value words that start ops (sudo's
// and env's) from the command that follows them.
func leadingAssignments(ops []string) (envs map[string]string, rest []string) {
	envs = map[string]string{}
	for len(ops) > 0 && isAssignment(ops[0]) {
		name, val, _ := strings.Cut(ops[0], "=")
		envs[name] = val
		ops = ops[1:]
	}
	return envs, ops
}

// setEnv adds envs to the environment a command runs with.
func setEnv(c *Exec, envs map[string]string) {
	if len(envs) == 0 {
		return
	}
	if c.Env == nil {
		c.Env = map[string]string{}
	}
	maps.Copy(c.Env, envs)
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
	envs, ops := leadingAssignments(ops)
	if len(ops) == 0 {
		a.emit(f, ex) // env alone prints the environment
		return
	}
	a.child(f, st, ex, ops, "env", func(c *Exec) {
		c.Dir = dir
		setEnv(c, envs)
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
