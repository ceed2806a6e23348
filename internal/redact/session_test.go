package redact

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/gemini-guard/gemini-guard/internal/secrets/prefilter"
)

func TestNextTextlessFinalChunk(t *testing.T) {
	r, _ := newTestRedactor()
	var sess Session
	now := time.Now()
	// The answer's text ends with something that could still be a token,
	// then the answer ends on a function call chunk (no text).
	show, changed, err := r.Next(&sess, Chunk{Stream: "a", Text: "Let me check ghp_"}, now)
	require.NoError(t, err)
	assert.Equal(t, "Let me check ", show)
	assert.True(t, changed)
	show, changed, err = r.Next(&sess, Chunk{Stream: "a", Final: true}, now)
	require.NoError(t, err)
	assert.Empty(t, show)
	assert.False(t, changed, "a chunk without text is never replaced")
	assert.Equal(t, "ghp_", sess.Pending)
	assert.Empty(t, sess.Streams)

	// The next answer (after the tool ran) shows it first.
	show, changed, err = r.Next(&sess, Chunk{Stream: "b", Text: "Done."}, now)
	require.NoError(t, err)
	assert.Equal(t, "ghp_\nDone.", show)
	assert.True(t, changed)
	assert.Empty(t, sess.Pending)
}

func TestNextThoughtChunksAreNotReplaced(t *testing.T) {
	r, _ := newTestRedactor()
	var sess Session
	show, changed, err := r.Next(&sess, Chunk{Stream: "a", Text: ""}, time.Now())
	require.NoError(t, err)
	assert.Empty(t, show)
	assert.False(t, changed)
}

func TestNextUnchangedChunk(t *testing.T) {
	r, _ := newTestRedactor()
	var sess Session
	show, changed, err := r.Next(&sess, Chunk{Stream: "a", Text: "Plain words. "}, time.Now())
	require.NoError(t, err)
	assert.Equal(t, "Plain words. ", show)
	assert.False(t, changed)
}

func TestNextSplitSecretAcrossChunksAndAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	p := plant(rng, 0)
	r, _ := newTestRedactor()
	var sess Session
	now := time.Now()
	text := "Here: " + p.text + ". Bye."
	chunks := cut(rng, text, 6)
	var all strings.Builder
	for i, c := range chunks {
		show, _, err := r.Next(&sess, Chunk{Stream: "a", Text: c, Final: i == len(chunks)-1}, now)
		require.NoError(t, err)
		all.WriteString(show)
		assert.NotContains(t, all.String(), p.secret)
	}
	assert.Equal(t, "Here: my token [REDACTED:github-pat] works. Bye.", all.String())
	assert.Empty(t, sess.Streams, "a finished answer leaves nothing behind")

	// The last chunk of an answer is left alone when nothing in it is
	// redacted (it may carry a function call); what was held comes later.
	_, _, err := r.Next(&sess, Chunk{Stream: "c", Text: "look at gh"}, now)
	require.NoError(t, err)
	show, changed, err := r.Next(&sess, Chunk{Stream: "c", Text: "osts.", Final: true}, now)
	require.NoError(t, err)
	assert.Equal(t, "osts.", show)
	assert.False(t, changed)
	assert.Equal(t, "gh", sess.Pending)
	sess.Pending = ""

	// A later answer repeats the bare secret: the session remembers it.
	show, _, err = r.Next(&sess, Chunk{Stream: "b", Text: "again " + p.secret + ".", Final: true}, now)
	require.NoError(t, err)
	assert.Equal(t, "again [REDACTED:github-pat].", show)
}

func TestNextScannerError(t *testing.T) {
	r := &Redactor{Watch: prefilter.NewWatch(prefilter.BuiltinRules(), nil), Scanner: failingScanner{}}
	var sess Session
	now := time.Now()
	show, changed, err := r.Next(&sess, Chunk{Stream: "a", Text: "see ghp_"}, now)
	require.NoError(t, err, "no scan needed yet")
	assert.Equal(t, "see ", show)
	assert.True(t, changed)
	show, changed, err = r.Next(&sess, Chunk{Stream: "a", Text: "0123456789abcdefghijABCDEFGHIJ012345 ok"}, now)
	assert.ErrorIs(t, err, errScan)
	assert.Equal(t, "ghp_0123456789abcdefghijABCDEFGHIJ012345 ok", show, "what the user would have seen without the guard")
	assert.True(t, changed)
	assert.Empty(t, sess.Streams)
}

func TestNextNewAnswerOfSameStream(t *testing.T) {
	r, _ := newTestRedactor()
	var sess Session
	now := time.Now()
	_, _, err := r.Next(&sess, Chunk{Stream: "s", Text: "unfinished gh"}, now)
	require.NoError(t, err)
	show, _, err := r.Next(&sess, Chunk{Stream: "s", Text: "New answer.", New: true}, now)
	require.NoError(t, err)
	assert.Equal(t, "gh\nNew answer.", show)
}

func TestNextForgetsStaleStreams(t *testing.T) {
	r, _ := newTestRedactor()
	var sess Session
	now := time.Now()
	_, _, err := r.Next(&sess, Chunk{Stream: "old", Text: "cancelled gh"}, now)
	require.NoError(t, err)
	_, _, err = r.Next(&sess, Chunk{Stream: "new", Text: "x"}, now.Add(StaleStream+time.Second))
	require.NoError(t, err)
	assert.NotContains(t, sess.Streams, "old")
	assert.Contains(t, sess.Streams, "new")
}
