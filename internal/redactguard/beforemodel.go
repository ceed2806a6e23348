package redactguard

// BeforeModel: secrets in the text of a request to the model are replaced
// before the request leaves the machine.
//
// Gemini CLI 0.61 shows the hook the request as text-only messages
// (hookTranslator.ts toHookLLMRequest): one message per content whose text
// parts joined are not "", function calls, function responses and other
// non-text parts left out. A returned llm_request.messages is merged back by
// position (fromHookLLMRequest): every content that has a text part, even an
// empty one, takes the next message, its text parts become that one text
// part (thought parts become plain text), its non-text parts follow; when the
// messages run out the remaining contents are kept as they were. So:
//
//   - the hook returns messages only up to the last one it changed, so every
//     later content (usually most of them) stays byte for byte as it was;
//   - a content whose text parts join to "" (an empty text part beside a
//     function call) is skipped on the way out but takes a message on the
//     way back, shifting every later message onto the wrong content. The
//     hook cannot see such a content in the request, so the AfterModel hook
//     notes every answer that streamed an empty text part (noteEmptyText)
//     and the hook refuses to rewrite past it (safeLimit): the request is
//     then sent unchanged and the user is told.
//
// Gemini CLI before 0.42 does not merge: the returned messages replace the
// contents whole. There, and where the CLI's version cannot be read, the
// request is sent unchanged and the user told (rewriteUnsafe).

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/hostcli"
	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/state"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// message is one of llm_request.messages. Content is a string in 0.61; it
// is decoded as any so that anything else is noticed (and never echoed).
// A request comes in with each content kept as it came (raw) and decoded
// only where needed: most of a long session's messages were found clean
// by an earlier request (clean.go).
type message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
	raw     json.RawMessage
}

// rawRequest is llm_request as it comes in, each content kept as it came.
type rawRequest struct {
	Messages []struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	} `json:"messages"`
}

func (r rawRequest) messages() []message {
	out := make([]message, len(r.Messages))
	for i, m := range r.Messages {
		out[i] = message{Role: m.Role, raw: m.Content}
	}
	return out
}

type llmRequest struct {
	Messages []message `json:"messages"`
}

// text is the message's content as a string; ok is false when it is not one.
func (m message) text() (string, bool) {
	if m.Content == nil && len(m.raw) > 0 {
		var s string
		if m.raw[0] != '"' || json.Unmarshal(m.raw, &s) != nil {
			return "", false
		}
		return s, true
	}
	s, ok := m.Content.(string)
	return s, ok
}

// decoded is m with its content decoded.
func (m message) decoded() message {
	if m.Content == nil && len(m.raw) > 0 {
		_ = json.Unmarshal(m.raw, &m.Content)
	}
	m.raw = nil
	return m
}

// found is one secret found in the request: rule id and masked preview.
type found struct{ rule, secret string }

// hash names a found secret in the session state without keeping it
// (FNV-128a, as state.Key: crypto would cost every hook process its
// package initialisation).
func (f found) hash() string { return state.Key("told", f.rule, f.secret) }

// recordingScanner passes scans on and keeps what they found, so the user
// can be told which secrets were removed (masked).
type recordingScanner struct {
	secrets.Scanner
	found []found
}

func (r *recordingScanner) Scan(text string) ([]secrets.Finding, error) {
	fs, err := r.Scanner.Scan(text)
	for _, f := range fs {
		r.found = append(r.found, found{f.RuleID, f.Secret})
	}
	return fs, err
}

// beforeModelInput is hook.BeforeModelInput with the request decoded in the
// same pass: a long session's request is megabytes, read once.
type beforeModelInput struct {
	hook.Base
	LLMRequest *rawRequest `json:"llm_request"`
}

// beforeModelScanTimeout bounds the scans of one request together: inside
// the hook's deadline (hook.BeforeModelDeadline) with room to build the
// answer, long enough for a first call that starts the scanner process on
// a loaded machine.
const beforeModelScanTimeout = hook.BeforeModelDeadline - 2*time.Second

