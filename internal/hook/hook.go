// Package hook is Gemini CLI's hook protocol as gemini-guard speaks it: the
// typed input of each event, the output it may answer, and Run, the fail-safe
// loop every hook binary goes through.
//
// The contract with Gemini CLI 0.61 (see the project's reference notes) is
// unforgiving: stdout must hold exactly one JSON object and the process must
// exit 0; garbage or a timeout lets the action through, and anything printed
// to stderr with an empty stdout becomes the answer. Run therefore reads a
// bounded stdin, recovers every panic and always writes one object.
//
// Guard packages never import hook: they take plain Go values and return a
// verdict.Verdict, so the people's command reuses them unchanged.
package hook

import (
	"encoding/json"
	"fmt"
)

// Event is a Gemini CLI hook event that gemini-guard answers.
type Event string

const (
	BeforeTool   Event = "BeforeTool"
	AfterTool    Event = "AfterTool"
	AfterModel   Event = "AfterModel"
	BeforeModel  Event = "BeforeModel"
	SessionStart Event = "SessionStart"
)

// MaxInput is the most bytes of stdin a hook reads. A call over it is not
// scanned: BeforeTool denies it, AfterTool and AfterModel withhold what it
// carries, BeforeModel refuses it (see FailSafe). 32 MiB is far above a
// model's tool call or a streamed chunk.
const MaxInput = 32 << 20

// Base holds the fields Gemini CLI sends with every event.
type Base struct {
	SessionID      string `json:"session_id"`
	TranscriptPath string `json:"transcript_path"`
	// Cwd is the workspace the session runs in. Guards take the workspace
	// from here, not from GEMINI_* variables: forks that speak the same
	// protocol name those otherwise.
	Cwd           string `json:"cwd"`
	HookEventName string `json:"hook_event_name"`
	Timestamp     string `json:"timestamp"`
	// Host is the CLI that sent the call (see Dialect). The input is
	// already translated into Gemini CLI's shape; guards need Host only to
	// tell the user what that CLI cannot do.
	Host Dialect `json:"-"`
}

func (b *Base) setHost(d Dialect) { b.Host = d }

func (b *Base) eventName() string { return b.HookEventName }

// hostSetter is every input type: they all embed Base.
type hostSetter interface{ setHost(Dialect) }

// BeforeToolInput is the input of a BeforeTool call.
type BeforeToolInput struct {
	Base
	ToolName string `json:"tool_name"`
	// ToolInput is the model's raw arguments: paths in it may be relative to
	// Cwd and are never normalised by Gemini CLI.
	ToolInput json.RawMessage `json:"tool_input"`
	// HostToolName is the tool as the host calls it when its name differs
	// from ToolName (agy's write_to_file for write_file), for reasons to
	// name it as the model knows it; "" otherwise.
	HostToolName string `json:"host_tool_name"`
}

// AfterToolInput is the input of an AfterTool call.
type AfterToolInput struct {
	Base
	ToolName     string          `json:"tool_name"`
	ToolInput    json.RawMessage `json:"tool_input"`
	ToolResponse ToolResponse    `json:"tool_response"`
	// HostToolResponse is the tool's response as a host that does not
	// speak Gemini CLI's shape sent it (Claude Code's tool_response
	// object), for the answer to be put back into; nil otherwise.
	HostToolResponse json.RawMessage `json:"host_tool_response"`
	// HostEvent is the host's event when it is not the usual one for
	// AfterTool (Claude Code's PostToolUseFailure, whose output cannot be
	// replaced); "" otherwise.
	HostEvent string `json:"host_event_name"`
}

// ToolResponse is what a tool returned. LLMContent is what the model will
// read: a string for most tools, parts for some (kept raw).
type ToolResponse struct {
	LLMContent    json.RawMessage `json:"llmContent"`
	ReturnDisplay json.RawMessage `json:"returnDisplay"`
	Error         json.RawMessage `json:"error"`
}

// AfterModelInput is the input of an AfterModel call: one streamed chunk.
//
// Gemini CLI 0.61 sends LLMResponse. The simplified shape of the extension
// hooks API reference sends Content (this chunk) and FullContent (the text
// so far) instead; a hook answers in the shape it was asked in.
type AfterModelInput struct {
	Base
	LLMRequest  json.RawMessage `json:"llm_request"`
	LLMResponse json.RawMessage `json:"llm_response"`
	Content     *string         `json:"content"`
	FullContent *string         `json:"full_content"`
}

// SessionStartInput is the input of a SessionStart call.
type SessionStartInput struct {
	Base
	Source string `json:"source"`
}

