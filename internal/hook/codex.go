package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
)

// Codex CLI (@openai/codex 0.171.0), as measured (the project's reference
// notes, codex-hooks.md): snake_case input in the Claude Code shape
// (PreToolUse / PostToolUse, tool_name, tool_input, tool_response as a
// string), the shell tool as Bash with {"command": "<string>"}, the patch
// tool as apply_patch with {"command": "<whole patch>"}. Its output is
// parsed strictly: one key it does not know, or an enum value it does not
// have, makes the whole answer invalid, and an invalid answer lets the tool
// run. So every answer here holds only keys of the event's schema, and an
// allow is no output at all. Codex has no ask; a PostToolUse cannot change
// a tool's output but `decision: "block"` shows the model the reason in
// its place, which carries the redacted output (as Gemini CLI's AfterTool
// deny does).
//
// The hooks run as `guard-… --host codex <event>`: Codex's input looks
// like Qwen Code's (the same event names and permission_mode), so the
// command line says which host it is.

// The Codex events gemini-guard answers, as Codex names them.
const (
	CodexPreToolUse   = "PreToolUse"
	CodexPostToolUse  = "PostToolUse"
	CodexSessionStart = "SessionStart"
)

// Codex tool names as its hooks see them.
const (
	CodexBash       = "Bash"
	CodexApplyPatch = "apply_patch"
)

// ApplyPatch is the tool name the guards see for Codex's apply_patch: its
// tool_input is a PatchInput.
const ApplyPatch = "apply_patch"

// codexEvent is the Gemini CLI event a Codex event carries.
func codexEvent(name string) (Event, bool) {
	switch name {
	case CodexPreToolUse:
		return BeforeTool, true
	case CodexPostToolUse:
		return AfterTool, true
	case CodexSessionStart:
		return SessionStart, true
	}
	return "", false
}

// codexInput is the part of a Codex call the guards read.
type codexInput struct {
	SessionID      string          `json:"session_id"`
	TranscriptPath *string         `json:"transcript_path"`
	Cwd            string          `json:"cwd"`
	HookEventName  string          `json:"hook_event_name"`
	ToolName       string          `json:"tool_name"`
	ToolInput      json.RawMessage `json:"tool_input"`
	ToolResponse   json.RawMessage `json:"tool_response"`
	Source         string          `json:"source"`
}

// normaliseCodex rewrites a Codex call of event ev into Gemini CLI's shape.
// A call it cannot read (a missing tool name, a Bash call without a string
// command, a patch that does not parse, another event than the command
// line names) is an error: the call fails closed.
func normaliseCodex(data []byte, ev Event) ([]byte, error) {
	var in codexInput
	if err := json.Unmarshal(data, &in); err != nil {
		return nil, err
	}
	if e, ok := codexEvent(in.HookEventName); in.HookEventName != "" && (!ok || e != ev) {
		return nil, fmt.Errorf("hook_event_name is %q, but this program answers %s", in.HookEventName, codexEventOf(ev))
	}
	obj := map[string]any{
		"session_id":      in.SessionID,
		"cwd":             in.Cwd,
		"hook_event_name": string(ev),
	}
	if in.TranscriptPath != nil {
		obj["transcript_path"] = *in.TranscriptPath
	}
	switch ev {
	case BeforeTool, AfterTool:
		if in.ToolName == "" {
			return nil, errors.New("tool_name is missing")
		}
		if err := putTool(obj, in.ToolName, in.ToolInput, codexTool); err != nil {
			return nil, err
		}
		if ev == AfterTool {
			obj["tool_response"] = map[string]json.RawMessage{"llmContent": codexResponse(in.ToolResponse)}
		}
	case SessionStart:
		obj["source"] = in.Source
	}
	return jsonenc.Marshal(obj)
}

// codexEventOf is the Codex event a program answering ev handles.
func codexEventOf(ev Event) string {
	switch ev {
	case BeforeTool:
		return CodexPreToolUse
	case AfterTool:
		return CodexPostToolUse
	}
	return string(ev)
}

