package secretguard

import (
	"github.com/gemini-guard/gemini-guard/internal/toolargs"
	"github.com/gemini-guard/gemini-guard/internal/verdict"
)

// saferOutbound tells the agent what to do instead of sending a secret
// through a web, search or MCP tool.
const saferOutbound = "never put a credential in a URL, query, header or tool argument: ask the user to configure the " +
	"tool or server with it (an environment variable, the MCP server's own settings) so that the value never passes " +
	"through the conversation; do not retry with the secret split, encoded or otherwise obfuscated"

const saferKept = "remember or note where the credential lives (the environment variable's or the secret manager entry's name), " +
	"never its value; do not retry with the secret split, encoded or otherwise obfuscated"

// checkOutbound judges a call whose arguments may leave the machine (web
// fetch, web search, any MCP tool): every string in the arguments, keys
// included, is scanned and any secret denies the call, whatever the host.
// There is no redact action here: a rewritten URL or API call would do
// something else than asked.
func checkOutbound(call Call, env Env) (Decision, error) {
	if len(call.Input) == 0 || string(call.Input) == "null" {
		return Decision{}, nil // no arguments, nothing to carry
	}
	if c, ok := toolargs.FileCommand(call.Tool, call.Input); ok {
		// An MCP tool that writes a named file: the protected-path table
		// judges it as the shell command that does the same.
		if why, safer := protectedCommand(env, call.Cwd, analyze(env, call.Cwd, "", c)); why != "" {
			return protectedDecision(call.Tool, "", why, safer), nil
		}
	}
	text, err := toolargs.Text(call.Input)
	if err != nil {
		return Decision{}, &InputError{"tool_input is not JSON: " + err.Error()}
	}
	if len(text) > MaxScan {
		return tooLarge("the text of this call's arguments", len(text)), nil
	}
	found, text, notes, err := scanShort(call, env, text)
	if err != nil || len(found) == 0 {
		return Decision{Verdict: verdict.Verdict{Notes: notes}}, err
	}
	return blockDecision(call.Tool, call.shown(), "", found, text, notes), nil
}