// Output is one hook answer. Zero fields are left out, so the zero Output
// prints as {} and lets the action through without a decision of ours.
type Output struct {
	// Decision is "deny" or "allow"; never "ask" (headless runs hang on it).
	Decision string `json:"decision,omitempty"`
	// Reason goes to the model (and the transcript) when Decision is deny.
	Reason string `json:"reason,omitempty"`
	// SystemMessage is shown to the user only.
	SystemMessage string `json:"systemMessage,omitempty"`
	// Content answers the simplified AfterModel shape.
	Content *string `json:"content,omitempty"`
	// Specific is hookSpecificOutput.
	Specific *Specific `json:"hookSpecificOutput,omitempty"`
	// Continue false with StopReason ends the agent loop in Gemini CLI;
	// Qwen Code's PostToolUse uses it to replace a tool's result (set by
	// the dialect translation, not by guards).
	Continue   *bool  `json:"continue,omitempty"`
	StopReason string `json:"stopReason,omitempty"`
	// fallback is sent instead of a tool-input rewrite to a host that
	// cannot rewrite (ReplaceToolInputOrDeny, withoutRewrite).
	fallback *Output
	// hostResponse is the Claude Code tool_response an AfterTool answer
	// replaces (withHostResponse); a string so that Output compares.
	hostResponse string
	// hostEvent is AfterToolInput.HostEvent, for the answer's shape.
	hostEvent string
}

// Specific is the event-specific part of an answer.
type Specific struct {
	HookEventName Event `json:"hookEventName,omitempty"`
	// ToolInput replaces the tool's arguments (BeforeTool): it must be the
	// complete object, or the tool fails validation and does not run.
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// LLMResponse replaces the streamed chunk (AfterModel).
	LLMResponse json.RawMessage `json:"llm_response,omitempty"`
	// LLMRequest changes the request to the model (BeforeModel).
	LLMRequest json.RawMessage `json:"llm_request,omitempty"`
	// AdditionalContext is appended to a tool result or the first prompt.
	AdditionalContext string `json:"additionalContext,omitempty"`
}

// Deny builds a denying answer. The reason must already be free of secrets.
func Deny(reason, systemMessage string) Output {
	return Output{Decision: "deny", Reason: reason, SystemMessage: systemMessage}
}

// Allow builds an answer that lets the action through, with an optional
// message to the user. It carries no decision: Gemini CLI's own confirmation
// and policy still apply as if no hook had answered.
func Allow(systemMessage string) Output {
	return Output{SystemMessage: systemMessage}
}

// ReplaceToolInput builds a BeforeTool answer that runs the tool with the
// complete new arguments in toolInput.
func ReplaceToolInput(toolInput json.RawMessage, systemMessage string) Output {
	return Output{
		SystemMessage: systemMessage,
		Specific:      &Specific{HookEventName: BeforeTool, ToolInput: toolInput},
	}
}

// ReplaceToolInputOrDeny is ReplaceToolInput for a host that can rewrite a
// call's arguments, and denial for one that cannot (Qwen Code): the call
// must not run unchanged.
func ReplaceToolInputOrDeny(toolInput json.RawMessage, systemMessage string, denial Output) Output {
	out := ReplaceToolInput(toolInput, systemMessage)
	out.fallback = &denial
	return out
}

// ReplaceChunk builds an AfterModel answer that shows llmResponse instead of
// the streamed chunk. Only send it when the chunk's text really changed.
func ReplaceChunk(llmResponse json.RawMessage, systemMessage string) Output {
	return Output{
		SystemMessage: systemMessage,
		Specific:      &Specific{HookEventName: AfterModel, LLMResponse: llmResponse},
	}
}

// InputError says the hook's input could not be used: empty, not JSON, the
// wrong shape, or over MaxInput. Run turns it into the event's fail-safe.
type InputError struct {
	// Size is the number of bytes read (MaxInput+1 when over the limit).
	Size int64
	// TooLarge is set when stdin held more than MaxInput bytes.
	TooLarge bool
	Err      error
}

func (e *InputError) Error() string {
	if e.TooLarge {
		return fmt.Sprintf("hook input is larger than %d MiB", MaxInput>>20)
	}
	if e.Err == nil {
		return "hook input is empty"
	}
	return "hook input is not a valid JSON object: " + e.Err.Error()
}

func (e *InputError) Unwrap() error { return e.Err }

// rewrites reports whether out changes the tool call's arguments.
func (out Output) rewrites() bool { return out.Specific != nil && len(out.Specific.ToolInput) > 0 }

// withoutRewrite is out for a host that does not take a rewrite of a tool
// call: out itself unless it rewrites one; then its fallback (a deny), or
// else a deny saying the call was stopped, why (cannot: "which this CLI
// cannot do") and, to the user, systemMessage. Failing closed.
func (out Output) withoutRewrite(cannot, systemMessage string) Output {
	switch {
	case !out.rewrites():
		return out
	case out.fallback != nil:
		return *out.fallback
	}
	return Deny("gemini-guard blocked hook.rewrite-unsupported: this tool call would have been changed before it ran, "+cannot+", so it was stopped.", systemMessage)
}
