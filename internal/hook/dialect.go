package hook

import (
	"bytes"
	"encoding/json"
)

// Dialect is the hook protocol a host CLI speaks. Gemini CLI is the
// reference; Qwen Code (a Gemini CLI fork) uses Claude-Code event names and
// its own tool arguments. Every difference is translated here, at the edge,
// so that the guards see one shape of call and answer one shape of Output.
type Dialect int

const (
	// Gemini is Gemini CLI: BeforeTool / AfterTool / AfterModel events,
	// write_file, replace (allow_multiple), run_shell_command (dir_path).
	Gemini Dialect = iota
	// Qwen is Qwen Code 0.24: PreToolUse / PostToolUse events, edit
	// (replace_all) instead of replace, run_shell_command (directory). A
	// PreToolUse answer cannot change the tool's arguments, and a
	// PostToolUse deny is ignored: only continue:false with stopReason
	// replaces a tool's result.
	Qwen
	// Agy is Antigravity CLI (agy ≥ 1.1.18): camelCase input without an
	// event name (the event is on the hook's command line, see FromArgs),
	// run_command, write_to_file, replace_file_content, … with PascalCase
	// arguments (agy.go). It cannot change a tool's output, the request or
	// the answer, and an allow is no output at all.
	Agy
	// Claude is Claude Code (≥ 2.1.233): Qwen Code's event names with its
	// own tools (Bash, Write, Edit, Read, …), told by `--host claude` on
	// the hook's command line (claude.go). A tool's output is replaced in
	// the shape of its tool_response; the request and the streamed answer
	// cannot be changed.
	Claude
	// Codex is Codex CLI (0.171): PreToolUse / PostToolUse with Bash and
	// apply_patch (codex.go), named on the hook's command line
	// (`--host codex <event>`): its input reads like Qwen Code's. Its
	// answers are strict (an unknown key lets the call run), an allow is
	// no output, and a PostToolUse block shows the reason instead of the
	// output.
	Codex
)

// qwenEvent is the Gemini CLI event whose input Qwen Code's event name
// carries.
func qwenEvent(name string) (Event, bool) {
	switch name {
	case "PreToolUse":
		return BeforeTool, true
	case "PostToolUse":
		return AfterTool, true
	case "SessionStart":
		return SessionStart, true
	}
	return "", false
}

// DialectOf tells the host from hook_event_name: a Claude-Code style name
// (PreToolUse, PostToolUse) is Qwen Code. SessionStart has the same name
// in both; a Qwen SessionStart carries permission_mode, which Gemini CLI
// never sends.
func DialectOf(eventName string, hasPermissionMode bool) Dialect {
	switch eventName {
	case "PreToolUse", "PostToolUse":
		return Qwen
	case "SessionStart":
		if hasPermissionMode {
			return Qwen
		}
	}
	return Gemini
}