// withheldMessage replaces the text of a message that could not be
// scanned in time.
const withheldMessage = "[gemini-guard withheld this message: it could not be checked for secrets in time, and text that may hold a secret is not sent unchecked]"

// refusedRequest is the answer that keeps the request from being sent
// (Gemini CLI ends the turn and shows the reason): when a message could
// not be scanned and the request cannot be rewritten safely, and when the
// hook's deadline passes. Never "sent unchanged": the text that could not
// be scanned may hold a secret.
func refusedRequest(detail string) hook.Output {
	return hook.Deny(
		"gemini-guard did not send this request to the model (hook.request-unscanned): "+detail+
			", and a request that may hold a secret is not sent unchecked. Safer: remove or shorten the large text pasted or included (@file), "+
			"or start a new conversation (/clear); a request of ordinary size is checked in well under a second.",
		"gemini-guard did not send the request to the model: "+detail+". Remove or shorten the large text you pasted or included, or start a new conversation (/clear).")
}

func beforeModel(in beforeModelInput, e Env) (hook.Output, error) {
	call := hookcall.Load(e.Getenv, hook.BeforeModel, "redact", in.Base)
	s := call.Settings
	if !s.RedactModelRequest || in.LLMRequest == nil {
		return hook.Output{}, nil
	}
	req := llmRequest{Messages: in.LLMRequest.messages()}
	// Answers noted by the AfterModel hook are checked on every request,
	// secret or not: the first request after such an answer tells whether
	// its content took a message of its own.
	limit := safeLimit(e, in.SessionID, req.Messages)
	// A config that does not load: session-start tells the user about it.
	r, _ := newRedactor(s, in.Cwd, in.SessionID, e)
	// Only the text messages not found clean by an earlier request of the
	// session are scanned (clean.go).
	clean := loadClean(e, in.SessionID, secrets.ScanOptions(s, in.Cwd), r.Known.Fingerprint())
	texts := make([]string, len(req.Messages))
	hashes := make([]string, len(req.Messages))
	var todo []int
	for i, m := range req.Messages {
		h, seen := clean.seen(m.raw)
		if seen {
			continue
		}
		if t, ok := m.text(); ok {
			texts[i], hashes[i] = t, h
			todo = append(todo, i)
		}
	}
	if !mayHoldSecret(r, texts, todo) {
		for _, i := range todo {
			clean.add(hashes[i])
		}
		clean.save(e, in.SessionID)
		return hook.Output{}, nil
	}
	rec := &recordingScanner{Scanner: r.Scanner}
	r.Scanner = rec
	redacted := make([]string, len(req.Messages))
	var rules []string
	count := 0
	var unscanned []int
	var scanErr error
	for _, i := range todo {
		text := texts[i]
		red, err := r.Text(text)
		if err != nil {
			// The scans share one time limit: once it has passed, each
			// later message that needs a scan fails at once, and one that
			// no rule can match is still passed.
			unscanned, scanErr = append(unscanned, i), err
			continue
		}
		if red.Secrets == 0 {
			clean.add(hashes[i])
		}
		if red.Secrets > 0 && red.Text != text {
			redacted[i] = red.Text
			count += red.Secrets
			for _, id := range ruleNames(red) {
				if !contains(rules, id) {
					rules = append(rules, id)
				}
			}
		}
	}
	clean.save(e, in.SessionID)
	if scanErr != nil {
		return withholdUnscanned(in, e, call, req.Messages, redacted, unscanned, limit, scanErr), nil
	}
	if count == 0 {
		return hook.Output{}, nil
	}
	what := fmt.Sprintf("%d secret(s) (%s)", count, strings.Join(rules, ", "))
	if call.WarnOnly() {
		return hook.Allow("gemini-guard would have removed " + what + " from the request to the model (warn mode)."), nil
	}
	if why := rewriteUnsafe(e); why != "" {
		return hook.Allow(tellCLIOnce(e, in.SessionID, "gemini-guard found "+what+" in the request to the model and did NOT remove them: "+why+
			" The request was sent unchanged (told once per session).")), nil
	}
	out, err := mergeBack(req.Messages, redacted, limit)
	if err != nil {
		return hook.Allow("gemini-guard found " + what + " in the request to the model but could not remove them safely (" + err.Error() + "); the request was sent unchanged."), nil
	}
	raw, err := encodeJSON(llmRequest{Messages: out})
	if err != nil {
		return hook.Output{}, err
	}
	entry := call.Entry("")
	entry.Rules, entry.Decision = rules, "redact"
	call.Record(entry)
	return hook.Output{
		SystemMessage: tellOnce(e, in.SessionID, markerExample(s), rec.found),
		Specific:      &hook.Specific{HookEventName: hook.BeforeModel, LLMRequest: raw},
	}, nil
}

