package redact

import (
	"strings"
	"time"
)

// StaleStream is how long a stream may go without a chunk before a session
// forgets it: Gemini CLI was interrupted (Esc, Ctrl-C) or a process crashed,
// and the answer will not go on. What it held is dropped, as the cancelled
// answer's remaining chunks are.
const StaleStream = 10 * time.Minute

// Session is what the AfterModel hook keeps between the processes of one
// Gemini CLI session: the answers being streamed, text waiting to be shown,
// the secrets seen so far and whether the user was warned. It is plain data
// (stored in its own text format, encode.go) and holds unredacted text: keep it private.
// The zero Session is a session that has seen nothing.
type Session struct {
	// Streams are the answers under way, by stream id (Gemini CLI sends the
	// same request with every chunk of one answer; subagents stream their
	// own answers in the same session).
	Streams map[string]*SessionStream `json:"streams,omitempty"`
	// Pending is redacted text that could not be shown yet: an answer ended
	// on a chunk without text (a function call), whose chunk cannot be
	// replaced without dropping the call. It is shown before the next text.
	Pending string `json:"pending,omitempty"`
	// Known are the secrets seen in this session: later copies are hidden,
	// in any answer.
	Known []string `json:"known,omitempty"`
	// Warned is set once the user was told that redaction failed.
	Warned bool `json:"warned,omitempty"`
}

// SessionStream is one answer under way.
type SessionStream struct {
	Stream
	// Updated is when its last chunk came.
	Updated time.Time `json:"updated"`
}

// Chunk is one streamed chunk of an answer.
type Chunk struct {
	// Stream identifies the answer the chunk belongs to.
	Stream string `json:"stream"`
	// Text is the chunk's visible text; "" for a chunk that only carries a
	// function call or a thought (which must never be replaced).
	Text string `json:"text,omitempty"`
	// Final is set on the answer's last chunk (it has a finishReason).
	Final bool `json:"final,omitempty"`
	// New is set when the caller knows this chunk starts a new answer of
	// Stream: whatever the stream still held then ended unseen by a final
	// chunk, and is shown first.
	New bool `json:"new,omitempty"`
}

// Next handles chunk c of session sess and returns the text to show instead
// of c.Text, and whether it differs from c.Text (only then may the caller
// replace the chunk).
//
// Gemini CLI turns a replaced chunk into text parts only, so replacing a
// chunk that also carries a function call drops the call, and the hook
// cannot see the call. Next therefore never changes a chunk without text
// (function calls, thoughts), and changes the last chunk of an answer (where
// function calls come) only to hide a secret in it. What an answer still
// held when such a chunk ended it becomes sess.Pending: it is shown before
// the next text of the session, late but not lost.
//
// On error (the scanner failed) the stream is reset and show is what would
// have been shown without redaction (text held so far plus this chunk), so
// the caller can let it through and warn the user; nothing is lost.
func (r *Redactor) Next(sess *Session, c Chunk, now time.Time) (show string, changed bool, err error) {
	if sess.Streams == nil {
		sess.Streams = map[string]*SessionStream{}
	}
	for id, st := range sess.Streams {
		if id != c.Stream && now.Sub(st.Updated) > StaleStream {
			delete(sess.Streams, id)
		}
	}
	st := sess.Streams[c.Stream]
	if st != nil && c.New {
		// The previous answer of this stream ended without a final chunk.
		out, ferr := r.flush(sess, st)
		sess.Pending += out
		delete(sess.Streams, c.Stream)
		st = nil
		if ferr != nil {
			err = ferr
		}
	}
	if st == nil {
		st = &SessionStream{}
		sess.Streams[c.Stream] = st
	}
	st.Updated = now
	st.Known = sess.Known

	if c.Text == "" {
		if c.Final {
			out, ferr := r.flush(sess, st)
			sess.Pending += out
			delete(sess.Streams, c.Stream)
			if ferr != nil {
				err = ferr
			}
		}
		return "", false, err
	}

	held := st.Held
	out, perr := r.Push(&st.Stream, c.Text)
	if perr == nil && c.Final {
		var rest string
		rest, perr = r.Flush(&st.Stream)
		out += rest
	}
	if perr != nil {
		// Show what the user would have seen without the guard.
		out, err = held+c.Text, perr
		st.Stream = Stream{Known: st.Known}
	}
	sess.Known = st.Known
	if c.Final || perr != nil {
		delete(sess.Streams, c.Stream)
	}
	if c.Final && perr == nil && out == held+c.Text {
		// Nothing was redacted. The last chunk of an answer is where a
		// function call comes, and replacing the chunk would drop it: leave
		// the chunk as it is and show what was held before it later.
		sess.Pending += held
		return c.Text, false, nil
	}
	show = withPending(sess, out)
	return show, show != c.Text, err
}

// withPending puts the session's pending text before out. It belongs to an
// earlier answer (a tool ran in between), so a line break keeps it from
// running into the new text.
func withPending(sess *Session, out string) string {
	p := sess.Pending
	if p == "" || out == "" {
		return out // nothing to show it with yet
	}
	sess.Pending = ""
	if !strings.HasSuffix(p, "\n") {
		p += "\n"
	}
	return p + out
}

// flush ends stream st, returning its redacted rest, or on error its raw
// rest (nothing is lost).
func (r *Redactor) flush(sess *Session, st *SessionStream) (string, error) {
	held := st.Held
	out, err := r.Flush(&st.Stream)
	sess.Known = st.Known
	if err != nil {
		return held, err
	}
	return out, nil
}
