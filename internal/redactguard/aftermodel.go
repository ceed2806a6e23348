package redactguard

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/jsonenc"
	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/settings"
	"github.com/gemini-guard/gemini-guard/internal/state"
)

// Session records are cleaned when nobody wrote them for staleSession (the
// session ended or crashed); the state directory is swept at most every
// cleanEvery.
const (
	staleSession = time.Hour
	cleanEvery   = 10 * time.Minute
)

// llmResponse is the part of Gemini CLI's llm_response the hook reads.
type llmResponse struct {
	Text       *string `json:"text"`
	Candidates []struct {
		FinishReason string `json:"finishReason"`
	} `json:"candidates"`
}

// simpleStream is the stream id of the simplified input shape, which has no
// request to tell answers apart (full_content tells where one starts).
const simpleStream = "content"

// readChunk turns the hook input into a chunk. simple tells that it came in
// the simplified shape (content and full_content) and must be answered so.
func readChunk(in hook.AfterModelInput) (c redact.Chunk, simple bool, err error) {
	if len(in.LLMResponse) == 0 || string(in.LLMResponse) == "null" {
		if in.Content == nil {
			return c, false, errors.New("neither llm_response nor content")
		}
		c = redact.Chunk{Stream: simpleStream, Text: *in.Content}
		c.New = in.FullContent != nil && *in.FullContent == *in.Content
		return c, true, nil
	}
	var resp llmResponse
	if json.Unmarshal(in.LLMResponse, &resp) != nil {
		return c, false, errors.New("llm_response is not a response object")
	}
	if resp.Text == nil {
		// Gemini CLI sends text with every chunk ("" for a function
		// call): a response without it is of a shape the hook does not
		// know, and what it would show cannot be told.
		return c, false, errors.New("llm_response without text")
	}
	c.Text = *resp.Text
	for _, cand := range resp.Candidates {
		c.Final = c.Final || cand.FinishReason != ""
	}
	c.Stream = streamID(in.LLMRequest)
	return c, false, nil
}

// streamID identifies an answer by its request: Gemini CLI sends the same
// llm_request with every chunk of one answer, and the next request adds to
// the conversation. The request can be large (the whole conversation), so
// the id hashes its length, its start and its end, where turns are added.
func streamID(req []byte) string {
	const head, tail = 1 << 10, 4 << 10
	h := fnv.New64a()
	if len(req) <= head+tail {
		h.Write(req)
	} else {
		h.Write(req[:head])
		h.Write(req[len(req)-tail:])
	}
	return fmt.Sprintf("%016x-%x", h.Sum64(), len(req))
}

func afterModel(in hook.AfterModelInput, e Env) (hook.Output, error) {
	s := hookcall.Load(e.Getenv, hook.AfterModel, "redact", in.Base).Settings
	if s.RedactModelRequest {
		noteEmptyText(in, e)
	}
	if !s.RedactStream {
		return hook.Output{}, nil
	}
	c, simple, err := readChunk(in)
	if err != nil {
		// A chunk the hook cannot read is withheld (hook.FailSafe): what
		// it would show was not checked.
		return hook.Output{}, &hook.InputError{Err: err}
	}
	if c.Text == "" && !c.Final {
		// A function call or thought in the middle of an answer: nothing
		// to show, nothing to end.
		return hook.Output{}, nil
	}
	if len(c.Text) > maxChunkText {
		// Too long to check within the deadline: withheld before the
		// work starts, as the deadline would withhold it after.
		return withheld(in, c, simple, fmt.Sprintf("gemini-guard withheld part of the model's answer: a chunk of %d bytes, more than the %d it checks for secrets. Ask the model to write long output to a file.", len(c.Text), maxChunkText)), nil
	}
	now := e.Now()
	next := nextFunc(s, in.Cwd, in.SessionID, e)

	var show, warning string
	var changed bool
	handle := func(sess *redact.Session) {
		var err error
		show, changed, err = next(sess, c, now)
		var cfg *configError
		if err != nil && !errors.As(err, &cfg) {
			// Not checked (the scanner failed, ran out of time or could
			// not prove it is ours): withhold rather than show.
			show, changed = "", true
		}
		changed = changed && show != c.Text
		if err != nil && !sess.Warned {
			sess.Warned = true
			var cfg *configError
			if errors.As(err, &cfg) {
				warning = "gemini-guard could not load your gitleaks config (" + err.Error() + "); the answer is checked with the built-in rules only."
			} else {
				warning = "gemini-guard could not check part of the model's answer for secrets (" + err.Error() + "); that part was withheld."
			}
		}
	}
	var kept *redact.Session
	keep := func(sess *redact.Session) {
		handle(sess)
		kept = sess
	}
	repaired, err := withSession(e.StateDir, in.SessionID, now, keep)
	warning = joinLines(warning, repaired)
	if errors.Is(err, errNotStored) {
		// The answer was decided but the record could not be written:
		// what it held back is lost. It was never checked whole, so it
		// is not shown.
		if st := kept.Streams[c.Stream]; st != nil && st.Held != "" {
			warning = joinLines(warning, "gemini-guard could not save its streaming state ("+err.Error()+"); text it held back to check was withheld.")
		} else {
			warning = joinLines(warning, "gemini-guard could not save its streaming state ("+err.Error()+").")
		}
	} else if err != nil {
		// Without state nothing can be held between chunks, and a secret
		// split across two of them would show in pieces that no scan of
		// one chunk sees whole (issue #25: the state directory swapped for
		// a file). So the answer's text is withheld, not shown unchecked,
		// and the user is told at the end of each answer.
		show, changed = "", c.Text != ""
		if c.Final {
			warning = joinLines(warning, "gemini-guard withheld the model's answer: it cannot keep its streaming state ("+err.Error()+
				"), without which a secret split across chunks could show. Ask the model to write the answer to a file, or repair the state directory (run `gemini-guard doctor`).")
		}
	}

	if !changed {
		return hook.Output{SystemMessage: warning}, nil
	}
	if simple {
		return hook.Output{Decision: "allow", Content: &show, SystemMessage: warning}, nil
	}
	resp, err := replaceText(in.LLMResponse, show)
	if err != nil {
		return hook.Output{}, err
	}
	return hook.ReplaceChunk(resp, warning), nil
}