// codexResponse is tool_response as the text the model reads: a string as
// it is, anything else (an MCP result) as its JSON text, so that every
// byte of it is scanned.
func codexResponse(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return json.RawMessage(`""`)
	}
	if raw[0] == '"' {
		return raw
	}
	b, _ := json.Marshal(string(raw))
	return b
}

// codexTool maps one Codex tool call onto the call the guards judge: Bash
// is run_shell_command, apply_patch is ApplyPatch with the patch parsed
// (PatchInput), an MCP tool mcp__<server>__<tool> is mcp_<server>_<tool>
// (the guards' name for MCP tools), anything else keeps its name.
func codexTool(name string, raw json.RawMessage) (string, json.RawMessage, error) {
	switch name {
	case CodexBash:
		var in struct {
			Command *string `json:"command"`
		}
		if json.Unmarshal(raw, &in) != nil || in.Command == nil {
			return "", nil, errors.New("tool_input.command of Bash is missing or not a string")
		}
		args := map[string]any{"command": *in.Command}
		files, err := embeddedPatch(*in.Command)
		if err != nil {
			return "", nil, err
		}
		if len(files) > 0 {
			args[EmbeddedPatch] = PatchInput{Files: files}
		}
		b, err := jsonenc.Marshal(args)
		return "run_shell_command", b, err
	case CodexApplyPatch:
		var in struct {
			Command *string `json:"command"`
		}
		if json.Unmarshal(raw, &in) != nil || in.Command == nil {
			return "", nil, errors.New("tool_input.command of apply_patch is missing or not a string")
		}
		files, err := ParsePatch(*in.Command)
		if err != nil {
			return "", nil, err
		}
		b, err := json.Marshal(PatchInput{Files: files})
		return ApplyPatch, b, err
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		server, tool, found := strings.Cut(rest, "__")
		if found {
			return "mcp_" + server + "_" + tool, raw, nil
		}
	}
	return name, raw, nil
}

// EmbeddedPatch is the key of run_shell_command's tool_input that holds
// the patches a Codex shell command carries (`apply_patch <<'EOF' … EOF`,
// which Codex applies itself, with no PostToolUse after), as a
// PatchInput: the guards judge them as they judge apply_patch, besides
// the command.
const EmbeddedPatch = "codex_patch"

// embeddedPatch reads every patch in a shell command: the lines from one
// "*** Begin Patch" to the next "*** End Patch". A command that names
// apply_patch (or applypatch) and holds a patch that does not parse is an
// error; in any other command such text is only text.
func embeddedPatch(command string) ([]PatchFile, error) {
	if !strings.Contains(command, "*** Begin Patch") {
		return nil, nil
	}
	named := strings.Contains(command, "apply_patch") || strings.Contains(command, "applypatch")
	var files []PatchFile
	var cur []string
	in := false
	for _, l := range strings.Split(command, "\n") {
		switch t := strings.TrimSpace(l); {
		case !in && strings.HasSuffix(t, "*** Begin Patch"):
			in, cur = true, []string{"*** Begin Patch"}
		case in && strings.HasPrefix(t, "*** End Patch"):
			fs, err := ParsePatch(strings.Join(append(cur, "*** End Patch"), "\n"))
			if err != nil && named {
				return nil, err
			}
			files, in = append(files, fs...), false
		case in:
			cur = append(cur, l)
		}
	}
	if in && named {
		return nil, errors.New("the apply_patch in this command has no *** End Patch")
	}
	return files, nil
}

// PatchInput is ApplyPatch's tool_input: the files a patch changes, in
// its order.
type PatchInput struct {
	Files []PatchFile `json:"files"`
}

// The operations of a patch on one file.
const (
	PatchAdd    = "add"
	PatchUpdate = "update"
	PatchDelete = "delete"
)

// PatchFile is what a patch does to one file. Paths are as the patch names
// them (relative to the session's cwd, or absolute).
type PatchFile struct {
	Op   string `json:"op"`
	Path string `json:"path"`
	// MoveTo is where an update moves the file ("" for none).
	MoveTo string `json:"move_to,omitempty"`
	// Content is an added file's content.
	Content string `json:"content,omitempty"`
	// Edits are an update's hunks, each as the old lines (context and
	// removed) and the new (context and added), applied in order.
	Edits []PatchEdit `json:"edits,omitempty"`
}

