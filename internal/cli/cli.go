// Package cli implements the gemini-guard command: session-start for Gemini
// CLI, and check, scan, doctor and log for people.
//
// Exit codes: 0 clean (allowed, nothing found), 1 blocked or found, 2 usage
// or internal error. session-start always exits 0 and prints one JSON object,
// like every hook.
package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// HookBinaries are the programs hooks/hooks.json runs from bin/.
var HookBinaries = []string{"guard-shell", "guard-secrets", "guard-redact", "gemini-guard"}

// Main runs the command with args (without the program name) and returns the
// exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	switch args[0] {
	case "session-start":
		hook.Run(hook.SessionStart, stdin, stdout, func(hook.SessionStartInput) (hook.Output, error) {
			return sessionStart(getenv), nil
		})
		return 0
	case "-h", "-help", "--help", "help":
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "gemini-guard: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gemini-guard <command> [arguments]")
	fmt.Fprintln(w, "commands: session-start")
}

// sessionStart warns the user once per session about anything that keeps
// the guard from working as configured: a missing hook program, invalid
// settings.
func sessionStart(getenv func(string) string) hook.Output {
	var problems []string
	if exe, err := os.Executable(); err == nil {
		dir := filepath.Dir(exe)
		for _, name := range HookBinaries {
			if _, err := os.Stat(filepath.Join(dir, name+exeSuffix())); err != nil {
				problems = append(problems, fmt.Sprintf("gemini-guard: bin/%s is missing; run `make build` in the extension directory.", name))
			}
		}
	}
	_, warnings := settings.Load(getenv)
	problems = append(problems, warnings...)
	if len(problems) == 0 {
		return hook.Output{}
	}
	return hook.Allow(strings.Join(problems, "\n"))
}

func exeSuffix() string {
	if filepath.Separator == '\\' {
		return ".exe"
	}
	return ""
}
