package secretguard

import (
	"fmt"

	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// saferOutbound tells the agent what to do instead of sending a secret
// through a web, search or MCP tool.
const saferOutbound = "never put a credential in a URL, query, header or tool argument: ask the user to configure the " +
	"tool or server with it (an environment variable, the MCP server's own settings) so that the value never passes " +
	"through the conversation; do not retry with the secret split, encoded or otherwise obfuscated"

// checkOutbound judges a call whose arguments may leave the machine (web
// fetch, web search, any MCP tool): every string in the arguments, keys
// included, is scanned and any secret denies the call, whatever the host.
// There is no redact action here: a rewritten URL or API call would do
// something else than asked.
func checkOutbound(call Call, env Env) (Decision, error) {
	if len(call.Input) == 0 || string(call.Input) == "null" {
		return Decision{}, nil // no arguments, nothing to carry
	}
	text, err := toolargs.Text(call.Input)
	if err != nil {
		return Decision{}, &InputError{"tool_input is not JSON: " + err.Error()}
	}
	var notes []string
	if len(text) > MaxScan {
		text = text[:MaxScan]
		notes = append(notes, fmt.Sprintf("gemini-guard scanned only the first %d MiB of this call's arguments.", MaxScan>>20))
	}
	sc := newConfigured(call, env)
	if !sc.mayFind(text) {
		return Decision{Verdict: verdict.Verdict{Notes: notes}}, nil
	}
	found, err := sc.scan(text)
	if err != nil {
		return Decision{}, err
	}
	notes = append(notes, sc.notes...)
	if len(found) == 0 {
		return Decision{Verdict: verdict.Verdict{Notes: notes}}, nil
	}
	return blockDecision(call.Tool, "", found, text, notes), nil
}