// withholdUnscanned is the answer when the messages unscanned could not be
// scanned (err): their text is replaced by withheldMessage, and so is every
// secret found in the others; where the request cannot be rewritten safely
// (a Gemini CLI before hostcli.MergesRewrittenRequest or of unknown
// version, a message past the limit of safeLimit) it is refused instead.
// Withheld in warn mode too: a check that could not be made is not a
// finding to warn about.
func withholdUnscanned(in beforeModelInput, e Env, call hookcall.Call, msgs []message, redacted []string, unscanned []int, limit int, err error) hook.Output {
	n := len(unscanned)
	detail := fmt.Sprintf("%d message(s) of the request could not be checked for secrets (%s)", n, err.Error())
	entry := call.Entry("")
	entry.Rules, entry.Decision = []string{"hook.request-unscanned"}, "deny"
	if why := rewriteUnsafe(e); why != "" {
		call.Record(entry)
		return refusedRequest(detail + "; withholding only those messages is not possible here: " + why)
	}
	for _, i := range unscanned {
		redacted[i] = withheldMessage
	}
	out, merr := mergeBack(msgs, redacted, limit)
	if merr != nil {
		call.Record(entry)
		return refusedRequest(detail + "; withholding only those messages is not possible (" + merr.Error() + ")")
	}
	raw, jerr := encodeJSON(llmRequest{Messages: out})
	if jerr != nil {
		call.Record(entry)
		return refusedRequest(detail)
	}
	entry.Decision = "redact"
	call.Record(entry)
	return hook.Output{
		SystemMessage: fmt.Sprintf("gemini-guard withheld the text of %d message(s) of the request to the model: they could not be checked for secrets (%s), and the model gets a notice in their place. ", n, err.Error()) +
			"Remove or shorten the large text you pasted or included (@file) if the model needs it.",
		Specific: &hook.Specific{HookEventName: hook.BeforeModel, LLMRequest: raw},
	}
}

// rewriteUnsafe says why the running Gemini CLI must get the request
// unchanged: it is older than hostcli.MergesRewrittenRequest, or its
// version cannot be told (hostcli.RunningVersion: not on Windows).
// "" when a rewrite is merged back safely. Unknown counts as unsafe: a
// request that keeps a secret is told to the user; a scrambled
// conversation is not. Asked only when a secret was found, so the common
// request pays nothing for it.
func rewriteUnsafe(e Env) string {
	v := ""
	if e.CLIVersion != nil {
		v = e.CLIVersion()
	}
	before, ok := hostcli.Before(v, hostcli.MergesRewrittenRequest)
	switch {
	case !ok:
		return "it cannot tell which Gemini CLI runs it (it reads that from the process tree, not on Windows), and Gemini CLI before " + hostcli.MergesRewrittenRequest +
			" drops every tool call and tool result from a request a hook rewrites."
	case before:
		return "Gemini CLI " + v + " drops every tool call and tool result from a request a hook rewrites (fixed in " + hostcli.MergesRewrittenRequest +
			"; update: npm install -g " + hostcli.Package + ")."
	}
	return ""
}