// nextFunc returns how a chunk is handled: the redactor over the rules in
// force, with the scanner built only if a rule matches.
func nextFunc(s settings.Settings, cwd, sessionID string, e Env) func(*redact.Session, redact.Chunk, time.Time) (string, bool, error) {
	r, cfgErr := newRedactor(s, cwd, sessionID, e)
	if f := r.Known.Fault(); f != nil {
		// The secrets learnt from tool output cannot be known: withhold
		// (handle's "not checked"), and say why once.
		return func(*redact.Session, redact.Chunk, time.Time) (string, bool, error) { return "", true, f }
	}
	if cfgErr == nil {
		return r.Next
	}
	// The user is told once that the config was not loaded.
	return func(sess *redact.Session, c redact.Chunk, now time.Time) (string, bool, error) {
		show, changed, err := r.Next(sess, c, now)
		if err == nil {
			err = &configError{cfgErr}
		}
		return show, changed, err
	}
}

// configError: the user's gitleaks config does not load, and the answer
// was checked with the built-in rules.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }

// withSession runs fn on the session's record under its lock and stores the
// result. It fails (without calling fn) when there is no usable state
// directory or the record is locked for too long. repaired tells the user
// what the store had to put right (a record or directory replaced by
// something else), if anything.
func withSession(dir, sessionID string, now time.Time, fn func(*redact.Session)) (repaired string, err error) {
	st, err := state.Open(dir)
	if err != nil {
		return "", err
	}
	defer func() { repaired = strings.Join(st.Repaired, "\n") }()
	_ = st.CleanEvery(now, cleanEvery, staleSession)
	ran := false
	err = st.Update(state.Key("after-model", sessionID), func(old []byte) ([]byte, error) {
		var sess redact.Session
		if len(old) > 0 {
			_ = sess.UnmarshalText(old) // a damaged record reads as empty
		}
		fn(&sess)
		ran = true
		if len(sess.Streams) == 0 && sess.Pending == "" && len(sess.Known) == 0 && !sess.Warned {
			return nil, nil
		}
		return sess.MarshalText()
	})
	if ran && err != nil {
		return "", fmt.Errorf("%w: %v", errNotStored, err)
	}
	return "", err
}

// errNotStored says that withSession ran its function but could not store
// the session afterwards.
var errNotStored = errors.New("session not stored")

// replaceText returns llm_response with its text replaced by text: the
// text field and candidates[0].content.parts (one part; Gemini CLI ignores
// an empty parts list, so an empty text is one empty part). Every other
// field is kept as it came (finishReason, safety ratings, usage).
func replaceText(raw json.RawMessage, text string) (json.RawMessage, error) {
	var resp map[string]json.RawMessage
	if err := json.Unmarshal(raw, &resp); err != nil {
		return nil, err
	}
	if resp == nil {
		resp = map[string]json.RawMessage{}
	}
	var cands []map[string]json.RawMessage
	if c, ok := resp["candidates"]; ok && string(c) != "null" {
		if err := json.Unmarshal(c, &cands); err != nil {
			return nil, err
		}
	}
	if len(cands) == 0 || cands[0] == nil {
		cands = append([]map[string]json.RawMessage{{"index": json.RawMessage("0")}}, cands[min(1, len(cands)):]...)
	}
	content := map[string]json.RawMessage{}
	if c, ok := cands[0]["content"]; ok && string(c) != "null" {
		if err := json.Unmarshal(c, &content); err != nil {
			return nil, err
		}
	}
	if _, ok := content["role"]; !ok {
		content["role"] = json.RawMessage(`"model"`)
	}
	var err error
	set := func(m map[string]json.RawMessage, k string, v any) {
		if err == nil {
			m[k], err = encodeJSON(v)
		}
	}
	set(content, "parts", []string{text})
	set(cands[0], "content", content)
	set(resp, "candidates", cands)
	set(resp, "text", text)
	if err != nil {
		return nil, err
	}
	return encodeJSON(resp)
}

func joinLines(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "\n" + b
}

// encodeJSON marshals v without HTML escaping (markers and code keep their
// < and >).
func encodeJSON(v any) ([]byte, error) {
	return jsonenc.Marshal(v)
}
