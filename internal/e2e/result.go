package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Result is what one run left behind.
type Result struct {
	// Workspace is the directory the CLI ran in.
	Workspace string
	// Format is the -o format of the run.
	Format   string
	ExitCode int
	Stdout   string
	// Stderr holds what the CLI prints besides the answer, including
	// "Hook system message: ..." lines: hooks' systemMessage for the user.
	Stderr string
	// Events are the stream-json events, in order (Format "stream-json").
	Events []Event
	// JSON is the -o json document (Format "json").
	JSON *JSONOutput
	// Transcript is the session transcript the run wrote
	// (~/.gemini/tmp/<project>/chats/*.jsonl): what is stored on disk,
	// including every tool result the model saw.
	Transcript      []byte
	TranscriptPaths []string
}

// Event is one stream-json line. Fields hold the union of the event types
// Gemini CLI 0.61 emits: init, message, tool_use, tool_result, error,
// result.
type Event struct {
	Type      string `json:"type"`
	SessionID string `json:"session_id,omitempty"`
	// message
	Role    string `json:"role,omitempty"`
	Content string `json:"content,omitempty"`
	Delta   bool   `json:"delta,omitempty"`
	// tool_use and tool_result
	ToolName   string         `json:"tool_name,omitempty"`
	ToolID     string         `json:"tool_id,omitempty"`
	Parameters map[string]any `json:"parameters,omitempty"`
	Status     string         `json:"status,omitempty"`
	Output     string         `json:"output,omitempty"`
	Error      *EventError    `json:"error,omitempty"`
	// Raw is the whole line.
	Raw json.RawMessage `json:"-"`
}

// EventError is a tool_result's error. Type is "policy_violation" when a
// hook (or the policy engine) blocked the call.
type EventError struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// JSONOutput is the -o json document; Response is the answer text the user
// is shown.
type JSONOutput struct {
	SessionID string          `json:"session_id"`
	Response  string          `json:"response"`
	Error     json.RawMessage `json:"error,omitempty"`
}

func parseEvents(out []byte) ([]Event, error) {
	var events []Event
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 || line[0] != '{' {
			continue // the CLI may print a stray non-JSON line; keep going
		}
		var e Event
		if err := json.Unmarshal(line, &e); err != nil {
			return events, fmt.Errorf("e2e: stream-json line %q: %w", truncate(string(line), 200), err)
		}
		e.Raw = append(json.RawMessage(nil), line...)
		events = append(events, e)
	}
	return events, sc.Err()
}

func parseJSONOutput(out []byte) (*JSONOutput, error) {
	start := bytes.IndexByte(out, '{')
	if start < 0 {
		return nil, fmt.Errorf("e2e: no JSON document in -o json output %q", truncate(string(out), 200))
	}
	var j JSONOutput
	if err := json.Unmarshal(out[start:], &j); err != nil {
		return nil, fmt.Errorf("e2e: -o json output: %w", err)
	}
	return &j, nil
}

// AssistantText is the answer as the user saw it: the content of every
// assistant message event, joined.
func (r *Result) AssistantText() string {
	var b strings.Builder
	for _, e := range r.Events {
		if e.Type == "message" && e.Role == "assistant" {
			b.WriteString(e.Content)
		}
	}
	return b.String()
}

// AssistantTurns is the answer split where the model stopped to call tools:
// one string per run of consecutive assistant message events.
func (r *Result) AssistantTurns() []string {
	var turns []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			turns = append(turns, cur.String())
			cur.Reset()
		}
	}
	for _, e := range r.Events {
		if e.Type == "message" && e.Role == "assistant" {
			cur.WriteString(e.Content)
		} else if e.Type == "tool_use" || e.Type == "tool_result" {
			flush()
		}
	}
	flush()
	return turns
}

// ToolCall is a tool_use event and its tool_result.
type ToolCall struct {
	Use    Event
	Result Event
}

// Blocked reports whether the call was stopped by a hook or policy. Older
// Gemini CLIs (0.32 among them) type such an error execution_failed and
// say so only in the output.
func (c ToolCall) Blocked() bool {
	if c.Result.Status != "error" || c.Result.Error == nil {
		return false
	}
	return c.Result.Error.Type == "policy_violation" ||
		strings.HasPrefix(c.Result.Output, "Tool execution blocked:") ||
		strings.HasPrefix(c.Result.Output, "Tool execution denied by policy")
}

// Reason is the error message the call ended with ("" when it succeeded):
// for a blocked call, "Tool execution blocked: <reason>".
func (c ToolCall) Reason() string {
	if c.Result.Error != nil {
		return c.Result.Error.Message
	}
	return ""
}

// ToolCalls pairs each tool_use with its tool_result, in order. A call with
// no result has a zero Result.
func (r *Result) ToolCalls() []ToolCall {
	var calls []ToolCall
	index := map[string]int{}
	for _, e := range r.Events {
		switch e.Type {
		case "tool_use":
			index[e.ToolID] = len(calls)
			calls = append(calls, ToolCall{Use: e})
		case "tool_result":
			if i, ok := index[e.ToolID]; ok {
				calls[i].Result = e
			}
		}
	}
	return calls
}

// ReadFile reads a file in the workspace; ok is false when it does not exist.
func (r *Result) ReadFile(name string) (content string, ok bool) {
	data, err := os.ReadFile(filepath.Join(r.Workspace, name))
	if err != nil {
		return "", false
	}
	return string(data), true
}

// HookMessages are the hooks' systemMessage lines the CLI printed for the
// user ("Hook system message: ...") on stderr.
func (r *Result) HookMessages() []string {
	var msgs []string
	for _, line := range strings.Split(r.Stderr, "\n") {
		if m, ok := strings.CutPrefix(line, "Hook system message: "); ok {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// TranscriptToolResults are the tool results stored in the transcript: every
// string under a functionResponse's response (output, error) and every
// resultDisplay string. Blocking reasons are stored here.
func (r *Result) TranscriptToolResults() []string {
	var out []string
	sc := bufio.NewScanner(bytes.NewReader(r.Transcript))
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var v any
		if json.Unmarshal(sc.Bytes(), &v) != nil {
			continue
		}
		collect(v, false, &out)
	}
	return out
}

// collect gathers the strings under "functionResponse"."response" and
// "resultDisplay" keys.
func collect(v any, inside bool, out *[]string) {
	switch v := v.(type) {
	case string:
		if inside {
			*out = append(*out, v)
		}
	case []any:
		for _, x := range v {
			collect(x, inside, out)
		}
	case map[string]any:
		for k, x := range v {
			in := inside || k == "resultDisplay"
			if k == "functionResponse" {
				if fr, ok := x.(map[string]any); ok {
					collect(fr["response"], true, out)
				}
				continue
			}
			collect(x, in, out)
		}
	}
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
