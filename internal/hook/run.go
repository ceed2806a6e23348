package hook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"runtime/debug"

	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
)

// Run answers one hook call of event ev: it reads at most MaxInput bytes from
// r, decodes them into In, asks decide, and writes exactly one JSON object
// and a newline to w.
//
// Run never panics and never writes anything else. Input that cannot be read
// (empty, not a JSON object, over MaxInput), an error from decide and a panic
// in decide all become FailSafe(ev, err). The caller exits 0 afterwards:
// with Gemini CLI the JSON carries the decision, not the exit code.
//
// opts say what the input cannot: which host sent it (FromArgs).
func Run[In any](ev Event, r io.Reader, w io.Writer, decide func(In) (Output, error), opts ...Option) {
	o := collect(opts)
	out, host := answer(ev, r, o, func(in In, _ Dialect) (Output, error) { return decide(in) })
	write(w, ev, o, host, out)
}

// Option tells Run and RunWithin what a call's input does not say.
type Option func(*options)

type options struct {
	// host is Agy when the command line says so; Gemini means "tell
	// from the input".
	host Dialect
	// agyEvent is the agy event named on the command line.
	agyEvent string
	// codexEvent is the Codex event named on the command line.
	codexEvent string
	// err says the command line could not be read.
	err error
}

func collect(opts []Option) options {
	var o options
	for _, opt := range opts {
		if opt != nil {
			opt(&o)
		}
	}
	return o
}

// FromArgs reads the host arguments of a hook program's command line:
// none for Gemini CLI and Qwen Code, whose input names its event,
// `--host codex <event>` for Codex CLI (PreToolUse, PostToolUse,
// SessionStart; its input reads like Qwen Code's), or
// `--host agy <event>` for Antigravity CLI (agy), whose input does not
// (PreToolUse for guard-shell and guard-secrets, PreInvocation for
// `gemini-guard session-start`). Arguments it cannot read make the call
// answer its fail-safe, in agy's form when agy is named: a hook that
// cannot tell its host must still answer.
func FromArgs(args []string) Option {
	return func(o *options) {
		switch {
		case len(args) == 0:
		case len(args) == 2 && args[0] == "--host" && args[1] == "claude":
			o.host = Claude // the input names its event (claude.go)
		case len(args) == 3 && args[0] == "--host" && args[1] == "agy":
			o.host, o.agyEvent = Agy, args[2]
			_, answered := agyEvent(args[2])
			_, idle := agyIdle(args[2])
			if !answered && !idle {
				o.err = fmt.Errorf("gemini-guard does not answer the agy event %q", args[2])
			}
		case len(args) == 3 && args[0] == "--host" && args[1] == "codex":
			o.host, o.codexEvent = Codex, args[2]
			if _, ok := codexEvent(args[2]); !ok {
				o.err = fmt.Errorf("gemini-guard does not answer the Codex event %q", args[2])
			}
		default:
			for _, a := range args {
				switch a {
				case "agy":
					o.host = Agy
				case "claude":
					o.host = Claude
				case "codex":
					o.host = Codex
				}
			}
			o.err = fmt.Errorf("unknown hook arguments %q (want none, --host agy <event>, --host claude or --host codex <event>)", args)
		}
	}
}

// write writes out, as host reads it, as one JSON line; for agy, nothing
// when the answer is no output, and the event's no-op for an agy event
// gemini-guard does not answer (agyIdle).
func write(w io.Writer, ev Event, o options, host Dialect, out Output) {
	if host == Claude {
		w.Write(append(claudeAnswer(ev, out), '\n'))
		return
	}
	if host == Agy {
		b, idle := agyIdle(o.agyEvent)
		if !idle {
			b = agyAnswer(ev, out)
		}
		if b != nil {
			w.Write(append(b, '\n'))
		}
		return
	}
	if host == Codex {
		if b := codexAnswer(ev, out); b != nil {
			w.Write(append(b, '\n'))
		}
		return
	}
	out = answerIn(host, ev, out)
	// Marshalling an Output cannot fail: it holds strings and RawMessages
	// that came from valid JSON or from json.Marshal.
	b, err := marshal(out)
	if err != nil {
		b, _ = marshal(FailSafe(ev, err))
	}
	w.Write(append(b, '\n'))
}

