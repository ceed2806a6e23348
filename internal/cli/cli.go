// Package cli implements the gemini-guard command: session-start for Gemini
// CLI, and check, scan, doctor, log and version for people. The command's
// documentation is cmd/gemini-guard/doc.go.
//
// Exit codes: 0 clean (allowed, nothing found, healthy), 1 blocked, found or
// unhealthy, 2 usage or internal error. session-start always exits 0 and
// prints one JSON object, like every hook.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hostcli"
	"github.com/gemini-guard/gemini-guard/internal/scanner"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// HookBinaries are the programs in bin/ the hooks need: those
// hooks/hooks.json runs, and guard-scanner, the scanner process
// guard-secrets and guard-redact ask.
var HookBinaries = []string{"guard-shell", "guard-secrets", "guard-redact", "gemini-guard", "guard-scanner"}

// Main runs the command with args (without the program name) and returns the
// exit code. It reads stdin only for session-start, `check -` and `scan -`, and settings through
// getenv (os.Getenv in the binary, a map in tests) and the installed
// extension's .env.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch cmd, rest := args[0], args[1:]; cmd {
	case "session-start":
		// Antigravity CLI runs it as `session-start --host agy
		// PreInvocation` (agySessionStart).
		hook.Run(hook.SessionStart, stdin, stdout, func(in hook.SessionStartInput) (hook.Output, error) {
			if in.Host == hook.Agy {
				return agySessionStart(in, getenv), nil
			}
			if in.Host == hook.Claude {
				return claudeSessionStart(in, getenv), nil
			}
			if in.Host == hook.Codex {
				return codexSessionStart(in, getenv), nil
			}
			return sessionStart(in.Cwd, getenv), nil
		}, hook.FromArgs(rest))
		return 0
	case "agy":
		return agyCommand(rest, stdout, stderr, getenv)
	case "claude":
		return claudeCommand(rest, stdout, stderr, getenv)
	case "codex":
		return codexCommand(rest, stdout, stderr, getenv)
	case "check":
		return check(rest, stdin, stdout, stderr, getenv)
	case "scan":
		return scan(rest, stdin, stdout, stderr, getenv)
	case "doctor":
		return doctor(rest, stdout, stderr, getenv)
	case "log":
		return showLog(rest, stdout, stderr, getenv)
	case "version", "-version", "--version":
		return showVersion(rest, stdout, stderr)
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	default:
		fmt.Fprintf(stderr, "gemini-guard: unknown command %q\n", cmd)
		usage(stderr)
		return 2
	}
}

func usage(w io.Writer) {
	fmt.Fprint(w, `usage: gemini-guard <command> [arguments]

commands:
  check '<command>' [--dir D] [--explain] [--json]   how the shell guard decides a command
  scan <file>... [--json]                            how the secrets guard decides writing each file
  doctor [--ext DIR] [--json]                        verify the installed extension end to end
  log [-n N] [--all] [--json]                        recent blocks from the audit log
  version [--json]                                   print the version
  agy install|uninstall|status [--workspace DIR]     register the hooks with Antigravity CLI (agy)
  claude install|uninstall|status [--project]        register the hooks with Claude Code
  codex install|uninstall|status [--project]         register the hooks with Codex CLI (and trust them)
  session-start                                      (run by Gemini CLI at the start of a session)

exit codes: 0 allowed / clean / healthy, 1 blocked / found / unhealthy, 2 usage or internal error
`)
}

// usageExit is the exit code after a flag.FlagSet.Parse error: 0 for -h,
// which printed the usage as asked, 2 for a misuse.
func usageExit(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	return 2
}

