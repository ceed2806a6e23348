package redactguard

import (
	"encoding/json"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/redact"
)

// maxChunkText is the longest chunk text the AfterModel hook checks; a
// longer one is withheld at once (withheld). Gemini CLI streams chunks of a
// few hundred bytes to a few KB. Checking cost grows faster than the text
// where it is dense with keys (a dense 256 KB took ~1.5 s of a 4 s deadline
// on a loaded 2-core machine), and a chunk whose check cannot finish would
// only reach the same answer at the deadline, having spent it.
const maxChunkText = 256 << 10

// maxEcho is the largest llm_response the withheld answer echoes whole
// (replaceText keeps its safety ratings and usage): echoing means decoding
// and encoding it again, which for megabytes costs the late answer time
// it may not have. A larger one is answered with only its finishReason
// kept.
const maxEcho = 1 << 20

// withheldChunk is the AfterModel answer when a chunk could not be checked
// in time (hook.RunWithin's late answer): the chunk is replaced by an empty
// text, so nothing unchecked is shown, and the user is told. A chunk
// without text (a function call, a thought) is passed on: replacing it
// would drop the call, and it shows nothing to hide. A chunk the hook
// cannot read is withheld with a notice (hook.FailSafe). Whatever the
// session record held back is not shown either.
func withheldChunk(in hook.AfterModelInput, err error) hook.Output {
	c, simple, rerr := readChunk(in)
	if rerr != nil {
		return hook.FailSafe(hook.AfterModel, err)
	}
	return withheld(in, c, simple, "gemini-guard withheld part of the model's answer: it could not be checked for secrets ("+err.Error()+"). Ask the model to repeat it if you need it.")
}

// withheld is the answer that shows nothing of chunk c (read from in) and
// tells the user msg; a chunk without text is passed on.
func withheld(in hook.AfterModelInput, c redact.Chunk, simple bool, msg string) hook.Output {
	if c.Text == "" {
		return hook.Output{}
	}
	empty := ""
	if simple {
		return hook.Output{Decision: "allow", Content: &empty, SystemMessage: msg}
	}
	if len(in.LLMResponse) > maxEcho {
		return hook.ReplaceChunk(emptyResponse(c.Final), msg)
	}
	resp, rerr := replaceText(in.LLMResponse, empty)
	if rerr != nil {
		// readChunk decoded it, so this cannot happen; the simplified
		// answer still hides the text.
		return hook.Output{Decision: "allow", Content: &empty, SystemMessage: msg}
	}
	return hook.ReplaceChunk(resp, msg)
}

// emptyResponse is an llm_response with one empty text part, and the
// finishReason STOP when final (Gemini CLI ends the stream on it).
func emptyResponse(final bool) json.RawMessage {
	if final {
		return json.RawMessage(`{"text":"","candidates":[{"content":{"role":"model","parts":[""]},"finishReason":"STOP","index":0}]}`)
	}
	return json.RawMessage(`{"text":"","candidates":[{"content":{"role":"model","parts":[""]},"index":0}]}`)
}