// answer decodes the call from r and asks decide, which also learns the
// host that sent it, on the caller's goroutine.
func answer[In any](ev Event, r io.Reader, o options, decide func(In, Dialect) (Output, error)) (out Output, host Dialect) {
	host = o.host
	defer func() {
		if p := recover(); p != nil {
			out = FailSafe(ev, &PanicError{Value: p, Stack: debug.Stack()})
		}
	}()
	if _, idle := agyIdle(o.agyEvent); idle && o.host == Agy {
		return Output{}, Agy // answered by write, without reading the call
	}
	if e, _ := agyEvent(o.agyEvent); o.err == nil && o.host == Agy && e != ev {
		o.err = fmt.Errorf("this program answers the agy event %s, not %s", agyEventOf(ev), o.agyEvent)
	}
	if e, _ := codexEvent(o.codexEvent); o.err == nil && o.host == Codex && e != ev {
		o.err = fmt.Errorf("this program answers the Codex event %s, not %s", codexEventOf(ev), o.codexEvent)
	}
	if o.err != nil {
		return FailSafe(ev, &InputError{Err: o.err}), host
	}
	var in In
	host, err := decodeFrom(r, &in, ev, o.host)
	if err != nil {
		return FailSafe(ev, err), host
	}
	if hs, ok := any(&in).(hostSetter); ok {
		hs.setHost(host)
	}
	out, err = decide(in, host)
	if err != nil {
		return withHostResponse(&in, host, FailSafe(ev, err)), host
	}
	return withHostResponse(&in, host, out), host
}

// Decode reads at most MaxInput bytes from r and decodes one JSON object into
// v. Unknown fields are ignored (newer Gemini CLIs add some); anything else
// wrong returns an *InputError.
func Decode(r io.Reader, v any) error {
	_, err := decodeFrom(r, v, "", Gemini)
	return err
}

// decodeFrom is Decode that also tells which host sent the call, after
// translating the call into Gemini CLI's shape (see normalise). ev is the
// event the program answers; host Agy reads the input as agy's whatever
// it holds.
func decodeFrom(r io.Reader, v any, ev Event, host Dialect) (Dialect, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxInput+1))
	if err != nil {
		return Gemini, &InputError{Size: int64(len(data)), Err: err}
	}
	if len(data) > MaxInput {
		return host, &InputError{Size: int64(len(data)), TooLarge: true}
	}
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 {
		return host, &InputError{}
	}
	if trimmed[0] != '{' {
		return host, &InputError{Size: int64(len(data)), Err: errors.New("not an object")}
	}
	if host == Agy || host == Claude {
		normalise := normaliseAgy
		if host == Claude {
			normalise = normaliseClaude
		}
		out, err := normalise(trimmed, ev)
		if err == nil {
			err = json.Unmarshal(out, v)
		}
		if err != nil {
			return host, &InputError{Size: int64(len(data)), Err: err}
		}
		return host, nil
	}
	if host == Codex {
		out, err := normaliseCodex(trimmed, ev)
		if err == nil {
			err = json.Unmarshal(out, v)
		}
		if err != nil {
			return Codex, &InputError{Size: int64(len(data)), Err: err}
		}
		return Codex, nil
	}
	// Gemini CLI's own tool and model events, nearly every call, are
	// decoded in one pass: a long session's BeforeModel request is
	// megabytes. Other hosts' events, and SessionStart (whose dialect
	// hangs on a field no input type holds), are translated first.
	if b, ok := v.(eventNamer); ok {
		if err := json.Unmarshal(trimmed, v); err != nil {
			return Gemini, &InputError{Size: int64(len(data)), Err: err}
		}
		if name := b.eventName(); name != "" && name != string(SessionStart) && DialectOf(name, false) == Gemini {
			return Gemini, nil
		}
		reflect.ValueOf(v).Elem().SetZero()
	}
	trimmed, host, err = normalise(trimmed, ev)
	if err == nil {
		err = json.Unmarshal(trimmed, v)
	}
	if err != nil {
		return host, &InputError{Size: int64(len(data)), Err: err}
	}
	return host, nil
}

