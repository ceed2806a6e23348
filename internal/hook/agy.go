package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
)

// Antigravity CLI (agy ≥ 1.1.18), as far as its hook contract is known
// (it was never run here): its input is camelCase protojson with no event
// name and no cwd, tool arguments are PascalCase, and its stdout is parsed
// into one protobuf message per event, so an answer may hold only that
// event's fields. Every difference is translated here.
//
// Where the sources disagree the answer chosen is the one that is safe
// under every reading of them:
//
//   - A tool call the guard lets through gets no output at all, not
//     {"decision":"allow"}: whether "allow" also grants the call past
//     agy's own permission prompt is contested (one capture says it
//     auto-approves), and a guard must never widen what the user allowed.
//     Empty stdout with exit 0 ran the call normally on every build
//     measured from 1.1.18 on. {} is never written: agy reads it as deny.
//   - A deny is {"decision":"deny","reason":…} and nothing else: a field
//     agy does not know (systemMessage, hookSpecificOutput) fails the hook,
//     and its reason would then be lost.
//   - A call the guard would rewrite (the secrets action redact) is denied
//     instead, as in Qwen Code: agy's overwrite needs an allow beside it,
//     with the grant question above.

// The agy events gemini-guard answers, as agy names them on the hook's
// command line (`--host agy PreToolUse`). The input does not name them.
const (
	AgyPreToolUse    = "PreToolUse"
	AgyPreInvocation = "PreInvocation"
)

// agyEvent is the Gemini CLI event whose decision agy's event name
// carries: PreToolUse is BeforeTool; PreInvocation at the start of a
// conversation is where the session notice goes (SessionStart). The tables
// of this file are switches, not maps, so that a hook process builds
// nothing before it reads its input.
func agyEvent(name string) (Event, bool) {
	switch name {
	case AgyPreToolUse:
		return BeforeTool, true
	case AgyPreInvocation:
		return SessionStart, true
	}
	return "", false
}

// agyIdle is the answer that does nothing for an agy event gemini-guard
// registers no program for (reference §4.1): a program wired to one by
// hand must not stop the turn or force another. idle is false for the
// events gemini-guard answers and for unknown ones.
func agyIdle(name string) (answer []byte, idle bool) {
	switch name {
	case "PostToolUse", "PostInvocation", "Stop":
		return []byte("{}"), true
	case "SessionStart":
		return nil, true // undocumented, output unknown: no output
	}
	return nil, false
}

// agyEventOf is the agy event a program answering ev handles.
func agyEventOf(ev Event) string {
	switch ev {
	case BeforeTool:
		return AgyPreToolUse
	case SessionStart:
		return AgyPreInvocation
	}
	return string(ev)
}

// AgyTool is how an agy tool call is read: the Gemini CLI tool the guards
// judge it as, and its PascalCase argument for each of that tool's
// arguments.
type AgyTool struct {
	// Gemini is the Gemini CLI tool name the guards know.
	Gemini string
	// Args maps the Gemini CLI argument to agy's.
	Args map[string]string
}

// agyToolOf is how a tool gemini-guard judges that agy names differently
// is read (reference §3.3). multi_replace_file_content has no Gemini CLI
// twin; it is read as MultiReplace. view_file is read_file, which only
// agy's guard-shell judges (a credential file opened there would reach the
// model unredacted).
func agyToolOf(name string) (AgyTool, bool) {
	switch name {
	case "run_command":
		return AgyTool{Gemini: "run_shell_command", Args: map[string]string{"command": "CommandLine", "dir_path": "Cwd"}}, true
	case "write_to_file":
		return AgyTool{Gemini: "write_file", Args: map[string]string{"file_path": "TargetFile", "content": "CodeContent"}}, true
	case "replace_file_content":
		return AgyTool{Gemini: "replace", Args: map[string]string{"file_path": "TargetFile", "old_string": "TargetContent", "new_string": "ReplacementContent", "allow_multiple": "AllowMultiple"}}, true
	case "view_file", "view_file_outline":
		return AgyTool{Gemini: "read_file", Args: map[string]string{"file_path": "AbsolutePath"}}, true
	}
	return AgyTool{}, false
}

