package shellguard

import (
	"encoding/json"
	"errors"
	"github.com/gemini-guard/gemini-guard/internal/bounded"
	"io"
	"os"

	"github.com/gemini-guard/gemini-guard/internal/audit"
	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// Env is what a hook call depends on beyond its input; tests replace it.
type Env struct {
	Getenv func(string) string
	// UserHome is the user's home directory; when it fails or is empty,
	// $HOME stands in.
	UserHome func() (string, error)
}

// DefaultEnv is the environment of a hook process.
func DefaultEnv() Env { return Env{Getenv: os.Getenv, UserHome: os.UserHomeDir} }

// Run answers one BeforeTool call of run_shell_command, or of an MCP tool
// that plainly runs a shell command, and returns the exit code, always 0:
// with Gemini CLI the JSON on stdout carries the decision. Settings and
// audit come from hookcall; warn mode turns a deny into a message.
func Run(stdin io.Reader, stdout io.Writer, e Env) int {
	hook.RunWithin(hook.BeforeTool, hook.ShellDeadline, stdin, stdout, func(in hook.BeforeToolInput) (hook.Output, error) {
		return answer(in, e)
	}, nil)
	return 0
}

// toolInput is run_shell_command's arguments; Command is raw so that a
// missing or non-string command is told apart from an empty one.
type toolInput struct {
	Command json.RawMessage `json:"command"`
	DirPath string          `json:"dir_path"`
}

func answer(in hook.BeforeToolInput, e Env) (hook.Output, error) {
	var ti toolInput
	var command string
	if toolargs.IsMCP(in.ToolName) {
		// An MCP tool is judged only when it plainly runs a shell command
		// (a run/exec/shell/bash/terminal tool with a command, cmd or
		// script argument; its working directory is unknown), or writes,
		// edits, moves or copies a named file: then as the shell command
		// that does the same (toolargs.FileCommand).
		c, ok := toolargs.ShellCommand(in.ToolName, in.ToolInput)
		if !ok {
			c, ok = toolargs.FileCommand(in.ToolName, in.ToolInput)
		}
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
	call := hookcall.Load(e.Getenv, hook.BeforeTool, "shell", in.Base)
	home, err := e.UserHome()
	if err != nil || home == "" {
		home = e.Getenv("HOME")
	}
	v := Decide(Input{Command: command, Dir: ti.DirPath, Cwd: in.Cwd, Home: home, Settings: call.Settings, FS: bounded.OS{}})
	if v.Action != verdict.Allow {
		call.Record(audit.FromVerdict(call.Entry(in.ToolName), v, call.WarnOnly()))
	}
	return hook.FromVerdict(v, call.WarnOnly()), nil
}
