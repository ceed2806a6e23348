package shell

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/expand"
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
	case "start-stop-daemon":
		a.startStopDaemon(f, st, ex)
	case "fakeroot", "eatmydata", "torify", "chronic", "dbus-launch":
		a.child(f, st, ex, ex.Args[1:], ex.Name)
	case "rlwrap", "xvfb-run", "fakeroot-ng":
		a.skipDashWords(f, st, ex)
	case "busybox", "toybox":
		if len(ex.Args) > 1 && !strings.HasPrefix(ex.Args[1], "-") {
			a.child(f, st, ex, ex.Args[1:], ex.Name)
		} else {
			a.emit(f, ex)
		}
	case "cmake", "gio":
		// cmake -E CMD and gio CMD are portable copies of the file tools
		// they are named after: cmake -E remove_directory DIR is rm -rf
		// DIR, gio trash F is trash F.
		if args, ok := toolCommand(ex.Name, ex.Args[1:]); ok {
			a.child(f, st, ex, args, ex.Name)
			return
		}
		a.emit(f, ex)
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
			st.openFds(ex.Redirs)
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
		} else if ex.Stdin != nil {
			// fish (and zsh's source with no file) read the code from
			// standard input: ssh host cmd | source.
			a.stdinCode(f, st, ex, "sh")
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

// startStopDaemon: start-stop-daemon -S -x PROG [-- ARGS] runs PROG (or
// the --startas one) with the arguments after --.
func (a *analyzer) startStopDaemon(f *frame, st *state, ex *Exec) {
	args := ex.Args[1:]
	prog, rest := "", []string(nil)
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--":
			rest = args[i+1:]
			i = len(args)
		case (w == "-x" || w == "--exec" || w == "-a" || w == "--startas") && i+1 < len(args):
			if prog == "" || w == "-a" || w == "--startas" {
				prog = args[i+1]
			}
			i++
		case strings.HasPrefix(w, "--exec=") || strings.HasPrefix(w, "--startas="):
			_, prog, _ = strings.Cut(w, "=")
		case w == "-K" || w == "--stop" || w == "-T" || w == "--status":
			a.emit(f, ex)
			return
		}
	}
	if prog == "" {
		a.emit(f, ex)
		return
	}
	a.child(f, st, ex, append([]string{prog}, rest...), "start-stop-daemon")
}

// toolCommand is the file tool a cmake -E or gio subcommand amounts to,
// with its arguments; ok is false for the others (cmake's builds, gio
// info).
func toolCommand(name string, args []string) (cmd []string, ok bool) {
	if name == "cmake" {
		if len(args) < 2 || args[0] != "-E" {
			return nil, false
		}
		args = args[1:]
	}
	if len(args) == 0 {
		return nil, false
	}
	var tool []string
	switch args[0] {
	case "rm", "cat", "tar", "touch":
		tool = []string{args[0]}
	case "remove":
		tool = []string{"rm"}
	case "remove_directory":
		tool = []string{"rm", "-rf"}
	case "rename", "move":
		tool = []string{"mv"}
	case "copy":
		tool = []string{"cp"}
	case "copy_directory", "copy_directory_if_different":
		tool = []string{"cp", "-r"}
	case "trash":
		if name != "gio" {
			return nil, false
		}
		tool = []string{"trash"}
	default:
		return nil, false
	}
	return append(tool, args[1:]...), true
}