// tellCLIOnce returns msg the first time in a session, then "": every
// request re-sends the history, and the reason does not change.
func tellCLIOnce(e Env, sessionID, msg string) string {
	st, err := state.Open(e.StateDir)
	if err != nil {
		return msg
	}
	told := false
	_ = st.Update(state.Key("model-request-cli-told", sessionID), func(old []byte) ([]byte, error) {
		told = len(old) > 0
		return []byte("1"), nil
	})
	if told {
		return ""
	}
	return msg
}

// mayHoldSecret watches the texts[i] for i in todo in one pass (one watch
// over the whole request costs far less than one per message): only when
// some rule may match is each message redacted on its own.
func mayHoldSecret(r *redact.Redactor, texts []string, todo []int) bool {
	if len(todo) == 0 {
		return false
	}
	n := 0
	for _, i := range todo {
		n += len(texts[i]) + 2
	}
	var b strings.Builder
	b.Grow(n) // one copy of a request that can be megabytes
	for _, i := range todo {
		b.WriteString(texts[i])
		b.WriteString("\n\n")
	}
	all := b.String()
	return r.Watch.Check(all, 0, true).Scan || len(r.Known.Find(all, 0)) > 0
}

// mergeBack returns the messages to send back: every message up to the last
// one redacted ("" in redacted means unchanged), each redacted one with its
// new text. Messages from limit on must not be changed (see safeLimit); a
// message that is not a string cannot be echoed and must not be sent back.
func mergeBack(msgs []message, redacted []string, limit int) ([]message, error) {
	last := -1
	for i, r := range redacted {
		if r != "" {
			last = i
		}
	}
	if last < 0 {
		return nil, errors.New("nothing to change")
	}
	if last >= limit {
		return nil, errors.New("an earlier answer of the model holds an empty text part that Gemini CLI would shift the rewritten text onto")
	}
	out := make([]message, last+1)
	for i := range out {
		m := msgs[i].decoded()
		if _, ok := m.text(); !ok {
			return nil, fmt.Errorf("message %d is not text", i)
		}
		if redacted[i] != "" {
			m.Content = redacted[i]
		}
		out[i] = m
	}
	return out, nil
}

// shapeRecord is what the AfterModel hook noted about a session's answers:
// the anchors after which an answer streamed an empty text part.
type shapeRecord struct {
	Anchors []anchor `json:"anchors"`
}

// anchor marks an answer that streamed an empty text part: Hash is the hash
// of the last message of the request that produced it ("" when there was
// none), so the answer's content sits right after that message. Checked is
// set once the next request did not show the answer's text as the last
// message; an unchecked anchor whose answer turns out to have had text is
// dropped. The check is strict on purpose: after [anchor, model, user] the
// model message may be the answer's text or, if the request that returned a
// function result went unchecked, a later answer, so it counts as unsafe.
type anchor struct {
	Hash    string `json:"h"`
	Checked bool   `json:"checked,omitempty"`
}

func shapeKey(sessionID string) string { return state.Key("model-shape", sessionID) }

