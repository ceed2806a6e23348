package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
)

// Claude Code (@anthropic-ai/claude-code, measured on 2.1.332; see the
// project's reference notes claude-code-hooks.md). Its hooks name the
// event (PreToolUse, PostToolUse, UserPromptSubmit, SessionStart) in
// snake_case input, as Qwen Code's do, so it cannot be told from Qwen
// Code by the input: the hook's command line says `--host claude`
// (FromArgs). Every difference is translated here:
//
//   - Tools: Bash is run_shell_command, Write write_file, Edit replace
//     (replace_all is allow_multiple), MultiEdit (older versions)
//     MultiReplace, NotebookEdit notebook_edit (every string scanned),
//     Read read_file, WebFetch web_fetch, WebSearch google_web_search,
//     mcp__<server>__<tool> mcp_<server>_<tool>.
//   - A PreToolUse deny is hookSpecificOutput.permissionDecision "deny"
//     with the reason; an allow is {} (no decision: Claude Code's own
//     permissions still apply). Never "ask", never "allow": a guard must
//     not widen what the user allowed. A call the guard would rewrite
//     (the secrets action redact) is denied instead, as in Qwen Code.
//   - PostToolUse replaces what the model reads through
//     hookSpecificOutput.updatedToolOutput, which Claude Code takes only
//     in the shape of the tool's own tool_response (a plain string is
//     silently dropped): the guards see the response's text as
//     llmContent, and their answer (a deny whose reason is the redacted
//     output) is put back into a copy of tool_response (claudeReplace).
//     Where that cannot be done the run is stopped (continue:false).
//   - UserPromptSubmit is the event UserPrompt: a prompt that holds a
//     secret is blocked (decision "block"); Claude Code cannot change it.

// UserPrompt is Claude Code's UserPromptSubmit: the user's prompt, before
// it is sent to the model. Gemini CLI sends no such event to gemini-guard.
const UserPrompt Event = "UserPromptSubmit"

// UserPromptInput is the input of a UserPrompt call.
type UserPromptInput struct {
	Base
	Prompt string `json:"prompt"`
}

// claudeEvent is the event whose decision Claude Code's event name
// carries. A switch, not a map: a hook process builds nothing before it
// reads its input.
func claudeEvent(name string) (Event, bool) {
	switch name {
	case "PreToolUse":
		return BeforeTool, true
	case "PostToolUse", "PostToolUseFailure", "PostToolBatch":
		return AfterTool, true
	case "UserPromptSubmit":
		return UserPrompt, true
	case "SessionStart":
		return SessionStart, true
	}
	return "", false
}

// claudeEventOf is Claude Code's name of ev.
func claudeEventOf(ev Event) string {
	switch ev {
	case BeforeTool:
		return "PreToolUse"
	case AfterTool:
		return "PostToolUse"
	}
	return string(ev)
}