// MultiReplace is the name the guards see for agy's
// multi_replace_file_content: tool_input is
// {"file_path", "edits": [{"old_string", "new_string", "allow_multiple"}]},
// applied in order.
const MultiReplace = "multi_replace"

// agyInput is the part of an agy call the guards read (reference §3).
type agyInput struct {
	ConversationID string          `json:"conversationId"`
	TranscriptPath string          `json:"transcriptPath"`
	WorkspacePaths []string        `json:"workspacePaths"`
	ToolCall       *agyToolCall    `json:"toolCall"`
	InvocationNum  json.RawMessage `json:"invocationNum"`
}

type agyToolCall struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args"`
}

// normaliseAgy rewrites an agy call of event ev into Gemini CLI's shape.
// The workspace (cwd) is workspacePaths[0], "" when agy sends none (agy -p
// without --add-dir): the guards then treat every path outside the
// temporary directories as outside the workspace. A command's Cwd is its
// dir_path, never the workspace: a model that names / as the directory
// must not make / the workspace.
func normaliseAgy(data []byte, ev Event) ([]byte, error) {
	var in agyInput
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	obj := map[string]any{
		"session_id":      in.ConversationID,
		"transcript_path": in.TranscriptPath,
		"hook_event_name": string(ev),
	}
	if len(in.WorkspacePaths) > 0 {
		obj["cwd"] = in.WorkspacePaths[0]
	}
	switch ev {
	case BeforeTool:
		if in.ToolCall == nil || in.ToolCall.Name == "" {
			return nil, errors.New("toolCall.name is missing")
		}
		if err := putTool(obj, in.ToolCall.Name, in.ToolCall.Args, agyTool); err != nil {
			return nil, err
		}
	case SessionStart:
		// invocationNum counts the model requests of one turn from 0;
		// protojson may leave a 0 out, and numbers may come as strings.
		n, _ := strconv.Atoi(string(bytes.Trim(in.InvocationNum, `"`)))
		obj["source"] = "startup"
		if n != 0 {
			obj["source"] = "invocation"
		}
	}
	return jsonenc.Marshal(obj)
}

// agyTool maps one agy tool call onto the Gemini CLI call the guards
// judge. Tools gemini-guard does not know keep their name and arguments:
// the guards let them through (see the README's Antigravity CLI section).
func agyTool(name string, raw json.RawMessage) (string, json.RawMessage, error) {
	var args map[string]json.RawMessage
	if len(bytes.TrimSpace(raw)) > 0 && string(bytes.TrimSpace(raw)) != "null" {
		if err := json.Unmarshal(raw, &args); err != nil {
			return "", nil, fmt.Errorf("toolCall.args of %s is not an object", name)
		}
	}
	if t, ok := agyToolOf(name); ok {
		out := map[string]json.RawMessage{}
		for gemini, agy := range t.Args {
			if v, ok := args[agy]; ok {
				out[gemini] = v
			}
		}
		if v, ok := out["allow_multiple"]; ok {
			out["allow_multiple"] = boolish(v)
		}
		if name == "view_file" || name == "view_file_outline" {
			// One peer reads a targets: [{AbsolutePath}] form too.
			if paths := agyTargets(args["targets"]); len(paths) > 0 {
				out["file_paths"], _ = json.Marshal(paths)
			}
		}
		b, err := json.Marshal(out)
		return t.Gemini, b, err
	}
	switch name {
	case "multi_replace_file_content":
		edits, err := agyChunks(args["ReplacementChunks"])
		if err != nil {
			return "", nil, err
		}
		b, err := json.Marshal(map[string]any{"file_path": args["TargetFile"], "edits": edits})
		return MultiReplace, b, err
	case "read_url_content":
		return "web_fetch", raw, nil
	case "search_web":
		return "google_web_search", raw, nil
	case "call_mcp_tool":
		// Every MCP call has this one name in agy; the server and tool
		// make the mcp_<server>_<tool> name the guards know, and the
		// tool's own arguments its tool_input.
		var server, tool string
		json.Unmarshal(args["ServerName"], &server)
		json.Unmarshal(args["ToolName"], &tool)
		inner := args["Arguments"]
		var s string
		if json.Unmarshal(inner, &s) == nil && json.Valid([]byte(s)) {
			inner = json.RawMessage(s) // arguments sent as a JSON string
		}
		if len(inner) == 0 {
			inner = raw
		}
		return "mcp_" + server + "_" + tool, inner, nil
	}
	return name, raw, nil
}

