package shellguard

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/shell"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// patchCommand is the shell command that does what a Codex apply_patch
// (hook.PatchInput) does beyond writing files: `rm -- PATH` for each file
// it deletes, `mv -- FROM TO` for each it moves; "" when it only adds and
// edits files.
func patchCommand(raw json.RawMessage) (string, error) {
	var pi hook.PatchInput
	if len(raw) == 0 || json.Unmarshal(raw, &pi) != nil || len(pi.Files) == 0 {
		return "", &hook.InputError{Err: errors.New("apply_patch input is not a patch")}
	}
	return hook.PatchShellCommand(pi.Files), nil
}

// embeddedCommand is command with the shell commands of the patches a
// Codex shell command carries (hook.EmbeddedPatch) after it: Codex applies
// them itself, so their deletes and moves are judged with the command.
func embeddedCommand(command string, raw json.RawMessage) string {
	var in struct {
		Patch *hook.PatchInput `json:"codex_patch"`
	}
	if json.Unmarshal(raw, &in) != nil || in.Patch == nil {
		return command
	}
	if c := hook.PatchShellCommand(in.Patch.Files); c != "" {
		return command + "\n" + c
	}
	return command
}

// RuleCodexStdin denies, in Codex CLI only, a command that reads the
// commands it runs from its input: Codex's write_stdin, which types into a
// running command, reaches no hook (measured on 0.171.0: `bash` started
// with exec_command, then `touch …` typed with write_stdin, ran with no
// PreToolUse or PostToolUse), so whatever is typed there would run
// unchecked.
const RuleCodexStdin = "codex.stdin-commands"

// codexStdin is the deny for the first command of res, run with the input
// it inherits, that would read commands from it: a
// shell or an interpreter given no script, code or module (or - , -s, -i),
// a database client given no statement, ssh without a remote command, su without -c, sudo -s or -i without a
// command. ok is false when there is none.
func codexStdin(res *shell.Result) (verdict.Verdict, bool) {
	if res == nil {
		return verdict.Verdict{}, false
	}
	for _, e := range res.Execs {
		if e.Synthetic || e.Stdin != nil || !readsStdinCommands(e.Name, e.Args) {
			continue
		}
		return verdict.Verdict{
			Action: verdict.Deny,
			RuleID: RuleCodexStdin,
			What: "`" + e.Name + "` would read the commands it runs from its input, and in Codex CLI what is typed into a running command (write_stdin) " +
				"reaches no hook, so those commands would run unchecked",
			Safer:    "run each command as its own call (the command itself, or " + e.Name + " with a script file or -c)",
			Fragment: Mask(verdict.Truncate(e.Text, verdict.MaxFragment)),
		}, true
	}
	return verdict.Verdict{}, false
}

// readsStdinCommands says whether the program name, run with args, reads
// commands from its standard input.
func readsStdinCommands(name string, args []string) bool {
	a := parseArgv(args, valuedOptions(name))
	info := a.has("--version", "--help", "-V")
	switch {
	case stdinShell(name):
		return !info && (a.dash || a.has("-s", "-i") || len(a.operands) == 0 && !a.has("-c"))
	case stdinInterpreter(name):
		return !info && (a.dash || len(a.operands) == 0 && !a.has("-c", "-e", "-E", "-m", "-r", "--eval", "--print", "-p"))
	case name == "psql":
		return !info && !a.has("-c", "--command", "-f", "--file", "-l", "--list")
	case name == "mysql" || name == "mariadb":
		return !info && !a.has("-e", "--execute")
	case name == "sqlite3":
		return !info && len(a.operands) < 2 && !a.has("-cmd")
	case name == "ssh":
		return len(a.operands) == 1 && !a.has("-N", "-V")
	case name == "su":
		return !a.has("-c", "--command")
	case name == "sudo":
		return a.has("-s", "-i", "--shell", "--login") && len(a.operands) == 0
	}
	return false
}

// valuedOptions are the short options of name that take the next word as
// their value.
func valuedOptions(name string) string {
	switch name {
	case "ssh":
		return "BbcDEeFIiJLlmOoPpQRSWw"
	case "sudo":
		return "CDghpRrTUu"
	case "su":
		return "cgGsw"
	case "psql":
		return "dhpUvPT"
	case "mysql", "mariadb":
		return "hPuDS"
	}
	return ""
}

// argv is a command's arguments split into options and operands; dash is
// set for a lone "-" (read the program from stdin).
type argv struct {
	opts, operands []string
	dash           bool
}

func parseArgv(args []string, valued string) argv {
	var a argv
	rest := args[min(1, len(args)):]
	for i := 0; i < len(rest); i++ {
		switch w := rest[i]; {
		case w == "-":
			a.dash = true
		case strings.HasPrefix(w, "-") || strings.HasPrefix(w, "+"):
			a.opts = append(a.opts, w)
			if len(w) == 2 && strings.ContainsRune(valued, rune(w[1])) {
				i++ // the option's value
			}
		default:
			a.operands = append(a.operands, w)
		}
	}
	return a
}

// has says whether any of flags was given (alone or as flag=value).
func (a argv) has(flags ...string) bool {
	for _, o := range a.opts {
		for _, f := range flags {
			if o == f || strings.HasPrefix(o, f+"=") {
				return true
			}
		}
	}
	return false
}

func stdinShell(name string) bool {
	switch name {
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh":
		return true
	}
	return false
}

func stdinInterpreter(name string) bool {
	switch name {
	case "python", "python2", "python3", "pypy", "pypy3", "node", "nodejs", "ruby", "irb", "perl", "php", "lua", "luajit",
		"julia", "tclsh", "wish", "ghci", "pwsh", "powershell", "deno", "bun", "R", "r", "guile", "racket", "sbcl", "clisp", "erl", "iex", "scala", "jshell", "osascript":
		return true
	}
	return strings.HasPrefix(name, "python3.") || strings.HasPrefix(name, "python2.")
}
