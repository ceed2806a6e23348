// Command guard-shell is gemini-guard's BeforeTool hook for run_shell_command
// and for MCP tools that plainly run a shell command: it denies destructive
// and secret-leaking commands. Gemini CLI starts it once
// per shell call with the call as JSON on stdin; it prints one JSON answer and
// exits 0. It must not link gitleaks (start-up cost on every call).
package main

import (
	"encoding/json"
	"errors"
	"io"
	"os"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/shellguard"
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

func main() {
	run(os.Stdin, os.Stdout, os.Getenv, os.UserHomeDir)
}

// run answers one call; tests drive it with their own input and
// environment.
func run(stdin io.Reader, stdout io.Writer, getenv func(string) string, userHome func() (string, error)) {
	hook.RunWithin(hook.BeforeTool, hook.ShellDeadline, stdin, stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return decide(in, getenv, userHome)
	}, nil)
}

// toolInput is run_shell_command's arguments; Command is raw so that a
// missing or non-string command is told apart from an empty one.
type toolInput struct {
	Command json.RawMessage `json:"command"`
	DirPath string          `json:"dir_path"`
}

func decide(in hook.BeforeToolInput, getenv func(string) string, userHome func() (string, error)) (hook.Output, error) {
	var ti toolInput
	var command string
	if toolargs.IsMCP(in.ToolName) {
		// An MCP tool is judged only when it plainly runs a shell command
		// (a run/exec/shell/bash/terminal tool with a command, cmd or
		// script argument); its working directory is unknown.
		c, ok := toolargs.ShellCommand(in.ToolName, in.ToolInput)
		if !ok {
			return hook.Output{}, nil
		}
		command = c
	} else {
		if len(in.ToolInput) == 0 || json.Unmarshal(in.ToolInput, &ti) != nil {
			return hook.Output{}, &hook.InputError{Err: errors.New("tool_input is not an object with a string command")}
		}
		if len(ti.Command) == 0 || json.Unmarshal(ti.Command, &command) != nil {
			return hook.Output{}, &hook.InputError{Err: errors.New("tool_input.command is missing or not a string")}
		}
	}
	call := hookcall.Load(getenv, hook.BeforeTool, "shell", in.Base)
	home, err := userHome()
	if err != nil || home == "" {
		home = getenv("HOME")
	}
	v := shellguard.Decide(shellguard.Input{Command: command, Dir: ti.DirPath, Cwd: in.Cwd, Home: home, Settings: call.Settings})
	if v.Action != verdict.Allow {
		call.Record(audit.FromVerdict(call.Entry(in.ToolName), v, call.WarnOnly()))
	}
	return hook.FromVerdict(v, call.WarnOnly()), nil
}