// claudeInput is the part of a Claude Code call the guards read.
type claudeInput struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath string          `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	Error          *string         `json:"error"`
	ToolCalls      []struct {
		ToolName     string          `json:"tool_name"`
		ToolResponse json.RawMessage `json:"tool_response"`
	} `json:"tool_calls"`
	Prompt *string `json:"prompt"`
	Source string  `json:"source"`
}

// normaliseClaude rewrites a Claude Code call into Gemini CLI's shape for
// the program answering ev. A call of another event, or a tool event
// without a tool, is an error (the program answers its fail-safe).
func normaliseClaude(data []byte, ev Event) ([]byte, error) {
	var in claudeInput
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	if got, ok := claudeEvent(in.HookEventName); !ok || got != ev {
		return nil, fmt.Errorf("this program answers the Claude Code event %s, not %q", claudeEventOf(ev), in.HookEventName)
	}
	obj := map[string]any{
		"session_id":      in.SessionID,
		"transcript_path": in.TranscriptPath,
		"cwd":             in.Cwd,
		"hook_event_name": string(ev),
	}
	switch {
	case in.HookEventName == "PostToolBatch":
		if err := claudeBatch(in, obj); err != nil {
			return nil, err
		}
	case ev == BeforeTool || ev == AfterTool:
		if in.ToolName == "" {
			return nil, errors.New("tool_name is missing")
		}
		if err := putTool(obj, in.ToolName, in.ToolInput, claudeTool); err != nil {
			return nil, err
		}
		if ev == AfterTool {
			if err := claudeAfterTool(in, obj); err != nil {
				return nil, err
			}
		}
	case ev == UserPrompt:
		if in.Prompt == nil {
			return nil, errors.New("prompt is missing")
		}
		obj["prompt"] = *in.Prompt
	case ev == SessionStart:
		obj["source"] = in.Source
	}
	return jsonenc.Marshal(obj)
}

// ClaudeBatchTool is the tool name the guards see for Claude Code's
// PostToolBatch: every tool result of a batch, as the model is about to
// read them (already replaced by PostToolUse where it could), before the
// next request. A failed tool's error text reaches the model only through
// it (PostToolUseFailure can neither replace it nor stop the turn).
const ClaudeBatchTool = "tool_batch"

// claudeBatch puts a PostToolBatch call into obj: its results, each a
// text part of llmContent.
func claudeBatch(in claudeInput, obj map[string]any) error {
	parts := make([]map[string]string, 0, len(in.ToolCalls))
	for _, c := range in.ToolCalls {
		var text string
		if json.Unmarshal(c.ToolResponse, &text) != nil {
			t, err := claudeOutputText(c.ToolName, c.ToolResponse)
			if err != nil {
				return err
			}
			text = t
		}
		parts = append(parts, map[string]string{"text": text})
	}
	obj["tool_name"] = ClaudeBatchTool
	obj["host_event_name"] = in.HookEventName
	obj["tool_response"] = map[string]any{"llmContent": parts}
	return nil
}

// claudeAfterTool puts the output of a PostToolUse or PostToolUseFailure
// call into obj: the text the model reads as llmContent, and the
// tool_response it is put back into (PostToolUse) or the event's name
// (PostToolUseFailure, whose error text cannot be replaced: claudeAnswer
// stops the turn instead).
func claudeAfterTool(in claudeInput, obj map[string]any) error {
	text, err := claudeOutputText(in.ToolName, in.ToolResponse)
	if err != nil {
		return err
	}
	if in.HookEventName == "PostToolUseFailure" {
		if in.Error != nil && *in.Error != "" {
			text = strings.TrimPrefix(text+"\n"+*in.Error, "\n")
		}
		obj["host_event_name"] = in.HookEventName
	} else if len(in.ToolResponse) > 0 {
		obj["host_tool_response"] = in.ToolResponse
	}
	obj["tool_response"] = map[string]any{"llmContent": text}
	return nil
}

// claudeTool maps one Claude Code tool call onto the Gemini CLI call the
// guards judge. Tools gemini-guard does not know keep their name and
// arguments: the guards let them through.
func claudeTool(name string, raw json.RawMessage) (string, json.RawMessage, error) {
	var args map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && string(t) != "null" {
		if err := json.Unmarshal(t, &args); err != nil {
			return "", nil, fmt.Errorf("tool_input of %s is not an object", name)
		}
	}
	pick := func(rename map[string]string) (json.RawMessage, error) {
		out := map[string]json.RawMessage{}
		for from, to := range rename {
			if v, ok := args[from]; ok {
				out[to] = v
			}
		}
		if v, ok := out["allow_multiple"]; ok {
			out["allow_multiple"] = boolish(v)
		}
		return json.Marshal(out)
	}
	switch name {
	case "Bash":
		b, err := pick(map[string]string{"command": "command"})
		return "run_shell_command", b, err
	case "Write":
		b, err := pick(map[string]string{"file_path": "file_path", "content": "content"})
		return "write_file", b, err
	case "Edit":
		b, err := pick(map[string]string{"file_path": "file_path", "old_string": "old_string", "new_string": "new_string", "replace_all": "allow_multiple"})
		return "replace", b, err
	case "MultiEdit":
		return claudeMultiEdit(args)
	case "NotebookEdit":
		return "notebook_edit", raw, nil
	case "Read":
		b, err := pick(map[string]string{"file_path": "file_path"})
		return "read_file", b, err
	case "WebFetch":
		return "web_fetch", raw, nil
	case "WebSearch":
		return "google_web_search", raw, nil
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		// mcp__<server>__<tool>; the server's name has no "__".
		server, tool, _ := strings.Cut(rest, "__")
		if tool == "" {
			return "mcp_" + server, raw, nil
		}
		return "mcp_" + server + "_" + tool, raw, nil
	}
	return name, raw, nil
}

// claudeBuiltin reports whether tool is one of Claude Code's own tools
// the guards judge, named as no other host names a tool (Qwen Code's are
// snake_case): an input that names one comes from Claude Code.
func claudeBuiltin(tool string) bool {
	switch tool {
	case "Bash", "Write", "Edit", "MultiEdit", "NotebookEdit", "Read", "WebFetch", "WebSearch":
		return true
	}
	return false
}

// claudeMultiEdit reads MultiEdit (Claude Code before 2.x): file_path and
// edits of {old_string, new_string, replace_all}, as MultiReplace.
func claudeMultiEdit(args map[string]json.RawMessage) (string, json.RawMessage, error) {
	var edits []map[string]json.RawMessage
	if raw, ok := args["edits"]; ok {
		if err := json.Unmarshal(raw, &edits); err != nil {
			return "", nil, errors.New("edits of MultiEdit is not a list of edits")
		}
	}
	out := make([]map[string]json.RawMessage, 0, len(edits))
	for _, e := range edits {
		m := map[string]json.RawMessage{}
		for _, k := range []string{"old_string", "new_string"} {
			if v, ok := e[k]; ok {
				m[k] = v
			}
		}
		if v, ok := e["replace_all"]; ok {
			m["allow_multiple"] = boolish(v)
		}
		out = append(out, m)
	}
	b, err := json.Marshal(map[string]any{"file_path": args["file_path"], "edits": out})
	return MultiReplace, b, err
}

// claudeWriters are the tools whose output only says what the model itself
// wrote: their tool_response (which also holds the file before the edit)
// is not scanned, nor replaced.
func claudeWriter(tool string) bool {
	switch tool {
	case "Write", "Edit", "MultiEdit", "NotebookEdit":
		return true
	}
	return false
}

// claudeSkipped are the keys of a tool_response whose strings are not the
// tool's output: what kind of output it is, and the path, URL or query
// the model itself gave.
func claudeSkipped(key string) bool {
	switch key {
	case "type", "filePath", "file_path", "url", "query", "mode", "codeText", "interrupted", "isImage", "noOutputExpected", "returnCodeInterpretation",
		"cell_type", "cell_id", "language", "mimeType", "media_type":
		return true
	case "base64":
		// An image's or a PDF's data: not text the model reads as text,
		// and not to be replaced by text.
		return true
	}
	return false
}

// claudeFirst are the keys whose strings are visited first: where the
// main text of a response is, so that the replacement lands there.
var claudeFirst = [...]string{"stdout", "file", "content", "result", "output", "text", "source", "cells", "results", "stderr"}

// claudeLeaves calls visit with a pointer to every string of v that is
// the tool's output, in a fixed order (claudeFirst, then the other keys
// sorted), for claudeOutputText and claudeReplace to see the same
// strings in the same order. v is a decoded JSON value (any).
func claudeLeaves(v *any, visit func(*string)) {
	switch x := (*v).(type) {
	case string:
		visit(&x)
		*v = x
	case []any:
		for i := range x {
			claudeLeaves(&x[i], visit)
		}
	case map[string]any:
		keys := slices.Sorted(maps.Keys(x))
		ordered := make([]string, 0, len(keys))
		for _, k := range claudeFirst {
			if _, ok := x[k]; ok {
				ordered = append(ordered, k)
			}
		}
		for _, k := range keys {
			if !slices.Contains(claudeFirst[:], k) {
				ordered = append(ordered, k)
			}
		}
		for _, k := range ordered {
			if claudeSkipped(k) {
				continue
			}
			e := x[k]
			claudeLeaves(&e, visit)
			x[k] = e
		}
	}
}

// decodeResponse decodes a tool_response keeping its numbers as written.
func decodeResponse(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, fmt.Errorf("tool_response is not JSON: %w", err)
	}
	return v, nil
}

// claudeOutputText is the text of a tool's tool_response that the model
// reads, for the guards to scan: every string in it that is output, one
// per line.
func claudeOutputText(tool string, raw json.RawMessage) (string, error) {
	if claudeWriter(tool) || len(bytes.TrimSpace(raw)) == 0 {
		return "", nil
	}
	v, err := decodeResponse(raw)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	claudeLeaves(&v, func(s *string) {
		if *s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(*s)
	})
	return b.String(), nil
}

// claudeReplace is tool_response raw with text in place of its output:
// the first string claudeOutputText read holds text, every other one is
// emptied, everything else is kept, so that Claude Code takes it as the
// tool's output. ok is false when raw holds no such string.
func claudeReplace(raw json.RawMessage, text string) (json.RawMessage, bool) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, false
	}
	v, err := decodeResponse(raw)
	if err != nil {
		return nil, false
	}
	placed := false
	claudeLeaves(&v, func(s *string) {
		if !placed {
			*s, placed = text, true
			return
		}
		*s = ""
	})
	if !placed {
		return nil, false
	}
	b, err := jsonenc.Marshal(v)
	if err != nil {
		return nil, false
	}
	return bytes.TrimSpace(b), true
}

// ClaudeLimits is what gemini-guard cannot do in Claude Code, told at
// session start (and in the README).
const ClaudeLimits = "gemini-guard in Claude Code: shell commands, file writes and edits, web and MCP calls are checked before they run, " +
	"and secrets in tool output are replaced before the model reads them; a prompt that holds a secret is blocked. " +
	"The model's streamed answer and the rest of the request to the model are NOT redacted (Claude Code's hooks cannot change them), " +
	"there is no policy wall, and the secrets action `redact` blocks instead."

// claudeSpecific is hookSpecificOutput as Claude Code reads it.
type claudeSpecific struct {
	HookEventName            string          `json:"hookEventName"`
	PermissionDecision       string          `json:"permissionDecision,omitempty"`
	PermissionDecisionReason string          `json:"permissionDecisionReason,omitempty"`
	AdditionalContext        string          `json:"additionalContext,omitempty"`
	UpdatedToolOutput        json.RawMessage `json:"updatedToolOutput,omitempty"`
}

// claudeOutput is one answer as Claude Code reads it.
type claudeOutput struct {
	Continue      *bool           `json:"continue,omitempty"`
	StopReason    string          `json:"stopReason,omitempty"`
	Decision      string          `json:"decision,omitempty"`
	Reason        string          `json:"reason,omitempty"`
	SystemMessage string          `json:"systemMessage,omitempty"`
	Specific      *claudeSpecific `json:"hookSpecificOutput,omitempty"`
}

// claudeAnswer is out, an answer in Gemini CLI's shape to event ev, as
// Claude Code reads it: always one JSON object ({} for no decision).
func claudeAnswer(ev Event, out Output) []byte {
	a := claudeOutput{SystemMessage: out.SystemMessage}
	specific := func() *claudeSpecific {
		if a.Specific == nil {
			a.Specific = &claudeSpecific{HookEventName: claudeEventOf(ev)}
		}
		return a.Specific
	}
	if out.Specific != nil && out.Specific.AdditionalContext != "" {
		specific().AdditionalContext = out.Specific.AdditionalContext
	}
	switch ev {
	case BeforeTool:
		if out.rewrites() {
			// Claude Code's updatedInput needs an "allow" beside it, which
			// would also skip the user's permission prompt: deny instead.
			out = out.withoutRewrite("which gemini-guard does not do in Claude Code", "")
			a.SystemMessage = out.SystemMessage
		}
		if out.Decision == "deny" {
			s := specific()
			s.PermissionDecision = "deny"
			s.PermissionDecisionReason = orDefault(out.Reason, "gemini-guard blocked this tool call.")
		}
	case AfterTool:
		if out.hostEvent != "" && a.Specific != nil {
			a.Specific.HookEventName = out.hostEvent // PostToolUseFailure, PostToolBatch
		}
		if out.Decision == "deny" && out.hostEvent == "PostToolUseFailure" {
			// Neither replaced nor stopped there: the batch's hook stops
			// the turn (claudeBatch).
			break
		}
		if out.Decision == "deny" && out.hostEvent == "PostToolBatch" {
			f := false
			a.Continue = &f
			a.StopReason = "gemini-guard stopped this turn: a tool's output that Claude Code does not let a hook change (a failed command's) holds a secret, or could not be checked, so it was not sent to the model. " +
				"It stays in this conversation: start a new one (/clear) before you go on. " + out.SystemMessage
			break
		}
		if out.Decision == "deny" {
			reason := orDefault(out.Reason, "gemini-guard withheld this tool output.")
			if replaced, ok := claudeReplace(json.RawMessage(out.hostResponse), reason); ok && out.hostEvent == "" {
				specific().UpdatedToolOutput = replaced
			} else {
				// No shape to put the answer in: stop the run rather
				// than let the output through.
				f := false
				a.Continue, a.StopReason = &f, reason
			}
		}
	case UserPrompt:
		if out.Decision == "deny" || out.Specific != nil && len(out.Specific.LLMRequest) > 0 {
			a.Decision, a.Reason = "block", orDefault(out.Reason, "gemini-guard blocked this prompt.")
		}
	}
	b, err := jsonenc.Marshal(a)
	if err != nil {
		return []byte("{}")
	}
	return bytes.TrimSpace(b)
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// withHostResponse gives out the tool_response of the Claude Code call in
// (an *AfterToolInput), for claudeAnswer to replace; out unchanged for
// any other call or host.
func withHostResponse(in any, host Dialect, out Output) Output {
	if host != Claude {
		return out
	}
	if a, ok := in.(*AfterToolInput); ok {
		out.hostResponse, out.hostEvent = string(a.HostToolResponse), a.HostEvent
	}
	return out
}