// boolish reads true, "true" (agy may send values as strings) as true.
func boolish(v json.RawMessage) json.RawMessage {
	var b bool
	if json.Unmarshal(v, &b) == nil && b {
		return json.RawMessage("true")
	}
	var s string
	if json.Unmarshal(v, &s) == nil {
		if b, _ := strconv.ParseBool(s); b {
			return json.RawMessage("true")
		}
	}
	return json.RawMessage("false")
}

// agyTargets reads view_file's targets: [{AbsolutePath}] form.
func agyTargets(raw json.RawMessage) []string {
	var targets []struct {
		AbsolutePath string `json:"AbsolutePath"`
	}
	if json.Unmarshal(raw, &targets) != nil {
		return nil
	}
	var out []string
	for _, t := range targets {
		if t.AbsolutePath != "" {
			out = append(out, t.AbsolutePath)
		}
	}
	return out
}

// agyChunks reads multi_replace_file_content's ReplacementChunks, a list
// or a JSON string holding one, into MultiReplace's edits.
func agyChunks(raw json.RawMessage) ([]map[string]json.RawMessage, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	var chunks []map[string]json.RawMessage
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &chunks); err != nil {
			return nil, errors.New("ReplacementChunks of multi_replace_file_content is not a list of edits")
		}
	}
	edits := make([]map[string]json.RawMessage, 0, len(chunks))
	for _, c := range chunks {
		e := map[string]json.RawMessage{"old_string": c["TargetContent"], "new_string": c["ReplacementContent"]}
		for k, v := range e {
			if v == nil {
				delete(e, k)
			}
		}
		if v, ok := c["AllowMultiple"]; ok {
			e["allow_multiple"] = boolish(v)
		}
		edits = append(edits, e)
	}
	return edits, nil
}

// AgyLimits is what gemini-guard cannot do in Antigravity CLI, told to the
// model at the start of each conversation (and in the README).
const AgyLimits = "gemini-guard is active in this Antigravity CLI session: shell commands (run_command), file writes and edits, web, search and MCP calls are checked before they run. " +
	"Antigravity CLI does not let a hook change a tool's output, the request to the model or the model's answer, so gemini-guard does NOT redact secrets there: " +
	"it blocks reading credential files (view_file, or a shell command that prints one) instead, and a secret inside an ordinary file, a web page or an MCP result reaches the model as it is. " +
	"There is no policy wall, the secrets action `redact` blocks instead, and warn mode's messages are not shown. " +
	"When a call is blocked, do not retry it another way; use the safer way the reason names, or ask the user."

// agyAnswer is out as agy reads it for event ev, nil for no output. It
// holds only the fields agy's message for that event has.
func agyAnswer(ev Event, out Output) []byte {
	switch ev {
	case BeforeTool:
		out = out.withoutRewrite("which this CLI cannot do", "")
		if out.Decision != "deny" {
			return nil // no output: the call runs under agy's own permissions
		}
		reason := out.Reason
		if reason == "" {
			reason = "gemini-guard blocked this tool call. " + out.SystemMessage
		}
		b, _ := jsonenc.Marshal(struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}{"deny", reason})
		return b
	case SessionStart:
		// PreInvocation: one ephemeral message the model sees for this
		// request, or nothing to inject.
		type step struct {
			EphemeralMessage string `json:"ephemeralMessage"`
		}
		steps := []step{}
		if out.SystemMessage != "" {
			steps = append(steps, step{out.SystemMessage})
		}
		b, _ := jsonenc.Marshal(struct {
			InjectSteps []step `json:"injectSteps"`
		}{steps})
		return b
	}
	// No other agy event is registered: nothing to say.
	return nil
}