// eventNamer is every input type: they all embed Base.
type eventNamer interface{ eventName() string }

// PanicError is a panic recovered in a guard. Its message holds the panic
// value only; the stack is kept for the audit log and tests.
type PanicError struct {
	Value any
	Stack []byte
}

func (e *PanicError) Error() string { return fmt.Sprintf("internal error: %v", e.Value) }

// FailSafe is the answer when a call could not be decided. It fails closed
// where a missed block costs most and open where blocking would break the
// session without protecting anything:
//
//   - BeforeTool: deny, with a reason that says what went wrong and how to
//     repair it. An oversized call is denied as too large to check; one
//     whose hook was sent a signal (SignalError) as stopped.
//   - AfterTool: withhold the tool's output (deny replaces it with the
//     reason) and tell the model and the user why: output that could not be
//     scanned may hold a secret, and once the model has read it, it is in
//     the conversation for good.
//   - BeforeModel: refuse the request (deny: Gemini CLI does not send it
//     and ends the turn with the reason): a request that could not be read
//     or scanned (larger than MaxInput, far past any model's context; a
//     panic) may hold a secret. Input of a shape the hook does not know
//     passes unchanged: a Gemini CLI that changed the shape would have
//     every request of every session refused.
//   - AfterModel: withhold the chunk (WithheldChunk): its text is replaced
//     by a short notice, in both answer shapes, since the input that could
//     not be read does not say which one the host speaks. Never deny: a
//     deny in AfterModel prints the chunk and ends the turn. A hook that
//     has read the chunk builds a finer answer itself (guard-redact's
//     deadline answer keeps the chunk's other fields).
//   - SessionStart: no decision ({}).
func FailSafe(ev Event, err error) Output {
	detail := errorDetail(err)
	switch ev {
	case BeforeTool:
		var in *InputError
		if errors.As(err, &in) && in.TooLarge {
			return Deny(
				fmt.Sprintf("gemini-guard blocked hook.input-too-large: this tool call is larger than %d MiB, more than gemini-guard checks. "+
					"Safer: write the content in smaller parts (several write_file or replace calls).", MaxInput>>20),
				"gemini-guard blocked a tool call larger than it can check.")
		}
		var mem *MemoryError
		if errors.As(err, &mem) {
			return Deny(
				"gemini-guard blocked hook.memory: "+detail+" and stopped this call to be safe (a hook the system kills for its memory would let it through). "+
					"Safer: split the work into smaller, simpler calls (shorter commands, no nested expansions that multiply text).",
				"gemini-guard blocked a tool call it could not check within its memory limit ("+detail+").")
		}
		if errors.Is(err, ErrDeadline) {
			return Deny(
				"gemini-guard blocked hook.deadline: "+detail+" and stopped this call to be safe (a hook that runs out of time would let it through). "+
					"Safer: split the work into smaller, simpler calls (shorter commands, smaller edits).",
				"gemini-guard blocked a tool call it could not check in time ("+detail+").")
		}
		var sig *SignalError
		if errors.As(err, &sig) {
			return Deny(
				"gemini-guard blocked hook.stopped: "+detail+" and blocked this call to be safe (a hook stopped without an answer would let it through). "+
					"Retry the call; if this happens again, split the work into smaller, simpler calls.",
				"gemini-guard blocked a tool call: "+detail+".")
		}
		if errors.As(err, &in) {
			return Deny(
				"gemini-guard blocked hook.bad-input: it could not read this tool call ("+detail+") and stopped it to be safe. "+
					"Retry the call with well-formed arguments.",
				"gemini-guard could not read a tool call and blocked it: "+detail)
		}
		return Deny(
			"gemini-guard blocked guard.internal-error: the guard failed while checking this tool call ("+detail+") and stopped it to be safe. "+
				"Tell the user; they can run `gemini-guard doctor` to repair the installation.",
			"gemini-guard failed while checking a tool call and blocked it ("+detail+"). Run `gemini-guard doctor`, or disable the hook with /hooks disable.")
	case AfterTool:
		return Deny(
			"gemini-guard withheld this tool output (hook.output-unscanned): it could not be scanned for secrets ("+detail+"), "+
				"and output that may hold a secret is not passed on unchecked. This is not the tool failing. "+
				"Safer: ask for less output at once (a narrower command, a smaller range of lines), or tell the user, who can run `gemini-guard doctor`.",
			"gemini-guard withheld a tool output it could not scan for secrets ("+detail+").")
	case BeforeModel:
		var in *InputError
		if errors.As(err, &in) && !in.TooLarge {
			return Output{}
		}
		return Deny(
			"gemini-guard did not send this request to the model (hook.request-unscanned): it could not be checked for secrets ("+detail+"), "+
				"and a request that may hold a secret is not sent unchecked. Safer: remove or shorten the large text pasted or included (@file), or start a new conversation (/clear).",
			"gemini-guard did not send the request to the model: it could not be checked for secrets ("+detail+").")
	case UserPrompt:
		return Deny(
			"gemini-guard did not send this prompt to the model (hook.prompt-unscanned): it could not be checked for secrets ("+detail+"), "+
				"and a prompt that may hold a secret is not sent unchecked. Send it again, or a shorter one.",
			"gemini-guard did not send the prompt: it could not be checked for secrets ("+detail+").")
	case AfterModel:
		return WithheldChunk("gemini-guard withheld part of the model's answer: it could not check it for secrets (" + detail + "). Ask the model to repeat it if you need it.")
	default:
		return Output{}
	}
}