// sniff is the part of every input that tells the dialect.
type sniff struct {
	HookEventName  string          `json:"hook_event_name"`
	ConversationID json.RawMessage `json:"conversationId"`
	ToolCall       json.RawMessage `json:"toolCall"`
	PermissionMode json.RawMessage `json:"permission_mode"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
}

// normalise rewrites a host's raw input into Gemini CLI's shape: the event
// name, the tool name and the tool's argument names. Input it cannot read is
// returned as it is (Decode then reports it); only an agy call that cannot
// be translated gives an error. ev is the event the program answers, which
// agy's input does not name.
func normalise(data []byte, ev Event) ([]byte, Dialect, error) {
	var s sniff
	if json.Unmarshal(data, &s) != nil {
		return data, Gemini, nil
	}
	if s.HookEventName == "" && (len(s.ConversationID) > 0 || len(s.ToolCall) > 0) {
		// agy names no event: a hooks.json written by hand without
		// `--host agy` still gets agy's answer (never {}).
		out, err := normaliseAgy(data, ev)
		return out, Agy, err
	}
	d := DialectOf(s.HookEventName, len(s.PermissionMode) > 0)
	if d == Gemini {
		return data, d, nil
	}
	if claudeBuiltin(s.ToolName) {
		// A hook wired into Claude Code by hand without --host claude:
		// its tools are read, and answered, as Claude Code's all the same.
		out, err := normaliseClaude(data, ev)
		return out, Claude, err
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(data, &obj) != nil {
		return data, d, nil
	}
	if ev, ok := qwenEvent(s.HookEventName); ok {
		obj["hook_event_name"], _ = json.Marshal(string(ev))
	}
	if s.ToolName != "" {
		name, args := qwenTool(s.ToolName, s.ToolInput)
		obj["tool_name"], _ = json.Marshal(name)
		if args != nil {
			obj["tool_input"] = args
		}
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return data, d, nil
	}
	return out, d, nil
}

// qwenTool maps a Qwen Code tool call onto the Gemini CLI tool the guards
// know: edit (file_path, old_string, new_string, replace_all) is replace
// (allow_multiple); run_shell_command's directory is dir_path. Other tools
// have the same names and arguments. args is nil when unchanged.
func qwenTool(name string, input json.RawMessage) (string, json.RawMessage) {
	rename := map[string]string{}
	switch name {
	case "edit":
		name = "replace"
		rename["replace_all"] = "allow_multiple"
	case "run_shell_command":
		rename["directory"] = "dir_path"
	default:
		return name, nil
	}
	var args map[string]json.RawMessage
	if len(bytes.TrimSpace(input)) == 0 || json.Unmarshal(input, &args) != nil || args == nil {
		return name, nil
	}
	changed := false
	for from, to := range rename {
		if v, ok := args[from]; ok {
			if _, taken := args[to]; !taken {
				args[to] = v
			}
			delete(args, from)
			changed = true
		}
	}
	if !changed {
		return name, nil
	}
	out, err := json.Marshal(args)
	if err != nil {
		return name, nil
	}
	return name, out
}

// QwenLimits is what gemini-guard cannot do in Qwen Code, told at session
// start (and in the README).
const QwenLimits = "gemini-guard in Qwen Code: shell commands, file writes and edits are checked and secrets in tool output are hidden from the model, " +
	"but the model's streamed answer is NOT redacted (Qwen Code's hooks cannot change it), there is no policy wall (Qwen Code has no policy engine for extensions), " +
	"and the secrets action `redact` blocks instead (a Qwen Code hook cannot change a tool call)."

// answerIn turns an answer given in Gemini CLI's shape into the host's.
//
// Qwen Code: a BeforeTool answer that rewrites the arguments cannot be
// carried out (PreToolUse has no such output), so its Fallback (a deny)
// is sent instead: failing closed. An AfterTool deny becomes continue:false
// with the reason as stopReason, which replaces the tool's result with the
// reason (the redacted output) as Gemini CLI's deny does.
func answerIn(d Dialect, ev Event, out Output) Output {
	if d == Gemini || d == Agy {
		out.fallback = nil
		return out
	}
	switch ev {
	case BeforeTool:
		if out.rewrites() {
			return out.withoutRewrite("which this CLI cannot do",
				"gemini-guard blocked a tool call it would have changed (this CLI cannot change a tool call's arguments).")
		}
	case SessionStart:
		// Said at every session start: a user must not believe they have
		// what this CLI cannot give them.
		msg := QwenLimits
		if out.SystemMessage != "" {
			msg += "\n" + out.SystemMessage
		}
		return Output{SystemMessage: msg, Specific: &Specific{HookEventName: SessionStart, AdditionalContext: msg}}
	case AfterTool:
		if out.Decision == "deny" {
			f := false
			return Output{Continue: &f, StopReason: out.Reason, SystemMessage: out.SystemMessage}
		}
	}
	out.fallback = nil
	return out
}

// putTool sets the tool_name, host_tool_name (when they differ) and
// tool_input of obj, Gemini CLI's input, from a host's tool call as
// mapTool (agyTool, claudeTool, codexTool) puts it on the guards' tools.
func putTool(obj map[string]any, host string, raw json.RawMessage, mapTool func(string, json.RawMessage) (string, json.RawMessage, error)) error {
	name, args, err := mapTool(host, raw)
	if err != nil {
		return err
	}
	obj["tool_name"] = name
	if name != host {
		obj["host_tool_name"] = host
	}
	if len(args) > 0 {
		obj["tool_input"] = args
	}
	return nil
}
