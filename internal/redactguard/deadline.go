package redactguard

import (
	"github.com/gemini-guard/gemini-guard/internal/hook"
)

// withheldChunk is the AfterModel answer when a chunk could not be checked
// in time (hook.RunWithin's late answer): the chunk is replaced by an empty
// text, so nothing unchecked is shown, and the user is told. A chunk
// without text (a function call, a thought) is passed on: replacing it
// would drop the call, and it shows nothing to hide. Whatever the session
// record held back is not shown either.
func withheldChunk(in hook.AfterModelInput, err error) hook.Output {
	c, simple, rerr := readChunk(in)
	if rerr != nil || c.Text == "" {
		return hook.Output{}
	}
	msg := "gemini-guard withheld part of the model's answer: it could not be checked for secrets (" + err.Error() + "). Ask the model to repeat it if you need it."
	empty := ""
	if simple {
		return hook.Output{Decision: "allow", Content: &empty, SystemMessage: msg}
	}
	resp, rerr := replaceText(in.LLMResponse, empty)
	if rerr != nil {
		// readChunk decoded it, so this cannot happen; the simplified
		// answer still hides the text.
		return hook.Output{Decision: "allow", Content: &empty, SystemMessage: msg}
	}
	return hook.ReplaceChunk(resp, msg)
}