func messageHash(m message) string {
	h := fnv.New128a()
	h.Write([]byte(m.Role))
	h.Write([]byte{0})
	if t, ok := m.text(); ok {
		h.Write([]byte(t))
	} else {
		b, _ := json.Marshal(m.decoded().Content)
		h.Write(b)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// safeLimit is the number of leading messages that Gemini CLI maps back onto
// the contents they came from: those before the first answer known (or not
// yet known not) to hold a content whose text joins to "". Without state it
// is every message: the AfterModel hook could not have noted anything either.
func safeLimit(e Env, sessionID string, msgs []message) int {
	limit := len(msgs)
	st, err := state.Open(e.StateDir)
	if err != nil {
		return limit
	}
	if b, err := st.Read(shapeKey(sessionID)); err != nil || len(b) == 0 {
		return limit
	}
	_ = st.Update(shapeKey(sessionID), func(old []byte) ([]byte, error) {
		var rec shapeRecord
		if json.Unmarshal(old, &rec) != nil {
			// A damaged record: nothing is known to be safe.
			limit = 0
			return old, nil
		}
		limit = applyAnchors(&rec, msgs, limit)
		if len(rec.Anchors) == 0 {
			return nil, nil
		}
		return json.Marshal(rec)
	})
	return limit
}

// applyAnchors checks the record's anchors against msgs and returns limit
// lowered to the first message after an answer whose content joins to "".
func applyAnchors(rec *shapeRecord, msgs []message, limit int) int {
	hashes := make([]string, len(msgs))
	for i, m := range msgs {
		hashes[i] = messageHash(m)
	}
	kept := rec.Anchors[:0]
	for _, a := range rec.Anchors {
		first, last := -1, -1
		if a.Hash != "" {
			for i, h := range hashes {
				if h == a.Hash {
					last = i
					if first < 0 {
						first = i
					}
				}
			}
			if last < 0 {
				// Another chat, or compressed away: nothing to do here.
				kept = append(kept, a)
				continue
			}
		}
		if !a.Checked {
			if last+2 == len(msgs) && msgs[last+1].Role == "model" {
				// The answer had text: its content takes its own message.
				continue
			}
			a.Checked = true
		}
		limit = min(limit, first+1)
		kept = append(kept, a)
	}
	rec.Anchors = kept
	return limit
}

// noteEmptyText is called by the AfterModel hook for every chunk: a chunk
// with no text but an empty text part may leave a content whose text joins
// to "" in the history, which the BeforeModel hook must not rewrite past.
func noteEmptyText(in hook.AfterModelInput, e Env) {
	var resp struct {
		Text       string `json:"text"`
		Candidates []struct {
			Content struct {
				Parts []json.RawMessage `json:"parts"`
			} `json:"content"`
		} `json:"candidates"`
	}
	if len(in.LLMResponse) == 0 || json.Unmarshal(in.LLMResponse, &resp) != nil || resp.Text != "" {
		return
	}
	empty := false
	for _, c := range resp.Candidates {
		for _, p := range c.Content.Parts {
			empty = empty || string(p) == `""`
		}
	}
	if !empty {
		return
	}
	var req rawRequest
	_ = json.Unmarshal(in.LLMRequest, &req)
	a := anchor{}
	if msgs := req.messages(); len(msgs) > 0 {
		a.Hash = messageHash(msgs[len(msgs)-1])
	}
	st, err := state.Open(e.StateDir)
	if err != nil {
		return
	}
	_ = st.Update(shapeKey(in.SessionID), func(old []byte) ([]byte, error) {
		var rec shapeRecord
		_ = json.Unmarshal(old, &rec)
		for _, x := range rec.Anchors {
			if x.Hash == a.Hash && !x.Checked {
				return old, nil
			}
		}
		rec.Anchors = append(rec.Anchors, a)
		return json.Marshal(rec)
	})
}

// tellOnce returns the message to the user about the secrets found that the
// session has not been told about yet (every request re-sends the history).
// The state keeps a hash of each, never the secret.
func tellOnce(e Env, sessionID, marker string, fs []found) string {
	var news []string
	seen := map[string]bool{}
	for _, f := range fs {
		if h := f.hash(); !seen[h] {
			seen[h] = true
			news = append(news, h)
		}
	}
	told := map[string]bool{}
	if st, err := state.Open(e.StateDir); err == nil {
		_ = st.Update(state.Key("model-request-told", sessionID), func(old []byte) ([]byte, error) {
			for _, h := range strings.Fields(string(old)) {
				told[h] = true
			}
			all := string(old)
			for _, h := range news {
				if !told[h] {
					all += h + "\n"
				}
			}
			return []byte(all), nil
		})
	}
	var lines []string
	done := map[string]bool{}
	for _, f := range fs {
		h := f.hash()
		if told[h] || done[h] {
			continue
		}
		done[h] = true
		lines = append(lines, f.rule+" `"+verdict.Mask(f.secret)+"`")
	}
	if len(lines) == 0 {
		return ""
	}
	return "gemini-guard removed from the request to the model (it reads " + marker + " instead): " + strings.Join(lines, ", ")
}
