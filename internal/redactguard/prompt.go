package redactguard

import (
	"fmt"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
)

// userPrompt answers Claude Code's UserPromptSubmit: a prompt that holds a
// secret is not sent to the model. Claude Code's hook cannot change the
// prompt, only block it, so the user is told to send it again without the
// secret. The reason names the rules, never the secret. A prompt that
// cannot be scanned is blocked (the scan's error makes the call's
// fail-safe, hook.FailSafe's UserPrompt case).
func userPrompt(in hook.UserPromptInput, e Env) (hook.Output, error) {
	call := hookcall.Load(e.Getenv, hook.UserPrompt, "redact", in.Base)
	s := call.Settings
	if !s.RedactModelRequest || strings.TrimSpace(in.Prompt) == "" {
		return hook.Output{}, nil
	}
	r, _ := newRedactor(s, in.Cwd, in.SessionID, e)
	red, err := r.Text(in.Prompt)
	if err != nil {
		return hook.Output{}, err
	}
	if red.Secrets == 0 {
		return hook.Output{}, nil
	}
	rules := ruleNames(red)
	what := fmt.Sprintf("%d secret(s)", red.Secrets)
	if len(rules) > 0 {
		what += " (" + strings.Join(rules, ", ") + ")"
	}
	if call.WarnOnly() {
		return hook.Allow("gemini-guard would have kept this prompt from the model: it holds " + what + " (warn mode)."), nil
	}
	entry := call.Entry("")
	entry.Rules, entry.Decision = append(rules, "secrets.prompt"), "deny"
	call.Record(entry)
	return hook.Deny("gemini-guard did not send this prompt to the model (secrets.prompt): it holds "+what+
		", and Claude Code cannot remove a secret from a prompt. Send it again without the secret: name the variable or file that holds it instead.",
		"gemini-guard kept a prompt holding "+what+" from the model."), nil
}
