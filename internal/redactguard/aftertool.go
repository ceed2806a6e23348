package redactguard

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gemini-guard/gemini-guard/internal/hook"
	"github.com/gemini-guard/gemini-guard/internal/hookcall"
	"github.com/gemini-guard/gemini-guard/internal/provenance"
	"github.com/gemini-guard/gemini-guard/internal/redact"
	"github.com/gemini-guard/gemini-guard/internal/secrets"
	"github.com/gemini-guard/gemini-guard/internal/secrets/known"
	"github.com/gemini-guard/gemini-guard/internal/settings"
)

// MaxToolOutput bounds the tool output the hook scans and hands to the
// model in its reason. Larger output is redacted up to here and cut.
const MaxToolOutput = 8 << 20

// part is one element of llmContent when it is a list of parts.
type part struct {
	Text       *string `json:"text"`
	InlineData *struct {
		MIME string `json:"mimeType"`
	} `json:"inlineData"`
	FileData *struct {
		MIME string `json:"mimeType"`
	} `json:"fileData"`
}

// toolText reads llmContent, which Gemini CLI passes as a string, a list of
// parts or a single part. It returns the text pieces in order; a part
// without text (an image, a PDF) becomes a note of what it was.
func toolText(raw json.RawMessage) (pieces []string, isText []bool, err error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil, nil
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []string{s}, []bool{true}, nil
	}
	var parts []json.RawMessage
	if json.Unmarshal(raw, &parts) != nil {
		parts = []json.RawMessage{raw}
	}
	for _, p := range parts {
		var x part
		if err := json.Unmarshal(p, &x); err != nil {
			// A string inside the list, or something unknown.
			var s string
			if json.Unmarshal(p, &s) == nil {
				pieces, isText = append(pieces, s), append(isText, true)
				continue
			}
			return nil, nil, fmt.Errorf("llmContent has a part that is neither text nor an object")
		}
		switch {
		case x.Text != nil:
			pieces, isText = append(pieces, *x.Text), append(isText, true)
		case x.InlineData != nil:
			pieces, isText = append(pieces, "[non-text content ("+x.InlineData.MIME+") left out by gemini-guard]"), append(isText, false)
		case x.FileData != nil:
			pieces, isText = append(pieces, "[file ("+x.FileData.MIME+") left out by gemini-guard]"), append(isText, false)
		default:
			pieces, isText = append(pieces, "[a part gemini-guard could not read was left out]"), append(isText, false)
		}
	}
	return pieces, isText, nil
}

func afterTool(in hook.AfterToolInput, e Env) (hook.Output, error) {
	// The content the agent's call left in the files it touched, for
	// the shell guard to tell its own edits from the user's (nothing for
	// a tool that writes no file, one failed open when the session has no
	// record).
	_ = provenance.Left(provenance.DirBeside(e.StateDir), in.SessionID, provenance.CallOf(in.ToolName, in.ToolInput, in.Cwd))
	call := hookcall.Load(e.Getenv, hook.AfterTool, "redact", in.Base)
	s := call.Settings
	if !s.RedactToolOutput {
		return hook.Output{}, nil
	}
	pieces, isText, err := toolText(in.ToolResponse.LLMContent)
	if err != nil {
		return hook.Output{}, err
	}
	// A config that does not load: session-start tells the user about it.
	r, _ := newRedactor(s, in.Cwd, in.SessionID, e)
	total, cut, count := 0, false, 0
	var learn []known.Value
	var rules []string
	var out strings.Builder
	for i, p := range pieces {
		if !isText[i] {
			out.WriteString(p)
			continue
		}
		if total+len(p) > MaxToolOutput {
			p, cut = p[:max(0, MaxToolOutput-total)], true
		}
		total += len(p)
		red, err := r.Text(p)
		if err != nil {
			return hook.Output{}, err
		}
		out.WriteString(red.Text)
		count += red.Secrets
		learn = append(learn, learnable(red.Found, in.ToolName)...)
		if red.Secrets > 0 {
			for _, id := range ruleNames(red) {
				if !contains(rules, id) {
					rules = append(rules, id)
				}
			}
		}
		if cut {
			out.WriteString("\n[output cut at 8 MiB by gemini-guard]")
			break
		}
	}
	// Every secret a rule found is known by value for the rest of the
	// session (as keyed hashes): a later copy, split or re-encoded, is
	// caught where no rule would see it.
	_ = r.Known.Learn(learn)
	if len(rules) == 0 {
		return hook.Output{}, nil
	}
	what := fmt.Sprintf("%d secret(s) (%s) in the output of %s", count, strings.Join(rules, ", "), in.ToolName)
	if call.WarnOnly() {
		return hook.Allow("gemini-guard would have hidden " + what + " from the model (warn mode)."), nil
	}
	reason := "gemini-guard redacted " + what + " before it reached you. This is the tool's real output, not an error: " +
		"each secret is replaced by " + markerExample(s) + " and everything else is unchanged. " +
		"Do not try to read the secret another way; if the user needs it, they can look at it themselves.\n\n" + out.String()
	entry := call.Entry(in.ToolName)
	entry.Rules, entry.Decision = rules, "redact"
	call.Record(entry)
	return hook.Deny(reason, "gemini-guard hid "+what+" from the model."), nil
}

// learnable are the secrets rules found in a tool's output, as values to
// know for the rest of the session, each named by the tool and the rule.
func learnable(found []secrets.Finding, tool string) []known.Value {
	var out []known.Value
	for _, f := range found {
		if f.Secret != "" {
			out = append(out, known.Value{Source: tool + " output (" + f.RuleID + ")", Text: f.Secret})
		}
	}
	return out
}

// ruleNames are the rules of a redacted text, each known value named by
// its source (known-value: $INTERNAL_API_TOKEN), never by the value.
func ruleNames(red redact.Redacted) []string {
	var out []string
	for _, id := range red.Rules {
		if id != known.RuleID {
			out = append(out, id)
		}
	}
	for _, src := range red.Sources {
		out = append(out, known.RuleID+": "+src)
	}
	return out
}

func markerExample(s settings.Settings) string {
	if s.MarkerRule {
		return "[REDACTED:<rule>]"
	}
	return "[REDACTED]"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