// PatchEdit is one hunk of an update, in the shape of the guards' edits.
type PatchEdit struct {
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// ParsePatch reads Codex's patch format:
//
//	*** Begin Patch
//	*** Add File: <path>        then lines "+<text>"
//	*** Delete File: <path>
//	*** Update File: <path>
//	*** Move to: <path>         (optional, right after Update File)
//	@@ [context]                then hunk lines " ", "-", "+"
//	*** End of File             (optional)
//	*** End Patch
//
// Marker lines may carry surrounding white space, as Codex's own parser
// allows. Anything else is an error: a patch the guard cannot read is not
// let through.
func ParsePatch(patch string) ([]PatchFile, error) {
	lines := strings.Split(strings.ReplaceAll(patch, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	if len(lines) < 2 || strings.TrimSpace(lines[0]) != "*** Begin Patch" || strings.TrimSpace(lines[len(lines)-1]) != "*** End Patch" {
		return nil, errors.New("apply_patch input is not a patch (it must begin with *** Begin Patch and end with *** End Patch)")
	}
	p := patchParser{}
	for i, l := range lines[1 : len(lines)-1] {
		if err := p.line(l); err != nil {
			return nil, fmt.Errorf("apply_patch line %d: %w", i+2, err)
		}
	}
	p.flush()
	if len(p.files) == 0 {
		return nil, errors.New("apply_patch changes no file")
	}
	return p.files, nil
}

// patchParser is ParsePatch's state: the files read, and the hunk being
// read of the current update.
type patchParser struct {
	files    []PatchFile
	cur      *PatchFile
	old, new []string
	inHunk   bool
}

func (p *patchParser) line(l string) error {
	marker := strings.TrimSpace(l)
	if v, ok := strings.CutPrefix(marker, "*** Add File:"); ok {
		return p.start(PatchAdd, v)
	}
	if v, ok := strings.CutPrefix(marker, "*** Delete File:"); ok {
		return p.start(PatchDelete, v)
	}
	if v, ok := strings.CutPrefix(marker, "*** Update File:"); ok {
		return p.start(PatchUpdate, v)
	}
	if p.cur == nil {
		return errors.New("text before the first *** Add/Update/Delete File line")
	}
	if v, ok := strings.CutPrefix(marker, "*** Move to:"); ok {
		if p.cur.Op != PatchUpdate || p.inHunk || p.cur.MoveTo != "" || strings.TrimSpace(v) == "" {
			return errors.New("*** Move to: must follow *** Update File: and name a path")
		}
		p.cur.MoveTo = strings.TrimSpace(v)
		return nil
	}
	switch p.cur.Op {
	case PatchAdd:
		text, ok := strings.CutPrefix(l, "+")
		if !ok {
			return errors.New("a line of an added file must begin with +")
		}
		p.cur.Content += text + "\n"
		return nil
	case PatchDelete:
		return errors.New("a deleted file takes no lines")
	}
	return p.hunkLine(l, marker)
}

// hunkLine reads one line of an update: a hunk header, an end-of-file
// marker or a hunk line. An empty line is an empty context line.
func (p *patchParser) hunkLine(l, marker string) error {
	switch {
	case marker == "@@" || strings.HasPrefix(marker, "@@ "):
		p.endHunk()
		p.inHunk = true
		return nil
	case marker == "*** End of File":
		p.endHunk()
		return nil
	case l == "":
		p.old, p.new = append(p.old, ""), append(p.new, "")
	case l[0] == ' ':
		p.old, p.new = append(p.old, l[1:]), append(p.new, l[1:])
	case l[0] == '-':
		p.old = append(p.old, l[1:])
	case l[0] == '+':
		p.new = append(p.new, l[1:])
	default:
		return errors.New("a hunk line must begin with a space, - or +")
	}
	p.inHunk = true
	return nil
}

func (p *patchParser) start(op, path string) error {
	path = strings.TrimSpace(path)
	if path == "" {
		return errors.New("a file operation names no path")
	}
	p.flush()
	p.files = append(p.files, PatchFile{Op: op, Path: path})
	p.cur = &p.files[len(p.files)-1]
	return nil
}

// endHunk closes the hunk being read into an edit of the current file.
func (p *patchParser) endHunk() {
	if p.cur != nil && (len(p.old) > 0 || len(p.new) > 0) {
		p.cur.Edits = append(p.cur.Edits, PatchEdit{OldString: strings.Join(p.old, "\n"), NewString: strings.Join(p.new, "\n")})
	}
	p.old, p.new, p.inHunk = nil, nil, false
}

// flush ends the current file. (p.cur points into p.files, which the next
// append may move: it is cleared here.)
func (p *patchParser) flush() {
	p.endHunk()
	p.cur = nil
}

// PatchShellCommand is the shell command that does what a patch does to
// files other than by writing them: each deleted file is `rm -- PATH`, each
// moved file `mv -- FROM TO`, one command a line; "" when the patch only
// adds and edits files. The shell guard judges it as it judges these
// commands.
func PatchShellCommand(files []PatchFile) string {
	var b strings.Builder
	for _, f := range files {
		switch {
		case f.Op == PatchDelete:
			b.WriteString("rm -- " + shellWord(f.Path) + "\n")
		case f.Op == PatchUpdate && f.MoveTo != "":
			b.WriteString("mv -- " + shellWord(f.Path) + " " + shellWord(f.MoveTo) + "\n")
		}
	}
	return b.String()
}

// shellWord quotes s as one word for a POSIX shell.
func shellWord(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// CodexLimits is what gemini-guard cannot do in Codex CLI, told to the
// model at the start of each session (and in the README).
const CodexLimits = "gemini-guard is active in this Codex CLI session: shell commands (Bash), apply_patch and MCP calls are checked before they run, and tool output is checked for secrets. " +
	"Codex CLI does not let a hook change a tool's output, so a tool output that holds a secret is withheld and replaced by a redacted copy; " +
	"the model's own answer and the request to the model are NOT redacted, and there is no policy wall. " +
	"When a call is blocked, do not retry it another way; use the safer way the reason names, or ask the user."

// codexAnswer is out as Codex reads it for event ev, nil for no output. It
// holds only keys of that event's output schema.
func codexAnswer(ev Event, out Output) []byte {
	switch ev {
	case BeforeTool:
		// A rewrite (the secrets action redact): Codex's updatedInput
		// comes with an allow, which would also grant the call; deny.
		out = out.withoutRewrite("which gemini-guard does not do in this CLI", "")
		if out.Decision != "deny" {
			if out.SystemMessage == "" {
				return nil
			}
			b, _ := jsonenc.Marshal(struct {
				SystemMessage string `json:"systemMessage"`
			}{out.SystemMessage})
			return b
		}
		type specific struct {
			HookEventName            string `json:"hookEventName"`
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		}
		b, _ := jsonenc.Marshal(struct {
			SystemMessage string   `json:"systemMessage,omitempty"`
			Specific      specific `json:"hookSpecificOutput"`
		}{out.SystemMessage, specific{CodexPreToolUse, "deny", nonEmptyReason(out)}})
		return b
	case AfterTool:
		if out.Decision != "deny" {
			return nil
		}
		// The reason is what the model reads in place of the output.
		b, _ := jsonenc.Marshal(struct {
			Decision string `json:"decision"`
			Reason   string `json:"reason"`
		}{"block", nonEmptyReason(out)})
		return b
	case SessionStart:
		msg := out.SystemMessage
		if out.Specific != nil && out.Specific.AdditionalContext != "" {
			msg = out.Specific.AdditionalContext
		}
		if msg == "" {
			return nil
		}
		type specific struct {
			HookEventName     string `json:"hookEventName"`
			AdditionalContext string `json:"additionalContext"`
		}
		b, _ := jsonenc.Marshal(struct {
			Specific specific `json:"hookSpecificOutput"`
		}{specific{CodexSessionStart, msg}})
		return b
	}
	return nil
}

// nonEmptyReason is out's reason; Codex reads an empty one as an invalid
// answer, which would let the call through.
func nonEmptyReason(out Output) string {
	if out.Reason != "" {
		return out.Reason
	}
	if out.SystemMessage != "" {
		return "gemini-guard blocked this tool call. " + out.SystemMessage
	}
	return "gemini-guard blocked this tool call."
}