// withheldNotice is the text shown in place of a chunk the hook could not
// read: never the chunk's own text.
const withheldNotice = "[gemini-guard withheld this part of the answer: it could not be checked for secrets]"

// WithheldChunk is the AfterModel answer that shows withheldNotice in
// place of a chunk the hook could not read (its input broken, cut, over
// MaxInput, of an unknown shape, or not read in time), telling the user
// systemMessage. It answers both shapes, as the input's shape is not known:
// hookSpecificOutput.llm_response replaces Gemini CLI 0.61's chunk (its
// one text part shown as it is), content the simplified shape's. The
// chunk's finishReason is not known either, so none is given; a chunk that
// carried a function call loses it, which stops the turn rather than show
// what could not be checked.
func WithheldChunk(systemMessage string) Output {
	notice := withheldNotice
	return Output{
		Decision:      "allow",
		Content:       &notice,
		SystemMessage: systemMessage,
		Specific: &Specific{HookEventName: AfterModel, LLMResponse: json.RawMessage(
			`{"text":"` + withheldNotice + `","candidates":[{"content":{"role":"model","parts":["` + withheldNotice + `"]},"index":0}]}`)},
	}
}

// errorDetail is an error's message cut to a length fit for a reason. Errors
// never carry secrets (guards mask before they wrap), so no masking here.
func errorDetail(err error) string {
	if err == nil {
		return "unknown error"
	}
	s := err.Error()
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

func marshal(out Output) ([]byte, error) {
	if out == (Output{}) {
		// The answer to most calls and chunks. Spelled out because the
		// encoder's first use costs a hook process ~0.03 ms of reflection.
		return []byte("{}"), nil
	}
	// Reasons quote shell fragments: keep <, > and & readable in transcripts.
	return jsonenc.Marshal(out)
}