// parseInterspersed parses flags that may come before, between or after the
// positional arguments (`check 'ls' --json` and `check --json 'ls'`), which
// flag.FlagSet alone does not. A lone "--" ends the flags.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, nil
		}
		if len(args) > len(rest) && args[len(args)-len(rest)-1] == "--" {
			return append(positional, rest...), nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// sessionStart warns the user once per session about anything that keeps
// the guard from working as configured: a Gemini CLI below FloorVersion, a
// missing hook program, invalid settings, entries of the workspace's
// project file that were ignored, a variable in the hooks' environment
// that changes how bash, the loader, node or Gemini CLI run them, and a
// key of the .env Gemini CLI loads that makes an ordinary toolchain
// command run code or reach a server it names (protect.RunnerFamilies),
// and the secrets too weak to be tracked by value (untrackedNotice).
func sessionStart(workspace string, getenv func(string) string) hook.Output {
	var problems []string
	cliVersion := hostcli.RunningVersion()
	if w := versionWarning(cliVersion); w != "" {
		problems = append(problems, w)
	}
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		for _, name := range HookBinaries {
			if _, err := os.Stat(filepath.Join(dir, name+exeSuffix())); err != nil {
				problems = append(problems, fmt.Sprintf("gemini-guard: bin/%s is missing; run `make build` in the extension directory.", name))
			}
		}
	}
	s, warnings := settings.Load(getenv)
	problems = append(problems, warnings...)
	s, warnings = settings.ApplyProject(s, workspace)
	problems = append(problems, warnings...)
	if s.Mode == settings.WarnOnly {
		problems = append(problems, "gemini-guard is in warn mode: it blocks nothing and only tells you what it would have blocked.")
	}
	problems = append(problems, controlEnvWarnings(getenv)...)
	if err := known.StoreFault(state.Dir(getenv)); err != nil {
		problems = append(problems, "gemini-guard cannot keep the secrets it learns from tool output ("+err.Error()+
			"): until that is repaired it withholds tool output and the model's answers, and denies the writes it checks once this session's learnt secrets cannot be read. Run `gemini-guard doctor`.")
	}
	if file, _, runners := envFileKeys(workspace, getenv("HOME")); len(runners) > 0 {
		problems = append(problems, runnerEnvWarning(file, runners))
	}
	if n := untrackedNotice(s, workspace, getenv); n != "" {
		problems = append(problems, n)
	}
	// Warm the scanner daemon the hooks will ask, so that the first scan
	// does not wait for it to start (and run out of its hook's time). A
	// failure here only costs that first scan its wait.
	_ = (&scanner.Client{Options: secrets.ScanOptions(s, workspace)}).Start()
	// Last: a limit of a supported CLI, not a problem to fix here.
	if n := versionNotice(cliVersion); n != "" {
		problems = append(problems, n)
	}
	if len(problems) == 0 {
		return hook.Output{}
	}
	return hook.Allow(strings.Join(problems, "\n"))
}

// untrackedNotice is session start's line naming the sources of the
// secret values the guard does not track by value (known.Skipped) and
// why, never a value; "" when there are none or known values are off.
// The environment's names come from the process, their values through
// getenv (a map in tests).
func untrackedNotice(s settings.Settings, workspace string, getenv func(string) string) string {
	if slices.Contains(s.DisabledRules, known.RuleID) {
		return ""
	}
	var environ []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if v := getenv(name); v != "" {
			environ = append(environ, name+"="+v)
		}
	}
	skipped := known.Skipped(environ, workspace, getenv("HOME"))
	if len(skipped) == 0 {
		return ""
	}
	const most = 10
	var parts []string
	for i, sk := range skipped {
		if i == most {
			parts = append(parts, fmt.Sprintf("and %d more", len(skipped)-most))
			break
		}
		parts = append(parts, sk.Source+": "+sk.Why)
	}
	return "gemini-guard does not track these secrets by value, as they are too weak to tell from ordinary text (a piece of them would match it): " +
		strings.Join(parts, "; ") + ". Only the shape rules protect them; give them strong random values to have them tracked."
}

func exeSuffix() string {
	if filepath.Separator == '\\' {
		return ".exe"
	}
	return ""
}
